"""``python -m retrograd demo``: the questions of the seeds, answered by running them.

Each section is a TensorFlow program from the seeds, run with ``import retrograd as tf``.
"""

from __future__ import annotations

import sys
from typing import TextIO

import numpy as np

import retrograd as tf


def _heading(out: TextIO, number: int, title: str, note: str) -> None:
    print(f"\n{number}. {title}", file=out)
    print("   " + note.replace("\n", "\n   "), file=out)


def chain_rule(out: TextIO) -> None:
    """Seed 000: what grad_fn receives (upstream), computes (local) and returns (downstream)."""
    _heading(out, 1, "The chain rule, one custom gradient at a time", (
        "foo(x) = x**2 with a custom gradient that prints what it gets and gives;\n"
        "y = foo(foo(foo(x))) = x**8. `upstream` is dy/d(output), `current` the local\n"
        "derivative, `downstream` = current * upstream = dy/d(input)."
    ))  # fmt: skip

    @tf.custom_gradient
    def foo(x):
        tf.debugging.assert_rank(x, 0)

        def grad(dy_dx_upstream):
            dy_dx = 2 * x
            dy_dx_downstream = dy_dx * dy_dx_upstream
            tf.print(
                f"x={x}\tupstream={dy_dx_upstream}\tcurrent={dy_dx}\t\tdownstream={dy_dx_downstream}",
                output_stream=out,
            )
            return dy_dx_downstream

        y = x**2
        tf.print(f"x={x}\ty={y}", output_stream=out)
        return y, grad

    x = tf.constant(2.0, dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = foo(foo(foo(x)))  # y = x ** 8
    tf.print(f"\nfinal dy/dx={tape.gradient(y, x)}", output_stream=out)


def stable_gradient(out: TextIO) -> None:
    """Seed 001: a custom gradient that is numerically stable where autodiff's is not."""
    _heading(out, 2, "Why write a custom gradient: log(1 + exp(x)) at x = 100", (
        "Autodiff differentiates log(1 + e) as e / (1 + e) = inf / inf in float32;\n"
        "the simplified derivative 1 - 1 / (1 + e) is exact."
    ))  # fmt: skip

    def log1pexp(x):
        return tf.math.log(1 + tf.exp(x))

    @tf.custom_gradient
    def stable_log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return tf.math.log(1 + e), grad

    x = tf.constant(100.0)
    for label, fn in (("autodiff", log1pexp), ("custom  ", stable_log1pexp)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        tf.print(f"{label} gradient at x=100:", tape.gradient(y, x), output_stream=out)


def sign_with_sigmoid_backward(out: TextIO) -> None:
    """Seed 002: a non-differentiable forward pass trained through a surrogate gradient."""
    _heading(out, 3, "Training through sign(x) with a sigmoid-shaped gradient", (
        "Forward: sign(x). Backward: sigmoid'(x). Adam(0.1) drives x from -1 until\n"
        "sign(x) = 1. Once it is, the loss and its gradient are 0, yet x keeps moving:\n"
        "Adam's momentum (its running mean of past gradients) decays slowly, not at once."
    ))  # fmt: skip
    print(f"{'step':>4}  {'loss':>4}  {'gradient':>12}  {'x':>12}  {'y':>2}", file=out)

    @tf.custom_gradient
    def differentiable_sign(x):
        tf.debugging.assert_rank(x, 0)

        def grad(upstream):
            dy_dx = tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))
            return upstream * dy_dx

        if x > tf.constant(0.0):
            return tf.constant(1.0), grad
        return tf.constant(-1.0), grad

    x = tf.Variable(-1.0)
    opt = tf.keras.optimizers.Adam(1e-1)
    for i in range(100):
        with tf.GradientTape() as tape:
            y = differentiable_sign(x)
            loss = tf.nn.l2_loss(y - tf.constant(1.0))
        grads = tape.gradient(loss, x)
        opt.apply_gradients(zip([grads], [x]))
        if i % 10 == 0:
            g = float(grads.numpy())
            print(f"{i:>4}  {float(loss):>4g}  {g:>12.9g}  {float(x.numpy()):>12.9g}  "
                  f"{float(y):>2g}", file=out)  # fmt: skip


def matmul_gradient(out: TextIO) -> None:
    """Seed 003: what the registered MatMul gradient returns, element by element."""
    _heading(out, 4, "What a registered gradient computes: MatMul", (
        "For c = a @ b, the gradient of sum(upstream * c) with respect to a is\n"
        "upstream @ b^T: row i of a meets row i of upstream through every column of b."
    ))  # fmt: skip
    a = tf.constant([[1, 2], [3, 4]], dtype=tf.float32)
    b = tf.constant([[6, 7, 8], [9, 10, 11]], dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        c = tf.matmul(a, b)
        cc = c * tf.stop_gradient(c)
    rows = [
        ("c = a @ b", c),
        ("gradient of c (upstream ones)", tape.gradient(c, a)),
        ("ones @ b^T", tf.matmul(tf.ones_like(c), b, transpose_b=True)),
        ("gradient of c * stop_gradient(c)", tape.gradient(cc, a)),
        ("c @ b^T (upstream c)", tf.matmul(c, b, transpose_b=True)),
    ]
    for label, value in rows:
        tf.print(f"{label}:\n", value, sep="", output_stream=out)


def custom_second_derivative(out: TextIO) -> None:
    """Seed 004: a custom second derivative through a nested custom gradient."""
    _heading(out, 5, "A custom second derivative", (
        "The first derivative returns dy * first_order_custom(x), itself a custom\n"
        "gradient: whatever its rule returns is what a second tape sees as the second\n"
        "derivative. The seed's rule 1 - e is a deliberate stand-in (its author calls the\n"
        "true one numerically unstable), NOT the true second derivative of log(1 + e^x),\n"
        "which is e^x / (1 + e^x)^2 = sigmoid(x) * (1 - sigmoid(x)): printed beside it.\n"
        "At x = 100, e = exp(100) overflows float32 to inf, so the seed's 1 - e is -inf;\n"
        "the true value, about 3.7e-44, computes as 0 in float32 (sigmoid(100) rounds to 1)."
    ))  # fmt: skip

    @tf.custom_gradient
    def log1pexp2(x):
        e = tf.exp(x)
        y = tf.math.log(1 + e)
        x_grad = 1 - 1 / (1 + e)

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x):
                def second_order_gradient(ddy):
                    return ddy * (1 - e)

                return x_grad, second_order_gradient

            return dy * first_order_custom(x)

        return y, first_order_gradient

    for value in (1.0, 100.0):
        x = tf.constant(value)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = log1pexp2(x)
            dy = inner.gradient(y, x)
        ddy = outer.gradient(dy, x)
        true = tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))
        tf.print(f"x={value:g}, dy:", dy, output_stream=out)
        tf.print(f"x={value:g}, ddy:", ddy, "(the seed's rule 1 - e)", output_stream=out)
        tf.print(f"x={value:g}, true second derivative:", true, output_stream=out)


SECTIONS = [
    chain_rule,
    stable_gradient,
    sign_with_sigmoid_backward,
    matmul_gradient,
    custom_second_derivative,
]


def run(out: TextIO | None = None) -> None:
    """Runs every section, printing to ``out`` (stdout by default)."""
    out = sys.stdout if out is None else out
    print(
        "retrograd demo: TensorFlow's custom gradients on NumPy, the seeds run as written", file=out
    )
    # The seeds overflow on purpose (exp(100) in float32 is inf, as TensorFlow computes it
    # silently): NumPy's floating-point warnings are off while the demo runs.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for section in SECTIONS:
            section(out)
