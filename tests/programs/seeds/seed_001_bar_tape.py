# Seed 001's two-input example as printed (no tape.watch: constants are not watched, so
# TensorFlow gives None where the page shows 3.0 and 2.0); the REPL's displayed lines are printed.
import tensorflow as tf


@tf.custom_gradient
def bar(x, y):
  def grad(upstream):
    dz_dx = y
    dz_dy = x
    return upstream * dz_dx, upstream * dz_dy
  z = x * y
  return z, grad
x = tf.constant(2.0, dtype=tf.float32)
y = tf.constant(3.0, dtype=tf.float32)
with tf.GradientTape(persistent=True) as tape:
  z = bar(x, y)
print(z)
print(tape.gradient(z, x))
print(tape.gradient(z, y))
