"""Every LinearOperator's structured operations agree with its dense matrix (products,
adjoints, solves, determinants, inverses), and gradients through them match finite
differences to second order."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

L = rg.linalg
RNG = np.random.default_rng(0)
A = RNG.normal(size=(3, 3)) + 3 * np.eye(3)


def _operators():
    d = L.LinearOperatorDiag(np.array([2.0, -3.0, 4.0]))
    full = L.LinearOperatorFullMatrix(A)
    return {
        "full": full,
        "diag": d,
        "tril": L.LinearOperatorLowerTriangular(A),
        "identity": L.LinearOperatorIdentity(3, dtype=rg.float64),
        "scaled": L.LinearOperatorScaledIdentity(3, np.float64(2.5)),
        "permutation": L.LinearOperatorPermutation([2, 0, 1], dtype=rg.float64),
        "householder": L.LinearOperatorHouseholder(np.array([1.0, 2.0, 2.0])),
        "toeplitz": L.LinearOperatorToeplitz(np.array([4.0, 1.0, 0.5]), np.array([4.0, 2.0, 1.0])),
        "tridiag": L.LinearOperatorTridiag(
            np.array([[1.0, 2.0, 0.0], [5.0, 6.0, 7.0], [0.0, 1.0, 2.0]])
        ),  # fmt: skip
        "circulant": L.LinearOperatorCirculant(
            np.array([6.0, 2.0, 2.0]), input_output_dtype=rg.float64
        ),  # fmt: skip
        "adjoint": L.LinearOperatorAdjoint(full),
        "inversion": L.LinearOperatorInversion(full),
        "composition": L.LinearOperatorComposition([full, d]),
        "block_diag": L.LinearOperatorBlockDiag(
            [L.LinearOperatorDiag(np.array([2.0])), L.LinearOperatorFullMatrix(A[:2, :2])]
        ),  # fmt: skip
        "low_rank": L.LinearOperatorLowRankUpdate(
            d, np.array([[1.0], [0.5], [0.2]]), diag_update=np.array([2.0])
        ),  # fmt: skip
    }


@pytest.mark.parametrize("name", sorted(_operators()))
def test_operations_agree_with_the_dense_matrix(name):
    op = _operators()[name]
    dense = op.to_dense().numpy()
    x = RNG.normal(size=(3, 2))
    np.testing.assert_allclose(op.matmul(x).numpy(), dense @ x, atol=1e-10)
    np.testing.assert_allclose(op.matmul(x, adjoint=True).numpy(), dense.T @ x, atol=1e-10)
    np.testing.assert_allclose(op.matvec(x[:, 0]).numpy(), dense @ x[:, 0], atol=1e-10)
    np.testing.assert_allclose(op.solve(x).numpy(), np.linalg.solve(dense, x), atol=1e-8)
    np.testing.assert_allclose(op.solve(x, adjoint=True).numpy(), np.linalg.solve(dense.T, x),
                               atol=1e-8)  # fmt: skip
    np.testing.assert_allclose(op.determinant().numpy(), np.linalg.det(dense), rtol=1e-8)
    np.testing.assert_allclose(op.log_abs_determinant().numpy(),
                               np.log(abs(np.linalg.det(dense))), rtol=1e-8, atol=1e-12)  # fmt: skip
    np.testing.assert_allclose(op.inverse().to_dense().numpy(), np.linalg.inv(dense), atol=1e-8)
    np.testing.assert_allclose(op.diag_part().numpy(), np.diag(dense), atol=1e-10)


def test_gradients_through_operators_match_finite_differences():
    def f(diag, matrix):
        op = L.LinearOperatorComposition([L.LinearOperatorFullMatrix(matrix),
                                          L.LinearOperatorDiag(diag)])  # fmt: skip
        return op.solvevec([1.0, 2.0, 3.0]), op.log_abs_determinant()

    rg.check_gradients(f, np.array([2.0, -3.0, 4.0]), A, order=2)
