"""A stateful LSTM: its states carry from one batch to the next (predict twice gives
different outputs), reset_states() starts again, and fit keeps them across batches; the
states are variables of the layer but not weights, as in Keras."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)
rng = np.random.default_rng(3)
x = rng.normal(size=(2, 3, 4)).astype("float32")
y = rng.normal(size=(2, 1)).astype("float32")
model = tf.keras.Sequential(
    [
        tf.keras.Input(batch_shape=(2, 3, 4)),
        tf.keras.layers.LSTM(3, stateful=True),
        tf.keras.layers.Dense(1),
    ]
)
lstm = model.layers[0]
print("first", np.round(model.predict(x, verbose=0).ravel(), 5).tolist())
print("carried", np.round(model.predict(x, verbose=0).ravel(), 5).tolist())
lstm.reset_states()
print("reset", np.round(model.predict(x, verbose=0).ravel(), 5).tolist())
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
h = model.fit(
    np.concatenate([x, x]), np.concatenate([y, y]), batch_size=2, epochs=2, shuffle=False, verbose=0
)
print("fit", " ".join(f"{v:.6f}" for v in h.history["loss"]))
print("states", np.round(lstm.states[0].numpy(), 5).tolist(), len(model.weights))
