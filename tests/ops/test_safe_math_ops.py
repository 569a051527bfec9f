"""xlogy, xdivy and divide_no_nan: values against NumPy, gradients against finite
differences (real and complex), and TensorFlow's zeros where they would be undefined."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import binary, check_forward, check_gradient


def _near_zero(a):
    return np.abs(a) < 0.2


def _complex(name, fn, reference):
    return binary(f"{name}[complex]", fn, reference, complex_inputs=(0, 1), domain=(0.2, 1.0))


CASES = [
    *binary("Xlogy", rg.math.xlogy, lambda x, y: x * np.log(y), domain=(0.2, 2.0)),
    *binary("Xdivy", rg.math.xdivy, np.true_divide, avoid=_near_zero),
    *binary("DivNoNan", rg.math.divide_no_nan, np.true_divide, avoid=_near_zero),
    *_complex("Xlogy", rg.math.xlogy, lambda x, y: x * np.log(y)),
    *_complex("Xdivy", rg.math.xdivy, np.true_divide),
    *_complex("DivNoNan", rg.math.divide_no_nan, np.true_divide),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def _values_and_gradients(f, x, y):
    x, y = rg.constant(x), rg.constant(y)
    with rg.GradientTape() as tape:
        tape.watch([x, y])
        z = f(x, y)
    gx, gy = tape.gradient(z, [x, y])
    return z.numpy().tolist(), gx.numpy().tolist(), gy.numpy().tolist()


@pytest.mark.parametrize(
    "f, x, y, expected",
    [
        # (values, gradient to x, gradient to y), as TensorFlow 2.21 computes them
        (
            rg.math.xlogy,
            [0.0, 0.0, 2.0],
            [0.0, 1.0, 0.0],
            ([0.0, 0.0, -np.inf], [0.0, 0.0, -np.inf], [0.0, 0.0, np.inf]),
        ),
        (
            rg.math.xdivy,
            [0.0, 0.0, 2.0],
            [0.0, 1.0, 0.0],
            ([0.0, 0.0, np.inf], [0.0, 0.0, np.inf], [0.0, 0.0, -np.inf]),
        ),
        (
            rg.math.divide_no_nan,
            [0.0, 1.0, 2.0],
            [0.0, 0.0, 4.0],
            ([0.0, 0.0, 0.5], [0.0, 0.0, 0.25], [0.0, 0.0, -0.125]),
        ),
    ],
)
def test_values_and_gradients_at_zero_follow_tensorflow(f, x, y, expected):
    assert _values_and_gradients(f, x, y) == expected


def test_zero_wins_over_nan_and_inf():
    assert rg.math.xlogy(0.0, np.nan).numpy() == 0.0
    assert rg.math.xdivy(0.0, np.nan).numpy() == 0.0
    assert rg.math.divide_no_nan([1.0, np.nan, np.inf], 0.0).numpy().tolist() == [0.0] * 3


def test_divide_no_nan_divides_integers_as_floats_like_divide():
    assert rg.math.divide_no_nan([1, 2], [0, 4]).dtype == rg.float64
    i16 = rg.constant([1, 2], rg.int16)
    assert rg.math.divide_no_nan(i16, i16).dtype == rg.float32


@pytest.mark.parametrize("op", [rg.math.xlogy, rg.math.xdivy, rg.math.divide_no_nan])
def test_mismatched_dtypes_are_refused(op):
    with pytest.raises(TypeError, match="same dtype"):
        op(rg.constant([1.0]), rg.constant([1.0], rg.float64))


@pytest.mark.parametrize("op", [rg.math.xlogy, rg.math.xdivy])
def test_integers_are_refused(op):
    with pytest.raises(TypeError, match="must be a float or complex tensor, got int32"):
        op(rg.constant([1]), rg.constant([1]))


def test_shapes_that_do_not_broadcast_are_refused():
    with pytest.raises(rg.errors.InvalidArgumentError, match="DivNoNan"):
        rg.math.divide_no_nan(rg.ones([2]), rg.ones([3]))
    with pytest.raises(rg.errors.InvalidArgumentError, match="Xlogy"):
        rg.math.xlogy(rg.ones([2]), rg.ones([3]))
