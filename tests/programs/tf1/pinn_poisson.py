"""A physics-informed network for u''(x) = -pi^2 sin(pi x) on [0, 1] with u(0) = u(1) = 0:
the PDE residual by nested tf.gradients, trained with train.AdamOptimizer."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

rng = np.random.RandomState(3)
W1, b1 = rng.randn(1, 8).astype(np.float32), np.zeros(8, np.float32)
W2, b2 = (rng.randn(8, 1) * 0.3).astype(np.float32), np.zeros(1, np.float32)

x = tf.placeholder(tf.float32, [None, 1], name="x")
x_bc = tf.constant([[0.0], [1.0]])
w1, c1 = tf.Variable(W1, name="w1"), tf.Variable(b1, name="b1")
w2, c2 = tf.Variable(W2, name="w2"), tf.Variable(b2, name="b2")


def net(t):
    return tf.matmul(tf.tanh(tf.matmul(t, w1) + c1), w2) + c2


u = net(x)
u_x = tf.gradients(u, x)[0]
u_xx = tf.gradients(u_x, x)[0]
residual = u_xx + np.pi**2 * tf.sin(np.pi * x)
loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(net(x_bc)))
step = tf.train.get_or_create_global_step()
train = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=step)
points = np.linspace(0.0, 1.0, 11, dtype=np.float32)[:, None]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("initial loss", sess.run(loss, {x: points}))
    for i in range(40):
        _, lv = sess.run([train, loss], {x: points})
        if i % 10 == 9:
            print("step", sess.run(step), "loss", lv)
    print("u", sess.run(u, {x: points}).ravel())
    print("u_xx", sess.run(u_xx, {x: points[:4]}).ravel())
