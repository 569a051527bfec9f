"""Sparsemax (Martins & Astudillo 2016) as a Keras layer whose forward pass is the Euclidean
projection onto the simplex and whose backward pass is written with tf.custom_gradient
(the Jacobian-vector product on the support); used as the attention normaliser of a
small classifier trained with fit, and compared with autodiff of the same forward."""

import numpy as np
import tensorflow as tf


def sparsemax_forward(z):
    z_sorted = tf.sort(z, axis=-1, direction="DESCENDING")
    k = tf.range(1, tf.shape(z)[-1] + 1, dtype=z.dtype)
    cumsum = tf.cumsum(z_sorted, axis=-1)
    support = tf.cast(1.0 + k * z_sorted > cumsum, z.dtype)
    k_z = tf.reduce_sum(support, axis=-1, keepdims=True)
    tau = (tf.reduce_sum(support * z_sorted, axis=-1, keepdims=True) - 1.0) / k_z
    return tf.maximum(z - tau, 0.0)


@tf.custom_gradient
def sparsemax(z):
    p = sparsemax_forward(z)

    def grad(dp):
        on = tf.cast(p > 0, dp.dtype)
        mean = tf.reduce_sum(dp * on, axis=-1, keepdims=True) / tf.reduce_sum(on, -1, keepdims=True)
        return on * (dp - mean)

    return p, grad


class SparseAttentionPool(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.query = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="query")

    def call(self, x):
        scores = tf.reduce_sum(x * self.query, axis=-1)
        weights = sparsemax(scores)
        return tf.reduce_sum(x * weights[..., None], axis=1)


rs = np.random.RandomState(6)
z = tf.constant(rs.normal(size=(3, 5)).astype("float32"))
with tf.GradientTape(persistent=True) as tape:
    tape.watch(z)
    custom = sparsemax(z)
    plain = sparsemax_forward(z)
    weighting = tf.constant(rs.normal(size=(3, 5)).astype("float32"))
    lc, lp = tf.reduce_sum(custom * weighting), tf.reduce_sum(plain * weighting)
print("sparsemax", np.round(custom.numpy(), 4))
print("rows sum", np.round(custom.numpy().sum(-1), 5), "zeros", int((custom.numpy() == 0).sum()))
print("custom grad", np.round(tape.gradient(lc, z).numpy(), 4))
print("autodiff grad", np.round(tape.gradient(lp, z).numpy(), 4))

x = rs.normal(size=(40, 6, 3)).astype("float32")
y = (x[:, :, 0].max(axis=1) > 1.0).astype("float32")
model = tf.keras.Sequential(
    [
        tf.keras.Input((6, 3)),
        tf.keras.layers.Dense(4, activation="tanh"),
        SparseAttentionPool(),
        tf.keras.layers.Dense(1),
    ]
)
model.set_weights([rs.normal(scale=0.5, size=w.shape).astype("float32") for w in model.weights])
model.compile(
    tf.keras.optimizers.Adam(0.05),
    tf.keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
history = model.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print("accuracy", " ".join(f"{v:.4f}" for v in history.history["accuracy"]))
