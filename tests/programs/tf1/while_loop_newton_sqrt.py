"""Differentiating through tf.while_loop: Newton's iteration for sqrt(v) and a discounted
recurrence, unrolled by tf.while_loop with a tensor-dependent stopping rule; gradients
w.r.t. the inputs and a variable, and a GradientDescentOptimizer fit through the loop."""

import numpy as np
import tensorflow as tf

v = tf.placeholder(tf.float32, [4])


def newton_sqrt(v):
    def cond(i, s):
        return tf.logical_and(i < 20, tf.reduce_max(tf.abs(s * s - v)) > 1e-6)

    def body(i, s):
        return i + 1, 0.5 * (s + v / s)

    return tf.while_loop(cond, body, [tf.constant(0), tf.ones_like(v)])


iters, root = newton_sqrt(v)
d_root = tf.gradients(tf.reduce_sum(root), v)[0]

gamma = tf.Variable(0.5)
rewards = tf.constant([1.0, 0.0, 2.0, -1.0, 0.5])


def body(t, acc):
    return t + 1, acc * gamma + rewards[t]


_, ret = tf.while_loop(lambda t, acc: t < 5, body, [tf.constant(0), tf.constant(0.0)])
loss = tf.square(ret - 2.0)
d_gamma = tf.gradients(ret, gamma)[0]
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {v: np.array([4.0, 2.0, 9.0, 0.25], np.float32)}
    n, r, g = sess.run([iters, root, d_root], feed)
    print("iterations", n)
    print("sqrt", np.round(r, 5))
    print("d sqrt / dv", np.round(g, 5))
    print("return", round(float(sess.run(ret)), 5), "d/dgamma", round(float(sess.run(d_gamma)), 5))
    for step in range(5):
        _, loss_value = sess.run([train, loss])
        print(
            "step",
            step,
            "loss",
            round(float(loss_value), 5),
            "gamma",
            round(float(sess.run(gamma)), 5),
        )
