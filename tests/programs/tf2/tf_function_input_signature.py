"""A tf.function with an input_signature (batch dimension None) wrapping a custom-gradient
op and a training step: it traces once for every batch size, the concrete function is
inspected, and calling with the wrong dtype is refused."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def scaled_softsign(x):
    y = x / (1.0 + tf.abs(x))

    def grad(dy):
        return dy / tf.square(1.0 + tf.abs(x))

    return y, grad


w = tf.Variable(np.array([[0.5], [-0.3], [0.8]], "float32"))
traces = []
opt = tf.keras.optimizers.SGD(0.2)


@tf.function(
    input_signature=[
        tf.TensorSpec([None, 3], tf.float32, name="x"),
        tf.TensorSpec([None, 1], tf.float32, name="y"),
    ]
)
def train_step(x, y):
    traces.append(1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(scaled_softsign(tf.matmul(x, w)) - y))
    g = tape.gradient(loss, w)
    opt.apply_gradients([(g, w)])
    return loss, tf.norm(g)


rng = np.random.default_rng(6)
for n in [4, 7, 2, 7, 5]:
    x = rng.normal(size=(n, 3)).astype("float32")
    y = np.tanh(x[:, :1] - x[:, 2:]).astype("float32") * 0.5
    loss, gn = train_step(x, y)
    print(f"batch {n} loss {float(loss):.5f} grad {float(gn):.5f}")
print("traces", len(traces))
concrete = train_step.get_concrete_function()
print(
    "signature",
    [(s.name, s.shape.as_list(), s.dtype.name) for s in concrete.structured_input_signature[0]],
)
try:
    train_step(np.ones((2, 3)), np.ones((2, 1)))
except (TypeError, ValueError) as e:
    print("refused", type(e).__name__)
print("w", np.round(w.numpy().ravel(), 5))
