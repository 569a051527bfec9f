"""The seed programs, run as written with ``import retrograd as tf``, print the seeds' numbers.

Seeds 003 and 004 are graph-mode (TF1 Session) programs; their eager equivalents are here,
the programs exactly as printed run under ``retrograd run --tf1`` in
tests/programs/test_seed_programs.py.
"""

from __future__ import annotations

import re

import numpy as np

import retrograd as tf


def test_seed_000_chain_rule_prints_upstream_current_downstream(capsys):
    @tf.custom_gradient
    def foo(x):
        tf.debugging.assert_rank(x, 0)

        def grad(dy_dx_upstream):
            dy_dx = 2 * x
            dy_dx_downstream = dy_dx * dy_dx_upstream
            tf.print(
                f"x={x}\tupstream={dy_dx_upstream}\tcurrent={dy_dx}\t\tdownstream={dy_dx_downstream}"
            )
            return dy_dx_downstream

        y = x**2
        tf.print(f"x={x}\ty={y}")

        return y, grad

    x = tf.constant(2.0, dtype=tf.float32)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = foo(foo(foo(x)))  # y = x ** 8

    tf.print(f"\nfinal dy/dx={tape.gradient(y, x)}")
    assert capsys.readouterr().err == (
        "x=2.0\ty=4.0\n"
        "x=4.0\ty=16.0\n"
        "x=16.0\ty=256.0\n"
        "x=16.0\tupstream=1.0\tcurrent=32.0\t\tdownstream=32.0\n"
        "x=4.0\tupstream=32.0\tcurrent=8.0\t\tdownstream=256.0\n"
        "x=2.0\tupstream=256.0\tcurrent=4.0\t\tdownstream=1024.0\n"
        "\nfinal dy/dx=1024.0\n"
    )


def test_seed_001_examples():
    def log1pexp(x):
        return tf.math.log(1 + tf.exp(x))

    @tf.custom_gradient
    def stable(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return tf.math.log(1 + e), grad

    x = tf.constant(100.0)
    for fn, expected in ((log1pexp, np.nan), (stable, 1.0)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        np.testing.assert_equal(tape.gradient(y, x).numpy(), np.float32(expected))

    def bar(x, y):
        def grad(upstream):
            dz_dx = y
            dz_dy = x
            return upstream * dz_dx, upstream * dz_dy

        z = x * y
        return z, grad

    # The seed's text lost the decorator and the two watch calls of TensorFlow's documentation.
    bar = tf.custom_gradient(bar)
    x = tf.constant(2.0, dtype=tf.float32)
    y = tf.constant(3.0, dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(y)
        z = bar(x, y)
    assert repr(z) == "<retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert repr(tape.gradient(z, x)) == "<retrograd.Tensor: shape=(), dtype=float32, numpy=3.0>"
    assert repr(tape.gradient(z, y)) == "<retrograd.Tensor: shape=(), dtype=float32, numpy=2.0>"


@tf.custom_gradient
def differentiable_sign(x):
    tf.debugging.assert_rank(x, 0)

    def grad(upstream):
        dy_dx = tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))
        return upstream * dy_dx

    if x > tf.constant(0.0):
        return tf.constant(1.0), grad
    else:
        return tf.constant(-1.0), grad


def test_seed_002_multiple_variables_and_sign(capsys):
    @tf.custom_gradient
    def bar(x, y):
        tf.debugging.assert_rank(x, 0)
        tf.debugging.assert_rank(y, 0)

        def grad(upstream):
            dz_dx = y
            dz_dy = x
            return upstream * dz_dx, upstream * dz_dy

        z = x * y

        return z, grad

    x = tf.constant(2.0, dtype=tf.float32)
    y = tf.constant(3.0, dtype=tf.float32)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(y)
        z = bar(x, y)

    tf.print(z)
    tf.print(tape.gradient(z, x))
    tf.print(tape.gradient(z, y))
    tf.print(tape.gradient(x, y))

    x = tf.constant(3.0, dtype=tf.float32)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = differentiable_sign(x)
        loss = tf.nn.l2_loss(y - tf.constant(-1.0))

    tf.print(y)
    tf.print(tape.gradient(y, x))
    tf.print(loss)
    tf.print(tape.gradient(loss, x))
    assert capsys.readouterr().err == "6\n3\n2\nNone\n1\n0.0451766551\n2\n0.0903533101\n"


SEED_002_TABLE = """\
0 2 -0.393223882 -0.89999783 -1
10 0 0 0.0995881185 1
20 0 0 0.6450876 1
30 0 0 0.855591536 1
40 0 0 0.938390434 1
50 0 0 0.970632374 1
60 0 0 0.983009696 1
70 0 0 0.987700462 1
80 0 0 0.989459515 1
90 0 0 0.990113616 1
"""


def test_seed_002_training_with_adam_matches_the_printed_table(capsys):
    x = tf.Variable(-1.0)
    opt = tf.keras.optimizers.Adam(1e-1)

    def train_step():
        with tf.GradientTape() as tape:
            y = differentiable_sign(x)
            loss = tf.nn.l2_loss(y - tf.constant(1.0))
        grads = tape.gradient(loss, x)
        opt.apply_gradients(zip([grads], [x]))
        return loss, y, grads

    for i in range(100):
        loss, y, grads = train_step()
        if i % 10 == 0:
            tf.print(i, loss, grads, x, y)

    printed = capsys.readouterr().err

    def numbers(text):
        return np.array([float(v) for v in re.findall(r"-?[\d.]+(?:e-?\d+)?", text)])

    got, expected = numbers(printed), numbers(SEED_002_TABLE)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, atol=5e-5, rtol=0)


def test_seed_003_matmul_gradient_eagerly():
    a = tf.constant([[1, 2], [3, 4]], dtype=tf.float32)
    b = tf.constant([[6, 7, 8], [9, 10, 11]], dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        c = tf.matmul(a, b)
        cc = c * tf.stop_gradient(c)
    assert c.numpy().tolist() == [[24.0, 27.0, 30.0], [54.0, 61.0, 68.0]]
    assert tape.gradient(c, a).numpy().tolist() == [[21.0, 30.0], [21.0, 30.0]]
    assert tape.gradient(cc, a).numpy().tolist() == [[573.0, 816.0], [1295.0, 1844.0]]


@tf.custom_gradient
def log1pexp2(x):
    e = tf.exp(x)
    y = tf.math.log(1 + e)
    x_grad = 1 - 1 / (1 + e)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def second_order_gradient(ddy):
                # Let's define the second-order graidne to be (1 - e)
                return ddy * (1 - e)

            return x_grad, second_order_gradient

        return dy * first_order_custom(x)

    return y, first_order_gradient


def test_seed_004_custom_second_derivative_with_nested_tapes():
    results = []
    for value in (1.0, 100.0):
        x = tf.constant(value)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = log1pexp2(x)
            dy = t1.gradient(y, x)
        results.append((dy.numpy(), t2.gradient(dy, x).numpy()))
    # The seed prints x=1: 0.7310586, -1.7182817 and x=100: 1.0, -inf (float32, 1 ulp apart at most).
    np.testing.assert_allclose(results[0], [0.7310586, -1.7182817], rtol=2e-7)
    assert results[1] == (1.0, -np.inf)
