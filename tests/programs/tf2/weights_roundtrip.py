"""Model.save_weights / load_weights, get_config, summary-free layer introspection, and
trainable=False freezing a layer during fit."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(13)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")


def build():
    return tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(4, activation="elu", name="base"),
            tf.keras.layers.Dense(2, name="head"),
        ]
    )


model = build()
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
config = model.get_layer("base").get_config()
print(config["units"], config["activation"], config["use_bias"])

model.get_layer("base").trainable = False
print(len(model.trainable_weights), len(model.non_trainable_weights))
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mae")
frozen = model.get_layer("base").get_weights()[0].copy()
history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))
print("frozen unchanged", bool(np.array_equal(frozen, model.get_layer("base").get_weights()[0])))

path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
model.save_weights(path)
copy = build()
copy.load_weights(path)
print(
    "restored", all(np.array_equal(a, b) for a, b in zip(model.get_weights(), copy.get_weights()))
)
print(np.round(copy.predict(x[:2], verbose=0), 5).tolist())
