"""Matrix factorizations: Cholesky, QR, the Hermitian eigendecomposition and the SVD.

Values are LAPACK's (through NumPy). Eigen- and singular vectors are unique only up to
sign (phase, for complex input), and neither LAPACK nor TensorFlow normalizes them, so
individual vectors may differ from TensorFlow's by a sign; everything invariant to that
(``U S V^H``, ``V diag(e) V^H``, projectors, gradients of such quantities) agrees. QR's
factors match TensorFlow's (both use Householder reflections with R's diagonal real).

Gradients (written with retrograd ops, so they differentiate again): Cholesky after Murray
(2016) and Seeger et al., QR after Walter and Lehmann (2018) and Liao et al. (2019), eigh and
SVD after Giles (2008), Townsend (2016) and Wan and Zhang (2019). The eigh and SVD gradients
divide by differences of eigen/singular values (and the SVD's by the singular values): they
are the true gradients for distinct (nonzero) values only. Where values coincide the
division gives 0, as in TensorFlow, so the gradient stays finite and is right for losses
that do not depend on the vectors inside a repeated eigenspace (``sum(e)``, ``sum(s)``);
for other losses it is not defined there.

>>> import retrograd as rg
>>> rg.linalg.cholesky([[4.0, 2.0], [2.0, 5.0]]).numpy().tolist()
[[2.0, 0.0], [1.0, 2.0]]
"""

from __future__ import annotations

from typing import Literal, NamedTuple, overload

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError, UnimplementedError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, math_ops, matrix_diag_ops, matrix_inverse_ops
from retrograd.ops.define import beside
from retrograd.ops.linalg_ops import adjoint, matmul, matrix_arg


class Qr(NamedTuple):
    """The factors of :func:`qr`."""

    q: Tensor
    r: Tensor


def _swap(a):
    return np.swapaxes(a, -1, -2)


def _no_vectors(x):
    return np.zeros((0,), x.dtype)


def _real_diagonal(x: Tensor) -> Tensor:
    """The diagonal of ``x`` as a diagonal matrix, real part only."""
    d = matrix_diag_ops.band_part(x, 0, 0)
    return 0.5 * (d + math_ops.conj(d)) if d.dtype.is_complex else d


def _safe_reciprocal(x: Tensor) -> Tensor:
    """x / (x^2 + 1e-20): 1/x except that 0 gives 0 (TensorFlow's choice for these rules)."""
    return x / (x * x + 1e-20)


def _reciprocal_of_differences(values: Tensor) -> Tensor:
    """F[..., i, j] = 1 / (values_j - values_i), and 0 where the two values coincide (the
    diagonal, and repeated values: there the coupling term drops out, as in TensorFlow).

    The diagonal is masked rather than divided: the safe reciprocal's slope at 0 is 1e20,
    and those terms would cancel in a second derivative only up to rounding."""
    differences = array_ops.expand_dims(values, -2) - array_ops.expand_dims(values, -1)
    eye = np.eye(values._value.shape[-1], dtype=bool)
    on_diagonal = beside(eye, values)
    off_diagonal = array_ops.where(on_diagonal, array_ops.ones_like(differences), differences)
    zeros = array_ops.zeros_like(differences)
    return array_ops.where(on_diagonal, zeros, _safe_reciprocal(off_diagonal))


def _solve_right_upper(x: Tensor, r: Tensor) -> Tensor:
    """x @ inv(r)^H for upper-triangular r: the adjoint of the solve r @ y = x^H."""
    return adjoint(matrix_inverse_ops.triangular_solve(r, adjoint(x), lower=False))


# --- Cholesky ------------------------------------------------------------------------------


def _cholesky_kernel(x):
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError(
            "Cholesky: decomposition was not successful; the input is not positive definite"
        ) from None


_Cholesky = define_op("Cholesky", _cholesky_kernel)


def cholesky(input: TensorLike, name: str | None = None) -> Tensor:
    """The lower-triangular L with L @ L^H = input, for Hermitian positive-definite matrices.

    Only the lower triangle of ``input`` is read. A matrix that is not positive definite
    raises InvalidArgumentError (TensorFlow 2.21 returns NaNs instead).

    >>> import retrograd as rg
    >>> rg.linalg.cholesky([[4.0, 2.0], [2.0, 2.0]]).numpy().tolist()
    [[2.0, 0.0], [1.0, 1.0]]
    """
    x = matrix_arg("Cholesky", input, square=True)
    return execute(_Cholesky, (x,), None, name)


@op_gradient("Cholesky")
def _cholesky_grad(op, grad):
    # dL = L Phi(L^-1 dA L^-H), Phi = lower triangle with the diagonal halved; its adjoint
    # gives L^-H Phi(L^H grad) L^-1, symmetrized because A is.
    chol = op.outputs[0]
    middle = matmul(chol, grad, adjoint_a=True)
    phi = matrix_diag_ops.band_part(middle, -1, 0) - 0.5 * matrix_diag_ops.band_part(middle, 0, 0)
    left = matrix_inverse_ops.triangular_solve(chol, phi, lower=True, adjoint=True)
    grad_a = adjoint(matrix_inverse_ops.triangular_solve(chol, adjoint(left), adjoint=True))
    return 0.5 * (grad_a + adjoint(grad_a))


# --- QR ------------------------------------------------------------------------------------

_Qr = define_op(
    "Qr",
    lambda x, full_matrices: np.linalg.qr(x, mode="complete" if full_matrices else "reduced"),
    multi_output=True,
)


def qr(input: TensorLike, full_matrices: bool = False, name: str | None = None) -> Qr:
    """Q with orthonormal columns and upper-triangular R with Q @ R = input.

    ``full_matrices`` makes Q square [..., M, M] (R [..., M, N]); else Q is [..., M, K] and
    R [..., K, N] with K = min(M, N). The gradient needs the thin factorization when M > N.

    >>> import retrograd as rg
    >>> q, r = rg.linalg.qr(rg.constant([[3.0, 1.0], [4.0, 2.0]], rg.float64))
    >>> r.numpy().round(4).tolist()
    [[-5.0, -2.2], [0.0, 0.4]]
    """
    x = matrix_arg("Qr", input)
    return Qr(*execute(_Qr, (x,), {"full_matrices": bool(full_matrices)}, name))


def _qr_grad_tall(q: Tensor, r: Tensor, grad_q: Tensor, grad_r: Tensor) -> Tensor:
    """The gradient for A = QR with R square: (grad_q + Q copyltu(M)) R^-H, where
    M = R grad_r^H - grad_q^H Q and copyltu mirrors the strict lower triangle onto the
    upper one (conjugated) and keeps the real diagonal."""
    m = matmul(r, grad_r, adjoint_b=True) - matmul(grad_q, q, adjoint_a=True)
    strict_lower = matrix_diag_ops.band_part(m, -1, 0) - matrix_diag_ops.band_part(m, 0, 0)
    mirrored = strict_lower + adjoint(strict_lower) + _real_diagonal(m)
    return _solve_right_upper(grad_q + matmul(q, mirrored), r)


@op_gradient("Qr")
def _qr_grad(op, grad_q, grad_r):
    a = op.inputs[0]
    q, r = op.outputs
    rows, cols = plain_dims(a.shape)[-2:]
    if rows > cols and op.get_attr("full_matrices"):
        raise UnimplementedError(
            f"Qr: the gradient is not defined for full_matrices=True when rows > columns "
            f"(input shape {plain_dims(a.shape)}): the extra columns of Q are not unique"
        )
    if rows >= cols:
        return _qr_grad_tall(q, r, grad_q, grad_r)
    # Wide: A = [X | Y] with X = Q U square, Y = Q V; Q depends on X alone.
    y = a[..., rows:]
    u = r[..., :rows]
    grad_u, grad_v = grad_r[..., :rows], grad_r[..., rows:]
    grad_x = _qr_grad_tall(q, u, grad_q + matmul(y, grad_v, adjoint_b=True), grad_u)
    return array_ops.concat([grad_x, matmul(q, grad_v)], axis=-1)


# --- Hermitian eigendecomposition ------------------------------------------------------------


def _eigh_kernel(x, compute_v):
    if not compute_v:
        return np.linalg.eigvalsh(x).astype(x.dtype, copy=False), _no_vectors(x)
    e, v = np.linalg.eigh(x)
    return e.astype(x.dtype, copy=False), v


_SelfAdjointEigV2 = define_op("SelfAdjointEigV2", _eigh_kernel, multi_output=True)


def eigh(tensor: TensorLike, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices.

    Only the lower triangle is read. Eigenvalues keep the input dtype (complex for complex
    input, as in TensorFlow). Each eigenvector's sign (phase) is LAPACK's choice.

    >>> import retrograd as rg
    >>> e, v = rg.linalg.eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> e.numpy().round(4).tolist()
    [1.0, 3.0]
    """
    x = matrix_arg("SelfAdjointEigV2", tensor, "tensor", square=True)
    return execute(_SelfAdjointEigV2, (x,), {"compute_v": True}, name)


def eigvalsh(tensor: TensorLike, name: str | None = None) -> Tensor:
    """The eigenvalues (ascending) of Hermitian matrices; only the lower triangle is read.

    >>> import retrograd as rg
    >>> rg.linalg.eigvalsh([[2.0, 1.0], [1.0, 2.0]]).numpy().round(5).tolist()
    [1.0, 3.0]
    """
    x = matrix_arg("SelfAdjointEigV2", tensor, "tensor", square=True)
    return execute(_SelfAdjointEigV2, (x,), {"compute_v": False}, name)[0]


@op_gradient("SelfAdjointEigV2")
def _eigh_grad(op, grad_e, grad_v):
    e, v = op.outputs
    if op.get_attr("compute_v"):
        coupling = _reciprocal_of_differences(e) * matmul(v, grad_v, adjoint_a=True)
        inner = matrix_diag_ops.diag(grad_e) + coupling
    else:
        _, v = eigh(op.inputs[0])
        inner = matrix_diag_ops.diag(grad_e)
    grad_a = matmul(v, matmul(inner, v, adjoint_b=True))
    # The op reads the lower triangle of a Hermitian matrix: each entry below the diagonal
    # stands for itself and its mirror image.
    grad_a = matrix_diag_ops.band_part(grad_a + adjoint(grad_a), -1, 0)
    return grad_a - 0.5 * matrix_diag_ops.band_part(grad_a, 0, 0)


# --- singular value decomposition ------------------------------------------------------------


def _svd_kernel(x, full_matrices, compute_uv):
    if not compute_uv:
        return np.linalg.svd(x, compute_uv=False), _no_vectors(x), _no_vectors(x)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s, u, np.conj(_swap(vh))


_Svd = define_op("Svd", _svd_kernel, multi_output=True)


@overload
def svd(
    tensor: TensorLike,
    full_matrices: bool = ...,
    compute_uv: Literal[True] = ...,
    name: str | None = ...,
) -> tuple[Tensor, Tensor, Tensor]: ...
@overload
def svd(
    tensor: TensorLike, full_matrices: bool, compute_uv: Literal[False], name: str | None = ...
) -> Tensor: ...
@overload
def svd(
    tensor: TensorLike,
    full_matrices: bool = ...,
    *,
    compute_uv: Literal[False],
    name: str | None = ...,
) -> Tensor: ...
@overload
def svd(
    tensor: TensorLike,
    full_matrices: bool = ...,
    compute_uv: bool = ...,
    name: str | None = ...,
) -> Tensor | tuple[Tensor, Tensor, Tensor]: ...
def svd(
    tensor: TensorLike,
    full_matrices: bool = False,
    compute_uv: bool = True,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor, Tensor]:
    """Singular values s (descending, real), and when ``compute_uv`` the vectors u and v
    with tensor = u @ diag(s) @ adjoint(v). Returns ``s`` alone or ``(s, u, v)``.

    >>> import retrograd as rg
    >>> rg.linalg.svd([[3.0, 0.0], [0.0, -4.0]], compute_uv=False).numpy().tolist()
    [4.0, 3.0]
    """
    x = matrix_arg("Svd", tensor, "tensor")
    attrs = {"full_matrices": bool(full_matrices), "compute_uv": bool(compute_uv)}
    s, u, v = execute(_Svd, (x,), attrs, name)
    return (s, u, v) if compute_uv else s


def _as_dtype_of(x: Tensor, like: Tensor) -> Tensor:
    return math_ops.cast(x, like.dtype) if x.dtype != like.dtype else x


@op_gradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    a = op.inputs[0]
    rows, cols = plain_dims(a.shape)[-2:]
    if not op.get_attr("compute_uv"):
        _, u, v = svd(a)
        return matmul(u * _as_dtype_of(array_ops.expand_dims(grad_s, -2), a), v, adjoint_b=True)
    if op.get_attr("full_matrices") and rows != cols:
        raise UnimplementedError(
            f"Svd: the gradient is not defined for full_matrices=True with a non-square input "
            f"(shape {plain_dims(a.shape)}): the extra singular vectors are not unique"
        )
    s, u, v = op.outputs
    f = _reciprocal_of_differences(s * s)
    s_row = _as_dtype_of(array_ops.expand_dims(s, -2), a)  # multiplies columns: X @ diag(s)
    s_col = _as_dtype_of(array_ops.expand_dims(s, -1), a)  # multiplies rows: diag(s) @ X
    inv_row, inv_col = _safe_reciprocal(s_row), _safe_reciprocal(s_col)  # 1/s, 0 for s = 0
    u_grad_u = matmul(u, grad_u, adjoint_a=True)
    v_grad_v = matmul(v, grad_v, adjoint_a=True)
    j = _as_dtype_of(f, a) * u_grad_u
    k = _as_dtype_of(f, a) * v_grad_v
    inner = (
        _as_dtype_of(matrix_diag_ops.diag(grad_s), a)
        + (j + adjoint(j)) * s_row
        + s_col * (k + adjoint(k))
    )
    if a.dtype.is_complex:  # the phase of each singular pair (u_i, v_i) is free
        d = matrix_diag_ops.band_part(u_grad_u, 0, 0)
        inner = inner + 0.5 * (d - math_ops.conj(d)) * inv_row
    grad_a = matmul(u, matmul(inner, v, adjoint_b=True))
    if rows > cols:  # the part of grad_u outside the span of u
        outside = (grad_u - matmul(u, u_grad_u)) * inv_row
        grad_a = grad_a + matmul(outside, v, adjoint_b=True)
    elif rows < cols:
        outside = (adjoint(grad_v) - matmul(adjoint(v_grad_v), v, adjoint_b=True)) * inv_col
        grad_a = grad_a + matmul(u, outside)
    return grad_a
