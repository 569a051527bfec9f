"""norm: every vector and matrix ``ord`` TensorFlow accepts, over axes, with keepdims; values
against NumPy, gradients against finite differences (away from zeros and ties)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of


def _away_from_zero(a):
    return np.abs(a) < 0.2


def ref_vector_norm(x, ord, axis=None, keepdims=False):
    if axis is None:
        value = np.linalg.norm(x.ravel(), ord=2 if ord == "euclidean" else ord)
        return np.reshape(value, (1,) * x.ndim) if keepdims else value
    return np.linalg.norm(x, ord=2 if ord == "euclidean" else ord, axis=axis, keepdims=keepdims)


def ref_matrix_norm(x, ord, axis, keepdims=False):
    ord = "fro" if ord == "euclidean" else ord
    return np.linalg.norm(x, ord=ord, axis=tuple(axis), keepdims=keepdims)


VECTOR_ORDS = ["euclidean", 1, 2, np.inf, 3, 0.5, 2.5]
MATRIX_ORDS = ["euclidean", "fro", 1, 2, np.inf]

CASES = [
    *[
        Case(
            f"norm[{ord},axis={axis},keepdims={keep}]",
            lambda x, ord=ord, axis=axis, keep=keep: rg.norm(x, ord=ord, axis=axis, keepdims=keep),
            (shape,),
            lambda x, ord=ord, axis=axis, keep=keep: ref_vector_norm(x, ord, axis, keep),
            avoid=_away_from_zero,
        )
        for ord in VECTOR_ORDS
        for shape, axis, keep in [((2, 3), None, False), ((2, 3), -1, True), ((3,), 0, False)]
    ],
    Case("norm[scalar]", rg.norm, ((),), np.abs, avoid=_away_from_zero),
    *[
        Case(
            f"norm[matrix,{ord},axis={axis},keepdims={keep}]",
            lambda x, ord=ord, axis=axis, keep=keep: rg.linalg.norm(
                x, ord=ord, axis=axis, keepdims=keep
            ),
            (shape,),
            lambda x, ord=ord, axis=axis, keep=keep: ref_matrix_norm(x, ord, axis, keep),
            avoid=_away_from_zero,
        )
        for ord in MATRIX_ORDS
        for shape, axis, keep in [
            ((3, 2), (0, 1), False),
            ((2, 2, 3), (2, 1), True),
            ((3, 2, 2), [0, -1], False),
        ]
    ],
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_gradients_at_zero_and_at_ties_follow_tensorflow():
    zero = np.zeros(3)
    assert np.all(np.isnan(gradient_of(rg.norm, zero).numpy()))
    assert np.all(np.isnan(gradient_of(lambda x: rg.norm(x, ord=2), zero).numpy()))
    assert np.all(np.isnan(gradient_of(lambda x: rg.norm(x, ord=3), zero).numpy()))
    assert gradient_of(lambda x: rg.norm(x, ord=1), zero).numpy().tolist() == [0.0, 0.0, 0.0]
    ties = np.array([1.0, -1.0, 0.5])
    assert gradient_of(lambda x: rg.norm(x, ord=np.inf), ties).numpy().tolist() == [0.5, -0.5, 0.0]


def test_euclidean_norm_of_complex_values_is_complex_as_in_tensorflow():
    z = np.array([3.0 + 0j, 4j], dtype=np.complex64)
    out = rg.norm(z)
    assert out.dtype == rg.complex64
    np.testing.assert_allclose(out.numpy(), 5.0)


def test_ord_may_be_any_real_number_type():
    x = np.array([1.0, -2.0, 2.0])
    for ord in (np.float64(2.0), 2, True, np.int64(1)):
        np.testing.assert_allclose(rg.norm(x, ord=ord).numpy(), np.linalg.norm(x, ord=float(ord)))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"ord": "fro"}, "supported vector norm"),
        ({"ord": 0}, "supported vector norm"),
        ({"ord": -1}, "supported vector norm"),
        ({"ord": -np.inf}, "supported vector norm"),
        ({"ord": "nuc", "axis": (0, 1)}, "supported matrix norm"),
        ({"ord": 3, "axis": (0, 1)}, "supported matrix norm"),
        ({"axis": (0, 0)}, "2 unique integers"),
        ({"axis": (0, 1, 2)}, "2 unique integers"),
        ({"axis": (0, -3)}, "same dimension twice"),
        ({"axis": 5}, "out of range"),
        ({"axis": "x"}, "2 unique integers"),
    ],
)
def test_bad_ord_and_axis_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rg.norm(rg.ones([3, 3, 3]), **kwargs)


def test_integer_tensors_are_refused():
    with pytest.raises(TypeError, match="Norm: `tensor` must be a float or complex tensor"):
        rg.norm([1, 2])
