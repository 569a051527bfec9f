"""``keras.ops.linalg``: decompositions (``cholesky``, ``qr``, ``svd``, ``eigh``),
inverses and solvers, determinants, norms, ``lstsq``, ``matrix_rank`` and ``jvp``, on
TensorFlow's linear-algebra ops (each differentiable as they are).

>>> from retrograd.keras import ops
>>> ops.solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0]).numpy().tolist()
[1.0, 0.5]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.autodiff.forward import ForwardAccumulator
from retrograd.core import nest
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    decomposition_ops,
    linalg_ops,
    math_ops,
    matrix_inverse_ops,
    reduction_ops,
)

__all__ = [
    "cholesky",
    "cholesky_inverse",
    "det",
    "eigh",
    "inv",
    "lstsq",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
    "slogdet",
    "logdet",
    "jvp",
]


def _float(x: Any) -> Any:
    return tensors.float_input(x)


def cholesky(x: Any, upper: bool = False) -> Any:
    """The Cholesky factor of a positive definite matrix (lower unless ``upper``).

    >>> cholesky([[4.0, 0.0], [0.0, 9.0]]).numpy().tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    if any_symbolic(x):
        return symbolic_call(cholesky, x, upper)
    factor = decomposition_ops.cholesky(_float(x))
    return linalg_ops.adjoint(factor) if upper else factor


def cholesky_inverse(x: Any, upper: bool = False) -> Any:
    """The inverse of ``L L^T`` from its Cholesky factor ``L`` (``U^T U`` when ``upper``).

    >>> cholesky_inverse([[2.0, 0.0], [0.0, 4.0]]).numpy().tolist()
    [[0.25, 0.0], [0.0, 0.0625]]
    """
    if any_symbolic(x):
        return symbolic_call(cholesky_inverse, x, upper)
    factor = _float(x)
    eye = tensors.convert(np.eye(factor.shape.as_list()[-1]), factor.dtype)
    inverse = matrix_inverse_ops.triangular_solve(factor, eye, lower=not upper)
    if upper:
        return linalg_ops.matmul(inverse, inverse, transpose_b=True)
    return linalg_ops.matmul(inverse, inverse, transpose_a=True)


def det(x: Any) -> Any:
    """The determinant of each matrix.

    >>> det([[2.0, 1.0], [1.0, 3.0]]).numpy()
    np.float32(5.0)
    """
    if any_symbolic(x):
        return symbolic_call(det, x)
    return matrix_inverse_ops.det(_float(x))


def slogdet(x: Any) -> Any:
    """The sign and the log of the absolute value of the determinant.

    >>> [float(t) for t in slogdet([[2.0, 0.0], [0.0, -3.0]])]
    [-1.0, 1.7917594909667969]
    """
    if any_symbolic(x):
        return symbolic_call(slogdet, x)
    return tuple(matrix_inverse_ops.slogdet(_float(x)))


def logdet(x: Any) -> Any:
    """The log of the determinant of a positive definite matrix.

    >>> round(float(logdet([[2.0, 0.0], [0.0, 3.0]])), 4)
    1.7918
    """
    if any_symbolic(x):
        return symbolic_call(logdet, x)
    return matrix_inverse_ops.logdet(_float(x))


def eigh(x: Any) -> Any:
    """The eigenvalues (ascending) and eigenvectors of symmetric matrices.

    >>> eigh([[2.0, 0.0], [0.0, 1.0]])[0].numpy().tolist()
    [1.0, 2.0]
    """
    if any_symbolic(x):
        return symbolic_call(eigh, x)
    return tuple(decomposition_ops.eigh(_float(x)))


def inv(x: Any) -> Any:
    """The inverse of each matrix.

    >>> inv([[2.0, 0.0], [0.0, 4.0]]).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    if any_symbolic(x):
        return symbolic_call(inv, x)
    return matrix_inverse_ops.inv(_float(x))


def _as_matrix(a: Any, b: Any) -> tuple[Any, bool]:
    vector = b.shape.rank == a.shape.rank - 1
    return (array_ops.expand_dims(b, -1) if vector else b), vector


def solve(a: Any, b: Any) -> Any:
    """``x`` with ``a x = b`` (``b`` a vector or a matrix of right-hand sides).

    >>> solve([[1.0, 1.0], [0.0, 2.0]], [3.0, 2.0]).numpy().tolist()
    [2.0, 1.0]
    """
    if any_symbolic(a, b):
        return symbolic_call(solve, a, b)
    matrix, rhs = _float(a), _float(b)
    rhs, vector = _as_matrix(matrix, rhs)
    out = matrix_inverse_ops.solve(matrix, rhs)
    return array_ops.squeeze(out, [out.shape.rank - 1]) if vector else out


def solve_triangular(a: Any, b: Any, lower: bool = False) -> Any:
    """``x`` with ``a x = b`` for triangular ``a`` (upper unless ``lower``).

    >>> solve_triangular([[2.0, 1.0], [0.0, 1.0]], [3.0, 1.0]).numpy().tolist()
    [1.0, 1.0]
    """
    if any_symbolic(a, b):
        return symbolic_call(solve_triangular, a, b, lower)
    matrix, rhs = _float(a), _float(b)
    rhs, vector = _as_matrix(matrix, rhs)
    out = matrix_inverse_ops.triangular_solve(matrix, rhs, lower=lower)
    return array_ops.squeeze(out, [out.shape.rank - 1]) if vector else out


def qr(x: Any, mode: str = "reduced") -> Any:
    """The QR decomposition: ``(q, r)`` ('reduced' or 'complete').

    >>> [t.shape for t in qr([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])]
    [TensorShape([3, 2]), TensorShape([2, 2])]
    """
    if any_symbolic(x):
        return symbolic_call(qr, x, mode)
    if mode not in ("reduced", "complete"):
        raise ValueError(
            "`mode` argument value not supported. Expected one of {'reduced', 'complete'}. "
            f"Received: mode={mode}"
        )
    return tuple(decomposition_ops.qr(_float(x), full_matrices=mode == "complete"))


def svd(x: Any, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """The singular value decomposition ``(u, s, vh)`` (``s`` alone without
    ``compute_uv``).

    >>> svd([[3.0, 0.0], [0.0, 2.0]], compute_uv=False).numpy().tolist()
    [3.0, 2.0]
    """
    if any_symbolic(x):
        return symbolic_call(svd, x, full_matrices, compute_uv)
    t = _float(x)
    if not compute_uv:
        return decomposition_ops.svd(t, full_matrices, compute_uv=False)
    s, u, v = decomposition_ops.svd(t, full_matrices, compute_uv=True)
    return u, s, linalg_ops.adjoint(v)


def pinv(x: Any, rcond: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse (singular values below ``rcond`` times the largest
    dropped).

    >>> pinv([[2.0, 0.0], [0.0, 0.0]]).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    if any_symbolic(x):
        return symbolic_call(pinv, x, rcond)
    return matrix_inverse_ops.pinv(_float(x), rcond=rcond)


def lstsq(a: Any, b: Any, rcond: Any = None) -> Any:
    """The least-squares solution of ``a x = b`` for a 2-D ``a`` (through the SVD; singular
    values below ``rcond`` times the largest are dropped).

    >>> lstsq([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], [1.0, 2.0, 3.0]).numpy().tolist()
    [1.0, 2.0]
    """
    if any_symbolic(a, b):
        return symbolic_call(lstsq, a, b, rcond)
    matrix, rhs = tensors.convert(a), tensors.convert(b)
    if matrix.shape.as_list()[0] != rhs.shape.as_list()[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    vector = rhs.shape.rank == 1
    if vector:
        rhs = array_ops.expand_dims(rhs, -1)
    if matrix.shape.rank != 2:
        raise TypeError(
            f"{matrix.shape.rank}-dimensional array given. Array must be two-dimensional"
        )
    m, n = matrix.shape.as_list()
    eps = float(np.finfo(matrix.dtype.as_numpy_dtype).eps)
    limit = eps * max(m, n) if rcond is None else (eps if rcond < 0 else rcond)
    u, s, vt = svd(matrix, full_matrices=False)
    keep = comparison_ops.greater_equal(s, tensors.convert(limit, s.dtype) * s[0])
    safe = array_ops.where(keep, s, array_ops.ones_like(s))
    inverse = array_ops.where(keep, 1 / safe, array_ops.zeros_like(s))
    projected = linalg_ops.matmul(u, rhs, transpose_a=True)
    out = linalg_ops.matmul(vt, array_ops.expand_dims(inverse, -1) * projected, transpose_a=True)
    return array_ops.reshape(out, [-1]) if vector else out


def matrix_rank(x: Any, tol: Any = None) -> Any:
    """The number of singular values above ``tol`` (by default the largest times
    ``max(rows, cols)`` times the dtype's epsilon).

    >>> matrix_rank([[1.0, 2.0], [2.0, 4.0]]).numpy()
    np.int32(1)
    """
    if any_symbolic(x):
        return symbolic_call(matrix_rank, x, tol)
    t = _float(x)
    s = decomposition_ops.svd(t, False, compute_uv=False)
    if tol is None:
        rows, cols = t.shape.as_list()[-2:]
        eps = float(np.finfo(t.dtype.as_numpy_dtype).eps)
        tol = reduction_ops.reduce_max(s, -1, keepdims=True) * (max(rows, cols) * eps)
    else:
        tol = tensors.convert(tol, s.dtype)
    above = math_ops.cast(comparison_ops.greater(s, tol), "int32")
    return reduction_ops.reduce_sum(above, -1)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A002
    """Vector norms (one axis) and matrix norms (two axes): ``ord`` as NumPy's.

    >>> norm([3.0, 4.0]).numpy()
    np.float32(5.0)
    """
    if any_symbolic(x):
        return symbolic_call(norm, x, ord, axis, keepdims)
    t = _float(x)
    rank = t.shape.rank
    axes = (
        tuple(range(rank)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    )
    if any(a < -rank or a >= rank for a in axes):
        raise ValueError(
            "All `axis` values must be in the range [-ndim, ndim). Received inputs with "
            f"ndim={rank}, while axis={axis}"
        )
    if len(axes) == 1:
        return _vector_norm(t, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(t, ord, axes, keepdims)
    if ord is None:
        return math_ops.sqrt(reduction_ops.reduce_sum(t * math_ops.conj(t), list(axes), keepdims))
    raise ValueError(f"Invalid axis values. Received: axis={axis}")


def _vector_norm(t: Any, ord: Any, axis: int, keepdims: bool) -> Any:  # noqa: A002
    if ord is None or ord == 2:
        return math_ops.sqrt(reduction_ops.reduce_sum(t * math_ops.conj(t), axis, keepdims))
    if ord == float("inf"):
        return reduction_ops.reduce_max(math_ops.abs(t), axis, keepdims)
    if ord == float("-inf"):
        return reduction_ops.reduce_min(math_ops.abs(t), axis, keepdims)
    if ord == 0:
        nonzero = comparison_ops.not_equal(t, tensors.convert(0, t.dtype))
        return reduction_ops.reduce_sum(math_ops.cast(nonzero, t.dtype), axis, keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid `ord` argument for vector norm. Received: ord={ord}")
    power = tensors.convert(ord, t.dtype)
    total = reduction_ops.reduce_sum(math_ops.pow(math_ops.abs(t), power), axis, keepdims)
    return math_ops.pow(total, 1.0 / power)


def _matrix_norm(t: Any, ord: Any, axes: tuple, keepdims: bool) -> Any:  # noqa: A002
    rank = t.shape.rank
    row, col = (a % rank for a in axes)
    if ord is None or ord == "fro":
        return math_ops.sqrt(reduction_ops.reduce_sum(t * math_ops.conj(t), [row, col], keepdims))
    if ord in (1, -1, float("inf"), float("-inf")):
        inner, outer = (row, col) if ord in (1, -1) else (col, row)
        if not keepdims and outer > inner:
            outer -= 1
        pick = reduction_ops.reduce_max if ord in (1, float("inf")) else reduction_ops.reduce_min
        sums = reduction_ops.reduce_sum(math_ops.abs(t), inner, keepdims)
        return pick(sums, outer, keepdims)
    if ord in ("nuc", 2, -2):
        from retrograd.keras.src.ops import numpy_shape

        moved = numpy_shape.moveaxis(t, (row, col), (-2, -1))
        s = decomposition_ops.svd(moved, False, compute_uv=False)
        pick = {2: reduction_ops.reduce_max, -2: reduction_ops.reduce_min}.get(
            ord, reduction_ops.reduce_sum
        )
        out = pick(s, -1)
        if keepdims:
            out = array_ops.expand_dims(array_ops.expand_dims(out, row), col)
        return out
    raise ValueError(f"Invalid `ord` argument for matrix norm. Received: ord={ord}")


def jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> Any:
    """``fun(*primals)`` and its Jacobian-vector product with ``tangents`` (forward mode);
    with ``has_aux``, ``fun`` returns ``(output, aux)`` and ``aux`` comes last.

    >>> import retrograd as rg
    >>> out, tangent = jvp(lambda x: x * x, (rg.constant(3.0),), (rg.constant(1.0),))
    >>> float(out), float(tangent)
    (9.0, 6.0)
    """
    flat_primals = [tensors.convert(p) for p in nest.flatten(primals)]
    flat_tangents = [
        math_ops.cast(tensors.convert(t), p.dtype)
        for t, p in zip(nest.flatten(tangents), flat_primals)
    ]
    rebuilt = nest.pack_sequence_as(primals, flat_primals)
    with ForwardAccumulator(flat_primals, flat_tangents) as accumulator:
        result = fun(*rebuilt)
        outputs, aux = result if has_aux else (result, None)
        flat_out = nest.flatten(outputs)
        tangents_out = [accumulator.jvp(o) for o in flat_out]
    packed = nest.pack_sequence_as(outputs, tangents_out)
    return (outputs, packed, aux) if has_aux else (outputs, packed)
