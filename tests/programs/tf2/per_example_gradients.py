"""Per-example gradient norms (as in differentially private SGD) with tf.vectorized_map,
clipped per example and averaged; compared with the batch gradient."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(15)
x = tf.constant(rng.normal(size=(6, 3)).astype("float32"))
y = tf.constant(rng.normal(size=(6, 1)).astype("float32"))
w = tf.Variable(rng.normal(size=(3, 1)).astype("float32"))
b = tf.Variable([0.1])


def example_gradient(example):
    xi, yi = example
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.matmul(xi[None], w) + b - yi))
    gw, gb = tape.gradient(loss, [w, b])
    return gw, gb


gw, gb = tf.vectorized_map(example_gradient, (x, y))
norms = tf.sqrt(tf.reduce_sum(tf.square(gw), axis=[1, 2]) + tf.reduce_sum(tf.square(gb), axis=1))
print("norms", np.round(norms.numpy(), 5).tolist())
scale = tf.minimum(1.0, 1.0 / norms)
clipped_w = tf.reduce_mean(gw * scale[:, None, None], axis=0)
print("clipped", np.round(clipped_w.numpy().ravel(), 6).tolist())

with tf.GradientTape() as tape:
    batch_loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b - y))
batch_gw = tape.gradient(batch_loss, w)
print(
    "sum matches", bool(np.allclose(tf.reduce_sum(gw, axis=0).numpy(), batch_gw.numpy(), atol=1e-5))
)

squares = tf.map_fn(lambda row: tf.reduce_sum(row * row), x)
print("map_fn", np.round(squares.numpy(), 5).tolist())
print("slice", tf.slice(x, [1, 0], [2, -1]).numpy().round(5).tolist())
