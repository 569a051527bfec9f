"""tf.gradients beyond the basics in a TF1 graph: stop_gradients (the total vs partial
derivative of a = x^2, b = a + x, c = a * b), grad_ys weighting several outputs, unconnected
inputs as None or zeros, and aggregation of gradients over a list of ys."""

import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float64, [3], name="x")
a = tf.square(x)
b = a + 2.0 * x
c = a * b

total = tf.gradients(c, x)[0]
partial = tf.gradients(c, x, stop_gradients=[a])[0]
both = tf.gradients(c, [x, a], stop_gradients=[a])
weighted = tf.gradients(
    [a, b], x, grad_ys=[tf.constant([1.0, 0.0, 2.0], tf.float64), tf.ones([3], tf.float64)]
)[0]
summed = tf.gradients([a, b], x)[0]
z = tf.placeholder(tf.float64, [3], name="z")
none_grad = tf.gradients(c, [x, z])
zero_grad = tf.gradients(c, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)[1]
second = tf.gradients(tf.gradients(tf.reduce_sum(c), x)[0], x)[0]

print("unconnected", none_grad[1])
with tf.Session() as sess:
    feed = {x: np.array([1.0, -0.5, 2.0]), z: np.zeros(3)}
    for name, t in [
        ("total", total),
        ("partial", partial),
        ("wrt a", both[1]),
        ("grad_ys", weighted),
        ("summed", summed),
        ("zeros", zero_grad),
        ("second", second),
    ]:
        print(name, np.round(sess.run(t, feed), 5))
