"""A convolutional autoencoder: strided Conv2D and SeparableConv2D down, GroupNormalization,
Conv2DTranspose and bilinear UpSampling2D up, trained with Model.fit on small images."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(6)
images = rng.uniform(size=(12, 8, 8, 1)).astype("float32")

inputs = keras.Input((8, 8, 1))
h = keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
h = keras.layers.SeparableConv2D(4, 3, padding="same", depth_multiplier=2)(h)
h = keras.layers.GroupNormalization(groups=2)(h)
h = keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same", activation="relu")(h)
h = keras.layers.UpSampling2D(interpolation="bilinear")(h)
h = keras.layers.AveragePooling2D(2)(h)
outputs = keras.layers.Conv2D(1, 1, activation="sigmoid")(h)
model = keras.Model(inputs, outputs)
model.set_weights(
    [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([tuple(w.shape) for w in model.weights])
model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
history = model.fit(images, images, batch_size=4, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
print(np.round(model.predict(images[:1], verbose=0)[0, :2, :2, 0], 4).tolist())
