"""An LSTM sequence regressor whose output passes through a custom-gradient soft clipping
layer, trained with fit and inspected with a GradientTape (input saliency over time)."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def soft_clip(x):
    y = tf.tanh(x)

    def grad(upstream):
        return upstream * (1.0 - y * y) * 2.0  # a deliberately steeper backward pass

    return y, grad


class SoftClip(tf.keras.layers.Layer):
    def call(self, x):
        return soft_clip(x)


rng = np.random.default_rng(16)
x = rng.normal(size=(12, 5, 2)).astype("float32")
y = np.tanh(x[:, :, 0].sum(axis=1, keepdims=True) * 0.3).astype("float32")

model = tf.keras.Sequential(
    [tf.keras.Input((5, 2)), tf.keras.layers.LSTM(4), tf.keras.layers.Dense(1), SoftClip()]
)
model.set_weights(
    [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))

inputs = tf.constant(x[:2])
with tf.GradientTape() as tape:
    tape.watch(inputs)
    out = model(inputs)
saliency = tf.reduce_sum(tf.abs(tape.gradient(out, inputs)), axis=2)
print(np.round(out.numpy().ravel(), 6).tolist())
print(np.round(saliency.numpy(), 6).tolist())
