"""A binarized network in Keras: a Dense layer whose kernel and inputs are binarized with
sign in the forward pass and a straight-through estimator (identity gradient clipped to
|x| <= 1, via tf.custom_gradient) in the backward pass; latent real weights are clipped by a
kernel constraint. Trained with fit; the layer round-trips through get_config."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def binarize(x):
    def grad(dy):
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)

    return tf.where(x >= 0, 1.0, -1.0), grad


class BinaryDense(tf.keras.layers.Layer):
    def __init__(self, units, binarize_inputs=True, **kwargs):
        super().__init__(**kwargs)
        self.units, self.binarize_inputs = units, binarize_inputs

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=1),
            constraint=lambda w: tf.clip_by_value(w, -1.0, 1.0),
            name="kernel",
        )

    def call(self, inputs):
        x = binarize(inputs) if self.binarize_inputs else inputs
        return tf.matmul(x, binarize(self.kernel)) / tf.sqrt(float(self.kernel.shape[0]))

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "binarize_inputs": self.binarize_inputs,
        }


rng = np.random.default_rng(29)
x = rng.normal(size=(40, 6)).astype("float32")
y = (x[:, 0] + x[:, 1] - x[:, 2] > 0).astype("int32")
model = tf.keras.Sequential(
    [
        tf.keras.Input((6,)),
        BinaryDense(16, binarize_inputs=False, name="b1"),
        tf.keras.layers.BatchNormalization(),
        BinaryDense(2, name="b2"),
    ]
)
model.set_weights(
    [
        rng.uniform(-0.5, 0.5, size=w.shape).astype("float32") if i in (0, 5) else w
        for i, w in enumerate(model.get_weights())
    ]
)
model.compile(
    optimizer=tf.keras.optimizers.Adam(0.05),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
history = model.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
kernel = model.get_layer("b1").kernel.numpy()
print("latent kernel range", round(float(kernel.min()), 4), round(float(kernel.max()), 4))
print("binary kernel sum", int(np.sum(np.where(kernel >= 0, 1, -1))))
config = model.get_layer("b2").get_config()
print("config", config["name"], config["units"], config["binarize_inputs"])
