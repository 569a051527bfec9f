"""Gradient accumulation in a train_step override: each batch is split into micro-batches,
their gradients summed into non-trainable accumulator variables, and the optimizer steps
once per batch with the average -- the same update as the full batch, checked by a plain
model trained side by side."""

import numpy as np
import tensorflow as tf


class AccumModel(tf.keras.Model):
    def __init__(self, micro=3, **kwargs):
        super().__init__(**kwargs)
        self.micro = micro
        self.d1 = tf.keras.layers.Dense(6, activation="elu")
        self.d2 = tf.keras.layers.Dense(1)
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def make_accumulators(self):
        self.accum = [
            tf.Variable(tf.zeros_like(v), trainable=False) for v in self.trainable_variables
        ]

    def call(self, x):
        return self.d2(self.d1(x))

    def train_step(self, data):
        x, y = data
        for a in self.accum:
            a.assign(tf.zeros_like(a))
        total = 0.0
        for xs, ys in zip(tf.split(x, self.micro), tf.split(y, self.micro)):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(xs, training=True) - ys))
            for a, g in zip(self.accum, tape.gradient(loss, self.trainable_variables)):
                a.assign_add(g / self.micro)
            total += loss / self.micro
        self.optimizer.apply_gradients(
            zip([a.value() for a in self.accum], self.trainable_variables)
        )
        self.loss_tracker.update_state(total)
        return {"loss": self.loss_tracker.result()}


rng = np.random.default_rng(23)
x = rng.normal(size=(18, 3)).astype("float32")
y = (np.cos(x[:, :1]) + x[:, 1:2]).astype("float32")
weights = [rng.normal(scale=0.5, size=s).astype("float32") for s in [(3, 6), (6,), (6, 1), (1,)]]

accum = AccumModel()
accum(x[:1])
accum.set_weights(weights)
accum.make_accumulators()
accum.compile(optimizer=tf.keras.optimizers.Adam(0.02))
plain = tf.keras.Sequential(
    [tf.keras.Input((3,)), tf.keras.layers.Dense(6, activation="elu"), tf.keras.layers.Dense(1)]
)
plain.set_weights(weights)
plain.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
h1 = accum.fit(x, y, batch_size=6, epochs=3, shuffle=False, verbose=0)
h2 = plain.fit(x, y, batch_size=6, epochs=3, shuffle=False, verbose=0)
print("accumulated", " ".join(f"{v:.5f}" for v in h1.history["loss"]))
print("full batch ", " ".join(f"{v:.5f}" for v in h2.history["loss"]))
diff = max(np.abs(a - b).max() for a, b in zip(accum.get_weights(), plain.get_weights()))
print("same weights", bool(diff < 1e-5))
