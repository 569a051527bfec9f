"""Elementwise arithmetic: forward values against NumPy, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import power_grad_ops
from tests.ops.table import Case, binary, check_forward, check_gradient, unary


def _near_zero(a):
    return np.abs(a) < 0.2


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


CASES = [
    *binary("AddV2", rg.add, np.add),
    *binary("Sub", rg.subtract, np.subtract),
    *binary("Mul", rg.multiply, np.multiply),
    *binary("RealDiv", rg.realdiv, np.true_divide, avoid=_near_zero),
    *binary("Pow", rg.pow, np.power, domain=(0.5, 2.0)),
    *binary("Maximum", rg.maximum, np.maximum),
    *binary("Minimum", rg.minimum, np.minimum),
    *binary("SquaredDifference", rg.math.squared_difference, lambda x, y: (x - y) ** 2),
    *binary(
        "FloorMod",
        rg.math.floormod,
        np.mod,
        domain=(0.5, 3.0),
        avoid=lambda a: np.abs(a - np.round(a)) < 0.1,
    ),  # fmt: skip
    *unary("Neg", rg.negative, np.negative),
    *unary("Abs", rg.abs, np.abs, avoid=_near_zero),
    *unary("Square", rg.square, np.square),
    *unary("Sqrt", rg.sqrt, np.sqrt, domain=(0.5, 2.0)),
    *unary("Rsqrt", rg.math.rsqrt, lambda x: 1 / np.sqrt(x), domain=(0.5, 2.0)),
    *unary("Reciprocal", rg.math.reciprocal, np.reciprocal, avoid=_near_zero),
    *unary("Exp", rg.exp, np.exp),
    *unary("Log", rg.math.log, np.log, domain=(0.5, 2.0)),
    *unary("Log1p", rg.math.log1p, np.log1p, domain=(-0.5, 2.0)),
    *unary("Expm1", rg.math.expm1, np.expm1),
    *unary("Sin", rg.sin, np.sin),
    *unary("Cos", rg.cos, np.cos),
    *unary("Tan", rg.tan, np.tan, domain=(-1.2, 1.2)),
    *unary("Tanh", rg.tanh, np.tanh),
    *unary("Sigmoid", rg.sigmoid, _sigmoid),
    *binary("TanhGrad", power_grad_ops.tanh_grad, lambda y, dy: dy * (1 - y * y)),
    *binary("SigmoidGrad", power_grad_ops.sigmoid_grad, lambda y, dy: dy * y * (1 - y)),
    *binary("SqrtGrad", power_grad_ops.sqrt_grad, lambda y, dy: dy * 0.5 / y, domain=(0.5, 2.0)),
    *binary("RsqrtGrad", power_grad_ops.rsqrt_grad, lambda y, dy: -0.5 * dy * y**3),
    *binary("ReciprocalGrad", power_grad_ops.reciprocal_grad, lambda y, dy: -dy * y * y),
    # Through float32 and back: finite differences need a step far above float32 rounding.
    *unary(
        "Cast",
        lambda x: rg.cast(rg.cast(x, rg.float32), rg.float64) * x,
        None,
        delta=1e-2,
        atol=1e-3,
        rtol=1e-3,
    ),  # fmt: skip
    Case("AddN", lambda a, b, c: rg.add_n([a, b, c]), ((2, 3),) * 3, lambda a, b, c: a + b + c),
    Case(
        "ClipByValue",
        lambda t: rg.clip_by_value(t, -0.5, 1.0),
        ((2, 3),),
        lambda t: np.clip(t, -0.5, 1.0),
        avoid=lambda a: (np.abs(a + 0.5) < 0.1) | (np.abs(a - 1) < 0.1),
    ),  # fmt: skip
    Case(
        "ClipByValue",
        rg.clip_by_value,
        ((2, 3), (3,), (2, 1)),
        lambda t, lo, hi: np.maximum(np.minimum(t, hi), lo),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


@pytest.mark.parametrize(
    "fn, args, expected",
    [
        (rg.abs, [0.0, -1.0, 2.0], [0.0, -1.0, 1.0]),
        (rg.nn.relu, [0.0, -1.0, 2.0], [0.0, 0.0, 1.0]),
        (lambda x: rg.maximum(x, 0.0), [0.0, -1.0, 2.0], [1.0, 0.0, 1.0]),
        (lambda x: rg.minimum(x, 0.0), [0.0, -1.0, 2.0], [1.0, 1.0, 0.0]),
        (rg.sign, [0.0, -1.0, 2.0], [0.0, 0.0, 0.0]),
        (lambda x: rg.clip_by_value(x, 0.0, 2.0), [0.0, -1.0, 2.0], [1.0, 0.0, 1.0]),
        (lambda x: rg.pow(x, 2.0), [0.0, -1.0, 2.0], [0.0, -2.0, 4.0]),
        (lambda x: x**0.0, [0.0, -1.0, 2.0], [np.nan, -0.0, 0.0]),
        (rg.sqrt, [0.0, 4.0], [np.inf, 0.25]),
    ],
)
def test_gradients_at_kinks_follow_tensorflow(fn, args, expected):
    """Values TensorFlow 2.21 gives at points where the derivative is a convention."""
    x = rg.constant(args)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.float32(expected))


def test_pow_gradient_with_respect_to_exponent_is_zero_where_base_is_not_positive():
    x, y = rg.constant([0.0, -2.0]), rg.constant([2.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(y)
        z = rg.pow(x, y)
    assert tape.gradient(z, y).numpy().tolist() == [0.0, 0.0]


def test_sigmoid_is_stable_for_large_inputs():
    assert rg.sigmoid([-1000.0, 1000.0]).numpy().tolist() == [0.0, 1.0]


@pytest.mark.parametrize("op", [rg.exp, rg.sqrt, rg.math.log, rg.sin, rg.tanh, rg.sigmoid])
def test_float_only_ops_refuse_integers(op):
    with pytest.raises(TypeError, match="must be a float"):
        op(rg.constant([1, 2]))


def test_integer_arithmetic_keeps_int32():
    x = rg.constant([7, -7])
    assert (x + 1).dtype == rg.int32
    assert (x // 2).numpy().tolist() == [3, -4]
    assert (x % 2).numpy().tolist() == [1, 1]
    assert (x * x).numpy().tolist() == [49, 49]


def test_true_division_of_integers_gives_float64_like_python():
    assert (rg.constant(3) / rg.constant(2)).numpy() == 1.5
    assert (rg.constant(3) / 2).dtype == rg.float64
    assert rg.divide(rg.constant(3, rg.int16), 2).dtype == rg.float32


def test_integer_to_negative_power_is_an_error():
    with pytest.raises(rg.errors.InvalidArgumentError, match="Pow"):
        rg.constant(2) ** -1


def test_cast_truncates_toward_zero_and_refuses_unknown_dtypes():
    assert rg.cast([1.7, -1.7], rg.int32).numpy().tolist() == [1, -1]
    assert rg.cast([1.7, 0.0], rg.bool).numpy().tolist() == [True, False]
    with pytest.raises(TypeError, match="DType"):
        rg.cast([1.0], "float8")


def test_cast_to_integer_has_no_gradient():
    x = rg.constant(1.5)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.cast(x, rg.int32)
    assert tape.gradient(y, x) is None


def test_add_n_requires_same_shapes():
    with pytest.raises(rg.errors.InvalidArgumentError, match="AddN"):
        rg.add_n([rg.ones([2]), rg.ones([3])])


def test_clip_by_value_bound_may_not_change_shape():
    with pytest.raises(rg.errors.InvalidArgumentError, match="ClipByValue"):
        rg.clip_by_value(rg.ones([2]), rg.zeros([3, 2]), 1.0)


def test_squared_difference_of_integers_and_its_refusals():
    assert rg.math.squared_difference([1, 5], 3).numpy().tolist() == [4, 4]
    assert rg.math.squared_difference([1, 5], 3).dtype == rg.int32
    with pytest.raises(TypeError, match="SquaredDifference"):
        rg.math.squared_difference(rg.constant([1], rg.uint8), rg.constant([1], rg.uint8))


@pytest.mark.parametrize(
    "f", [rg.sqrt, rg.math.rsqrt, rg.math.reciprocal], ids=["sqrt", "rsqrt", "reciprocal"]
)
def test_gradients_through_a_pole_are_zero_where_upstream_is_zero(f):
    # TensorFlow's SqrtGrad/RsqrtGrad/ReciprocalGrad: 0 where the upstream gradient is 0.
    x = rg.constant([0.0, 4.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        masked = rg.where(x > 0, f(x), 0.0)
        scaled = rg.reduce_sum(f(x) * 0.0)
    assert tape.gradient(masked, x).numpy()[0] == 0.0
    assert tape.gradient(scaled, x).numpy().tolist() == [0.0, 0.0]
    with rg.autodiff.ForwardAccumulator(x, rg.constant([0.0, 1.0])) as acc:
        y = f(x)
    assert acc.jvp(y).numpy()[0] == 0.0
