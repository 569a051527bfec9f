"""Training with ReduceLROnPlateau, a CSVLogger, TerminateOnNaN and SwapEMAWeights (an
Adam with use_ema: validation uses the averaged weights), then a LearningRateScheduler."""

import os
import tempfile

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(5)
x = np.linspace(-1, 1, 32, dtype="float32").reshape(-1, 1)
y = 3 * x - 1
model = keras.Sequential(
    [keras.Input((1,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(keras.optimizers.Adam(0.05, use_ema=True), "mse")
path = os.path.join(tempfile.mkdtemp(), "log.csv")
callbacks = [
    keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=0.4),
    keras.callbacks.CSVLogger(path),
    keras.callbacks.TerminateOnNaN(),
    keras.callbacks.SwapEMAWeights(),
]
history = model.fit(
    x,
    y,
    epochs=6,
    batch_size=8,
    verbose=0,
    callbacks=callbacks,
    validation_split=0.25,
    shuffle=False,
)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.4f}" for v in history.history[name]))
with open(path) as f:
    lines = f.read().splitlines()
print(lines[0], len(lines))
scheduler = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.9 if epoch else 0.1)
history = model.fit(x, y, epochs=3, batch_size=8, verbose=0, callbacks=[scheduler], shuffle=False)
print([f"{v:.4f}" for v in history.history["loss"]], history.history["learning_rate"])
