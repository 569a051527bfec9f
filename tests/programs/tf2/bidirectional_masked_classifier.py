"""Padded token sequences through Embedding(mask_zero=True), a Bidirectional LSTM (the
mask reaching both directions) and a TimeDistributed Dense, trained with Model.fit."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(3)
tokens = rng.integers(1, 9, size=(16, 6)).astype("int32")
for i in range(16):
    tokens[i, 6 - i % 3 :] = 0
labels = (tokens == 3).astype("float32")[..., None]

inputs = keras.Input((6,), dtype="int32")
embedded = keras.layers.Embedding(10, 4, mask_zero=True)(inputs)
states = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True))(embedded)
outputs = keras.layers.TimeDistributed(keras.layers.Dense(1, activation="sigmoid"))(states)
model = keras.Model(inputs, outputs)
model.set_weights(
    [rng.normal(scale=0.4, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([w.shape for w in model.get_weights()])
model.compile(keras.optimizers.RMSprop(0.02), "binary_crossentropy")
history = model.fit(tokens, labels, batch_size=4, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print(np.round(model.predict(tokens[:2], verbose=0)[..., 0], 4).tolist())
