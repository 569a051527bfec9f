"""Knowledge distillation: a fixed teacher's softened probabilities (temperature 3) and the
hard labels train a smaller student through a Model subclass whose train_step mixes a KL
term scaled by T^2 with the student's cross-entropy."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(9)
x = rng.normal(size=(30, 5)).astype("float32")
y = (np.argmax(x[:, :3], axis=1)).astype("int32")


def init(model, scale):
    model.set_weights(
        [rng.normal(scale=scale, size=w.shape).astype("float32") for w in model.get_weights()]
    )


teacher = tf.keras.Sequential(
    [tf.keras.Input((5,)), tf.keras.layers.Dense(12, activation="relu"), tf.keras.layers.Dense(3)]
)
init(teacher, 0.7)


class Distiller(tf.keras.Model):
    def __init__(self, student, teacher, temperature, alpha):
        super().__init__()
        self.student, self.teacher = student, teacher
        self.temperature, self.alpha = temperature, alpha
        self.kl = tf.keras.losses.KLDivergence()
        self.ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        self.tracker = tf.keras.metrics.Mean(name="loss")

    def call(self, x):
        return self.student(x)

    @property
    def metrics(self):
        return [self.tracker]

    def train_step(self, data):
        x, y = data
        t = self.temperature
        soft_targets = tf.nn.softmax(self.teacher(x, training=False) / t)
        with tf.GradientTape() as tape:
            logits = self.student(x, training=True)
            distill = self.kl(soft_targets, tf.nn.softmax(logits / t)) * t * t
            loss = self.alpha * self.ce(y, logits) + (1.0 - self.alpha) * distill
        grads = tape.gradient(loss, self.student.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))
        self.tracker.update_state(loss)
        return {"loss": self.tracker.result()}


student = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(3)])
init(student, 0.3)
distiller = Distiller(student, teacher, temperature=3.0, alpha=0.3)
distiller.compile(optimizer=tf.keras.optimizers.SGD(0.3))
history = distiller.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))
agree = np.mean(np.argmax(student(x).numpy(), 1) == np.argmax(teacher(x).numpy(), 1))
print("agreement with teacher", f"{agree:.4f}")
print("student kernel", np.round(student.get_weights()[0][0], 5))
