"""Banded and tridiagonal matrices (``banded_triangular_solve``, ``tridiagonal_matmul``,
``tridiagonal_solve``, ``eigh_tridiagonal``) and matrix functions (``sqrtm``, ``logm``).

The banded and tridiagonal functions take TensorFlow's compact layouts and compute with the
dense matrices they describe (products, solves, eigh), so they differentiate through those.
``sqrtm`` (SciPy's Schur method; nan where a real input has no real square root, as
TensorFlow) has TensorFlow's gradient, a Sylvester equation solved by Kronecker products;
``logm`` (complex input only, as TensorFlow) has none, as there.

>>> import retrograd as tf
>>> tf.linalg.tridiagonal_matmul([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]],
...                              [[1.0], [2.0], [3.0]]).numpy().tolist()
[[5.0], [20.0], [29.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, math_ops, matrix_diag_ops
from retrograd.ops.decomposition_ops import eigh
from retrograd.ops.linalg_ops import matrix_arg, matrix_transpose
from retrograd.ops.matrix_inverse_ops import solve, triangular_solve
from retrograd.ops.scopes import op_scope
from retrograd.ops.special_ops import scipy_special

__all__ = [
    "banded_triangular_solve", "eigh_tridiagonal", "logm", "sqrtm", "tridiagonal_matmul",
    "tridiagonal_solve",
]  # fmt: skip


def banded_triangular_solve(
    bands: TensorLike,
    rhs: TensorLike,
    lower: bool = True,
    adjoint: bool = False,
    name: str | None = None,
) -> Tensor:
    """Solves a triangular system whose matrix is given by its ``bands`` ([..., K, M]: the
    diagonal and the K - 1 subdiagonals below it (``lower``, padded on the left), or the
    K - 1 superdiagonals above it and the diagonal last (padded on the right)).

    >>> import retrograd as tf
    >>> x = tf.linalg.banded_triangular_solve([[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]],
    ...                                       [[1.0], [2.0], [3.0]])
    >>> x.numpy().astype(float).round(4).tolist()
    [[1.0], [-1.0], [2.6667]]
    """
    with op_scope(name or "banded_triangular_solve"):
        bands = convert_to_tensor(bands)
        k, m = bands.shape[-2], bands.shape[-1]
        band = (-(k - 1), 0) if lower else (0, k - 1)
        dense = matrix_diag_ops.diag(bands, k=band, num_rows=m, num_cols=m, align="LEFT_RIGHT")
        return triangular_solve(dense, rhs, lower=lower, adjoint=adjoint)


def _diagonals(op_type: str, diagonals: Any, diagonals_format: str) -> tuple:
    """(superdiagonal, diagonal, subdiagonal), each [..., M] (the super's last entry and the
    sub's first are not used), from the 'compact', 'sequence' or 'matrix' format."""
    if diagonals_format == "compact":
        d = convert_to_tensor(diagonals)
        if d._value.ndim < 2 or d._value.shape[-2] != 3:
            raise ValueError(
                f"Expected diagonals to have shape [..., 3, M], got {tuple(d._value.shape)}"
            )
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if diagonals_format == "sequence":
        sup, main, sub = (convert_to_tensor(t) for t in diagonals)
        return sup, main, sub
    if diagonals_format == "matrix":
        m = convert_to_tensor(diagonals)
        zero = array_ops.zeros_like(m[..., :1, 0])
        sup = array_ops.concat([matrix_diag_ops.diag_part(m, k=1), zero], -1)
        sub = array_ops.concat([zero, matrix_diag_ops.diag_part(m, k=-1)], -1)
        return sup, matrix_diag_ops.diag_part(m), sub
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def _dense(sup: Tensor, main: Tensor, sub: Tensor) -> Tensor:
    stacked = array_ops.stack([sup, main, sub], axis=-2)
    m = main.shape[-1]
    return matrix_diag_ops.diag(stacked, k=(-1, 1), num_rows=m, num_cols=m, align="LEFT_RIGHT")


def tridiagonal_matmul(
    diagonals: TensorLike,
    rhs: TensorLike,
    diagonals_format: str = "compact",
    name: str | None = None,
) -> Tensor:
    """The product of a tridiagonal matrix (given by its diagonals) and ``rhs`` [..., M, N].

    >>> import retrograd as tf
    >>> tf.linalg.tridiagonal_matmul([[1.0, 0.0], [2.0, 3.0], [0.0, 4.0]],
    ...                              [[1.0], [1.0]]).numpy().tolist()
    [[3.0], [7.0]]
    """
    with op_scope(name or "tridiagonal_matmul"):
        sup, main, sub = _diagonals("TridiagonalMatMul", diagonals, diagonals_format)
        rhs = convert_to_tensor(rhs, main.dtype)
        zero = array_ops.zeros_like(rhs[..., :1, :])
        below = array_ops.concat([rhs[..., 1:, :], zero], -2)  # x[i + 1]
        above = array_ops.concat([zero, rhs[..., :-1, :]], -2)  # x[i - 1]
        col = lambda v: array_ops.expand_dims(v, -1)  # noqa: E731
        return col(sup) * below + col(main) * rhs + col(sub) * above


def tridiagonal_solve(
    diagonals: TensorLike,
    rhs: TensorLike,
    diagonals_format: str = "compact",
    transpose_rhs: bool = False,
    conjugate_rhs: bool = False,
    name: str | None = None,
    partial_pivoting: bool = True,
    perturb_singular: bool = False,
) -> Tensor:
    """Solves a tridiagonal system; ``rhs`` is [..., M, K] or a vector [..., M] (then the
    result is a vector too), transposed and/or conjugated first as asked.

    >>> import retrograd as tf
    >>> tf.linalg.tridiagonal_solve([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]],
    ...                             [1.0, 2.0, 3.0]).numpy().astype(float).round(4).tolist()
    [-0.1667, 1.5, -1.5]
    """
    with op_scope(name or "tridiagonal_solve"):
        sup, main, sub = _diagonals("TridiagonalSolve", diagonals, diagonals_format)
        rhs = convert_to_tensor(rhs, main.dtype)
        vector = rhs._value.ndim == main._value.ndim
        if vector:
            rhs = array_ops.expand_dims(rhs, -1)
        elif transpose_rhs:
            rhs = matrix_transpose(rhs)
        if conjugate_rhs:
            rhs = math_ops.conj(rhs)
        x = solve(_dense(sup, main, sub), rhs)
        return array_ops.squeeze(x, -1) if vector else x


def eigh_tridiagonal(
    alpha: TensorLike,
    beta: TensorLike,
    eigvals_only: bool = True,
    select: str = "a",
    select_range: Sequence[float] | None = None,
    tol: float | None = None,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """The eigenvalues (ascending), and eigenvectors (columns) unless ``eigvals_only``, of
    the Hermitian tridiagonal matrix with diagonal ``alpha`` and superdiagonal ``beta``;
    ``select`` 'a' (all), 'v' (those in (lo, hi]) or 'i' (indices lo..hi) with
    ``select_range`` = (lo, hi). Eigenvectors are defined up to sign (phase).

    >>> import retrograd as tf
    >>> e = tf.linalg.eigh_tridiagonal([1.0, 2.0, 3.0], [0.5, 0.5])
    >>> e.numpy().astype(float).round(4).tolist()
    [0.7753, 2.0, 3.2247]
    """
    with op_scope(name or "eigh_tridiagonal"):
        alpha = convert_to_tensor(alpha)
        beta = convert_to_tensor(beta)
        if alpha._value.ndim != 1 or beta._value.shape != (alpha._value.shape[0] - 1,):
            raise ValueError("alpha must be a vector of size n and beta of size n - 1")
        if beta.dtype.is_complex and not alpha.dtype.is_complex:
            alpha = math_ops.cast(alpha, beta.dtype)
        zero = array_ops.zeros_like(beta[:1])
        sup = array_ops.concat([beta, zero], 0)
        sub = array_ops.concat([zero, math_ops.conj(beta)], 0)
        values, vectors = eigh(_dense(sup, alpha, sub))
        if beta.dtype.is_complex:
            from retrograd.ops.complex_ops import real

            values = real(values)
        keep = _selected(values, select, select_range)
        if keep is not None:
            values, vectors = values[keep[0] : keep[1]], vectors[:, keep[0] : keep[1]]
        return values if eigvals_only else (values, vectors)


def _selected(values: Tensor, select: str, select_range: Any) -> tuple[int, int] | None:
    if select == "a":
        return None
    if select == "i":
        lo, hi = (int(v) for v in select_range)
        return lo, hi + 1
    if select == "v":
        from retrograd.ops.index_args import build_time_value

        known = np.asarray(build_time_value("eigh_tridiagonal", values, "select_range"))
        lo, hi = (float(v) for v in select_range)
        inside = np.flatnonzero((known > lo) & (known <= hi))
        return (int(inside[0]), int(inside[-1]) + 1) if inside.size else (0, 0)
    raise ValueError(f"select must be 'a', 'v' or 'i', got {select!r}")


# -- matrix functions ------------------------------------------------------------------------
def _sqrtm_kernel(x):
    linalg = _scipy_linalg("MatrixSquareRoot")
    flat = x.reshape(-1, *x.shape[-2:])
    out = np.empty_like(flat)
    for i, m in enumerate(flat):
        with np.errstate(all="ignore"):
            root = linalg.sqrtm(m)
        if x.dtype.kind != "c" and np.iscomplexobj(root):  # no real root: nan, as TensorFlow
            real = np.abs(root.imag).max() <= 1e-6 * max(1.0, np.abs(root).max())
            root = root.real if real else np.full(m.shape, np.nan)
        out[i] = root
    return out.reshape(x.shape)


def _logm_kernel(x):
    linalg = _scipy_linalg("MatrixLogarithm")
    flat = x.reshape(-1, *x.shape[-2:])
    return np.stack([linalg.logm(m) for m in flat]).astype(x.dtype).reshape(x.shape)


def _scipy_linalg(op_type: str) -> Any:
    scipy_special(op_type)  # SciPy present, or the error naming the extra
    import scipy.linalg

    return scipy.linalg


# SciPy's sqrtm and logm, one matrix at a time: computed on the host, explicitly.
_MatrixSquareRoot = define_op("MatrixSquareRoot", host_kernel(_sqrtm_kernel))
_MatrixLogarithm = define_op("MatrixLogarithm", host_kernel(_logm_kernel))


def sqrtm(input: TensorLike, name: str | None = None) -> Tensor:
    """The principal square root R (R @ R = input) of square matrices (SciPy).

    >>> import retrograd as tf
    >>> tf.linalg.sqrtm([[4.0, 0.0], [0.0, 9.0]]).numpy().tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    x = matrix_arg("MatrixSquareRoot", input, square=True)
    return execute(_MatrixSquareRoot, (x,), None, name)


def logm(input: TensorLike, name: str | None = None) -> Tensor:
    """The principal logarithm of complex square matrices (SciPy); no gradient.

    >>> import retrograd as tf
    >>> tf.linalg.logm(tf.cast([[1.0, 0.0], [0.0, 1.0]], tf.complex64)).numpy().real.tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    x = convert_to_tensor(input)
    if not x.dtype.is_complex:
        raise InvalidArgumentError(
            f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: "
            f"complex64, complex128"
        )
    x = matrix_arg("MatrixLogarithm", x, square=True)
    return execute(_MatrixLogarithm, (x,), None, name)


@op_gradient("MatrixLogarithm")
def _logm_grad(op, grad):
    raise LookupError("gradient registry has no entry for: MatrixLogarithm")  # as TensorFlow


def _kronecker(a: Tensor, b: Tensor) -> Tensor:
    n, m = a.shape[-1], b.shape[-1]
    batch = list(a.shape[:-2])
    outer = array_ops.reshape(a, batch + [n, 1, n, 1]) * array_ops.reshape(b, batch + [1, m, 1, m])
    return array_ops.reshape(outer, batch + [n * m, n * m])


@op_gradient("MatrixSquareRoot")
def _sqrtm_grad(op, grad):
    # TensorFlow's: R dR + dR R = dA, solved for the adjoint as one Kronecker system.
    from retrograd.ops.matrix_diag_ops import eye

    root = op.outputs[0]
    n = plain_dims(root.shape)[-1]
    batch = list(plain_dims(root.shape)[:-2])
    identity = eye(n, batch_shape=batch, dtype=root.dtype)
    system = _kronecker(identity, matrix_transpose(root)) + _kronecker(root, identity)
    vec = array_ops.reshape(matrix_transpose(grad), batch + [n * n, 1])
    return matrix_transpose(array_ops.reshape(solve(system, vec), batch + [n, n]))
