"""Matrix products: MatMul in every transpose combination, batched and broadcast; matvec,
tensordot, cross and the matrix transposes."""

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
    Case("matvec", rg.linalg.matvec, ((2, 3), (3,)), lambda a, b: a @ b),
    Case("matvec[broadcast]", rg.linalg.matvec, ((2, 2, 3), (3,)), lambda a, b: a @ b),
    Case("matvec[broadcast]", rg.linalg.matvec, ((2, 3), (4, 3)), lambda a, b: b @ _t(a)),
    Case(
        "matvec[ta]",
        lambda a, b: rg.linalg.matvec(a, b, transpose_a=True),
        ((3, 2), (3,)),
        lambda a, b: b @ a,
    ),
    Case("matvec[1x1]", rg.linalg.matvec, ((1, 1), (1,)), lambda a, b: a @ b),
    Case("tensordot[1]", lambda a, b: rg.tensordot(a, b, 1), ((2, 3), (3, 4)), np.matmul),
    Case(
        "tensordot[0]",
        lambda a, b: rg.tensordot(a, b, 0),
        ((2,), (3,)),
        lambda a, b: np.tensordot(a, b, 0),
    ),
    Case(
        "tensordot[scalars]",
        lambda a, b: rg.tensordot(a, b, 0),
        ((), ()),
        lambda a, b: np.tensordot(a, b, 0),
    ),
    Case(
        "tensordot[2]",
        lambda a, b: rg.tensordot(a, b, 2),
        ((2, 3), (2, 3)),
        lambda a, b: np.tensordot(a, b, 2),
    ),
    Case(
        "tensordot[pairs]",
        lambda a, b: rg.tensordot(a, b, [[0, 2], [2, -3]]),
        ((2, 3, 4), (4, 1, 2)),
        lambda a, b: np.tensordot(a, b, [[0, 2], [2, 0]]),
    ),
    Case(
        "tensordot[ints]",
        lambda a, b: rg.tensordot(a, b, [1, 0]),
        ((2, 3), (3, 2)),
        lambda a, b: np.tensordot(a, b, [1, 0]),
    ),
    Case("Cross", rg.linalg.cross, ((3,), (3,)), np.cross),
    Case("Cross[batch]", rg.linalg.cross, ((2, 3), (2, 3)), np.cross),
    Case("adjoint", rg.linalg.adjoint, ((2, 3, 4),), lambda a: np.swapaxes(a, -1, -2)),
    Case(
        "matrix_transpose",
        rg.linalg.matrix_transpose,
        ((1, 3),),
        lambda a: np.swapaxes(a, -1, -2),
    ),
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


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.linalg.matvec(rg.ones([2, 3]), 1.0),
            rg.errors.InvalidArgumentError,
            "rank >= 1",
        ),
        (
            lambda: rg.linalg.matvec(rg.ones([2, 3]), rg.ones([2])),
            rg.errors.InvalidArgumentError,
            "inner dimensions",
        ),
        (lambda: rg.linalg.matvec([1.0], [1.0]), rg.errors.InvalidArgumentError, "rank >= 2"),
        (lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), -1), ValueError, "at least 0"),
        (
            lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), 2),
            ValueError,
            "larger than the rank",
        ),
        (
            lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), [[1], [0], [0]]),
            ValueError,
            "length 2",
        ),
        (lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), [[0, 1], [0]]), ValueError, "2 != 1"),
        (
            lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), [[2], [0]]),
            ValueError,
            "out of range for `a`",
        ),
        (
            lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3, 3]), [[1, 1], [0, 1]]),
            ValueError,
            "repeat",
        ),
        (
            lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), [[0], [0]]),
            rg.errors.InvalidArgumentError,
            "size 2",
        ),
        (lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), "x"), ValueError, "length 2"),
        (lambda: rg.tensordot(rg.ones([2, 3]), rg.ones([3]), None), TypeError, "axes"),
        (
            lambda: rg.linalg.cross(rg.ones([2, 3]), rg.ones([3])),
            rg.errors.InvalidArgumentError,
            "same shape",
        ),
        (
            lambda: rg.linalg.cross(rg.ones([4]), rg.ones([4])),
            rg.errors.InvalidArgumentError,
            "3-element",
        ),
        (
            lambda: rg.linalg.cross(rg.ones([3], rg.complex64), rg.ones([3], rg.complex64)),
            TypeError,
            "Cross",
        ),
        (lambda: rg.linalg.cross(rg.ones([3]), rg.ones([3], rg.float64)), TypeError, "same dtype"),
        (lambda: rg.linalg.adjoint([1.0, 2.0]), rg.errors.InvalidArgumentError, "rank >= 2"),
    ],
)
def test_product_errors_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_integer_products_keep_their_dtype_and_have_no_gradient():
    x = rg.constant([[1.0, 2.0, 3.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ints = rg.cast(x, rg.int32)
        outputs = [
            rg.linalg.matvec(ints, rg.constant([1, 1, 1])),
            rg.tensordot(ints, ints, [[1], [1]]),
            rg.linalg.cross(ints, ints),
        ]
    assert [o.dtype for o in outputs] == [rg.int32] * 3
    assert outputs[0].numpy().tolist() == [6]
    for out in outputs:
        assert tape.gradient(out, x) is None


def test_cross_of_unit_vectors_follows_the_right_hand_rule():
    e = np.eye(3)
    assert rg.linalg.cross(e[0], e[1]).numpy().tolist() == [0.0, 0.0, 1.0]
    assert rg.linalg.cross(e[1], e[0]).numpy().tolist() == [0.0, 0.0, -1.0]


def test_adjoint_conjugates_complex_matrices():
    z = np.array([[1 + 2j, 3 - 1j]], dtype=np.complex64)
    np.testing.assert_array_equal(rg.linalg.adjoint(z).numpy(), z.conj().T)
    np.testing.assert_array_equal(rg.linalg.matrix_transpose(z).numpy(), z.T)
