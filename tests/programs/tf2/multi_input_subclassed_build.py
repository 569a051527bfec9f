"""A subclassed layer whose ``call(self, t, y)`` takes two tensors and whose
``build(self, t_shape, y_shape)`` gets both shapes (Keras 3's rule), inside a subclassed
model with a custom training loop on GradientTape."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Bilinear(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, t_shape, y_shape):
        self.w = self.add_weight(
            shape=(t_shape[-1], y_shape[-1], self.units), initializer="ones", name="w"
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, t, y):
        return tf.einsum("bi,bj,ijk->bk", t, y, self.w) + self.b


class TwoInputs(keras.Model):
    def __init__(self):
        super().__init__()
        self.bilinear = Bilinear(3)
        self.head = keras.layers.Dense(1)

    def call(self, t, y):
        return self.head(tf.nn.tanh(self.bilinear(t, y)))


rng = np.random.default_rng(1)
t = rng.normal(size=(16, 2)).astype("float32")
y = rng.normal(size=(16, 4)).astype("float32")
target = (t[:, :1] * y[:, 1:2] + 0.5).astype("float32")

model = TwoInputs()
model(t[:1], y[:1])
model.set_weights(
    [rng.normal(scale=0.3, size=w.shape).astype("float32") for w in model.get_weights()]
)
print([v.name for v in model.trainable_variables])
print([v.path for v in model.trainable_variables])
optimizer = keras.optimizers.SGD(0.1, momentum=0.9)
for step in range(5):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(t, y) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(step, f"{float(loss):.6f}")
print(np.round(model(t[:2], y[:2]).numpy().ravel(), 5).tolist())
