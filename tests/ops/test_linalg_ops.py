"""MatMul: values and gradients in every transpose combination, batched and broadcast."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _t(x):
    return np.swapaxes(x, -1, -2)


CASES = [
    Case("MatMul", rg.matmul, ((2, 3), (3, 4)), np.matmul),
    Case(
        "MatMul[ta]",
        lambda a, b: rg.matmul(a, b, transpose_a=True),
        ((3, 2), (3, 4)),
        lambda a, b: _t(a) @ b,
    ),
    Case(
        "MatMul[tb]",
        lambda a, b: rg.matmul(a, b, transpose_b=True),
        ((2, 3), (4, 3)),
        lambda a, b: a @ _t(b),
    ),
    Case(
        "MatMul[ta,tb]",
        lambda a, b: rg.matmul(a, b, transpose_a=True, transpose_b=True),
        ((3, 2), (4, 3)),
        lambda a, b: _t(a) @ _t(b),
    ),
    Case(
        "MatMul[adjoint]",
        lambda a, b: rg.matmul(a, b, adjoint_a=True, adjoint_b=True),
        ((3, 2), (4, 3)),
        lambda a, b: _t(a) @ _t(b),
    ),
    Case("MatMul[batch]", rg.matmul, ((2, 2, 3), (2, 3, 2)), np.matmul),
    Case("MatMul[broadcast]", rg.matmul, ((2, 1, 2, 3), (3, 3, 2)), np.matmul),
    Case("MatMul[operator]", lambda a, b: a @ b, ((1, 3), (3, 1)), np.matmul),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_registered_gradient_is_upstream_times_b_transposed():
    """Seed 003: the MatMul gradient for a is grad @ b^T."""
    a = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    b = rg.constant([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(a)
        c = rg.matmul(a, b)
        cc = c * rg.stop_gradient(c)
    assert tape.gradient(c, a).numpy().tolist() == [[21.0, 30.0], [21.0, 30.0]]
    assert tape.gradient(cc, a).numpy().tolist() == [[573.0, 816.0], [1295.0, 1844.0]]


@pytest.mark.parametrize(
    "a_shape, b_shape, match",
    [
        ((3,), (3, 2), "rank >= 2"),
        ((2, 3), (2, 3), "inner dimensions"),
        ((2, 2, 3), (3, 3, 2), "not broadcastable"),
    ],
)
def test_bad_shapes_raise_naming_matmul(a_shape, b_shape, match):
    with pytest.raises(rg.errors.InvalidArgumentError, match=match):
        rg.matmul(rg.ones(a_shape), rg.ones(b_shape))


def test_transpose_and_adjoint_together_is_an_error():
    with pytest.raises(ValueError, match="transpose"):
        rg.matmul(rg.ones([2, 2]), rg.ones([2, 2]), transpose_a=True, adjoint_a=True)
