"""A physics-informed fit written with keras.ops on symbolic tensors: the functional model's
output is ``u * u + sin(u)`` computed from a Dense layer's KerasTensor (Keras turns the ops
into nodes of the graph), trained with Model.fit; the model's summary lists the ops."""

import numpy as np
from tensorflow import keras
from tensorflow.keras import ops

rng = np.random.default_rng(0)
x = np.linspace(-1.0, 1.0, 24, dtype="float32").reshape(-1, 1)
y = (np.sin(2.0 * x) ** 2 + np.sin(np.sin(2.0 * x))).astype("float32")

inputs = keras.Input((1,), name="x")
hidden = keras.layers.Dense(8, activation="tanh", name="hidden")(inputs)
u = keras.layers.Dense(1, name="u")(hidden)
residual = ops.add(u * u, ops.sin(u))
outputs = ops.clip(residual, -5.0, 5.0)
model = keras.Model(inputs, outputs, name="pinn")
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([type(layer).__name__ for layer in model.layers])
model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
history = model.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))
print(np.round(model.predict(x[:4], verbose=0).ravel(), 5).tolist())
print(tuple(outputs.shape), outputs.dtype)
