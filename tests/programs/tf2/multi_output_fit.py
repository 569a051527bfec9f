"""A functional model with two outputs (a regression head and a classifier) trained with
a list of losses and loss weights, per-output metrics, then with a dict of losses: the
per-output losses and metrics are reported as Keras 3 names and orders them."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.normal(size=(8, 3)).astype("float32")
y1 = rng.normal(size=(8, 1)).astype("float32")
y2 = rng.integers(0, 2, size=(8, 1)).astype("float32")
inputs = tf.keras.Input((3,))
h = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer="ones", name="h")(inputs)
a = tf.keras.layers.Dense(1, kernel_initializer="ones", name="reg")(h)
b = tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones", name="cls")(h)
model = tf.keras.Model(inputs, [a, b])
model.compile(
    "sgd",
    loss=["mse", "binary_crossentropy"],
    loss_weights=[1.0, 0.5],
    metrics=[["mae"], ["accuracy"]],
)
hist = model.fit(x, [y1, y2], batch_size=4, epochs=2, shuffle=False, verbose=0)
for k, v in sorted(hist.history.items()):
    print(k, " ".join(f"{t:.6f}" for t in v))
model2 = tf.keras.Model(inputs, {"reg": a, "cls": b})
model2.compile(
    "sgd", loss={"reg": "mse", "cls": "binary_crossentropy"}, metrics={"cls": "accuracy"}
)
hist = model2.fit(x, {"reg": y1, "cls": y2}, batch_size=4, epochs=1, shuffle=False, verbose=0)
for k, v in sorted(hist.history.items()):
    print(k, " ".join(f"{t:.6f}" for t in v))
print(np.round(model2.evaluate(x, {"reg": y1, "cls": y2}, verbose=0), 5).tolist())
