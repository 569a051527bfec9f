"""A subclassed Keras model trained with a hand-written GradientTape loop and Adam."""

import numpy as np
import tensorflow as tf


class MLP(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.out = tf.keras.layers.Dense(2)

    def call(self, x, training=False):
        return self.out(self.hidden(x))


rng = np.random.default_rng(1)
x = rng.normal(size=(16, 3)).astype("float32")
labels = (x.sum(axis=1) > 0).astype("int32")

model = MLP()
model(x[:1])
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.05)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

for step in range(6):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(step, f"{float(loss):.6f}")
print("iterations", int(optimizer.iterations.numpy()))
print(np.round(model(x[:3]).numpy(), 5).tolist())
