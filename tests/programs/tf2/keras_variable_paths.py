"""Where Keras 3 weights sit in their models (Variable.path), and errors that name the layer.

Paths are fixed when a layer is first built or called: a Sequential with an Input builds its
layers under its own name, a functional model's layers are built before the model exists, a
subclassed model builds its layers in its first call, a layer built alone keeps its own
name. A layer given an input of the wrong rank raises ValueError naming it.
"""

import numpy as np
import tensorflow as tf

keras = tf.keras


def paths(model):
    return [w.path for w in model.weights]


sequential = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(4, name="d1"), keras.layers.Dense(1, name="d2")]
)
print("sequential:", paths(sequential))
print("names:", [w.name.split(":")[0] for w in sequential.weights])

late = keras.Sequential([keras.layers.Dense(2, name="late")], name="built_late")
late(np.ones((1, 3), np.float32))
print("built at its first call:", paths(late))


class Block(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = keras.layers.Dense(2, name="inner")
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale")

    def call(self, x):
        return self.inner(x) * self.scale


nested = keras.Sequential([keras.Input((3,)), Block(name="block")], name="outer")
print("nested:", paths(nested))

inputs = keras.Input((3,))
outputs = keras.layers.Dense(2, name="f1")(inputs)
functional = keras.Model(inputs, outputs, name="func")
print("functional:", paths(functional))


class Subclassed(keras.Model):
    def __init__(self):
        super().__init__(name="sub")
        self.first = keras.layers.Dense(3, name="first")
        self.second = keras.layers.Dense(1, name="second")

    def call(self, x):
        return self.second(self.first(x))


sub = Subclassed()
sub(np.ones((2, 4), np.float32))
print("subclassed:", paths(sub))

alone = keras.layers.Dense(2, name="alone")
alone.build((None, 5))
print("built alone:", paths(alone))
print("tf.Variable has a path:", hasattr(tf.Variable(1.0), "path"))

for layer, value in [
    (keras.layers.Conv2D(2, 3, name="conv"), np.ones((2, 5, 3), np.float32)),
    (keras.layers.LSTM(2, name="lstm"), np.ones((2, 3), np.float32)),
    (keras.layers.MaxPooling2D(name="pool"), np.ones((2, 4, 4), np.float32)),
    (keras.layers.Dense(2, name="flat"), np.ones((3,), np.float32)),
]:
    try:
        layer(value)
        print(layer.name, "accepted rank", value.ndim)
    except ValueError as error:
        print(layer.name, type(error).__name__, f"names the layer: {layer.name in str(error)}")
