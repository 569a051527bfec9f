"""``norm``: vector and matrix norms, built from other ops as TensorFlow builds them (so the
gradients are TensorFlow's too, NaN at a zero vector for the 2-norm included).

Vector norms (``axis`` None or an int; None treats the whole tensor as one vector):
``'euclidean'``, 1, 2, ``np.inf`` and any other real ``ord > 0``. Matrix norms (``axis`` a
pair): ``'euclidean'``/``'fro'`` (Frobenius), 1 (largest column sum), ``np.inf`` (largest
row sum) and 2 (largest singular value).

>>> import numpy as np
>>> import retrograd as rg
>>> rg.norm([3.0, -4.0]), rg.norm([3.0, -4.0], ord=1), rg.norm([3.0, -4.0], ord=np.inf)
(<retrograd.Tensor: shape=(), dtype=float32, numpy=5.0>, \
<retrograd.Tensor: shape=(), dtype=float32, numpy=7.0>, \
<retrograd.Tensor: shape=(), dtype=float32, numpy=4.0>)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import AxisLike, TensorLike
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, decomposition_ops, math_ops, reduction_ops
from retrograd.ops.define import FLOAT_COMPLEX, tensor_arg

_MATRIX_ORDS = ("euclidean", "fro", 1, 2, np.inf)


def _axes(axis: Any, ndim: int) -> tuple[int, ...] | None:
    """``axis`` as None, one axis or two distinct axes (non-negative), checked against ``ndim``."""
    if axis is None:
        return None
    if isinstance(axis, (int, np.integer)):
        axes: tuple = (int(axis),)
    elif isinstance(axis, (tuple, list)) and len(axis) == 2 and axis[0] != axis[1]:
        axes = (int(axis[0]), int(axis[1]))
    else:
        raise ValueError(
            f"norm: 'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis!r}"
        )
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"norm: axis {a} is out of range for a tensor of rank {ndim}")
    normalized = tuple(a % ndim for a in axes)
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"norm: 'axis' {axis!r} names the same dimension twice")
    return normalized


def _check_ord(ord: Any, matrix: bool) -> Any:
    if isinstance(ord, str):
        if ord == "euclidean" or (ord == "fro" and matrix):
            return ord
    elif isinstance(ord, (int, float, np.integer, np.floating)) and not isinstance(ord, str):
        value = float(ord)
        if matrix and value in (1.0, 2.0, np.inf):
            return value
        if not matrix and value > 0:
            return value
    if matrix:
        raise ValueError(
            f"norm: 'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], "
            f"got {ord!r}"
        )
    raise ValueError(
        f"norm: 'ord' must be a supported vector norm ('euclidean', inf or a real number > 0), "
        f"got {ord!r}"
    )


def norm(
    tensor: TensorLike,
    ord: str | float = "euclidean",
    axis: AxisLike | None = None,
    keepdims: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """The ``ord``-norm of ``tensor`` over ``axis`` (see the module docstring).

    The Euclidean norm of a complex tensor is complex-typed, as in TensorFlow.

    >>> import retrograd as rg
    >>> rg.norm([[1.0, 2.0], [3.0, 4.0]], ord=1, axis=[0, 1])
    <retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>
    """
    x = tensor_arg("Norm", tensor, FLOAT_COMPLEX, "tensor")
    ndim = x._value.ndim
    axes = _axes(axis, ndim)
    matrix = axes is not None and len(axes) == 2
    ord = _check_ord(ord, matrix)
    reduced = tuple(range(ndim)) if axes is None else axes
    if ord in ("euclidean", "fro") or (ord == 2.0 and not matrix):
        result = math_ops.sqrt(
            reduction_ops.reduce_sum(x * math_ops.conj(x), axis=reduced, keepdims=True)
        )
    elif matrix and ord == 2.0:
        result = _spectral_norm(x, axes)
    elif matrix:  # 1: largest column sum; inf: largest row sum
        rows, cols = axes if ord == 1.0 else axes[::-1]
        sums = reduction_ops.reduce_sum(math_ops.abs(x), axis=rows, keepdims=True)
        result = reduction_ops.reduce_max(sums, axis=cols, keepdims=True)
    elif ord == 1.0:
        result = reduction_ops.reduce_sum(math_ops.abs(x), axis=reduced, keepdims=True)
    elif ord == np.inf:
        result = reduction_ops.reduce_max(math_ops.abs(x), axis=reduced, keepdims=True)
    else:
        powered = math_ops.pow(math_ops.abs(x), ord)
        total = reduction_ops.reduce_sum(powered, axis=reduced, keepdims=True)
        result = math_ops.pow(total, 1.0 / ord)
    if not keepdims:
        result = array_ops.squeeze(result, reduced)
    return array_ops.identity(result, name=name) if name else result


def _spectral_norm(x: Tensor, axes: tuple[int, int]) -> Tensor:
    """The largest singular value of the matrices spanned by ``axes``, kept as size-1 axes."""
    ndim = x._value.ndim
    others = [i for i in range(ndim) if i not in axes]
    moved = array_ops.transpose(x, (*others, *axes))
    largest = reduction_ops.reduce_max(decomposition_ops.svd(moved, compute_uv=False), axis=-1)
    shape = [1 if i in axes else x._value.shape[i] for i in range(ndim)]
    return array_ops.reshape(largest, shape)
