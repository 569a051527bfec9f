"""A gradient-reversal layer (domain-adversarial training) inside a functional model
trained with Model.fit."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def reverse_gradient(x, scale):
    def grad(upstream):
        return -scale * upstream, tf.zeros_like(scale)

    return tf.identity(x), grad


class GradientReversal(tf.keras.layers.Layer):
    def __init__(self, scale=0.5, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, x):
        return reverse_gradient(x, tf.constant(self.scale))


rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype("float32")
y = (x[:, :1] - x[:, 1:2] > 0).astype("float32")

inputs = tf.keras.Input((4,))
features = tf.keras.layers.Dense(6, activation="tanh")(inputs)
reversed_features = GradientReversal(0.5)(features)
outputs = tf.keras.layers.Dense(1, activation="sigmoid")(reversed_features)
model = tf.keras.Model(inputs, outputs)
model.set_weights(
    [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.get_weights()]
)

model.compile(
    optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy", metrics=["accuracy"]
)
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.6f}" for v in history.history[name]))
for w in model.get_weights():
    print(np.round(w.ravel(), 6).tolist())
