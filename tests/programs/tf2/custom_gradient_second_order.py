"""tf.custom_gradient functions differentiated twice: a softplus whose gradient function is
written with differentiable TensorFlow ops (so nested tapes give its second derivative), a
gradient-clipping identity under tape.stop_recording, and a Newton step on a scalar loss
built from them, checked against the analytic derivatives."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def softplus(x):
    def grad(dy):
        return dy * tf.sigmoid(x)

    return tf.math.log1p(tf.exp(x)), grad


@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)

    return tf.identity(x), grad


x = tf.constant([-1.0, 0.0, 0.5, 2.0], tf.float64)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.reduce_sum(softplus(x))
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
s = 1 / (1 + np.exp(-x.numpy()))
print("first", np.round(dy.numpy(), 6), np.allclose(dy, s))
print("second", np.round(d2y.numpy(), 6), np.allclose(d2y, s * (1 - s)))

with tf.GradientTape() as tape:
    tape.watch(x)
    z = clip_grad(3.0 * x)
    with tape.stop_recording():
        ignored = tf.reduce_sum(z * 100.0)
    loss = tf.reduce_sum(tf.square(z))
g = tape.gradient(loss, x)
print("clipped", np.round(g.numpy(), 6), "norm/3", round(float(tf.norm(g)) / 3, 6), float(ignored))

w = tf.Variable(1.5, dtype=tf.float64)
for step in range(4):
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = softplus(w - 1.0) + 0.5 * tf.square(w) - 0.3 * w
        g = t1.gradient(loss, w)
    h = t2.gradient(g, w)
    w.assign_sub(g / h)
    print(f"newton {step} loss {float(loss):.8f} grad {float(g):.2e} w {float(w):.6f}")
