"""``tf.keras.backend``'s math (TF 2.21 keeps Keras 2's backend functions there): thin
TensorFlow-op wrappers with Keras 2's conventions (``mean`` of booleans in floatx,
``sqrt`` of negatives is 0, ``clip`` with ``max < min`` clips to ``min``).

>>> import retrograd as rg
>>> K = rg.keras.backend
>>> K.mean(rg.constant([True, False])).numpy()
np.float32(0.5)
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.tensor import convert_to_tensor
from retrograd.keras.src import backend
from retrograd.ops import (
    array_ops,
    comparison_ops,
    math_ops,
    reduction_ops,
    rounding_ops,
    statistics_ops,
)

__all__ = [
    "abs",
    "all",
    "any",
    "argmax",
    "argmin",
    "clip",
    "cos",
    "cumprod",
    "cumsum",
    "equal",
    "exp",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "log",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "not_equal",
    "pow",
    "prod",
    "round",
    "sign",
    "sin",
    "sqrt",
    "square",
    "std",
    "sum",
    "var",
]


def _floated(x: Any) -> Any:
    x = convert_to_tensor(x)
    return math_ops.cast(x, backend.floatx()) if x.dtype == dtypes.bool else x


def abs(x: Any) -> Any:  # noqa: A001
    """``|x|``.

    >>> import retrograd as rg
    >>> rg.keras.backend.abs(rg.constant([-2.0, 3.0])).numpy().tolist()
    [2.0, 3.0]
    """
    return math_ops.abs(x)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Logical AND over ``axis`` (``x`` cast to bool).

    >>> import retrograd as rg
    >>> rg.keras.backend.all(rg.constant([1.0, 0.0])).numpy()
    np.False_
    """
    return reduction_ops.reduce_all(math_ops.cast(x, "bool"), axis, keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Logical OR over ``axis`` (``x`` cast to bool).

    >>> import retrograd as rg
    >>> rg.keras.backend.any(rg.constant([1.0, 0.0])).numpy()
    np.True_
    """
    return reduction_ops.reduce_any(math_ops.cast(x, "bool"), axis, keepdims)


def argmax(x: Any, axis: int = -1) -> Any:
    """The index of the largest value along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.argmax(rg.constant([[1.0, 3.0, 2.0]])).numpy().tolist()
    [1]
    """
    return reduction_ops.argmax(x, axis)


def argmin(x: Any, axis: int = -1) -> Any:
    """The index of the smallest value along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.argmin(rg.constant([[1.0, 3.0, 0.0]])).numpy().tolist()
    [2]
    """
    return reduction_ops.argmin(x, axis)


def clip(x: Any, min_value: Any, max_value: Any) -> Any:
    """``x`` clipped to ``[min_value, max_value]`` (None: unbounded; ``max < min``
    clips to ``min``).

    >>> import retrograd as rg
    >>> rg.keras.backend.clip(rg.constant([-1.0, 0.5, 2.0]), 0.0, 1.0).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)):
        max_value = builtins.max(max_value, min_value)
    x = convert_to_tensor(x)
    low = -np.inf if min_value is None else min_value
    high = np.inf if max_value is None else max_value
    return math_ops.minimum(
        math_ops.maximum(x, math_ops.cast(low, x.dtype)), math_ops.cast(high, x.dtype)
    )


def cos(x: Any) -> Any:
    """``cos(x)``.

    >>> import retrograd as rg
    >>> rg.keras.backend.cos(rg.constant([0.0])).numpy().tolist()
    [1.0]
    """
    return math_ops.cos(x)


def cumsum(x: Any, axis: int = 0) -> Any:
    """The running sum along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.cumsum(rg.constant([1.0, 2.0, 3.0])).numpy().tolist()
    [1.0, 3.0, 6.0]
    """
    return reduction_ops.cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Any:
    """The running product along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.cumprod(rg.constant([1.0, 2.0, 3.0])).numpy().tolist()
    [1.0, 2.0, 6.0]
    """
    return reduction_ops.cumprod(x, axis=axis)


def equal(x: Any, y: Any) -> Any:
    """``x == y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.equal(rg.constant([1, 2]), 2).numpy().tolist()
    [False, True]
    """
    return comparison_ops.equal(x, y)


def not_equal(x: Any, y: Any) -> Any:
    """``x != y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.not_equal(rg.constant([1, 2]), 2).numpy().tolist()
    [True, False]
    """
    return comparison_ops.not_equal(x, y)


def greater(x: Any, y: Any) -> Any:
    """``x > y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.greater(rg.constant([1, 3]), 2).numpy().tolist()
    [False, True]
    """
    return comparison_ops.greater(x, y)


def greater_equal(x: Any, y: Any) -> Any:
    """``x >= y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.greater_equal(rg.constant([1, 2]), 2).numpy().tolist()
    [False, True]
    """
    return comparison_ops.greater_equal(x, y)


def less(x: Any, y: Any) -> Any:
    """``x < y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.less(rg.constant([1, 3]), 2).numpy().tolist()
    [True, False]
    """
    return comparison_ops.less(x, y)


def less_equal(x: Any, y: Any) -> Any:
    """``x <= y`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.less_equal(rg.constant([2, 3]), 2).numpy().tolist()
    [True, False]
    """
    return comparison_ops.less_equal(x, y)


def exp(x: Any) -> Any:
    """``e ** x``.

    >>> import retrograd as rg
    >>> rg.keras.backend.exp(rg.constant([0.0])).numpy().tolist()
    [1.0]
    """
    return math_ops.exp(x)


def log(x: Any) -> Any:
    """The natural logarithm.

    >>> import retrograd as rg
    >>> rg.keras.backend.log(rg.constant([1.0])).numpy().tolist()
    [0.0]
    """
    return math_ops.log(x)


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """The maximum over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.max(rg.constant([1.0, 4.0, 2.0])))
    4.0
    """
    return reduction_ops.reduce_max(x, axis, keepdims)


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """The minimum over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.min(rg.constant([1.0, 4.0, 2.0])))
    1.0
    """
    return reduction_ops.reduce_min(x, axis, keepdims)


def maximum(x: Any, y: Any) -> Any:
    """The elementwise maximum.

    >>> import retrograd as rg
    >>> rg.keras.backend.maximum(rg.constant([1.0, 4.0]), 2.0).numpy().tolist()
    [2.0, 4.0]
    """
    return math_ops.maximum(x, y)


def minimum(x: Any, y: Any) -> Any:
    """The elementwise minimum.

    >>> import retrograd as rg
    >>> rg.keras.backend.minimum(rg.constant([1.0, 4.0]), 2.0).numpy().tolist()
    [1.0, 2.0]
    """
    return math_ops.minimum(x, y)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The mean over ``axis`` (booleans counted in floatx).

    >>> import retrograd as rg
    >>> rg.keras.backend.mean(rg.constant([[1.0, 3.0]]), axis=1).numpy().tolist()
    [2.0]
    """
    return reduction_ops.reduce_mean(_floated(x), axis, keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The standard deviation over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.std(rg.constant([1.0, 3.0])))
    1.0
    """
    return statistics_ops.reduce_std(_floated(x), axis=axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The variance over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.var(rg.constant([1.0, 3.0])))
    1.0
    """
    return statistics_ops.reduce_variance(_floated(x), axis=axis, keepdims=keepdims)


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """The sum over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.sum(rg.constant([1.0, 3.0])))
    4.0
    """
    return reduction_ops.reduce_sum(x, axis, keepdims)


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The product over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.prod(rg.constant([2.0, 3.0])))
    6.0
    """
    return reduction_ops.reduce_prod(x, axis, keepdims)


def pow(x: Any, a: Any) -> Any:  # noqa: A001
    """``x ** a``.

    >>> import retrograd as rg
    >>> rg.keras.backend.pow(rg.constant([2.0, 3.0]), 2).numpy().tolist()
    [4.0, 9.0]
    """
    return math_ops.pow(x, a)


def round(x: Any) -> Any:  # noqa: A001
    """Rounds half to even.

    >>> import retrograd as rg
    >>> rg.keras.backend.round(rg.constant([0.5, 1.5, 2.4])).numpy().tolist()
    [0.0, 2.0, 2.0]
    """
    return rounding_ops.round(x)


def sign(x: Any) -> Any:
    """-1, 0 or 1.

    >>> import retrograd as rg
    >>> rg.keras.backend.sign(rg.constant([-2.0, 0.0, 3.0])).numpy().tolist()
    [-1.0, 0.0, 1.0]
    """
    return math_ops.sign(x)


def sin(x: Any) -> Any:
    """``sin(x)``.

    >>> import retrograd as rg
    >>> rg.keras.backend.sin(rg.constant([0.0])).numpy().tolist()
    [0.0]
    """
    return math_ops.sin(x)


def sqrt(x: Any) -> Any:
    """The square root, negatives taken as zero (Keras 2's rule).

    >>> import retrograd as rg
    >>> rg.keras.backend.sqrt(rg.constant([-4.0, 4.0])).numpy().tolist()
    [0.0, 2.0]
    """
    x = convert_to_tensor(x)
    return math_ops.sqrt(math_ops.maximum(x, array_ops.zeros_like(x)))


def square(x: Any) -> Any:
    """``x * x``.

    >>> import retrograd as rg
    >>> rg.keras.backend.square(rg.constant([-3.0])).numpy().tolist()
    [9.0]
    """
    return math_ops.square(x)
