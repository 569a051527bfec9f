"""Casts and divisions with TensorFlow's special rules: ``saturate_cast`` (clamped to the
target's range before casting), ``scalar_mul`` (a 0-D factor, also for IndexedSlices),
``truncatediv`` and ``truncatemod`` (rounding toward zero, as C does).

>>> import retrograd as rg
>>> rg.saturate_cast(rg.constant([300, -5]), rg.uint8).numpy().tolist()
[255, 0]
>>> rg.truncatediv(rg.constant([-7, 7]), rg.constant([5, -5])).numpy().tolist()
[-1, -1]
"""

from __future__ import annotations

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import clip_ops, complex_ops, math_ops
from retrograd.ops.define import REAL, tensor_arg, tensor_pair
from retrograd.ops.indexed_slices import IndexedSlices
from retrograd.ops.scopes import op_scope

__all__ = ["saturate_cast", "scalar_mul", "truncatediv", "truncatemod"]


def _limits(source: np.dtype, target: np.dtype) -> tuple:
    """The clamp bounds in ``source``'s dtype: the target's range where it is narrower,
    moved toward zero where rounding to ``source`` would land outside it (float32 cannot
    hold 2**31 - 1: int32's bound is 2147483520)."""
    info = lambda d: np.finfo(d) if d.kind in "fc" else np.iinfo(d)  # noqa: E731
    low = source.type(max(float(info(source).min), float(info(target).min)))
    if low.astype(np.float64) < float(info(target).min):
        low = np.nextafter(low, source.type(0), dtype=source)
    high = source.type(min(float(info(source).max), float(info(target).max)))
    if high.astype(np.float64) > float(info(target).max):
        high = np.nextafter(high, source.type(0), dtype=source)
    return low, high


def saturate_cast(value: TensorLike, dtype: DTypeLike, name: str | None = None) -> Tensor:
    """``value`` cast to ``dtype`` after clamping it to the values ``dtype`` can hold (a
    complex value to a real type keeps its real part); the gradient passes through the
    values inside the range.

    >>> import retrograd as rg
    >>> rg.saturate_cast(rg.constant([-1e10, 1e10, 3.7]), rg.int32).numpy().tolist()
    [-2147483648, 2147483520, 3]
    """
    x = tensor_arg("saturate_cast", value, "biufc", "value")
    target = dtypes.as_dtype(dtype)
    with op_scope(name or "saturate_cast") as scope:
        if x.dtype.is_complex and not target.is_complex:
            x = complex_ops.real(x)
        if x.dtype.is_bool or target.is_bool or x.dtype.is_complex:
            return math_ops.cast(x, target, name=scope)
        source, goal = np.dtype(x.dtype.as_numpy_dtype), np.dtype(target.as_numpy_dtype)
        low, high = _limits(source, goal)
        x = clip_ops.clip_by_value(x, convert_to_tensor(low), convert_to_tensor(high))
        return math_ops.cast(x, target, name=scope)


def scalar_mul(
    scalar: TensorLike, x: TensorLike | IndexedSlices, name: str | None = None
) -> Tensor | IndexedSlices:
    """``scalar * x`` for a 0-D ``scalar`` (of ``x``'s dtype); on IndexedSlices, their values
    are multiplied.

    >>> import retrograd as rg
    >>> rg.scalar_mul(2.0, rg.constant([1.0, 2.0])).numpy().tolist()
    [2.0, 4.0]
    """
    dtype = x.dtype if isinstance(x, IndexedSlices) else None
    factor = scalar if isinstance(scalar, Tensor) else convert_to_tensor(scalar, dtype=dtype)
    if factor.shape.rank != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {factor.shape}.")
    if isinstance(x, IndexedSlices):
        return IndexedSlices(math_ops.multiply(factor, x.values), x.indices, x.dense_shape)
    return math_ops.multiply(factor, x, name=name or "scalar_mul")


def _truncate_div_kernel(x, y):
    if x.dtype.kind in "iu":
        if np.any(y == 0):
            raise InvalidArgumentError("TruncateDiv: Integer division by zero")
        quotient = x // y
        inexact = (quotient * y != x) & ((x < 0) != (y < 0))
        return (quotient + inexact).astype(x.dtype, copy=False)
    return np.trunc(x / y).astype(x.dtype, copy=False)


def _truncate_mod_kernel(x, y):
    if x.dtype.kind in "iu" and np.any(y == 0):
        raise InvalidArgumentError("TruncateMod: Integer division by zero")
    return np.fmod(x, y).astype(x.dtype, copy=False)


_TruncateDiv = define_op("TruncateDiv", _truncate_div_kernel, elementwise=True)
_TruncateMod = define_op("TruncateMod", _truncate_mod_kernel, elementwise=True)
no_gradient("TruncateDiv")  # (TensorFlow's rule gives None for both inputs)
no_gradient("TruncateMod")


def truncatediv(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """``x / y`` rounded toward zero (``-7 / 5`` is -1), elementwise with broadcasting.

    >>> import retrograd as rg
    >>> rg.truncatediv(rg.constant([-7.5, 7.5]), rg.constant([2.0, -2.0])).numpy().tolist()
    [-3.0, -3.0]
    """
    a, b = tensor_pair("TruncateDiv", x, y, REAL)
    return execute(_TruncateDiv, (a, b), None, name)


def truncatemod(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """The remainder of ``truncatediv``: it has the sign of ``x`` (C's ``fmod``).

    >>> import retrograd as rg
    >>> rg.truncatemod(rg.constant([-7, 7]), rg.constant([5, -5])).numpy().tolist()
    [-2, 2]
    """
    a, b = tensor_pair("TruncateMod", x, y, REAL)
    return execute(_TruncateMod, (a, b), None, name)
