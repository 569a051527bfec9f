"""``keras.ops`` reductions that ignore NaN (``keras.ops.numpy``): ``nansum``,
``nanmean``, ``nanmax``/``nanmin``, ``nanprod``, ``nanvar``/``nanstd``, the arg-extrema and
cumulative forms. NaN never reaches a gradient: it is replaced before any arithmetic.

>>> from retrograd.keras import ops
>>> ops.nanmean([1.0, float("nan"), 3.0]).numpy()
np.float32(2.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.numpy_reduce import (
    _arg,
    _axes,
    _extremum,
    cumprod,
    cumsum,
    prod,
    std,
    sum,
    var,
)
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import array_ops, comparison_ops, math_ops, reduction_ops

__all__ = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanvar",
    "nanstd",
    "nanargmax",
    "nanargmin",
    "nancumsum",
    "nancumprod",
]


def _without_nan(t: Any, fill: float) -> Any:
    if not t.dtype.is_floating:
        return t
    return array_ops.where(comparison_ops.is_nan(t), tensors.full_like(t, fill), t)


def nansum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The sum over ``axis``, NaN counted as 0.

    >>> nansum([1.0, float("nan"), 2.0]).numpy()
    np.float32(3.0)
    """
    if any_symbolic(x):
        return symbolic_call(nansum, x, axis, keepdims)
    return sum(_without_nan(tensors.convert(x), 0.0), axis, keepdims)


def nanprod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The product over ``axis``, NaN counted as 1.

    >>> nanprod([2.0, float("nan"), 3.0]).numpy()
    np.float32(6.0)
    """
    if any_symbolic(x):
        return symbolic_call(nanprod, x, axis, keepdims)
    return prod(_without_nan(tensors.convert(x), 1.0), axis, keepdims)


def _not_nan_count(t: Any, axis: Any, keepdims: bool, dtype: str) -> Any:
    present = comparison_ops.logical_not(comparison_ops.is_nan(t))
    return reduction_ops.reduce_sum(math_ops.cast(present, dtype), _axes(axis), keepdims)


def nanmean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The mean over ``axis`` of the elements that are not NaN.

    >>> nanmean([1.0, float("nan"), 3.0]).numpy()
    np.float32(2.0)
    """
    if any_symbolic(x):
        return symbolic_call(nanmean, x, axis, keepdims)
    t = tensors.convert(x)
    if axis in ((), []):
        return t
    if not t.dtype.is_floating:
        return reduction_ops.reduce_mean(math_ops.cast(t, "float32"), _axes(axis), keepdims)
    dtype = result_type(t.dtype.name, float)
    total = math_ops.cast(nansum(t, axis, keepdims), dtype)
    return total / _not_nan_count(t, axis, keepdims, dtype)


def _nan_extremum(fn: Callable, x: Any, axis: Any, keepdims: bool, largest: bool) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, axis, keepdims)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        return _extremum(fn, t, axis, keepdims, None, largest)
    fill = -np.inf if largest else np.inf
    out = _extremum(fn, _without_nan(t, fill), axis, keepdims, None, largest)
    all_nan = reduction_ops.reduce_all(comparison_ops.is_nan(t), _axes(axis), keepdims)
    return array_ops.where(all_nan, tensors.full_like(out, np.nan), out)


def nanmax(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The largest element over ``axis``, ignoring NaN (NaN where all are NaN).

    >>> nanmax([1.0, float("nan"), 3.0]).numpy()
    np.float32(3.0)
    """
    return _nan_extremum(nanmax, x, axis, keepdims, True)


def nanmin(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The smallest element over ``axis``, ignoring NaN (NaN where all are NaN).

    >>> nanmin([1.0, float("nan"), 3.0]).numpy()
    np.float32(1.0)
    """
    return _nan_extremum(nanmin, x, axis, keepdims, False)


def nanvar(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The variance over ``axis`` of the elements that are not NaN.

    >>> nanvar([1.0, float("nan"), 3.0]).numpy()
    np.float32(1.0)
    """
    if any_symbolic(x):
        return symbolic_call(nanvar, x, axis, keepdims)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        return var(t, axis, keepdims)
    present = comparison_ops.logical_not(comparison_ops.is_nan(t))
    clean = _without_nan(t, 0.0)  # (so that no NaN reaches a gradient)
    count = reduction_ops.reduce_sum(math_ops.cast(present, t.dtype), _axes(axis), True)
    centre = reduction_ops.reduce_sum(clean, _axes(axis), True) / count
    deviations = array_ops.where(
        present, math_ops.square(clean - centre), tensors.full_like(t, 0.0)
    )
    total = reduction_ops.reduce_sum(deviations, _axes(axis), keepdims)
    return total / (count if keepdims else array_ops.reshape(count, array_ops.shape(total)))


def nanstd(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The standard deviation over ``axis`` of the elements that are not NaN.

    >>> nanstd([1.0, float("nan"), 3.0]).numpy()
    np.float32(1.0)
    """
    if any_symbolic(x):
        return symbolic_call(nanstd, x, axis, keepdims)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        return std(t, axis, keepdims)
    return math_ops.sqrt(nanvar(t, axis, keepdims))


def _nan_arg(fn: Callable, x: Any, axis: Any, keepdims: bool, largest: bool) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, axis, keepdims)
    t = tensors.convert(x)
    if t.dtype.is_floating:
        t = _without_nan(t, -np.inf if largest else np.inf)
    return _arg(fn, t, axis, keepdims, largest)


def nanargmax(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The index of the largest element, ignoring NaN.

    >>> nanargmax([1.0, float("nan"), 3.0]).numpy()
    np.int32(2)
    """
    return _nan_arg(nanargmax, x, axis, keepdims, True)


def nanargmin(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The index of the smallest element, ignoring NaN.

    >>> nanargmin([float("nan"), 2.0, 3.0]).numpy()
    np.int32(1)
    """
    return _nan_arg(nanargmin, x, axis, keepdims, False)


def nancumsum(x: Any, axis: Any = None, dtype: Any = None) -> Any:
    """Running sums, NaN counted as 0.

    >>> nancumsum([1.0, float("nan"), 2.0]).numpy().tolist()
    [1.0, 1.0, 3.0]
    """
    if any_symbolic(x):
        return symbolic_call(nancumsum, x, axis, dtype)
    return cumsum(_without_nan(tensors.convert(x, dtype), 0.0), axis)


def nancumprod(x: Any, axis: Any = None, dtype: Any = None) -> Any:
    """Running products, NaN counted as 1.

    >>> nancumprod([2.0, float("nan"), 3.0]).numpy().tolist()
    [2.0, 2.0, 6.0]
    """
    if any_symbolic(x):
        return symbolic_call(nancumprod, x, axis, dtype)
    return cumprod(_without_nan(tensors.convert(x, dtype), 1.0), axis)
