"""Activations: values against NumPy/SciPy, gradients against finite differences at first
and second order (away from kinks), and TensorFlow's gradients at the kinks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, unary

SELU_SCALE, SELU_ALPHA = 1.0507009873554805, 1.6732632423543772


def _near(*points):
    return lambda a: np.any([np.abs(a - p) < 0.1 for p in points], axis=0)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def _gelu(x):
    return 0.5 * x * scipy.special.erfc(-x / np.sqrt(2))


def _elu(x):
    return np.where(x < 0, np.expm1(x), x)


CASES = [
    *unary("Softsign", rg.nn.softsign, lambda x: x / (1 + np.abs(x)), avoid=_near(0)),
    *unary("Elu", rg.nn.elu, _elu, avoid=_near(0)),
    *unary(
        "Selu",
        rg.nn.selu,
        lambda x: SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.expm1(x), x),
        avoid=_near(0),
    ),
    *unary("Relu6", rg.nn.relu6, lambda x: np.clip(x, 0, 6), domain=(-2.0, 8.0), avoid=_near(0, 6)),
    *unary("LeakyRelu", rg.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x), avoid=_near(0)),
    *unary(
        "LeakyRelu[alpha=1.5]",
        lambda x: rg.nn.leaky_relu(x, alpha=1.5),
        lambda x: np.where(x > 0, x, 1.5 * x),
        avoid=_near(0),
    ),
    *unary("gelu", rg.nn.gelu, _gelu),
    *unary("gelu[approximate]", lambda x: rg.nn.gelu(x, approximate=True), _gelu_tanh),
    *unary("silu", rg.nn.silu, lambda x: x * _sigmoid(x)),
    *unary("swish[beta=0.5]", lambda x: rg.nn.swish(x, 0.5), lambda x: x * _sigmoid(0.5 * x)),
    Case("silu[beta tensor]", rg.nn.silu, ((2, 3), ()), lambda x, b: x * _sigmoid(b * x)),
    *unary(
        "silu[complex]",
        rg.nn.silu,
        lambda z: z * _sigmoid(z),
        complex_inputs=(0,),
        domain=(0.2, 1.0),
    ),
    *unary("log_sigmoid", rg.math.log_sigmoid, lambda x: -np.logaddexp(0, -x)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_reference(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def _first_and_second(f, values):
    x = rg.constant(values)
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    gg = outer.gradient(g, x)
    return g.numpy(), (np.zeros(x.shape) if gg is None else gg.numpy())


AT_KINKS = [0.0, 6.0, 3.0, -1.0]


@pytest.mark.parametrize(
    "f, first, second",
    [
        # What TensorFlow 2.21 gives at [0, 6, 3, -1] (kinks of relu6 at 0 and 6, of the
        # others at 0).
        (rg.nn.relu6, [0, 0, 1, 0], [0, 0, 0, 0]),
        (rg.nn.leaky_relu, [0.2, 1, 1, 0.2], [0, 0, 0, 0]),
        (lambda x: rg.nn.leaky_relu(x, alpha=2.0), [2, 1, 1, 2], [0, 0, 0, 0]),
        (rg.nn.elu, [1, 1, 1, np.exp(-1)], [0, 0, 0, np.exp(-1)]),
        (
            rg.nn.selu,
            [SELU_SCALE] * 3 + [SELU_SCALE * SELU_ALPHA * np.exp(-1)],
            [0, 0, 0, SELU_SCALE * SELU_ALPHA * np.exp(-1)],
        ),
        # (TensorFlow has no second derivative of softsign; this is -2 sign(x) / (1 + |x|)^3
        # with sign(0) = 0.)
        (rg.nn.softsign, [1, 1 / 49, 1 / 16, 1 / 4], [0, -2 / 343, -2 / 64, 2 / 8]),
    ],
)
def test_gradients_at_kinks_follow_tensorflow(f, first, second):
    g, gg = _first_and_second(f, AT_KINKS)
    np.testing.assert_allclose(g, np.float32(first), rtol=1e-6)
    np.testing.assert_allclose(gg, np.float32(second), rtol=1e-6, atol=1e-7)


def test_dtypes_follow_tensorflow():
    assert rg.nn.leaky_relu(rg.constant([-2, 3])).dtype == rg.float32
    assert rg.nn.leaky_relu(rg.constant([-2, 3])).numpy().tolist() == [np.float32(-0.4), 3.0]
    assert rg.nn.relu6(rg.constant([-2, 3, 9])).numpy().tolist() == [0, 3, 6]
    assert rg.nn.relu6(rg.constant([-2, 3, 9], rg.int64)).dtype == rg.int64
    assert rg.nn.silu(rg.constant([1.0], rg.float64), beta=rg.constant(2.0)).dtype == rg.float64
    assert rg.nn.swish is rg.nn.silu
    assert rg.math.softsign is rg.nn.softsign


def test_leaky_relu_alpha_is_a_python_number():
    assert rg.nn.leaky_relu([-2.0], alpha=np.float64(0.5)).numpy().tolist() == [-1.0]
    with pytest.raises(TypeError, match="LeakyRelu: `alpha` must be a Python float"):
        rg.nn.leaky_relu([-2.0], alpha=rg.constant(0.5))


def test_silu_is_differentiable_in_beta():
    x, beta = rg.constant([1.0, -2.0]), rg.constant(1.5)
    with rg.GradientTape() as tape:
        tape.watch(beta)
        y = rg.nn.silu(x, beta)
    s = _sigmoid(1.5 * x.numpy())
    expected = np.sum(x.numpy() ** 2 * s * (1 - s))
    np.testing.assert_allclose(tape.gradient(y, beta).numpy(), expected, rtol=1e-6)


def test_log_sigmoid_and_gelu_are_stable_far_out():
    assert rg.math.log_sigmoid([-1000.0, 1000.0]).numpy().tolist() == [-1000.0, 0.0]
    assert rg.nn.gelu([-1000.0, 1000.0]).numpy().tolist() == [-0.0, 1000.0]


@pytest.mark.parametrize(
    "op, arg",
    [
        (rg.nn.softsign, "features"),
        (rg.nn.elu, "features"),
        (rg.nn.selu, "features"),
        (rg.nn.gelu, "features"),
        (rg.nn.silu, "features"),
        (rg.math.log_sigmoid, "x"),
    ],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_integers_are_refused(op, arg):
    with pytest.raises(TypeError, match=f"`{arg}` must be a float"):
        op(rg.constant([1, 2]))
