"""Keras' shuffling dataset utilities after keras.utils.set_random_seed: a shuffled
timeseries dataset (windows permuted by NumPy's RandomState, then a shuffle buffer per pass)
trained on for three epochs, and split_dataset's seeded and unseeded shuffles (Python's
random), as Keras 3 on TensorFlow gives them."""

import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(3)

series = np.sin(np.arange(60) / 4.0).astype("float32")
windows = keras.utils.timeseries_dataset_from_array(
    series[:-5], series[5:], sequence_length=5, batch_size=8, shuffle=True, seed=7
)
print("first batch targets", np.round(next(iter(windows))[1].numpy(), 5).tolist())

model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(6, activation="tanh"),
                          keras.layers.Dense(1)])  # fmt: skip
model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
history = model.fit(windows, epochs=3, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))

unseeded = keras.utils.timeseries_dataset_from_array(np.arange(30), None, 3, batch_size=4,
                                                     shuffle=True)  # fmt: skip
print("unseeded starts", [b.numpy()[:, 0].tolist() for b in unseeded])

left, right = keras.utils.split_dataset(
    np.arange(20), left_size=0.6, right_size=0.3, shuffle=True, seed=5
)
print("split", [int(v) for v in left], [int(v) for v in right])
left, right = keras.utils.split_dataset((np.arange(10), np.arange(10) * 2), left_size=4,
                                        shuffle=True)  # fmt: skip
print("split pairs", [int(v[0]) for v in left], [int(v[1]) for v in right])
