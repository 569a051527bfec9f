"""A Keras layer whose activation is a tf.custom_gradient (a soft-sign with a rescaled
backward pass), inside a Model with its own train_step, used by fit, evaluate and predict."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def scaled_softsign(x):
    y = x / (1.0 + tf.abs(x))

    def grad(upstream):
        return upstream * 2.0 / tf.square(1.0 + tf.abs(x))

    return y, grad


class SoftsignDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="zeros")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, x):
        return scaled_softsign(tf.matmul(x, self.kernel) + self.bias)


class Regressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = SoftsignDense(6)
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, pred)
        return {m.name: m.result() for m in self.metrics}


rng = np.random.default_rng(41)
x = rng.normal(size=(24, 3)).astype("float32")
y = np.sin(x @ np.array([[1.0], [-0.5], [0.7]], dtype="float32"))
model = Regressor()
model(x[:1])
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.6f}" for v in history.history[name]))
result = model.evaluate(x, y, verbose=0)
print("evaluate", " ".join(f"{v:.6f}" for v in result))
print("predict", np.round(model.predict(x[:3], verbose=0).ravel(), 5))
