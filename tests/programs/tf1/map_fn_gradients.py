"""tf.map_fn over the rows of a batch (a per-row quadratic form through a shared matrix),
tf.gradients of its sum with respect to the matrix and the inputs, and a few steps of
gradient descent on the matrix."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(3)
rows = rng.randn(5, 3).astype(np.float32)
targets = rng.randn(5).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
t = tf.placeholder(tf.float32, [None])
m = tf.Variable((rng.randn(3, 3) * 0.4).astype(np.float32))


def row_value(r):
    v = tf.tanh(tf.linalg.matvec(m, r))
    return tf.reduce_sum(v * r), tf.reduce_max(v)


values, peaks = tf.map_fn(row_value, x, dtype=(tf.float32, tf.float32))
loss = tf.reduce_mean(tf.square(values - t)) + 0.1 * tf.reduce_sum(peaks)
g_m, g_x = tf.gradients(loss, [m, x])
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: rows, t: targets}
    print("values", np.round(sess.run(values, feed), 5))
    print("grad m", np.round(sess.run(g_m, feed).ravel(), 5))
    print("grad x", np.round(sess.run(g_x, feed)[0], 5))
    for i in range(5):
        _, lv = sess.run([train, loss], feed)
        print(i, f"{lv:.6f}")
