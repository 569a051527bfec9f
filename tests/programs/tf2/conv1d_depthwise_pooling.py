"""A 1-D signal model: causal Conv1D, DepthwiseConv1D, ZeroPadding1D, Cropping1D,
AdaptiveAveragePooling1D, MaxPooling1D and a Dot layer joining two branches, trained with
Model.fit."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(14)
signal = rng.normal(size=(16, 12, 2)).astype("float32")
target = np.abs(signal[:, :, 0]).mean(axis=1, keepdims=True).astype("float32")

inputs = keras.Input((12, 2))
a = keras.layers.Conv1D(3, 3, padding="causal", dilation_rate=2, activation="relu")(inputs)
a = keras.layers.DepthwiseConv1D(3, depth_multiplier=2, padding="same")(a)
a = keras.layers.ZeroPadding1D((1, 0))(a)
a = keras.layers.Cropping1D((0, 1))(a)
a = keras.layers.AdaptiveAveragePooling1D(4)(a)
b = keras.layers.MaxPooling1D(3)(keras.layers.Conv1D(6, 1)(inputs))
joined = keras.layers.Dot(axes=(2, 2), normalize=True)([a, b])
outputs = keras.layers.Dense(1)(keras.layers.Flatten()(joined))
model = keras.Model(inputs, outputs)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
print(tuple(joined.shape), [tuple(w.shape) for w in model.weights][:4])
model.compile(keras.optimizers.Adam(0.01), "mae")
history = model.fit(signal, target, batch_size=4, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print(np.round(model.predict(signal[:3], verbose=0).ravel(), 5).tolist())
