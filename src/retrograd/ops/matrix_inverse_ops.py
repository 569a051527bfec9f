"""Inverses, determinants and linear solves of batched square matrices, and the
pseudo-inverse.

Gradients are the classical ones (Giles 2008): with Y = A^-1, dA = -Y^H dY Y^H; a solve's
right-hand side gets a solve with the adjoint; a determinant's gradient is
det^* A^-H. They are written with these same ops, so they differentiate again.

>>> import retrograd as rg
>>> a = rg.constant([[4.0, 1.0], [2.0, 3.0]], rg.float64)
>>> rg.linalg.solve(a, [[1.0], [1.0]]).numpy().ravel().tolist()
[0.2, 0.2]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor, constant_value
from retrograd.ops import (
    array_ops,
    broadcast,
    decomposition_ops,
    math_ops,
    matrix_diag_ops,
    reduction_ops,
)
from retrograd.ops.define import FLOAT, tensor_pair
from retrograd.ops.linalg_ops import adjoint, matmul, matrix_arg


class LogMatrixDeterminant(NamedTuple):
    """What :func:`slogdet` returns."""

    sign: Tensor
    log_abs_determinant: Tensor


def _adjoint_of(a, adjoint_flag):
    return np.conj(np.swapaxes(a, -1, -2)) if adjoint_flag else a


def _inverse_kernel(x, adjoint):
    try:
        return _adjoint_of(np.linalg.inv(x), adjoint)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("MatrixInverse: Input is not invertible.") from None


def _solve_kernel(matrix, rhs, adjoint):
    try:
        return np.linalg.solve(_adjoint_of(matrix, adjoint), rhs)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("MatrixSolve: Input matrix is not invertible.") from None


def _substitute(a, b, lower):
    """Forward/back substitution for triangular ``a``: infinities and NaNs where a diagonal
    entry is 0, as TensorFlow gives (LAPACK's solve refuses such a matrix)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, (*batch, *a.shape[-2:]))
    x = np.broadcast_to(b, (*batch, *b.shape[-2:])).copy()
    n = a.shape[-1]
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            done = slice(0, i) if lower else slice(i + 1, n)
            known = np.einsum("...j,...jk->...k", a[..., i, done], x[..., done, :])
            x[..., i, :] = (x[..., i, :] - known) / a[..., i, i, None]
    return x


def _triangular_solve_kernel(matrix, rhs, lower, adjoint):
    a = np.tril(matrix) if lower else np.triu(matrix)
    a, lower = (_adjoint_of(a, True), not lower) if adjoint else (a, lower)
    # Same rank for both: NumPy 1.x would read an rhs of rank one less as a stack of vectors.
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(a, (*batch, *a.shape[-2:]))
    rhs = np.broadcast_to(rhs, (*batch, *rhs.shape[-2:]))
    try:
        return np.linalg.solve(a, rhs)
    except np.linalg.LinAlgError:
        return _substitute(a, rhs, lower)


def _slogdet_kernel(x):
    sign, log_abs = np.linalg.slogdet(x)
    return sign.astype(x.dtype, copy=False), log_abs.astype(x.dtype, copy=False)


_MatrixInverse = define_op("MatrixInverse", _inverse_kernel)
_MatrixSolve = define_op("MatrixSolve", _solve_kernel)
_MatrixTriangularSolve = define_op("MatrixTriangularSolve", _triangular_solve_kernel)
_MatrixDeterminant = define_op(
    "MatrixDeterminant", lambda x: np.linalg.det(x).astype(x.dtype, copy=False)
)
_LogMatrixDeterminant = define_op("LogMatrixDeterminant", _slogdet_kernel, multi_output=True)


def inv(input: TensorLike, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The inverse of each square matrix (of its adjoint when ``adjoint``).

    Raises InvalidArgumentError for a matrix LU finds singular.

    >>> import retrograd as rg
    >>> rg.linalg.inv([[2.0, 0.0], [0.0, 4.0]]).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    x = matrix_arg("MatrixInverse", input, square=True)
    return execute(_MatrixInverse, (x,), {"adjoint": bool(adjoint)}, name)


@op_gradient("MatrixInverse")
def _inv_grad(op, grad):
    y = op.outputs[0]
    if op.get_attr("adjoint"):  # y = A^-H
        return -matmul(y, matmul(grad, y, adjoint_a=True))
    return -matmul(y, matmul(grad, y, adjoint_b=True), adjoint_a=True)


def _as_matrix_scale(t: Tensor) -> Tensor:
    return array_ops.expand_dims(array_ops.expand_dims(t, -1), -1)


def det(input: TensorLike, name: str | None = None) -> Tensor:
    """The determinant of each square matrix in ``input`` [..., M, M].

    >>> import retrograd as rg
    >>> round(float(rg.linalg.det([[1.0, 2.0], [3.0, 4.0]])), 5)
    -2.0
    """
    x = matrix_arg("MatrixDeterminant", input, square=True)
    return execute(_MatrixDeterminant, (x,), None, name)


@op_gradient("MatrixDeterminant")
def _det_grad(op, grad):
    # d det = det tr(A^-1 dA), so the gradient is grad * conj(det) * A^-H (TensorFlow omits
    # the conj, which is wrong for complex matrices; real ones are unaffected).
    scale = _as_matrix_scale(grad * math_ops.conj(op.outputs[0]))
    return scale * inv(op.inputs[0], adjoint=True)


def slogdet(input: TensorLike, name: str | None = None) -> LogMatrixDeterminant:
    """The sign (a phase for complex input) and log of the absolute determinant.

    ``log_abs_determinant`` keeps the input dtype, as in TensorFlow; a singular matrix gives
    sign 0 and -inf.

    >>> import retrograd as rg
    >>> sign, log_abs = rg.linalg.slogdet([[-2.0, 0.0], [0.0, 3.0]])
    >>> float(sign), round(float(log_abs), 4)
    (-1.0, 1.7918)
    """
    x = matrix_arg("LogMatrixDeterminant", input, square=True)
    return LogMatrixDeterminant(*execute(_LogMatrixDeterminant, (x,), None, name))


@op_gradient("LogMatrixDeterminant")
def _slogdet_grad(op, grad_sign, grad_log_abs):
    # log|det| changes by Re tr(A^-1 dA) and the phase s by s * i Im tr(A^-1 dA). Real
    # matrices: the sign is piecewise constant and only grad_log_abs counts. TensorFlow
    # ignores the phase's gradient for complex input too; here it is included.
    a = op.inputs[0]
    if not a.dtype.is_complex:
        return _as_matrix_scale(grad_log_abs) * inv(a, adjoint=True)
    sign = op.outputs[0]
    real_part = 0.5 * (grad_log_abs + math_ops.conj(grad_log_abs))
    phase_part = 0.5 * (math_ops.conj(grad_sign) * sign - grad_sign * math_ops.conj(sign))
    return _as_matrix_scale(real_part - phase_part) * inv(a, adjoint=True)


def logdet(matrix: TensorLike, name: str | None = None) -> Tensor:
    """log(det(matrix)) of Hermitian positive-definite matrices, via their Cholesky factor
    (real dtype for complex input, as in TensorFlow).

    >>> import retrograd as rg
    >>> round(float(rg.linalg.logdet([[2.0, 0.0], [0.0, 3.0]])), 4)
    1.7918
    """
    chol = decomposition_ops.cholesky(matrix)
    diagonal = matrix_diag_ops.diag_part(chol)
    if diagonal.dtype.is_complex:
        diagonal = math_ops.cast(diagonal, diagonal.dtype.real_dtype)  # keeps the real part
    total = reduction_ops.reduce_sum(math_ops.log(diagonal), axis=-1)
    return math_ops.multiply(total, 2.0, name=name)


def _solve_args(op_type: str, matrix: Any, rhs: Any) -> tuple[Tensor, Tensor]:
    a, b = tensor_pair(op_type, matrix, rhs)
    a = matrix_arg(op_type, a, "matrix", square=True)
    b = matrix_arg(op_type, b, "rhs")
    if a._value.shape[-1] != b._value.shape[-2]:
        raise InvalidArgumentError(
            f"{op_type}: `matrix` of shape {plain_dims(a.shape)} and `rhs` of shape "
            f"{plain_dims(b.shape)} are incompatible: rhs needs {a._value.shape[-1]} rows"
        )
    return a, b


def solve(
    matrix: TensorLike, rhs: TensorLike, adjoint: bool = False, name: str | None = None
) -> Tensor:
    """X with ``matrix @ X = rhs`` (``adjoint(matrix) @ X = rhs`` when ``adjoint``).

    As in TensorFlow, ``matrix`` and ``rhs`` have the same batch dimensions (no
    broadcasting); a singular matrix raises InvalidArgumentError.

    >>> import retrograd as rg
    >>> rg.linalg.solve([[2.0, 0.0], [0.0, 4.0]], [[1.0], [2.0]]).numpy().tolist()
    [[0.5], [0.5]]
    """
    a, b = _solve_args("MatrixSolve", matrix, rhs)
    if a._value.shape[:-2] != b._value.shape[:-2]:
        raise InvalidArgumentError(
            f"MatrixSolve: `matrix` and `rhs` must have the same batch dimensions, got shapes "
            f"{plain_dims(a.shape)} and {plain_dims(b.shape)}"
        )
    return execute(_MatrixSolve, (a, b), {"adjoint": bool(adjoint)}, name)


@op_gradient("MatrixSolve")
def _solve_grad(op, grad):
    a = op.inputs[0]
    x = op.outputs[0]
    adjoint_a = op.get_attr("adjoint")
    grad_b = solve(a, grad, adjoint=not adjoint_a)
    if adjoint_a:
        return -matmul(x, grad_b, adjoint_b=True), grad_b
    return -matmul(grad_b, x, adjoint_b=True), grad_b


def triangular_solve(
    matrix: TensorLike,
    rhs: TensorLike,
    lower: bool = True,
    adjoint: bool = False,
    name: str | None = None,
) -> Tensor:
    """Solves with the lower (or upper) triangle of ``matrix``; the other triangle is
    ignored. Batch dimensions broadcast; a zero on the diagonal gives inf/NaN, as in
    TensorFlow.

    >>> import retrograd as rg
    >>> rg.linalg.triangular_solve([[2.0, 0.0], [1.0, 1.0]], [[2.0], [3.0]]).numpy().tolist()
    [[1.0], [2.0]]
    """
    a, b = _solve_args("MatrixTriangularSolve", matrix, rhs)
    broadcast_dims([a._value.shape[:-2], b._value.shape[:-2]], "MatrixTriangularSolve")
    attrs = {"lower": bool(lower), "adjoint": bool(adjoint)}
    return execute(_MatrixTriangularSolve, (a, b), attrs, name)


@op_gradient("MatrixTriangularSolve")
def _triangular_solve_grad(op, grad):
    a = op.inputs[0]
    x = op.outputs[0]
    lower, adjoint_a = op.get_attr("lower"), op.get_attr("adjoint")
    grad_b = triangular_solve(a, grad, lower=lower, adjoint=not adjoint_a)
    grad_a = -(
        matmul(x, grad_b, adjoint_b=True) if adjoint_a else matmul(grad_b, x, adjoint_b=True)
    )
    grad_a = (
        matrix_diag_ops.band_part(grad_a, -1, 0)
        if lower
        else matrix_diag_ops.band_part(grad_a, 0, -1)
    )
    return broadcast.reduce_to_inputs(op, grad_a, grad_b)


# --- pseudo-inverse ------------------------------------------------------------------------


def _pinv_kernel(a, rcond):
    m, n = a.shape[-2:]
    if a.size == 0:
        return namespace_of(a).zeros((*a.shape[:-2], n, m), a.dtype)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    cutoff = rcond * np.max(s, axis=-1, keepdims=True)
    with np.errstate(divide="ignore"):
        s_inv = np.where(s > cutoff, np.reciprocal(s), s.dtype.type(0))
    return np.matmul(np.swapaxes(vh, -1, -2) * s_inv[..., None, :], np.swapaxes(u, -1, -2))


_Pinv = define_op("Pinv", _pinv_kernel)


def pinv(
    a: TensorLike,
    rcond: TensorLike | None = None,
    validate_args: bool = False,
    name: str | None = None,
) -> Tensor:
    """The Moore-Penrose pseudo-inverse [..., N, M] of real matrices ``a`` [..., M, N].

    Singular values up to ``rcond`` times the largest count as zero (default
    ``10 * max(M, N) * eps``, TensorFlow's). The gradient is the closed form for a matrix of
    constant rank (Golub and Pereyra 1973): it needs no distinct singular values, unlike a
    gradient through ``svd``.

    >>> import retrograd as rg
    >>> rg.linalg.pinv([[2.0, 0.0]]).numpy().tolist()
    [[0.5], [0.0]]
    """
    x = matrix_arg("Pinv", a, "a", kinds=FLOAT)
    m, n = x._value.shape[-2:]
    if rcond is None:
        rcond = 10.0 * max(m, n) * float(np.finfo(x._value.dtype).eps)
    rcond = float(constant_value(rcond) if isinstance(rcond, Tensor) else rcond)
    return execute(_Pinv, (x,), {"rcond": rcond}, name)


@op_gradient("Pinv")
def _pinv_grad(op, grad):
    # dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P, transposed into a VJP.
    a = op.inputs[0]
    p = op.outputs[0]
    p_t = adjoint(p)
    first = -matmul(p_t, matmul(grad, p_t))
    z = matmul(grad, matmul(p, p_t), adjoint_a=True)
    second = z - matmul(a, matmul(p, z))
    w = matmul(matmul(p_t, p), grad, adjoint_b=True)
    third = w - matmul(matmul(w, p), a)
    return first + second + third
