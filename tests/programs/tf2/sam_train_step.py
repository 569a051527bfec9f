"""Sharpness-Aware Minimization as a train_step override: the first gradient gives the
ascent direction rho * g / ||g||, the weights are perturbed (assign_add), the loss's gradient
at the perturbed point is taken, the perturbation is undone, and the optimizer applies it."""

import numpy as np
import tensorflow as tf


class SAMModel(tf.keras.Model):
    rho = 0.05

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = self.compute_loss(y=y, y_pred=self(x, training=True))
        grads = tape.gradient(loss, self.trainable_variables)
        norm = tf.linalg.global_norm(grads)
        eps = [g * self.rho / (norm + 1e-12) for g in grads]
        for v, e in zip(self.trainable_variables, eps):
            v.assign_add(e)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            sharp_loss = self.compute_loss(y=y, y_pred=y_pred)
        sharp_grads = tape.gradient(sharp_loss, self.trainable_variables)
        for v, e in zip(self.trainable_variables, eps):
            v.assign_sub(e)
        self.optimizer.apply_gradients(zip(sharp_grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


rng = np.random.default_rng(19)
x = rng.normal(size=(30, 4)).astype("float32")
y = (x[:, 0] - x[:, 1] * x[:, 2] > 0).astype("float32")[:, None]
inputs = tf.keras.Input((4,))
hidden = tf.keras.layers.Dense(10, activation="relu")(inputs)
model = SAMModel(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(hidden))
model.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.weights])
model.compile(
    optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy", metrics=["accuracy"]
)
history = model.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
print("eval", [round(v, 5) for v in model.evaluate(x, y, verbose=0)])
