"""Gaussian-process regression: an RBF kernel's log length-scale, log signal and log noise
in a tf.Module, the negative log marginal likelihood through a Cholesky factor
(triangular_solve, log-determinant from the diagonal), fitted by gradient descent with momentum in float64, then the
posterior mean at new points."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(8)
x = np.sort(rng.uniform(-3, 3, size=(15, 1)), axis=0)
y = np.sin(x[:, 0]) + 0.1 * rng.normal(size=15)


class GP(tf.Module):
    def __init__(self):
        self.log_length = tf.Variable(0.0, dtype=tf.float64)
        self.log_signal = tf.Variable(0.0, dtype=tf.float64)
        self.log_noise = tf.Variable(-1.0, dtype=tf.float64)

    def kernel(self, a, b):
        d2 = tf.reduce_sum(tf.square(a[:, None, :] - b[None, :, :]), axis=-1)
        return tf.exp(2.0 * self.log_signal) * tf.exp(-0.5 * d2 / tf.exp(2.0 * self.log_length))

    def nll(self, x, y):
        k = self.kernel(x, x) + tf.exp(2.0 * self.log_noise) * tf.eye(15, dtype=tf.float64)
        chol = tf.linalg.cholesky(k)
        alpha = tf.linalg.triangular_solve(chol, y[:, None], lower=True)
        logdet = 2.0 * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)))
        return 0.5 * tf.reduce_sum(tf.square(alpha)) + 0.5 * logdet + 7.5 * np.log(2 * np.pi)

    def predict(self, x, y, new):
        k = self.kernel(x, x) + tf.exp(2.0 * self.log_noise) * tf.eye(15, dtype=tf.float64)
        return tf.linalg.matvec(self.kernel(new, x), tf.linalg.solve(k, y[:, None])[:, 0])


gp = GP()
velocity = [tf.zeros((), tf.float64)] * 3
for i in range(30):
    with tf.GradientTape() as tape:
        loss = gp.nll(x, y)
    grads = tape.gradient(loss, gp.trainable_variables)
    for k, (g, v) in enumerate(zip(grads, gp.trainable_variables)):
        velocity[k] = 0.8 * velocity[k] - 0.01 * g
        v.assign_add(velocity[k])
    if i % 10 == 0:
        print(i, f"{float(loss):.6f}", " ".join(f"{float(g):.5f}" for g in grads))
print("nll", f"{float(gp.nll(x, y)):.6f}")
print("params", " ".join(f"{float(v):.5f}" for v in gp.trainable_variables))
print("mean", np.round(gp.predict(x, y, np.array([[-1.0], [0.5], [2.0]])).numpy(), 5))
