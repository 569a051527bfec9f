"""Hessians by nested tf.gradients: the Hessian of a scalar function of a vector row by row
(gradient of each gradient component), a Hessian-vector product, and Newton steps solving
for the minimum with the Hessian built that way."""

import numpy as np
import tensorflow as tf

A = np.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.5]])
b = np.array([1.0, -2.0, 0.5])

x = tf.placeholder(tf.float64, [3])
v = tf.constant([1.0, 0.5, -1.0], tf.float64)
f = (
    0.5 * tf.reduce_sum(x * tf.linalg.matvec(A, x))
    - tf.reduce_sum(b * x)
    + 0.1 * tf.reduce_sum(x**4)
)
grad = tf.gradients(f, x)[0]
rows = [tf.gradients(grad[i], x)[0] for i in range(3)]
hessian = tf.stack(rows)
hvp = tf.gradients(tf.reduce_sum(grad * v), x)[0]
third = tf.gradients(tf.reduce_sum(hvp * v), x)[0]

with tf.Session() as sess:
    point = np.array([0.5, -1.0, 2.0])
    print("f", sess.run(f, {x: point}))
    print("grad", sess.run(grad, {x: point}))
    print("hessian", sess.run(hessian, {x: point}))
    print("hvp", sess.run(hvp, {x: point}))
    print("third", sess.run(third, {x: point}))
    for step in range(4):
        gv, hv = sess.run([grad, hessian], {x: point})
        point = point - np.linalg.solve(hv, gv)
        print("newton", step, point, sess.run(f, {x: point}))
