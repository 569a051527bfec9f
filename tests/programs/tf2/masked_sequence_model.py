"""Embedding(mask_zero=True) masks padded steps: the mask reaches LSTM/GRU (masked steps keep
the state and repeat the output, also backwards and with states returned) and
GlobalAveragePooling1D (the mean over kept steps), in a Sequential model trained by fit
and in a functional model; weights from Keras initializers after set_random_seed."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(1)
tokens = np.array([[3, 5, 0, 0], [1, 2, 7, 0], [4, 0, 0, 0]], dtype="int32")
target = np.array([[1.0], [0.0], [1.0]], dtype="float32")
model = tf.keras.Sequential(
    [
        tf.keras.Input((4,), dtype="int32"),
        tf.keras.layers.Embedding(8, 3, mask_zero=True),
        tf.keras.layers.LSTM(5, return_sequences=True),
        tf.keras.layers.Dense(4, activation="tanh"),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1),
    ]
)
print(np.round(model(tokens).numpy(), 6).tolist())
model.compile(tf.keras.optimizers.Adam(0.05), "mse")
h = model.fit(tokens, target, epochs=3, batch_size=3, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in h.history["loss"]))
inputs = tf.keras.Input((4,), dtype="int32")
emb = tf.keras.layers.Embedding(8, 2, mask_zero=True)(inputs)
seq, h_state, c_state = tf.keras.layers.LSTM(
    3, return_sequences=True, return_state=True, go_backwards=True
)(emb)
out = tf.keras.layers.GRU(2)(seq)
f = tf.keras.Model(inputs, [out, h_state])
a, b = f(tokens)
print(np.round(a.numpy(), 6).tolist(), np.round(b.numpy(), 6).tolist())
print(tf.keras.layers.Embedding(8, 2, mask_zero=True).compute_mask(tokens).numpy().tolist())
