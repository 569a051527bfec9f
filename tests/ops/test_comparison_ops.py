"""Comparisons, logical and bitwise ops: values, and no gradient through them."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

X, Y = [1.0, 2.0, 3.0], [2.0, 2.0, 2.0]

COMPARISONS = [
    (rg.less, np.less),
    (rg.less_equal, np.less_equal),
    (rg.greater, np.greater),
    (rg.greater_equal, np.greater_equal),
    (rg.equal, np.equal),
    (rg.not_equal, np.not_equal),
]


@pytest.mark.parametrize("op, reference", COMPARISONS, ids=lambda f: getattr(f, "__name__", ""))
def test_comparisons_match_numpy_and_have_no_gradient(op, reference):
    x = rg.constant(X)
    with rg.GradientTape() as tape:
        tape.watch(x)
        out = op(x, Y)
    assert out.dtype == rg.bool
    assert out.numpy().tolist() == reference(X, Y).tolist()
    assert tape.gradient(out, x) is None


def test_logical_ops():
    a, b = rg.constant([True, True, False]), rg.constant([True, False, False])
    assert rg.logical_and(a, b).numpy().tolist() == [True, False, False]
    assert rg.logical_or(a, b).numpy().tolist() == [True, True, False]
    assert rg.math.logical_xor(a, b).numpy().tolist() == [False, True, False]
    assert rg.logical_not(a).numpy().tolist() == [False, False, True]
    assert ((a & b) | ~a).numpy().tolist() == [True, False, True]
    with pytest.raises(TypeError, match="bool"):
        rg.logical_and([1.0], [0.0])


def test_bitwise_ops_on_integers():
    x = rg.constant(5)
    assert int(x & 3) == 1 and int(x | 2) == 7 and int(x ^ 1) == 4 and int(~x) == -6
    assert rg.bitwise.bitwise_and([12], [10]).numpy().tolist() == [8]


def test_comparison_of_different_dtypes_is_a_type_error():
    with pytest.raises(
        TypeError, match="Less: x and y must have the same dtype, got float32 and int32"
    ):
        rg.constant(1.0) < rg.constant(1)


SPECIAL = [1.0, np.nan, np.inf, -np.inf, -0.0]


@pytest.mark.parametrize(
    "op, reference",
    [(rg.math.is_nan, np.isnan), (rg.math.is_inf, np.isinf), (rg.math.is_finite, np.isfinite)],
    ids=lambda f: getattr(f, "__name__", ""),
)
@pytest.mark.parametrize("dtype", [rg.float16, rg.float32, rg.float64])
def test_float_classification_matches_numpy_and_has_no_gradient(op, reference, dtype):
    x = rg.constant(SPECIAL, dtype)
    with rg.GradientTape() as tape:
        tape.watch(x)
        out = op(x)
    assert out.dtype == rg.bool
    assert out.numpy().tolist() == reference(np.array(SPECIAL)).tolist()
    assert tape.gradient(out, x) is None


@pytest.mark.parametrize("op", [rg.math.is_nan, rg.math.is_inf, rg.math.is_finite])
def test_float_classification_refuses_integers(op):
    with pytest.raises(TypeError, match="must be a float tensor, got int32"):
        op(rg.constant([1]))
