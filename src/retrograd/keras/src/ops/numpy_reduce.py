"""``keras.ops`` reductions (``keras.ops.numpy``): sums, means, extrema, statistics and
their NaN-ignoring forms, arg-extrema, cumulative sums and products. ``axis`` is None (all
axes), an int or a tuple; small integer types accumulate in int32, as Keras does.

>>> from retrograd.keras import ops
>>> ops.mean([[1, 2], [3, 4]], axis=0).numpy().tolist(), ops.argmax([1.0, 3.0, 2.0]).numpy()
([2.0, 3.0], np.int32(1))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    math_ops,
    reduction_ops,
    statistics_ops,
)

__all__ = [
    "sum",
    "mean",
    "max",
    "amax",
    "min",
    "amin",
    "prod",
    "std",
    "var",
    "all",
    "any",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
    "count_nonzero",
    "average",
    "ptp",
    "logsumexp",
]

_ACCUMULATE = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32"}
_ACCUMULATE["uint16"] = "uint32"


def _axes(axis: Any) -> Any:
    if axis is None or isinstance(axis, (int, np.integer)):
        return axis
    return [int(a) for a in axis]


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """The sum over ``axis`` (all axes by default).

    >>> sum([[1, 2], [3, 4]], axis=1).numpy().tolist()
    [3, 7]
    """
    if any_symbolic(x):
        return symbolic_call(sum, x, axis, keepdims)
    t = tensors.convert(x)
    t = tensors.convert(t, _ACCUMULATE.get(t.dtype.name, t.dtype.name))
    return reduction_ops.reduce_sum(t, _axes(axis), keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The mean over ``axis``; integers give floats.

    >>> mean([1, 2]).numpy()
    np.float32(1.5)
    """
    if any_symbolic(x):
        return symbolic_call(mean, x, axis, keepdims)
    t = tensors.convert(x)
    name = t.dtype.name
    compute = result_type(name, "float32")
    out = reduction_ops.reduce_mean(math_ops.cast(t, compute), _axes(axis), keepdims)
    return out if "int" in name or name == "bool" else math_ops.cast(out, name)


def _extremum(fn: Callable, x: Any, axis: Any, keepdims: bool, initial: Any, largest: bool):
    if any_symbolic(x):
        return symbolic_call(fn, x, axis, keepdims, initial)
    t = tensors.convert(x)
    if t.dtype.is_bool:
        reduce = reduction_ops.reduce_any if largest else reduction_ops.reduce_all
        out = reduce(t, _axes(axis), keepdims)
        if initial is not None:
            pick = math_ops.maximum if largest else math_ops.minimum
            ints = pick(math_ops.cast(out, "int32"), tensors.convert(initial, "int32"))
            out = math_ops.cast(ints, "bool")
        return out
    if t.shape.num_elements() == 0 and initial is None:
        raise ValueError(f"Cannot compute the {'max' if largest else 'min'} of an empty tensor.")
    reduce = reduction_ops.reduce_max if largest else reduction_ops.reduce_min
    out = reduce(t, _axes(axis), keepdims)
    if initial is not None:
        pick = math_ops.maximum if largest else math_ops.minimum
        out = pick(out, tensors.convert(initial, t.dtype))
    return out


def max(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Any:  # noqa: A001
    """The largest element over ``axis`` (at least ``initial`` when given).

    >>> max([[1, 5], [3, 2]], axis=0).numpy().tolist()
    [3, 5]
    """
    return _extremum(max, x, axis, keepdims, initial, True)


def amax(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The largest element over ``axis`` (as ``max``).

    >>> amax([1, 5, 3]).numpy()
    np.int32(5)
    """
    return _extremum(amax, x, axis, keepdims, None, True)


def min(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Any:  # noqa: A001
    """The smallest element over ``axis`` (at most ``initial`` when given).

    >>> min([[1, 5], [3, 2]], axis=1).numpy().tolist()
    [1, 2]
    """
    return _extremum(min, x, axis, keepdims, initial, False)


def amin(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The smallest element over ``axis`` (as ``min``).

    >>> amin([4, 2, 3]).numpy()
    np.int32(2)
    """
    return _extremum(amin, x, axis, keepdims, None, False)


def prod(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Any:
    """The product over ``axis``.

    >>> prod([[1, 2], [3, 4]], axis=0).numpy().tolist()
    [3, 8]
    """
    if any_symbolic(x):
        return symbolic_call(prod, x, axis, keepdims, dtype)
    t = tensors.convert(x)
    target = dtype if dtype is not None else _ACCUMULATE.get(t.dtype.name, t.dtype.name)
    return reduction_ops.reduce_prod(tensors.convert(t, target), _axes(axis), keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The variance over ``axis`` (divided by the count).

    >>> var([1.0, 3.0]).numpy()
    np.float32(1.0)
    """
    if any_symbolic(x):
        return symbolic_call(var, x, axis, keepdims)
    t = tensors.convert(x)
    compute, out = result_type(t.dtype.name, "float32"), result_type(t.dtype.name, float)
    value = statistics_ops.reduce_variance(math_ops.cast(t, compute), _axes(axis), keepdims)
    return math_ops.cast(value, out)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The standard deviation over ``axis``.

    >>> std([1.0, 3.0]).numpy()
    np.float32(1.0)
    """
    if any_symbolic(x):
        return symbolic_call(std, x, axis, keepdims)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        t = math_ops.cast(t, backend.floatx())
    return statistics_ops.reduce_std(t, _axes(axis), keepdims)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Whether every element over ``axis`` is true (nonzero).

    >>> all([[1, 0], [1, 1]], axis=1).numpy().tolist()
    [False, True]
    """
    if any_symbolic(x):
        return symbolic_call(all, x, axis, keepdims)
    t = math_ops.cast(tensors.convert(x), "bool")
    return reduction_ops.reduce_all(t, _axes(axis), keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Whether some element over ``axis`` is true (nonzero).

    >>> any([[1, 0], [0, 0]], axis=1).numpy().tolist()
    [True, False]
    """
    if any_symbolic(x):
        return symbolic_call(any, x, axis, keepdims)
    t = math_ops.cast(tensors.convert(x), "bool")
    return reduction_ops.reduce_any(t, _axes(axis), keepdims)


def _arg(fn: Callable, x: Any, axis: Any, keepdims: bool, largest: bool) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, axis, keepdims)
    t = tensors.convert(x)
    if t.dtype.is_floating and t.shape.rank:
        t = math_ops.cast(t, result_type(t.dtype.name, "float32"))
        zero = tensors.convert(0.0, t.dtype)
        negative_zero = comparison_ops.logical_and(
            comparison_ops.equal(t, zero), comparison_ops.less(math_ops.reciprocal(t), zero)
        )
        tiny = tensors.convert(-float(np.finfo(t.dtype.as_numpy_dtype).tiny), t.dtype)
        t = array_ops.where(negative_zero, tiny + array_ops.zeros_like(t), t)
    shaped = t
    if axis is None:
        t = array_ops.reshape(t, [-1])
    pick = reduction_ops.argmax if largest else reduction_ops.argmin
    out = pick(t, 0 if axis is None else int(axis), output_type="int32")
    if keepdims:
        if axis is None:
            out = array_ops.reshape(out, [1] * shaped.shape.rank)
        else:
            out = array_ops.expand_dims(out, int(axis))
    return out


def argmax(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The index of the largest element (of the flattened tensor when ``axis`` is None).

    >>> argmax([[1, 5], [7, 2]], axis=1).numpy().tolist()
    [1, 0]
    """
    return _arg(argmax, x, axis, keepdims, True)


def argmin(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The index of the smallest element (of the flattened tensor when ``axis`` is None).

    >>> argmin([3, 1, 2]).numpy()
    np.int32(1)
    """
    return _arg(argmin, x, axis, keepdims, False)


def _cumulative(fn: Callable, x: Any, axis: Any, dtype: Any, kernel: Callable) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, axis, dtype)
    t = tensors.convert(x, dtype)
    if t.dtype.is_bool:
        t = math_ops.cast(t, "int32")
    if axis is None:
        t, axis = array_ops.reshape(t, [-1]), 0
    return kernel(t, int(axis))


def cumsum(x: Any, axis: Any = None, dtype: Any = None) -> Any:
    """Running sums along ``axis`` (of the flattened tensor by default).

    >>> cumsum([1, 2, 3]).numpy().tolist()
    [1, 3, 6]
    """
    return _cumulative(cumsum, x, axis, dtype, reduction_ops.cumsum)


def cumprod(x: Any, axis: Any = None, dtype: Any = None) -> Any:
    """Running products along ``axis`` (of the flattened tensor by default).

    >>> cumprod([1, 2, 3]).numpy().tolist()
    [1, 2, 6]
    """
    return _cumulative(cumprod, x, axis, dtype, reduction_ops.cumprod)


def count_nonzero(x: Any, axis: Any = None) -> Any:
    """The number of nonzero elements over ``axis`` (int32).

    >>> count_nonzero([[0, 1], [2, 3]], axis=1).numpy().tolist()
    [1, 2]
    """
    if any_symbolic(x):
        return symbolic_call(count_nonzero, x, axis)
    t = tensors.convert(x)
    nonzero = comparison_ops.not_equal(t, tensors.convert(0, t.dtype))
    return reduction_ops.reduce_sum(math_ops.cast(nonzero, "int32"), _axes(axis))


def average(x: Any, axis: Any = None, weights: Any = None) -> Any:
    """The (weighted) mean over ``axis``; 1-D ``weights`` apply along ``axis``.

    >>> average([1.0, 3.0], weights=[3.0, 1.0]).numpy()
    np.float32(1.5)
    """
    if any_symbolic(x, weights):
        return symbolic_call(average, x, axis, weights)
    t = tensors.convert(x)
    if weights is None:
        t = math_ops.cast(t, result_type(t.dtype.name, float))
        return reduction_ops.reduce_mean(t, _axes(axis))
    w = tensors.convert(weights)
    dtype = result_type(t.dtype.name, w.dtype.name, float)
    t, w = math_ops.cast(t, dtype), math_ops.cast(w, dtype)
    if axis is None or t.shape.rank == w.shape.rank:
        total = reduction_ops.reduce_sum(t * w, _axes(axis))
        return total / reduction_ops.reduce_sum(w, _axes(axis))
    axis = int(axis) % t.shape.rank
    shape = [1] * t.shape.rank
    shape[axis] = -1
    total = reduction_ops.reduce_sum(t * array_ops.reshape(w, shape), axis)
    return total / reduction_ops.reduce_sum(w)


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The range (max - min) over ``axis``.

    >>> ptp([4, 9, 1]).numpy()
    np.int32(8)
    """
    if any_symbolic(x):
        return symbolic_call(ptp, x, axis, keepdims)
    t = tensors.convert(x)
    axes = _axes(axis)
    return reduction_ops.reduce_max(t, axes, keepdims) - reduction_ops.reduce_min(t, axes, keepdims)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """``log(sum(exp(x)))`` over ``axis``, computed stably.

    >>> round(float(logsumexp([0.0, 0.0])), 4)
    0.6931
    """
    if any_symbolic(x):
        return symbolic_call(logsumexp, x, axis, keepdims)
    t = tensors.float_input(x)
    return statistics_ops.reduce_logsumexp(t, _axes(axis), keepdims)
