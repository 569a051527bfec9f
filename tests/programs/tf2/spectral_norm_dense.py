"""A Dense layer with spectral normalisation: one step of power iteration per training call
updates a non-trainable vector u (assigned in call), the kernel is divided by its estimated
top singular value, and the estimate's gradient flows only through the kernel (u, v held
constant with tf.stop_gradient). Trained with fit; sigma is compared with the SVD."""

import numpy as np
import tensorflow as tf


class SNDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        rng = np.random.default_rng(0)
        k = rng.normal(scale=0.8, size=(input_shape[-1], self.units)).astype("float32")
        self.kernel = self.add_weight(
            shape=k.shape, initializer=tf.keras.initializers.Constant(k), name="kernel"
        )
        u0 = rng.normal(size=(1, self.units)).astype("float32")
        self.u = self.add_weight(
            shape=(1, self.units),
            initializer=tf.keras.initializers.Constant(u0),
            trainable=False,
            name="u",
        )

    def sigma(self, training):
        u = self.u
        v = tf.math.l2_normalize(tf.matmul(u, self.kernel, transpose_b=True))
        u_new = tf.math.l2_normalize(tf.matmul(v, self.kernel))
        if training:
            self.u.assign(u_new)
        u_new, v = tf.stop_gradient(u_new), tf.stop_gradient(v)
        return tf.reduce_sum(tf.matmul(v, self.kernel) * u_new)

    def call(self, inputs, training=False):
        return tf.matmul(inputs, self.kernel / self.sigma(training))


rng = np.random.default_rng(1)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x[:, :1] * 0.7 - x[:, 1:2] * 0.4).astype("float32")
layer = SNDense(3)
model = tf.keras.Sequential([tf.keras.Input((5,)), layer, tf.keras.layers.Dense(1)])
model.layers[-1].set_weights([np.ones((3, 1), "float32") * 0.5, np.zeros(1, "float32")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
history = model.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
est = float(layer.sigma(training=False))
true = float(np.linalg.svd(layer.kernel.numpy(), compute_uv=False)[0])
print("sigma estimate", round(est, 4), "svd", round(true, 4))
print("normalised top singular value", round(true / est, 4))
