"""Learning-rate schedules of TF1's tf.train driven by the global step: SGDR's
cosine_decay_restarts feeding a Momentum optimizer, printed beside cosine_decay,
linear_cosine_decay, natural_exp_decay and piecewise_constant_decay at the same steps."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(9)
X = rng.randn(30, 2).astype(np.float32)
Y = np.sin(X[:, :1]) + 0.5 * X[:, 1:]

step = tf.train.get_or_create_global_step()
lr = tf.train.cosine_decay_restarts(0.1, step, first_decay_steps=5, t_mul=2.0, m_mul=0.8, alpha=0.1)
others = [
    tf.train.cosine_decay(0.1, step, 20, alpha=0.05),
    tf.train.linear_cosine_decay(0.1, step, 20, num_periods=1.0),
    tf.train.natural_exp_decay(0.1, step, 4, 0.3, staircase=True),
    tf.train.piecewise_constant_decay(step, [5, 12], [0.1, 0.05, 0.01]),
]
w = tf.get_variable("w", initializer=np.array([[0.2], [0.1]], np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), w) - Y))
train = tf.train.MomentumOptimizer(lr, 0.5).minimize(loss, global_step=step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(20):
        rate, _ = sess.run([lr, train])
        if i % 3 == 0:
            print("step", i, "lr", rate, "others", sess.run(others)[:2], "loss", sess.run(loss))
    print("final step", sess.run(step), "w", sess.run(w).ravel())
