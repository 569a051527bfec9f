"""A model that overrides train_step to clip gradients by global norm, trained with fit."""

import numpy as np
import tensorflow as tf


class ClippedModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        grads, norm = tf.clip_by_global_norm(grads, 0.5)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.norm_tracker.update_state(norm)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            elif metric.name != "grad_norm":
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    @property
    def metrics(self):
        return super().metrics + [self.norm_tracker]


rng = np.random.default_rng(7)
x = rng.normal(size=(20, 3)).astype("float32")
y = (x @ np.array([[2.0], [-1.0], [0.5]]) + 0.3).astype("float32")

inputs = tf.keras.Input((3,))
outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(4, activation="relu")(inputs))
model = ClippedModel(inputs, outputs)
model.norm_tracker = tf.keras.metrics.Mean(name="grad_norm")
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9), loss="mse", metrics=["mae"])
history = model.fit(x, y, batch_size=5, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.6f}" for v in history.history[name]))
