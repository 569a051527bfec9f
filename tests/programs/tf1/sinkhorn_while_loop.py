"""Sinkhorn iterations written with tf.while_loop in a TF1 graph (log-domain, a fixed
number of iterations), the regularised transport cost differentiated through the loop
w.r.t. a learnable cost scale and the source points, trained with GradientDescentOptimizer."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(21)
src = tf.Variable(rng.randn(5, 2).astype(np.float32))
dst = tf.constant((rng.randn(4, 2) + [1.5, 0.5]).astype(np.float32))
log_a = tf.fill([5], np.log(1.0 / 5).astype(np.float32))
log_b = tf.fill([4], np.log(1.0 / 4).astype(np.float32))
eps = 0.3
cost = tf.reduce_sum(tf.square(src[:, None, :] - dst[None, :, :]), axis=-1)


def body(i, f, g):
    f = -eps * tf.reduce_logsumexp((g[None, :] - cost) / eps + log_b[None, :], axis=1)
    g = -eps * tf.reduce_logsumexp((f[:, None] - cost) / eps + log_a[:, None], axis=0)
    return i + 1, f, g


_, f, g = tf.while_loop(
    lambda i, f, g: i < 25, body, [tf.constant(0), tf.zeros([5]), tf.zeros([4])]
)
plan = tf.exp((f[:, None] + g[None, :] - cost) / eps + log_a[:, None] + log_b[None, :])
ot = tf.reduce_sum(plan * cost)
grad = tf.gradients(ot, src)[0]
train = tf.train.GradientDescentOptimizer(0.3).minimize(ot)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(
        "marginals",
        np.round(sess.run(tf.reduce_sum(plan, 1)), 4),
        np.round(sess.run(tf.reduce_sum(plan, 0)), 4),
    )
    print("grad row 0", np.round(sess.run(grad)[0], 5))
    for step in range(5):
        _, c = sess.run([train, ot])
        print(f"step {step} cost {c:.5f}")
    print("src mean", np.round(sess.run(tf.reduce_mean(src, 0)), 4))
