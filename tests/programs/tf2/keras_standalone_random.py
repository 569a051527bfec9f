"""Keras 3 imported on its own (`import keras`, as TensorFlow 2.16+ programs do): keras.random
with integer seeds and a SeedGenerator (Keras' numbers), and a small model saved with
keras.saving and loaded back."""

import os
import tempfile

import numpy as np

import keras

print(keras.random.randint((5,), 0, 10, seed=3).numpy().tolist())
print(keras.random.randint((2, 2), -5, 5, dtype="int64", seed=4).numpy().tolist())
print(keras.random.shuffle(np.arange(6), seed=2).numpy().tolist())
print(keras.random.shuffle(np.arange(6).reshape(3, 2), axis=1, seed=1).numpy().tolist())
generator = keras.random.SeedGenerator(7)
print(keras.random.randint((3,), 0, 100, seed=generator).numpy().tolist())
print(keras.random.randint((3,), 0, 100, seed=generator).numpy().tolist())
print(np.round(keras.random.normal((2, 2), mean=1.0, stddev=0.5, seed=9).numpy(), 6).tolist())
print(np.round(keras.random.truncated_normal((3,), seed=9).numpy(), 6).tolist())
print(np.round(keras.random.dropout(np.ones(8, "float32"), 0.5, seed=11).numpy(), 6).tolist())

model = keras.Sequential(
    [
        keras.Input((3,)),
        keras.layers.Dense(2, kernel_initializer=keras.initializers.HeNormal(seed=5)),
    ]
)
path = os.path.join(tempfile.mkdtemp(), "tiny.keras")
keras.saving.save_model(model, path)
loaded = keras.saving.load_model(path)
x = np.ones((1, 3), "float32")
print(np.round(loaded(x).numpy(), 6).tolist(), bool(np.array_equal(loaded(x), model(x))))
