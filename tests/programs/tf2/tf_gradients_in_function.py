"""tf.gradients inside a tf.function (graph mode in TF2): partial derivatives with
stop_gradients, weighted outputs with grad_ys, and a Jacobian-vector product by the
double-gradient trick, compared with GradientTape and ForwardAccumulator results."""

import numpy as np
import tensorflow as tf


@tf.function
def partials(x, y):
    u = x * y
    f = tf.sin(u) + u * x
    return tf.gradients(f, [x, y]), tf.gradients(f, x, stop_gradients=[u])[0]


@tf.function
def weighted(x, w):
    outs = [tf.square(x), tf.exp(x)]
    return tf.gradients(outs, x, grad_ys=[w, 2.0 * w])[0]


@tf.function
def jvp_double_grad(x, v):
    y = tf.tanh(tf.stack([x[0] * x[1], x[1] ** 2, x[0] - x[2]]))
    dummy = tf.ones_like(y)
    g = tf.gradients(y, x, grad_ys=dummy)[0]
    return y, tf.gradients(g, dummy, grad_ys=v)[0]


x = tf.constant([0.3, -1.2, 0.7])
y = tf.constant([1.1, 0.4, -0.5])
(gx, gy), partial = partials(x, y)
print("df/dx", np.round(gx.numpy(), 5))
print("df/dy", np.round(gy.numpy(), 5))
print("partial df/dx with u fixed", np.round(partial.numpy(), 5))
print("weighted", np.round(weighted(x, tf.constant([1.0, 0.5, -1.0])).numpy(), 5))
v = tf.constant([1.0, 0.0, -2.0])
_, jvp = jvp_double_grad(x, v)
with tf.autodiff.ForwardAccumulator(x, v) as acc:
    out = tf.tanh(tf.stack([x[0] * x[1], x[1] ** 2, x[0] - x[2]]))
print("jvp double-grad", np.round(jvp.numpy(), 5))
print("jvp forward    ", np.round(acc.jvp(out).numpy(), 5))
try:
    tf.gradients(tf.square(x), x)
except RuntimeError as e:
    print("eager tf.gradients:", type(e).__name__)
