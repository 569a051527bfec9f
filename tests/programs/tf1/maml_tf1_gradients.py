"""MAML in a TF1 graph: the inner SGD step's gradient comes from tf.gradients, the fast
weights are a function of it, and the meta-gradient differentiates through that (second
order); meta-trained with AdamOptimizer over linear-regression tasks fed by placeholders."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(9)
xs = tf.placeholder(tf.float32, [None, 2])
ys = tf.placeholder(tf.float32, [None, 1])
xq = tf.placeholder(tf.float32, [None, 2])
yq = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(rng.randn(2, 8).astype(np.float32) * 0.5)
v = tf.Variable(rng.randn(8, 1).astype(np.float32) * 0.5)


def net(x, w, v):
    return tf.matmul(tf.nn.softplus(tf.matmul(x, w)), v)


support = tf.reduce_mean(tf.square(net(xs, w, v) - ys))
gw, gv = tf.gradients(support, [w, v])
fast_w, fast_v = w - 0.1 * gw, v - 0.1 * gv
query = tf.reduce_mean(tf.square(net(xq, fast_w, fast_v) - yq))
first_order = tf.gradients(query, [w, v], stop_gradients=[gw, gv])
meta_step = tf.train.AdamOptimizer(0.02).minimize(query)


def task():
    slope = rng.randn(2, 1).astype(np.float32)
    x = rng.randn(10, 2).astype(np.float32)
    return {xs: x[:5], ys: x[:5] @ slope, xq: x[5:], yq: x[5:] @ slope}


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = task()
    full = sess.run(tf.gradients(query, v)[0], feed)
    approx = sess.run(first_order[1], feed)
    print("second-order dv", np.round(full.ravel()[:4], 5))
    print("first-order dv ", np.round(approx.ravel()[:4], 5))
    for it in range(6):
        feed = task()
        before, _ = sess.run([query, meta_step], feed)
        after_inner = sess.run(support, feed)
        print(f"iter {it} query {before:.5f} support {after_inner:.5f}")
