"""A broad sample of typed ops, checked by ``mypy --strict`` (tests/test_typing.py) and run.

Math, array, nn, linalg, random and reduction ops, control flow, a custom gradient, a
tape and traced functions (one a method), written as a user would, with the results
annotated where an op's declared type is not obvious (``svd``'s tuple, ``cond``'s value).
That no op declares ``Any`` is checked separately (test_typing.py's signature audit).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import retrograd as tf


def math_ops(x: tf.Tensor) -> list[tf.Tensor]:
    return [
        tf.exp(x), tf.math.log(x + 1.0), tf.abs(-x), tf.sqrt(x * x), tf.maximum(x, 0.5),
        tf.math.divide_no_nan(x, x), tf.pow(x, 2.0), tf.cast(x, tf.float64), tf.sigmoid(x),
        tf.math.softplus(x), tf.math.erf(x), tf.atan2(x, x + 1.0), tf.add_n([x, x, x]),
        tf.clip_by_value(x, 0.0, 1.0), tf.math.logical_xor(x > 0, x < 1), tf.round(x),
    ]  # fmt: skip


def array_ops(x: tf.Tensor) -> list[tf.Tensor]:
    parts: list[tf.Tensor] = tf.split(x, 2, axis=1)
    rows: list[tf.Tensor] = tf.unstack(x)
    return [
        tf.reshape(x, [-1]), tf.transpose(x), tf.expand_dims(x, 0), tf.squeeze(x[None]),
        tf.concat([x, x], axis=0), tf.stack(rows), parts[0], tf.zeros([2, 2], tf.int32),
        tf.ones_like(x), tf.fill([2], 3.0), tf.where(x > 1.0, x, tf.zeros_like(x)),
        tf.gather(x, [0, 1], axis=1), tf.tile(x, [1, 2]), tf.pad(x, [[1, 0], [0, 1]]),
        tf.one_hot([0, 1], 3), tf.range(5), tf.shape(x), tf.boolean_mask(x, x > 1.0),
        tf.reverse(x, [0]), tf.sort(tf.reshape(x, [-1])), tf.broadcast_to(1.0, [2, 2]),
    ]  # fmt: skip


def nn_ops(x: tf.Tensor) -> list[tf.Tensor]:
    images = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    kernel = tf.ones([2, 2, 1, 1])
    return [
        tf.nn.relu(x), tf.nn.softmax(x, axis=-1), tf.nn.log_softmax(x), tf.nn.gelu(x),
        tf.nn.leaky_relu(x, alpha=0.1), tf.nn.l2_loss(x),
        tf.nn.conv2d(images, kernel, strides=1, padding="SAME"),
        tf.nn.max_pool2d(images, ksize=2, strides=2, padding="VALID"),
        tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=x[:1]),
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0], logits=x),
        tf.nn.dropout(x, rate=0.5, seed=1), tf.nn.bias_add(x, [1.0, 2.0]),
    ]  # fmt: skip


def linalg_ops(a: tf.Tensor) -> list[tf.Tensor]:
    spd = tf.matmul(a, a, transpose_b=True) + tf.eye(2)
    s, u, v = tf.linalg.svd(spd)
    singular_values: tf.Tensor = tf.linalg.svd(spd, compute_uv=False)
    q, r = tf.linalg.qr(spd)
    sign, log_abs = tf.linalg.slogdet(spd)
    values, vectors = tf.linalg.eigh(spd)
    return [
        tf.linalg.inv(spd), tf.linalg.det(spd), tf.linalg.cholesky(spd), s, u, v,
        singular_values, q, r, sign, log_abs, values, vectors, tf.linalg.trace(spd),
        tf.linalg.solve(spd, [[1.0], [2.0]]), tf.einsum("ij,jk->ik", a, a), tf.norm(a),
        tf.tensordot(a, a, axes=1), tf.linalg.matvec(a, [1.0, 1.0]), tf.linalg.diag_part(a),
    ]  # fmt: skip


def random_and_reductions(x: tf.Tensor) -> list[tf.Tensor]:
    mean, variance = tf.nn.moments(x, axes=[0])
    top_values, top_indices = tf.math.top_k(tf.reshape(x, [-1]), k=2)
    return [
        tf.random.normal([2, 2], seed=1), tf.random.uniform([3], maxval=2.0, seed=2),
        tf.random.categorical([[0.0, 1.0]], 3, seed=3), tf.random.shuffle([1, 2, 3], seed=4),
        tf.random.Generator.from_seed(5).normal([2], stddev=2.0),
        tf.reduce_sum(x), tf.reduce_mean(x, axis=0), tf.reduce_max(x, axis=[0, 1]),
        tf.reduce_logsumexp(x, keepdims=True), tf.math.reduce_std(x), tf.argmax(x, axis=1),
        tf.cumsum(x, axis=1), tf.reduce_any(x > 1.0), mean, variance, top_values, top_indices,
    ]  # fmt: skip


def control_flow(x: tf.Tensor) -> list[tf.Tensor]:
    branch: tf.Tensor = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
    steps, total = tf.while_loop(
        lambda i, t: i < 3, lambda i, t: (i + 1, t + x), (tf.constant(0), tf.zeros_like(x))
    )
    counted: list[tf.Tensor] = tf.while_loop(lambda i: i < 4, lambda i: [i + 1], [0])
    mapped: tf.Tensor = tf.map_fn(lambda row: tf.reduce_sum(row), x)
    return [branch, steps, total, counted[0], mapped]


@tf.custom_gradient
def clipped_identity(x: tf.Tensor) -> tuple[tf.Tensor, Callable[[tf.Tensor], tf.Tensor]]:
    def grad(upstream: tf.Tensor) -> tf.Tensor:
        return tf.clip_by_value(upstream, -1.0, 1.0)

    return tf.identity(x), grad


@tf.function
def traced_square(x: tf.Tensor) -> tf.Tensor:
    return x * x


class Scaler(tf.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scale = tf.Variable(2.0)

    @tf.function
    def __call__(self, x: tf.Tensor) -> tf.Tensor:
        return x * self.scale


def gradients(x: tf.Tensor) -> list[tf.Tensor]:
    w = tf.Variable([[0.5], [0.25]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(clipped_identity(x * 10.0) + traced_square(x) + tf.matmul(x, w))
    dx: tf.Tensor = tape.gradient(y, x)
    dw: tf.Tensor = tape.gradient(y, w)
    moved: tf.Tensor = w.assign_add([[0.0], [1.0]]).read_value()
    cosine = tf.functional.grad(lambda t: tf.reduce_sum(tf.sin(t)))(x)
    return [dx, dw, Scaler()(x), traced_square(x), moved, cosine]


def main() -> float:
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    checked: tf.Tensor = tf.debugging.check_numerics(x, "x")
    tf.debugging.assert_positive(x, message="x must be positive")
    results = (
        math_ops(x) + array_ops(x) + nn_ops(x) + linalg_ops(x) + random_and_reductions(x)
        + control_flow(x) + gradients(x) + [checked, tf.convert_to_tensor(np.ones(2))]
    )  # fmt: skip
    assert all(isinstance(t, tf.Tensor) for t in results)
    return float(sum(float(tf.reduce_sum(tf.cast(t, tf.float64))) for t in results))


if __name__ == "__main__":
    print(main())
