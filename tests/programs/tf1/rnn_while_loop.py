"""A vanilla RNN unrolled by tf.while_loop over time, its loss differentiated through the
loop (backpropagation through time) and trained with gradient descent."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(8)
T, B, H = 6, 2, 3
inputs = rng.randn(T, B, 2).astype(np.float32)
targets = rng.randn(B, H).astype(np.float32)

xs = tf.placeholder(tf.float32, [T, None, 2])
w_x = tf.Variable((rng.randn(2, H) * 0.5).astype(np.float32), name="w_x")
w_h = tf.Variable((rng.randn(H, H) * 0.5).astype(np.float32), name="w_h")


def body(t, h):
    return t + 1, tf.tanh(tf.matmul(xs[t], w_x) + tf.matmul(h, w_h))


h0 = tf.zeros([tf.shape(xs)[1], H])
_, h_final = tf.while_loop(lambda t, h: t < T, body, [tf.constant(0), h0])
loss = tf.reduce_mean(tf.square(h_final - targets))
g_x, g_h = tf.gradients(loss, [w_x, w_h])
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {xs: inputs}
    print("h_final", sess.run(h_final, feed).ravel())
    print("grad w_x", sess.run(g_x, feed).ravel())
    print("grad w_h", sess.run(g_h, feed).ravel())
    for _ in range(10):
        _, lv = sess.run([train, loss], feed)
    print("loss after 10 steps", lv, sess.run(loss, feed))
