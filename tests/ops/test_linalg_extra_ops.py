"""tf.linalg's LU, eig, least squares, banded/tridiagonal and matrix functions: values against
NumPy/SciPy, gradients against finite differences to second order, and the ops TensorFlow
gives no gradient (Lu, MatrixLogarithm, MatrixSolveLs with fast=False) refusing as there."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

L = rg.linalg
SHIFT = 3.0 * np.eye(3)


def _spd(a):
    return a @ np.swapaxes(a, -1, -2) + SHIFT


def _rg_spd(a):
    return rg.matmul(a, a, transpose_b=True) + SHIFT


def _lu_of(a):
    return L.lu(rg.stop_gradient(a) if isinstance(a, rg.Tensor) else a)


def _eig_abs(a):
    e, v = L.eig(a)
    return rg.math.real(e * rg.math.conj(e)), rg.math.real(v * rg.math.conj(v))


def _np_eig_abs(a):
    e, v = np.linalg.eig(a)
    return (e * e.conj()).real, (v * v.conj()).real


def _tridiagonal_dense(d):
    return np.diag(d[1]) + np.diag(d[0][:-1], 1) + np.diag(d[2][1:], -1)


CASES = [
    Case("Eig", lambda a: rg.math.real(L.eigvals(a)), ((3, 3),), lambda a: np.linalg.eigvals(a).real,
         domain=(0.0, 2.0)),
    Case("Eig", _eig_abs, ((3, 3),), _np_eig_abs, domain=(0.0, 2.0)),
    Case("MatrixSquareRoot", lambda a: L.sqrtm(_rg_spd(a)), ((3, 3),),
         lambda a: scipy.linalg.sqrtm(_spd(a)).real),
    Case("Diag", L.tensor_diag, ((2, 3),), lambda d: np.diag(d.reshape(-1)).reshape(2, 3, 2, 3)),
    Case("DiagPart", lambda x: L.tensor_diag_part(rg.reshape(x, [2, 2, 2, 2])), ((16,),),
         lambda x: np.diagonal(x.reshape(4, 4)).reshape(2, 2)),
    Case("MatrixTriangularSolve",
         lambda lu, b: L.lu_solve(lu, [1, 2, 0], b), ((3, 3), (3, 2)),
         lambda lu, b: np.linalg.solve(
             (np.tril(lu, -1) + np.eye(3)) @ np.triu(lu), b[[1, 2, 0]]),
         domain=(0.5, 2.0)),
    Case("MatMul", lambda lu: L.lu_reconstruct(lu, [2, 0, 1]), ((3, 3),),
         lambda lu: ((np.tril(lu, -1) + np.eye(3)) @ np.triu(lu))[np.argsort([2, 0, 1])]),
    Case("Cholesky", lambda a, b: L.cholesky_solve(L.cholesky(_rg_spd(a)), b), ((3, 3), (3, 2)),
         lambda a, b: np.linalg.solve(_spd(a), b)),
    Case("Cholesky", lambda a, b: L.lstsq(a, b, l2_regularizer=0.5), ((4, 2), (4, 3)),
         lambda a, b: np.linalg.solve(a.T @ a + 0.5 * np.eye(2), a.T @ b)),
    Case("Cholesky", lambda a, b: L.lstsq(a, b), ((2, 4), (2, 1)),
         lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0]),
    Case("MatrixBandPart", lambda d, b: L.tridiagonal_matmul(d, b), ((3, 4), (4, 2)),
         lambda d, b: _tridiagonal_dense(d) @ b),
    Case("MatrixSolve", lambda d, b: L.tridiagonal_solve(d + [[0.0], [4.0], [0.0]], b),
         ((3, 4), (4,)), lambda d, b: np.linalg.solve(_tridiagonal_dense(d + [[0], [4], [0]]), b)),
    Case("MatrixTriangularSolve",
         lambda bands, b: L.banded_triangular_solve(bands + [[0.0], [3.0]], b, lower=False),
         ((2, 3), (3, 2)),
         lambda bands, b: np.linalg.solve(
             np.diag(bands[1] + 3.0) + np.diag(bands[0][:-1], 1), b)),
    Case("SelfAdjointEigV2", lambda a, b: L.eigh_tridiagonal(a, b), ((4,), (3,)),
         lambda a, b: np.linalg.eigvalsh(np.diag(a) + np.diag(b, 1) + np.diag(b, -1)),
         domain=(0.5, 2.0)),
    Case("Mul", lambda x: L.normalize(x, axis=1)[0], ((2, 3),),
         lambda x: x / np.linalg.norm(x, axis=1, keepdims=True)),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_lu_reconstructs_and_solves_and_has_no_gradient():
    a = rg.constant([[1.0, 2.0, 0.0], [3.0, 1.0, 1.0], [0.0, 4.0, 2.0]], rg.float64)
    lu, p = L.lu(a)
    assert p.numpy().tolist() == [1, 2, 0] and p.dtype == rg.int32
    np.testing.assert_allclose(L.lu_reconstruct(lu, p).numpy(), a.numpy())
    np.testing.assert_allclose(L.lu_matrix_inverse(lu, p).numpy(), np.linalg.inv(a.numpy()))
    with rg.GradientTape() as tape:
        tape.watch(a)
        y = rg.reduce_sum(L.lu(a).lu)
    with pytest.raises(LookupError, match="Lu"):
        tape.gradient(y, a)
    with pytest.raises(rg.errors.InvalidArgumentError, match="not invertible"):
        L.lu(rg.zeros([2, 2]))


def test_logm_and_slow_lstsq_have_no_gradient_as_in_tensorflow():
    a = rg.constant([[2.0, 1.0], [1.0, 3.0]], rg.complex128)
    np.testing.assert_allclose(L.logm(a).numpy(), scipy.linalg.logm(a.numpy()))
    with pytest.raises(rg.errors.InvalidArgumentError, match="complex64, complex128"):
        L.logm([[1.0]])
    m, b = rg.constant([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]), rg.constant([[1.0], [2.0], [2.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([a, m])
        y = rg.math.real(rg.reduce_sum(L.logm(a)))
        z = rg.reduce_sum(L.lstsq(m, b, fast=False))
    np.testing.assert_allclose(L.lstsq(m, b, fast=False).numpy(), [[7 / 6], [0.5]], rtol=1e-6)
    with pytest.raises(LookupError, match="MatrixLogarithm"):
        tape.gradient(y, a)
    with pytest.raises(ValueError, match="fast=False"):
        tape.gradient(z, m)


def test_sqrtm_of_a_matrix_without_a_real_root_is_nan():
    assert np.isnan(L.sqrtm([[-1.0, 0.0], [0.0, 1.0]]).numpy()).all()
