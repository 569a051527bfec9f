"""A realistic user script, checked by ``mypy --strict`` (tests/test_typing.py).

Custom gradient, tape, Variable, optimizer, operators, indexing: what a user writes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import retrograd as tf


@tf.custom_gradient
def log1pexp(x: tf.Tensor | tf.Variable) -> tuple[tf.Tensor, Callable[[tf.Tensor], tf.Tensor]]:
    e = tf.exp(x)

    def grad(upstream: tf.Tensor) -> tf.Tensor:
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def loss_fn(w: tf.Variable, b: tf.Variable, x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    logits = tf.matmul(x, w) + b
    error = logits - y
    return tf.reduce_mean(error**2) + 0.01 * tf.reduce_sum(log1pexp(w))


def standardize(values: tf.TensorLike) -> tf.Tensor:
    t = tf.convert_to_tensor(values, dtype=tf.float32)
    return (t - tf.reduce_mean(t)) / (tf.math.reduce_std(t) + 1e-6)


def main() -> float:
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((8, 3)), dtype=tf.float32)
    y = tf.constant(rng.standard_normal((8, 1)), dtype=tf.float32)
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    b = tf.Variable(0.0, name="b")
    opt = tf.keras.optimizers.Adam(learning_rate=0.1)
    loss = tf.constant(0.0)
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = loss_fn(w, b, x, y)
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
    first_row: tf.Tensor = x[0]
    z = standardize([1.0, 2.0, 4.0]) + standardize(np.arange(3.0))
    total = sum(float(t) for t in z)
    column = x[:, 1:]
    mask = x > 0
    shifted = tf.where(mask, x, -x) @ w
    scaled = 1 - column * 2.0 / (abs(column) + 1)
    w.assign_sub(0.1 * w)
    value = (
        float(tf.reduce_sum(shifted).numpy()) + float(first_row[0]) + float(scaled[0, 0]) + total
    )
    print(w.numpy(), b.numpy(), x.shape, x.dtype, value)
    return float(loss.numpy())


if __name__ == "__main__":
    main()
