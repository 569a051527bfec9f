"""tf.while_loop under tf.function in TF2: a damped fixed-point iteration and a cumulative
product loop with a TensorArray, both differentiated with GradientTape through the loop."""

import numpy as np
import tensorflow as tf

a = tf.Variable(np.array([0.5, 1.2, -0.7], dtype="float32"))
b = tf.Variable(np.array([0.3, -0.1, 0.8], dtype="float32"))


@tf.function
def fixed_point(n):
    def body(i, z):
        return i + 1, 0.5 * z + 0.5 * tf.tanh(a * z + b)

    with tf.GradientTape() as tape:
        _, z = tf.while_loop(lambda i, z: i < n, body, [tf.constant(0), tf.zeros(3)])
        loss = tf.reduce_sum(z * z)
    return z, loss, tape.gradient(loss, [a, b])


@tf.function
def cumulative(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=4)

        def body(i, prod, ta):
            prod = prod * (1.0 + x * tf.cast(i + 1, tf.float32) / 4.0)
            return i + 1, prod, ta.write(i, prod)

        _, _, ta = tf.while_loop(lambda i, p, t: i < 4, body, [0, tf.ones_like(x), ta])
        out = ta.stack()
        total = tf.reduce_sum(out)
    return out, tape.gradient(total, x)


z, loss, (ga, gb) = fixed_point(tf.constant(12))
print("z", np.round(z.numpy(), 6))
print("loss", f"{float(loss):.6f}")
print("grad a", np.round(ga.numpy(), 6), "grad b", np.round(gb.numpy(), 6))
out, gx = cumulative(tf.constant([0.2, -0.4]))
print("stack", np.round(out.numpy().ravel(), 6))
print("grad x", np.round(gx.numpy(), 6))
