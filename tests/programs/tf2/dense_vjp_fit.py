"""A dense layer whose backward pass is a hand-written vector-Jacobian product, trained by
Model.fit with Adam and accuracy."""

import numpy as np
import tensorflow as tf


class HandDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="zeros", name="kernel"
        )
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        @tf.custom_gradient
        def affine(x, kernel, bias):
            def vjp(upstream):
                return (
                    tf.matmul(upstream, kernel, transpose_b=True),
                    tf.matmul(x, upstream, transpose_a=True),
                    tf.reduce_sum(upstream, axis=0),
                )

            return tf.matmul(x, kernel) + bias, vjp

        return affine(x, self.kernel, self.bias)


rng = np.random.default_rng(5)
x = rng.normal(size=(40, 4)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 0.0]) > 0.2).astype("float32").reshape(-1, 1)

model = tf.keras.Sequential(
    [
        tf.keras.Input((4,)),
        HandDense(5),
        tf.keras.layers.Activation("relu"),
        HandDense(1),
        tf.keras.layers.Activation("sigmoid"),
    ]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(), metrics=["accuracy"])
history = model.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))
print(" ".join(f"{v:.4f}" for v in history.history["accuracy"]))
loss, accuracy = model.evaluate(x, y, batch_size=16, verbose=0)
print(f"{loss:.6f} {accuracy:.4f}")
