"""Recurrent layers with dropout and recurrent_dropout trained by fit: the masks come from
each layer's seed generator as in Keras (one per gate with recurrent dropout, drawn at
every call, none while the functional model is built), so the losses are Keras' own."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(2)
x = rng.normal(size=(6, 5, 3)).astype("float32")
y = rng.normal(size=(6, 1)).astype("float32")
for name, layer in [
    ("simple", lambda: tf.keras.layers.SimpleRNN(4, dropout=0.3, recurrent_dropout=0.2, seed=5)),
    ("lstm_in", lambda: tf.keras.layers.LSTM(4, dropout=0.25)),
    ("lstm_both", lambda: tf.keras.layers.LSTM(4, dropout=0.2, recurrent_dropout=0.3, seed=9)),
    ("gru_rec", lambda: tf.keras.layers.GRU(3, recurrent_dropout=0.4, return_sequences=True)),
]:
    model = tf.keras.Sequential(
        [tf.keras.Input((5, 3)), layer(), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)]
    )
    model.compile(tf.keras.optimizers.SGD(0.05), "mse")
    h = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    print(
        name,
        " ".join(f"{v:.6f}" for v in h.history["loss"]),
        np.round(model.predict(x[:2], verbose=0).ravel(), 5).tolist(),
    )
inputs = tf.keras.Input((5, 3))
out = tf.keras.layers.Dense(1)(
    tf.keras.layers.LSTM(4, dropout=0.5, recurrent_dropout=0.5, seed=1)(inputs)
)
model = tf.keras.Model(inputs, out)
model.compile(tf.keras.optimizers.SGD(0.05), "mse")
h = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
print("functional", " ".join(f"{v:.6f}" for v in h.history["loss"]))

# GRU with the reset gate before the recurrent product (reset_after=False), with dropout
for kw in [
    dict(reset_after=False),
    dict(reset_after=False, recurrent_dropout=0.3, dropout=0.2, seed=3),
]:
    model = tf.keras.Sequential(
        [tf.keras.Input((5, 3)), tf.keras.layers.GRU(2, **kw), tf.keras.layers.Dense(1)]
    )
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    print("gru", kw, " ".join(f"{v:.6f}" for v in h.history["loss"]))
