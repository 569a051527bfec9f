"""Madry-style adversarial training: a Keras Model overrides train_step to craft PGD examples
(a random start inside the L-infinity ball, signed input-gradient steps from an inner tape,
projection with clip_by_value) and trains on them; fit reports the adversarial loss and
accuracy, and clean versus adversarial accuracy is compared after training."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(7)
x = rs.normal(size=(48, 4)).astype("float32")
y = (x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2] > 0).astype("int32")
starts = rs.uniform(-1.0, 1.0, size=(6, 16, 4)).astype("float32")

EPS, ALPHA, STEPS = 0.15, 0.05, 4


class RobustClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(16, activation="tanh")
        self.out = tf.keras.layers.Dense(2)
        self.calls = tf.Variable(0, trainable=False)
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def pgd(self, x, y, start):
        x_adv = x + EPS * start
        for _ in range(STEPS):
            with tf.GradientTape() as tape:
                tape.watch(x_adv)
                loss = self.loss_fn(y, self(x_adv))
            grad = tape.gradient(loss, x_adv)
            x_adv = x_adv + ALPHA * tf.sign(grad)
            x_adv = tf.clip_by_value(x_adv, x - EPS, x + EPS)
        return tf.stop_gradient(x_adv)

    def train_step(self, data):
        x, y = data
        start = tf.gather(tf.constant(starts), self.calls % 6)
        self.calls.assign_add(1)
        x_adv = self.pgd(x, y, start)
        with tf.GradientTape() as tape:
            logits = self(x_adv, training=True)
            loss = self.compute_loss(y=y, y_pred=logits)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, logits)
        return {m.name: m.result() for m in self.metrics}


model = RobustClassifier()
model(x[:1])
model.set_weights([rs.normal(scale=0.5, size=w.shape).astype("float32") for w in model.weights])
model.compile(
    optimizer=tf.keras.optimizers.SGD(0.3),
    loss=model.loss_fn,
    metrics=["accuracy"],
)
history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0)
for key in sorted(history.history):
    print(key, " ".join(f"{v:.5f}" for v in history.history[key]))

x_test = tf.constant(x[:16])
y_test = tf.constant(y[:16])
adv = model.pgd(x_test, y_test, tf.zeros_like(x_test))
print("max perturbation", float(tf.reduce_max(tf.abs(adv - x_test))))
clean = tf.reduce_mean(
    tf.cast(tf.argmax(model(x_test), 1, output_type=tf.int32) == y_test, "float32")
)
robust = tf.reduce_mean(
    tf.cast(tf.argmax(model(adv), 1, output_type=tf.int32) == y_test, "float32")
)
print("clean accuracy", float(clean), "adversarial accuracy", float(robust))
