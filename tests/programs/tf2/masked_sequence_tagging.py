"""Sequence tagging with padded inputs: Embedding(mask_zero=True), an LSTM returning
sequences and a per-step Dense; the loss and the accuracy count only the kept steps, as
Keras weighs them by the output's mask."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)
tokens = np.array([[3, 5, 0, 0], [1, 2, 7, 0], [4, 0, 0, 0], [6, 6, 6, 6]], dtype="int32")
tags = np.array([[1, 2, 0, 0], [0, 1, 2, 0], [2, 0, 0, 0], [1, 1, 0, 2]], dtype="int32")
model = tf.keras.Sequential(
    [
        tf.keras.Input((4,), dtype="int32"),
        tf.keras.layers.Embedding(8, 3, mask_zero=True),
        tf.keras.layers.LSTM(5, return_sequences=True),
        tf.keras.layers.Dense(3),
    ]
)
model.compile(
    tf.keras.optimizers.Adam(0.05),
    tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
h = model.fit(tokens, tags, epochs=3, batch_size=2, shuffle=False, verbose=0)
for k, v in sorted(h.history.items()):
    print(k, " ".join(f"{x:.6f}" for x in v))
print(np.round(model.evaluate(tokens, tags, verbose=0), 6).tolist())
