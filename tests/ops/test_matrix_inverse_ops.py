"""Inverses, determinants, solves and the pseudo-inverse: values against NumPy, gradients
against finite differences at first and second order on well-conditioned matrices (built
inside each row from the free entries, so finite differences perturb those)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def dominant(x):
    """x + 3I: strictly diagonally dominant for entries in (-1, 1), so well conditioned."""
    return x + 3 * rg.eye(x.shape.as_list()[-1], dtype=x.dtype)


def np_dominant(x):
    return x + 3 * np.eye(x.shape[-1], dtype=x.dtype)


def spd(x):
    """x x^T + nI: symmetric positive definite."""
    n = x.shape.as_list()[-1]
    return rg.matmul(x, x, transpose_b=True) + n * rg.eye(n, dtype=x.dtype)


def np_spd(x):
    return x @ np.swapaxes(x, -1, -2) + x.shape[-1] * np.eye(x.shape[-1], dtype=x.dtype)


def _t(x):
    return np.swapaxes(x, -1, -2)


def _tri(x, lower):
    return np.tril(x) if lower else np.triu(x)


def np_solve(a, b):
    """np.linalg.solve with batch broadcasting that NumPy 1.x also reads as matrices."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(
        np.broadcast_to(a, (*batch, *a.shape[-2:])), np.broadcast_to(b, (*batch, *b.shape[-2:]))
    )


UNIT = (-1.0, 1.0)

CASES = [
    Case(
        "MatrixInverse",
        lambda x: rg.linalg.inv(dominant(x)),
        ((3, 3),),
        lambda x: np.linalg.inv(np_dominant(x)),
        UNIT,
    ),
    Case(
        "MatrixInverse[batch]",
        lambda x: rg.linalg.inv(dominant(x)),
        ((2, 2, 2),),
        lambda x: np.linalg.inv(np_dominant(x)),
        UNIT,
    ),
    Case(
        "MatrixInverse[adjoint]",
        lambda x: rg.linalg.inv(dominant(x), adjoint=True),
        ((3, 3),),
        lambda x: _t(np.linalg.inv(np_dominant(x))),
        UNIT,
    ),
    Case("MatrixInverse[1x1]", rg.linalg.inv, ((1, 1),), np.linalg.inv, (0.5, 2.0)),
    Case(
        "MatrixDeterminant",
        lambda x: rg.linalg.det(dominant(x)),
        ((3, 3),),
        lambda x: np.linalg.det(np_dominant(x)),
        UNIT,
    ),
    Case("MatrixDeterminant[batch]", rg.linalg.det, ((2, 2, 2),), np.linalg.det),
    Case("MatrixDeterminant[1x1]", rg.linalg.det, ((1, 1),), np.linalg.det),
    Case("MatrixDeterminant[0x0]", rg.linalg.det, ((2, 0, 0),), np.linalg.det),
    Case(
        "LogMatrixDeterminant",
        lambda x: rg.linalg.slogdet(dominant(x) * rg.constant([[-1.0], [1.0], [1.0]], x.dtype)),
        ((3, 3),),
        lambda x: np.linalg.slogdet(np_dominant(x) * np.array([[-1.0], [1.0], [1.0]], x.dtype)),
        UNIT,
    ),
    Case("LogMatrixDeterminant[batch]", rg.linalg.slogdet, ((2, 2, 2),), np.linalg.slogdet),
    Case(
        "logdet",
        lambda x: rg.linalg.logdet(spd(x)),
        ((3, 3),),
        lambda x: np.linalg.slogdet(np_spd(x))[1],
    ),
    Case(
        "logdet[batch]",
        lambda x: rg.linalg.logdet(spd(x)),
        ((2, 2, 2),),
        lambda x: np.linalg.slogdet(np_spd(x))[1],
    ),
    Case(
        "MatrixSolve",
        lambda a, b: rg.linalg.solve(dominant(a), b),
        ((3, 3), (3, 2)),
        lambda a, b: np.linalg.solve(np_dominant(a), b),
        UNIT,
    ),
    Case(
        "MatrixSolve[adjoint,batch]",
        lambda a, b: rg.linalg.solve(dominant(a), b, adjoint=True),
        ((2, 3, 3), (2, 3, 1)),
        lambda a, b: np.linalg.solve(_t(np_dominant(a)), b),
        UNIT,
    ),
    *[
        Case(
            f"MatrixTriangularSolve[lower={lower},adjoint={adj}]",
            lambda a, b, lower=lower, adj=adj: rg.linalg.triangular_solve(
                dominant(a), b, lower=lower, adjoint=adj
            ),
            shapes,
            lambda a, b, lower=lower, adj=adj: np_solve(
                _t(_tri(np_dominant(a), lower)) if adj else _tri(np_dominant(a), lower), b
            ),
            UNIT,
        )
        for lower, adj, shapes in [
            (True, False, ((3, 3), (3, 2))),
            (False, False, ((2, 3, 3), (3, 1))),
            (True, True, ((1, 3, 3), (2, 3, 2))),
            (False, True, ((3, 3), (2, 3, 1))),
        ]
    ],
    Case("Pinv[tall]", rg.linalg.pinv, ((3, 2),), np.linalg.pinv),
    Case("Pinv[wide,batch]", rg.linalg.pinv, ((2, 2, 3),), np.linalg.pinv),
    Case(
        "Pinv[square]",
        lambda x: rg.linalg.pinv(dominant(x)),
        ((2, 2),),
        lambda x: np.linalg.pinv(np_dominant(x)),
        UNIT,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_pinv_gradient_needs_no_distinct_singular_values():
    """An orthogonal matrix has all singular values equal: an SVD-based rule divides by 0."""
    q = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    rg.check_gradients(rg.linalg.pinv, q, order=2)
    rg.check_gradients(rg.linalg.pinv, np.vstack([q, q[:1]]), order=2)


def test_pinv_drops_singular_values_below_rcond():
    x = np.diag([1.0, 1e-3])
    np.testing.assert_allclose(rg.linalg.pinv(x).numpy(), np.diag([1.0, 1e3]))
    np.testing.assert_allclose(rg.linalg.pinv(x, rcond=1e-2).numpy(), np.diag([1.0, 0.0]))
    assert rg.linalg.pinv(np.zeros((2, 0, 3))).shape == (2, 3, 0)


def test_singular_matrices_raise_for_inverse_and_solve_as_in_tensorflow():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(
        rg.errors.InvalidArgumentError, match="MatrixInverse: Input is not invertible"
    ):
        rg.linalg.inv(np.zeros((2, 2)))
    with pytest.raises(
        rg.errors.InvalidArgumentError, match="MatrixSolve: Input matrix is not invertible"
    ):
        rg.linalg.solve(np.zeros((2, 2)), np.ones((2, 1)))
    assert float(rg.linalg.det(singular)) == 0.0
    sign, log_abs = rg.linalg.slogdet(np.zeros((2, 2)))
    assert float(sign) == 0.0 and float(log_abs) == -np.inf


def test_triangular_solve_ignores_the_other_triangle_and_gives_inf_for_a_zero_pivot():
    a = np.array([[2.0, 100.0], [1.0, 1.0]])
    b = np.array([[2.0], [3.0]])
    assert rg.linalg.triangular_solve(a, b).numpy().tolist() == [[1.0], [2.0]]
    lower = rg.linalg.triangular_solve(np.array([[0.0, 0.0], [1.0, 1.0]]), b).numpy()
    assert lower.ravel().tolist() == [np.inf, -np.inf]
    upper = rg.linalg.triangular_solve(np.zeros((2, 2)), b, lower=False).numpy()
    assert np.isnan(upper[0, 0]) and upper[1, 0] == np.inf


def test_triangular_solve_gradient_stays_in_the_triangle_read():
    a = rg.constant(np_dominant(np.zeros((3, 3))) + 0.5)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(a)
        lower = rg.reduce_sum(rg.linalg.triangular_solve(a, np.ones((3, 2))))
        upper = rg.reduce_sum(rg.linalg.triangular_solve(a, np.ones((3, 2)), lower=False))
    assert np.all(np.triu(tape.gradient(lower, a).numpy(), 1) == 0)
    assert np.all(np.tril(tape.gradient(upper, a).numpy(), -1) == 0)


def test_empty_matrices():
    assert rg.linalg.inv(np.zeros((2, 0, 0))).shape == (2, 0, 0)
    assert rg.linalg.det(np.zeros((0, 0))).numpy() == 1.0
    assert rg.linalg.solve(np.eye(2), np.zeros((2, 0))).shape == (2, 0)
    assert float(rg.linalg.logdet(np.zeros((0, 0)))) == 0.0


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.linalg.inv(rg.ones([3])),
            rg.errors.InvalidArgumentError,
            "MatrixInverse: `input` must have rank >= 2",
        ),
        (lambda: rg.linalg.inv(rg.ones([2, 3])), rg.errors.InvalidArgumentError, "square"),
        (
            lambda: rg.linalg.inv(rg.constant([[1]])),
            TypeError,
            "MatrixInverse: `input` must be a float or complex",
        ),
        (lambda: rg.linalg.inv(rg.ones([2, 2], rg.float16)), TypeError, "float16 is not supported"),
        (
            lambda: rg.linalg.det(rg.ones([2, 3])),
            rg.errors.InvalidArgumentError,
            "MatrixDeterminant",
        ),
        (
            lambda: rg.linalg.slogdet(rg.ones([3])),
            rg.errors.InvalidArgumentError,
            "LogMatrixDeterminant",
        ),
        (
            lambda: rg.linalg.solve(rg.eye(3), rg.ones([2, 1])),
            rg.errors.InvalidArgumentError,
            "needs 3 rows",
        ),
        (
            lambda: rg.linalg.solve(rg.eye(3), rg.ones([3])),
            rg.errors.InvalidArgumentError,
            "`rhs` must have rank >= 2",
        ),
        (
            lambda: rg.linalg.solve(rg.eye(3), rg.ones([2, 3, 1])),
            rg.errors.InvalidArgumentError,
            "same batch dimensions",
        ),
        (
            lambda: rg.linalg.solve(rg.ones([3, 2]), rg.ones([3, 1])),
            rg.errors.InvalidArgumentError,
            "square",
        ),
        (lambda: rg.linalg.solve(rg.eye(3), rg.ones([3, 1], rg.float64)), TypeError, "same dtype"),
        (
            lambda: rg.linalg.triangular_solve(rg.ones([2, 3, 3]), rg.ones([4, 3, 1])),
            rg.errors.InvalidArgumentError,
            "not broadcastable",
        ),
        (
            lambda: rg.linalg.triangular_solve(rg.ones([3, 2]), rg.ones([3, 1])),
            rg.errors.InvalidArgumentError,
            "square",
        ),
        (
            lambda: rg.linalg.pinv(rg.ones([3])),
            rg.errors.InvalidArgumentError,
            "Pinv: `a` must have rank >= 2",
        ),
        (
            lambda: rg.linalg.pinv(rg.ones([2, 2], rg.complex64)),
            TypeError,
            "Pinv: `a` must be a float",
        ),
        (
            lambda: rg.linalg.logdet(-np.eye(2)),
            rg.errors.InvalidArgumentError,
            "not positive definite",
        ),
    ],
)
def test_errors_name_the_op_and_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()
