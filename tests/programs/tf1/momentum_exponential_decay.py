"""A layers-free two-layer MLP in a TF1 graph trained with MomentumOptimizer (Nesterov) and
an exponential_decay learning rate stepped by the global step."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(12)
data_x = rng.randn(32, 4).astype(np.float32)
data_y = (np.sin(data_x[:, :1]) + 0.5 * data_x[:, 1:2]).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
w1 = tf.Variable((rng.randn(4, 8) * 0.5).astype(np.float32))
b1 = tf.Variable(np.zeros(8, np.float32))
w2 = tf.Variable((rng.randn(8, 1) * 0.5).astype(np.float32))
b2 = tf.Variable(np.zeros(1, np.float32))
hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
pred = tf.matmul(hidden, w2) + b2
loss = tf.reduce_mean(tf.square(pred - y))

global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.1, global_step, decay_steps=4, decay_rate=0.5, staircase=True)
opt = tf.train.MomentumOptimizer(lr, momentum=0.9, use_nesterov=True)
train = opt.minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(10):
        batch = slice(8 * (i % 4), 8 * (i % 4) + 8)
        _, lv, rate = sess.run([train, loss, lr], {x: data_x[batch], y: data_y[batch]})
        print(i, f"{lv:.6f}", f"{rate:.5f}")
    print("global step", sess.run(global_step))
    print("full loss", f"{sess.run(loss, {x: data_x, y: data_y}):.6f}")
    print("momentum slot", np.round(sess.run(opt.get_slot(w2, "momentum")).ravel(), 5))
