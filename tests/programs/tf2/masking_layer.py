"""keras.layers.Masking: timesteps whose features all equal mask_value are zeroed and masked
for the layers after it (SimpleRNN, GlobalAveragePooling1D, LSTM), in models trained by
fit; unseeded weights are Keras' after set_random_seed (SimpleRNN included)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)
x = np.random.default_rng(0).normal(size=(3, 4, 2)).astype("float32")
x[0, 2:] = 0.0
x[2, 1:] = -1.0
y = np.array([[1.0], [0.0], [0.5]], "float32")
model = tf.keras.Sequential(
    [
        tf.keras.Input((4, 2)),
        tf.keras.layers.Masking(mask_value=0.0),
        tf.keras.layers.SimpleRNN(3, return_sequences=True),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1),
    ]
)
print(np.round(model(x).numpy().ravel(), 6).tolist())
other = tf.keras.Sequential(
    [tf.keras.Input((4, 2)), tf.keras.layers.Masking(-1.0), tf.keras.layers.LSTM(2)]
)
print(np.round(other(x).numpy(), 6).tolist())
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
h = model.fit(x, y, batch_size=3, epochs=2, verbose=0)
print(" ".join(f"{v:.6f}" for v in h.history["loss"]))
