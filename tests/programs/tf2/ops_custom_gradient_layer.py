"""A layer whose forward pass uses keras.ops.custom_gradient (a clipped straight-through
rounding) and keras.ops elsewhere, trained with Model.fit; the custom gradient is also
checked under GradientTape."""

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import ops


@ops.custom_gradient
def round_straight_through(x):
    def grad(*args, upstream=None):
        if upstream is None:
            (upstream,) = args
        return ops.where(ops.abs(x) <= 2.0, upstream, ops.zeros_like(upstream))

    return ops.round(x), grad


class Quantized(keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")

    def call(self, x):
        return round_straight_through(x * self.scale) / self.scale


x = tf.constant([[-2.6, -0.4, 0.7, 1.5, 3.2]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = round_straight_through(x)
print(y.numpy().tolist(), tape.gradient(y, x).numpy().tolist())

rng = np.random.default_rng(10)
data = rng.normal(size=(32, 3)).astype("float32")
target = (data @ np.array([[1.0], [2.0], [-1.0]], "float32")).astype("float32")
model = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(4), Quantized(), keras.layers.Dense(1)]
)
model.set_weights(
    [
        rng.normal(scale=0.8, size=w.shape).astype("float32")
        + (1.0 if w.ndim == 1 and w.shape[0] == 4 and i == 2 else 0.0)
        for i, w in enumerate(model.get_weights())
    ]
)
model.compile(keras.optimizers.Adam(0.05), "mse")
history = model.fit(data, target, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print(np.round(model.layers[1].scale.numpy(), 5).tolist())
