"""Inverse trigonometric and hyperbolic functions, real and complex: values against NumPy,
gradients against finite differences at first and second order."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import binary, check_forward, check_gradient, unary


def _near_zero(a):
    return np.abs(a) < 0.2


def cunary(name, fn, reference, **kw):
    # First-quadrant inputs stay clear of every branch cut (parts of the real and imaginary
    # axes) of these functions.
    return unary(f"{name}[complex]", fn, reference, complex_inputs=(0,), domain=(0.2, 0.9), **kw)


CASES = [
    *unary("Asin", rg.asin, np.arcsin, domain=(-0.9, 0.9)),
    *unary("Acos", rg.acos, np.arccos, domain=(-0.9, 0.9)),
    *unary("Atan", rg.atan, np.arctan),
    # Away from the origin (a pole of the gradient) and from y = 0 (the jump from pi to -pi).
    *binary("Atan2", rg.atan2, np.arctan2, avoid=_near_zero),
    *unary("Sinh", rg.sinh, np.sinh),
    *unary("Cosh", rg.cosh, np.cosh),
    *unary("Asinh", rg.asinh, np.arcsinh),
    *unary("Acosh", rg.acosh, np.arccosh, domain=(1.2, 3.0)),
    *unary("Atanh", rg.atanh, np.arctanh, domain=(-0.9, 0.9)),
    *cunary("Asin", rg.asin, np.arcsin),
    *cunary("Acos", rg.acos, np.arccos),
    *cunary("Atan", rg.atan, np.arctan),
    *cunary("Sinh", rg.sinh, np.sinh),
    *cunary("Cosh", rg.cosh, np.cosh),
    *cunary("Asinh", rg.asinh, np.arcsinh),
    *cunary("Acosh", rg.acosh, np.arccosh),
    *cunary("Atanh", rg.atanh, np.arctanh),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_namespaces_follow_tensorflow():
    for name in ("asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh"):
        assert getattr(rg, name) is getattr(rg.math, name)


def test_atan2_takes_y_first_and_covers_all_quadrants():
    y = rg.constant([1.0, 1.0, -1.0, 0.0, -0.0])
    x = rg.constant([1.0, -1.0, -1.0, -1.0, -1.0])
    np.testing.assert_allclose(
        rg.atan2(y, x).numpy(), [np.pi / 4, 3 * np.pi / 4, -3 * np.pi / 4, np.pi, -np.pi]
    )
    assert rg.atan2(y=1.0, x=0.0).numpy() == np.float32(np.pi / 2)


def test_atan2_gradient_at_the_origin_is_nan_like_tensorflow():
    y, x = rg.constant([0.0]), rg.constant([0.0])
    with rg.GradientTape() as tape:
        tape.watch([y, x])
        z = rg.atan2(y, x)
    gy, gx = tape.gradient(z, [y, x])
    assert np.isnan(gy.numpy()).all() and np.isnan(gx.numpy()).all()


def test_outside_the_real_domain_values_are_nan_like_tensorflow():
    assert np.isnan(rg.asin([2.0]).numpy()).all()
    assert np.isnan(rg.acosh([0.5]).numpy()).all()
    assert rg.atanh([1.0, -1.0]).numpy().tolist() == [np.inf, -np.inf]


@pytest.mark.parametrize(
    "op", [rg.asin, rg.acos, rg.atan, rg.sinh, rg.cosh, rg.asinh, rg.acosh, rg.atanh]
)
def test_integers_are_refused(op):
    with pytest.raises(TypeError, match="must be a float or complex tensor, got int32"):
        op(rg.constant([1, 2]))


@pytest.mark.parametrize(
    "y, x, error, match",
    [
        (
            rg.constant([1]),
            rg.constant([1]),
            TypeError,
            "Atan2: `x` must be a float tensor, got int32",
        ),
        (rg.constant([1 + 1j]), rg.constant([1 + 1j]), TypeError, "got complex128"),
        (rg.constant([1.0]), rg.constant([1.0], rg.float64), TypeError, "same dtype"),
        (rg.ones([2]), rg.ones([3]), rg.errors.InvalidArgumentError, "Atan2: shapes"),
    ],
)
def test_atan2_refuses_bad_arguments(y, x, error, match):
    with pytest.raises(error, match=match):
        rg.atan2(y, x)
