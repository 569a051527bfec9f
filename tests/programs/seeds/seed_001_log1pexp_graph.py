# Seed 001's tf.gradients snippets as printed (a TF1 program: run with --tf1); the lines
# after "# Evaluated:" evaluate what the seed says ("NaN when evaluated", "1.0").
import tensorflow as tf


def log1pexp(x):
  return tf.math.log(1 + tf.exp(x))

x = tf.constant(100.)
y = log1pexp(x)
dy = tf.gradients(y, x) # Will be NaN when evaluated.

# Evaluated:
with tf.Session() as sess:
    print('naive:', sess.run(dy[0]))


@tf.custom_gradient
def log1pexp(x):
  e = tf.exp(x)
  def grad(dy):
    return dy * (1 - 1 / (1 + e))
  return tf.math.log(1 + e), grad

y = log1pexp(x)
dy = tf.gradients(y, x)

# Evaluated:
with tf.Session() as sess:
    print('stable:', sess.run(dy[0]))
