"""A Keras model trained with fit, saved whole to a .keras file, loaded back (a custom layer
with a custom gradient found through register_keras_serializable), used for prediction and
trained further: the loaded model continues exactly where the saved one stopped. The initial
weights come from Keras' default initializers after keras.utils.set_random_seed, and the
Dropout masks from its seed generator, so they are Keras' own."""

import os
import tempfile

import numpy as np
import tensorflow as tf

keras = tf.keras


@tf.custom_gradient
def clip_gradient(x):
    def grad(upstream):
        return tf.clip_by_value(upstream, -0.05, 0.05)

    return tf.identity(x), grad


@keras.utils.register_keras_serializable(package="Programs")
class GradientClip(keras.layers.Layer):
    """The identity forward, gradients clipped to +-limit backward."""

    def __init__(self, limit=0.05, **kwargs):
        super().__init__(**kwargs)
        self.limit = limit

    def call(self, x):
        return clip_gradient(x)

    def get_config(self):
        return {**super().get_config(), "limit": self.limit}


keras.utils.set_random_seed(42)
rng = np.random.default_rng(3)
x = rng.normal(size=(32, 5)).astype("float32")
y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]).astype("float32")

inputs = keras.Input((5,))
hidden = keras.layers.Dense(16, activation="tanh", name="hidden")(inputs)
hidden = keras.layers.Dropout(0.25, seed=7)(hidden)
hidden = GradientClip(name="clip")(hidden)
outputs = keras.layers.Dense(1, name="out")(hidden)
model = keras.Model(inputs, outputs)
print("initial kernel", np.round(model.get_layer("out").kernel.numpy()[:4, 0], 6).tolist())

model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse", metrics=["mae"])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))

path = os.path.join(tempfile.mkdtemp(), "regressor.keras")
model.save(path)
loaded = keras.models.load_model(path)
print("layers", [layer.name for layer in loaded.layers])
print("optimizer", type(loaded.optimizer).__name__, int(loaded.optimizer.iterations.numpy()))
print("predict", np.round(loaded.predict(x[:3], verbose=0)[:, 0], 5).tolist())
same = np.array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
print("same predictions", same)

more = loaded.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
print("loaded continues", " ".join(f"{v:.6f}" for v in more.history["loss"]))
print("evaluate", np.round(loaded.evaluate(x, y, verbose=0), 5).tolist())
