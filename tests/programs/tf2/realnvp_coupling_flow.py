"""A RealNVP normalising flow on 2-D data: affine coupling layers (a Keras layer whose scale
and shift nets see one half and transform the other, the log-determinant the sum of the
log-scales), alternating masks, a standard-normal base, trained by maximum likelihood;
the inverse is checked and samples drawn from fixed base noise."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(4)
angles = rs.uniform(0, np.pi, 96)
data = np.stack([np.cos(angles), np.sin(angles) - 0.3], 1).astype("float32")
data += 0.05 * rs.normal(size=data.shape).astype("float32")
base_noise = rs.normal(size=(6, 2)).astype("float32")


class AffineCoupling(tf.keras.layers.Layer):
    def __init__(self, flip, **kwargs):
        super().__init__(**kwargs)
        self.flip = flip
        self.hidden = tf.keras.layers.Dense(16, activation="tanh")
        self.scale = tf.keras.layers.Dense(1, activation="tanh")
        self.shift = tf.keras.layers.Dense(1)

    def _split(self, x):
        a, b = x[:, :1], x[:, 1:]
        return (b, a) if self.flip else (a, b)

    def _join(self, a, b):
        return tf.concat([b, a] if self.flip else [a, b], axis=1)

    def call(self, x):
        a, b = self._split(x)
        h = self.hidden(a)
        log_s = self.scale(h)
        b = b * tf.exp(log_s) + self.shift(h)
        return self._join(a, b), tf.reduce_sum(log_s, axis=1)

    def inverse(self, y):
        a, b = self._split(y)
        h = self.hidden(a)
        b = (b - self.shift(h)) * tf.exp(-self.scale(h))
        return self._join(a, b)


flow = [AffineCoupling(flip=i % 2 == 1) for i in range(4)]
for layer in flow:
    layer(tf.zeros((1, 2)))
    layer.set_weights([rs.normal(scale=0.3, size=w.shape).astype("float32") for w in layer.weights])
variables = [v for layer in flow for v in layer.trainable_variables]


def log_prob(x):
    log_det = tf.zeros(tf.shape(x)[0])
    for layer in flow:
        x, ld = layer(x)
        log_det += ld
    base = -0.5 * tf.reduce_sum(x**2, axis=1) - np.log(2 * np.pi)
    return base + log_det, x


optimizer = tf.keras.optimizers.Adam(0.01)
for epoch in range(5):
    for start in range(0, 96, 32):
        with tf.GradientTape() as tape:
            lp, _ = log_prob(data[start : start + 32])
            nll = -tf.reduce_mean(lp)
        optimizer.apply_gradients(zip(tape.gradient(nll, variables), variables))
    print(f"epoch {epoch} nll {float(-tf.reduce_mean(log_prob(data)[0])):.5f}")

_, z = log_prob(data[:4])
x_back = z
for layer in reversed(flow):
    x_back = layer.inverse(x_back)
print("inverse error", float(tf.reduce_max(tf.abs(x_back - data[:4]))) < 1e-5)
samples = tf.constant(base_noise)
for layer in reversed(flow):
    samples = layer.inverse(samples)
print("samples", np.round(samples.numpy().astype("float64"), 4).tolist())
