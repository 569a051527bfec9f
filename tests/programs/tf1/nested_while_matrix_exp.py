"""Nested tf.while_loop in a TF1 graph: the matrix exponential by scaling and squaring, where
an outer loop squares the result and the body of a Taylor-series loop accumulates terms
(a loop inside the first loop's initial value, another inside a loop body); gradients
through both loops w.r.t. the matrix are compared with tf.linalg.expm, and a generator
matrix is fitted so that exp(A) reaches a target rotation."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(73)
A0 = (0.3 * rs.normal(size=(3, 3))).astype(np.float32)
theta = 0.7
target = np.array(
    [[np.cos(theta), -np.sin(theta), 0.0], [np.sin(theta), np.cos(theta), 0.0], [0.0, 0.0, 1.0]],
    np.float32,
)


def taylor_exp(m, terms=12):
    def body(k, term, total):
        term = tf.matmul(term, m) / tf.cast(k, tf.float32)
        return k + 1, term, total + term

    eye = tf.eye(3)
    _, _, total = tf.while_loop(lambda k, *_: k <= terms, body, (tf.constant(1), eye, eye))
    return total


def expm_scaling_squaring(a, squarings=4):
    scaled = a / (2.0**squarings)

    def square(i, r):
        return i + 1, tf.matmul(r, r)

    _, result = tf.while_loop(
        lambda i, r: i < squarings, square, (tf.constant(0), taylor_exp(scaled))
    )
    return result


a = tf.Variable(A0)
ours = expm_scaling_squaring(a)
reference = tf.linalg.expm(a)
weights = tf.constant(rs.normal(size=(3, 3)).astype(np.float32))
g_ours = tf.gradients(tf.reduce_sum(ours * weights), a)[0]
g_ref = tf.gradients(tf.reduce_sum(reference * weights), a)[0]
loss = tf.reduce_sum(tf.square(ours - target))
train = tf.train.AdamOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, r = sess.run([ours, reference])
    print("max |ours - expm|", float(np.abs(o - r).max()) < 1e-5)
    go, gr = sess.run([g_ours, g_ref])
    print("gradient", np.round(go.astype(float), 4).tolist())
    print("gradients agree", float(np.abs(go - gr).max()) < 1e-4)
    for step in range(40):
        sess.run(train)
        loss_value = sess.run(loss)
        if step % 10 == 9:
            print(f"step {step} loss {loss_value:.6f}")
    fitted = sess.run(a)
    print("generator antisymmetric part", np.round(0.5 * (fitted - fitted.T)[0, 1], 4))
