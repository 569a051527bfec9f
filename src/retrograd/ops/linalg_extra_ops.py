"""More of ``tf.linalg``'s functions: the LU decomposition and what uses it (``lu``,
``lu_solve``, ``lu_reconstruct``, ``lu_matrix_inverse``), ``eig``/``eigvals`` (general
matrices, complex results), ``cholesky_solve``, ``lstsq``, ``matrix_rank``, ``normalize``
and ``tensor_diag``/``tensor_diag_part`` (banded, tridiagonal and matrix functions:
``linalg_band_ops``).

Differentiation follows TensorFlow: ``lu`` has no gradient (a LookupError, as there), ``eig``
has TensorFlow's (for distinct eigenvalues), and the others are built from differentiable
ops (solves, Cholesky, eigh), so their gradients are those of their parts.

>>> import retrograd as tf
>>> lu, p = tf.linalg.lu([[1.0, 2.0], [3.0, 4.0]])
>>> p.numpy().tolist(), tf.linalg.lu_reconstruct(lu, p).numpy().tolist()
([1, 0], [[1.0, 2.0], [3.0, 4.0]])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, complex_ops, math_ops, matrix_diag_ops, reduction_ops
from retrograd.ops.creation_ops import one_hot
from retrograd.ops.decomposition_ops import cholesky, svd
from retrograd.ops.gather_ops import gather
from retrograd.ops.linalg_ops import adjoint, matmul, matrix_arg
from retrograd.ops.matrix_inverse_ops import solve, triangular_solve
from retrograd.ops.scopes import op_scope
from retrograd.ops.sort_ops import argsort

__all__ = [
    "cholesky_solve", "eig", "eigvals", "lstsq", "lu", "lu_matrix_inverse", "lu_reconstruct",
    "lu_solve", "matrix_rank", "normalize", "tensor_diag", "tensor_diag_part",
]  # fmt: skip


class Lu(NamedTuple):
    """The result of :func:`lu`: L and U packed in one matrix, and the row permutation."""

    lu: Tensor
    p: Tensor


def _lu_kernel(x, output_idx_type):
    n = x.shape[-1]
    a = x.reshape(-1, n, n).copy()
    perm = np.tile(np.arange(n), (a.shape[0], 1))
    rows = np.arange(a.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(a[:, k:, k]), axis=1)
        a[rows, k], a[rows, pivot] = a[rows, pivot], a[rows, k].copy()
        perm[rows, k], perm[rows, pivot] = perm[rows, pivot], perm[rows, k].copy()
        if np.any(a[:, k, k] == 0):
            raise InvalidArgumentError("Input is not invertible.")
        a[:, k + 1 :, k] /= a[:, k : k + 1, k]
        a[:, k + 1 :, k + 1 :] -= a[:, k + 1 :, k : k + 1] * a[:, k : k + 1, k + 1 :]
    return a.reshape(x.shape), perm.reshape(x.shape[:-1]).astype(output_idx_type.as_numpy_dtype)


_Lu = define_op("Lu", _lu_kernel, multi_output=True)


@op_gradient("Lu")
def _lu_grad(op, grad_lu, grad_p):
    raise LookupError("gradient registry has no entry for: Lu")  # as TensorFlow


def lu(input: TensorLike, output_idx_type: DTypeLike = dtypes.int32, name: str | None = None) -> Lu:
    """The LU decomposition with partial pivoting of square matrices: ``lu`` holds L (below
    the diagonal; its diagonal is ones) and U (the rest), and ``input[p] == L @ U``.

    >>> import retrograd as tf
    >>> tf.linalg.lu([[1.0, 2.0], [3.0, 4.0]]).lu.numpy().astype(float).round(4).tolist()
    [[3.0, 4.0], [0.3333, 0.6667]]
    """
    x = matrix_arg("Lu", input)
    if x._value.shape[-1] != x._value.shape[-2]:
        raise InvalidArgumentError("Input matrix must be square.")
    idx = dtypes.as_dtype(output_idx_type)
    return Lu(*execute(_Lu, (x,), {"output_idx_type": idx}, name))


def _lu_factors(lower_upper: Tensor) -> tuple[Tensor, Tensor]:
    lower = matrix_diag_ops.band_part(lower_upper, -1, 0)
    ones = array_ops.ones_like(matrix_diag_ops.diag_part(lower_upper))
    return matrix_diag_ops.set_diag(lower, ones), matrix_diag_ops.band_part(lower_upper, 0, -1)


def _batch_dims(t: Tensor) -> int:
    return len(t.shape) - 1


def lu_reconstruct(
    lower_upper: TensorLike, perm: TensorLike, validate_args: bool = False, name: str | None = None
) -> Tensor:
    """The matrices an ``lu`` decomposition came from: the rows of L @ U put back in order.

    >>> import retrograd as tf
    >>> a = tf.linalg.lu_reconstruct([[3.0, 4.0], [1 / 3, 2 / 3]], [1, 0])
    >>> a.numpy().astype(float).round(4).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    with op_scope(name or "lu_reconstruct"):
        lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
        lower, upper = _lu_factors(lower_upper)
        product = matmul(lower, upper)
        inverse = math_ops.cast(argsort(perm), perm.dtype)
        return gather(product, inverse, axis=-2, batch_dims=_batch_dims(perm))


def lu_solve(
    lower_upper: TensorLike,
    perm: TensorLike,
    rhs: TensorLike,
    validate_args: bool = False,
    name: str | None = None,
) -> Tensor:
    """Solves ``A @ X = rhs`` from A's ``lu`` decomposition.

    >>> import retrograd as tf
    >>> lu, p = tf.linalg.lu([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.linalg.lu_solve(lu, p, [[5.0], [11.0]]).numpy().astype(float).round(4).tolist()
    [[1.0], [2.0]]
    """
    with op_scope(name or "lu_solve"):
        lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
        rhs = convert_to_tensor(rhs, lower_upper.dtype)
        lower, upper = _lu_factors(lower_upper)
        rows = one_hot(perm, lower_upper.shape[-1], dtype=lower_upper.dtype)
        permuted = matmul(rows, rhs)  # (a dense gradient for rhs, as TensorFlow's)
        y = triangular_solve(lower, permuted, lower=True)
        return triangular_solve(upper, y, lower=False)


def lu_matrix_inverse(
    lower_upper: TensorLike, perm: TensorLike, validate_args: bool = False, name: str | None = None
) -> Tensor:
    """The inverse of the matrices an ``lu`` decomposition came from.

    >>> import retrograd as tf
    >>> lu, p = tf.linalg.lu([[2.0, 0.0], [0.0, 4.0]])
    >>> tf.linalg.lu_matrix_inverse(lu, p).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    from retrograd.ops.matrix_diag_ops import eye

    with op_scope(name or "lu_matrix_inverse"):
        lower_upper = convert_to_tensor(lower_upper)
        n = lower_upper.shape[-1]
        identity = eye(n, batch_shape=lower_upper.shape[:-2], dtype=lower_upper.dtype)
        return lu_solve(lower_upper, perm, identity)


# -- eig ------------------------------------------------------------------------------------
def _complex_of(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.complex64 if dtype in (np.float32, np.complex64) else np.complex128)


def _eig_kernel(x, compute_v):
    values, vectors = np.linalg.eig(x)
    out = _complex_of(x.dtype)
    if not compute_v:
        return values.astype(out), np.zeros((0,), out)
    return values.astype(out), vectors.astype(out)


_Eig = define_op("Eig", _eig_kernel, multi_output=True)


def eig(tensor: TensorLike, name: str | None = None) -> tuple[Tensor, Tensor]:
    """The eigenvalues and eigenvectors (columns, of norm 1) of square matrices, complex
    (complex64 for float32 input, complex128 for float64).

    >>> import retrograd as tf
    >>> e, v = tf.linalg.eig([[0.0, -1.0], [1.0, 0.0]])
    >>> sorted(e.numpy().imag.tolist())
    [-1.0, 1.0]
    """
    x = matrix_arg("Eig", tensor, square=True)
    return tuple(execute(_Eig, (x,), {"compute_v": True}, name))


def eigvals(tensor: TensorLike, name: str | None = None) -> Tensor:
    """The eigenvalues of square matrices, complex.

    >>> import retrograd as tf
    >>> tf.linalg.eigvals([[2.0, 0.0], [0.0, 3.0]]).numpy().real.tolist()
    [2.0, 3.0]
    """
    x = matrix_arg("Eig", tensor, square=True)
    return execute(_Eig, (x,), {"compute_v": False}, name)[0]


def _safe_reciprocal(x: Tensor) -> Tensor:
    return x * math_ops.reciprocal(x * x + 1e-20)


@op_gradient("Eig")
def _eig_grad(op, grad_e, grad_v):
    # TensorFlow's (Boeddeker et al., eq. 4.77): distinct eigenvalues.
    e = op.outputs[0]
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        vt = adjoint(v)
        gaps = array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)
        f = math_ops.conj(matrix_diag_ops.set_diag(_safe_reciprocal(gaps), array_ops.zeros_like(e)))
        vgv = matmul(vt, grad_v) if grad_v is not None else array_ops.zeros_like(f)
        mid = matrix_diag_ops.diag(grad_e) if grad_e is not None else array_ops.zeros_like(f)
        real_diag = math_ops.cast(complex_ops.real(matrix_diag_ops.diag_part(vgv)), vgv.dtype)
        mid += f * (vgv - matmul(matmul(vt, v), matrix_diag_ops.diag(real_diag)))
        grad_a = solve(vt, matmul(mid, vt))
    else:
        v = eig(op.inputs[0])[1]
        vt = adjoint(v)
        grad_a = solve(vt, matmul(matrix_diag_ops.diag(grad_e), vt))
    if not op.inputs[0].dtype.is_complex:
        grad_a = complex_ops.real(grad_a)
    return math_ops.cast(grad_a, op.inputs[0].dtype)


# -- built from differentiable ops ----------------------------------------------------------
def cholesky_solve(chol: TensorLike, rhs: TensorLike, name: str | None = None) -> Tensor:
    """Solves ``A @ X = rhs`` given A's Cholesky factor ``chol`` (lower triangular).

    >>> import retrograd as tf
    >>> chol = tf.linalg.cholesky([[4.0, 2.0], [2.0, 5.0]])
    >>> tf.linalg.cholesky_solve(chol, [[8.0], [9.0]]).numpy().astype(float).round(4).tolist()
    [[1.375], [1.25]]
    """
    with op_scope(name or "cholesky_solve"):
        y = triangular_solve(chol, rhs, lower=True, adjoint=False)
        return triangular_solve(chol, y, lower=True, adjoint=True)


_MatrixSolveLs = define_op(
    "MatrixSolveLs",
    lambda matrix, rhs, l2_regularizer, fast: np.stack(
        [np.linalg.lstsq(a, b, rcond=None)[0] for a, b in zip(
            matrix.reshape(-1, *matrix.shape[-2:]), rhs.reshape(-1, *rhs.shape[-2:]))]
    ).reshape(*matrix.shape[:-2], matrix.shape[-1], rhs.shape[-1]),
)  # fmt: skip


@op_gradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op, grad):
    raise ValueError("Gradient not defined for fast=False")  # as TensorFlow


def lstsq(
    matrix: TensorLike,
    rhs: TensorLike,
    l2_regularizer: float = 0.0,
    fast: bool = True,
    name: str | None = None,
) -> Tensor:
    """The least-squares solution of ``matrix @ X = rhs`` (with ``l2_regularizer`` * |X|^2
    added): by Cholesky of the normal equations when ``fast`` (differentiable), else by
    NumPy's complete orthogonal decomposition (``l2_regularizer`` 0; no gradient, as
    TensorFlow's).

    >>> import retrograd as tf
    >>> a, b = [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], [[1.0], [2.0], [2.0]]
    >>> tf.linalg.lstsq(a, b).numpy().astype(float).round(4).tolist()
    [[1.1667], [0.5]]
    """
    from retrograd.ops.matrix_diag_ops import eye

    a = matrix_arg("MatrixSolveLs", matrix, "matrix")
    b = matrix_arg("MatrixSolveLs", convert_to_tensor(rhs, a.dtype), "rhs")
    rows, cols = plain_dims(a.shape)[-2:]
    with op_scope(name or "lstsq"):
        if not fast:
            return execute(_MatrixSolveLs, (a, b), {"l2_regularizer": float(l2_regularizer),
                                                     "fast": False}, None)  # fmt: skip
        ah = adjoint(a)
        if rows >= cols:
            gram = matmul(ah, a) + l2_regularizer * eye(cols, dtype=a.dtype)
            return cholesky_solve(cholesky(gram), matmul(ah, b))
        gram = matmul(a, ah) + l2_regularizer * eye(rows, dtype=a.dtype)
        return matmul(ah, cholesky_solve(cholesky(gram), b))


def matrix_rank(
    a: TensorLike, tol: float | None = None, validate_args: bool = False, name: str | None = None
) -> Tensor:
    """How many singular values exceed ``tol`` (default: the largest times max(rows, cols)
    times the dtype's epsilon), as int32.

    >>> import retrograd as tf
    >>> int(tf.linalg.matrix_rank([[1.0, 2.0], [2.0, 4.0]]))
    1
    """
    with op_scope(name or "matrix_rank"):
        a = convert_to_tensor(a)
        s = svd(a, compute_uv=False)
        if tol is None:
            eps = float(np.finfo(a.dtype.real_dtype.as_numpy_dtype).eps)
            tol = reduction_ops.reduce_max(s, axis=-1, keepdims=True) * (
                max(a.shape[-2], a.shape[-1]) * eps
            )
        return reduction_ops.reduce_sum(math_ops.cast(s > tol, dtypes.int32), axis=-1)


def normalize(
    tensor: TensorLike,
    ord: str | float = "euclidean",
    axis: AxisLike | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """``tensor`` divided by its ``ord``-norm over ``axis``, and the norm (kept dims).

    >>> import retrograd as tf
    >>> [t.numpy().tolist() for t in tf.linalg.normalize([3.0, 4.0])]
    [[0.6000000238418579, 0.800000011920929], [5.0]]
    """
    from retrograd.ops.norm_ops import norm

    with op_scope(name or "normalize"):
        tensor = convert_to_tensor(tensor)
        n = norm(tensor, ord=ord, axis=axis, keepdims=True)
        return tensor / n, n


_Diag = define_op(
    "Diag",
    lambda diagonal: (np.diagflat(diagonal.reshape(-1)) if diagonal.size else
                      np.zeros((0, 0), diagonal.dtype)).reshape(diagonal.shape * 2),
)  # fmt: skip
_DiagPart = define_op(
    "DiagPart",
    lambda input: np.diagonal(input.reshape(int(np.prod(input.shape[: input.ndim // 2])), -1))
    .reshape(input.shape[: input.ndim // 2]).copy(),
)  # fmt: skip


def tensor_diag(diagonal: TensorLike, name: str | None = None) -> Tensor:
    """The tensor of rank 2k with ``diagonal`` (rank k) at [i1..ik, i1..ik], zeros elsewhere.

    >>> import retrograd as tf
    >>> tf.linalg.tensor_diag([1, 2]).numpy().tolist()
    [[1, 0], [0, 2]]
    """
    d = convert_to_tensor(diagonal)
    if d._value.ndim < 1:
        raise InvalidArgumentError(f"Input must be at least rank 1, got {d._value.ndim}")
    return execute(_Diag, (d,), None, name)


def tensor_diag_part(input: TensorLike, name: str | None = None) -> Tensor:
    """The diagonal of a tensor of rank 2k whose first k dimensions equal its last k.

    >>> import retrograd as tf
    >>> tf.linalg.tensor_diag_part([[1, 5], [7, 2]]).numpy().tolist()
    [1, 2]
    """
    x = convert_to_tensor(input)
    shape = tuple(x._value.shape)
    half = len(shape) // 2
    if len(shape) % 2 or not shape or shape[:half] != shape[half:]:
        raise InvalidArgumentError(
            f"Invalid shape {list(shape)}: dimensions [:{half}] and [{half}:] must match"
        )
    return execute(_DiagPart, (x,), None, name)


@op_gradient("Diag")
def _diag_grad(op, grad):
    return tensor_diag_part(grad)


@op_gradient("DiagPart")
def _diag_part_grad(op, grad):
    return tensor_diag(grad)
