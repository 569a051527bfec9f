"""``keras.ops`` elementwise functions of two tensors (``keras.ops.numpy``): arithmetic,
``maximum``/``minimum``, ``arctan2``, ``hypot``, ``logaddexp`` and friends, with Keras'
dtype promotion (a Python number takes the other operand's dtype when it fits).

>>> from retrograd.keras import ops
>>> ops.add([1, 2], 0.5).numpy().tolist(), ops.divide(3, 2).dtype.name
([1.5, 2.5], 'float32')
"""

from __future__ import annotations

import math as _math
from collections.abc import Callable
from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    clip_ops,
    comparison_ops,
    math_extra_ops,
    math_ops,
    safe_math_ops,
    trig_ops,
)

__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "mod",
    "fmod",
    "power",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "heaviside",
    "ldexp",
    "nextafter",
    "divide_no_nan",
    "clip",
]


def _weak(fn: Callable, x1: Any, x2: Any, kernel: Callable, *extra: Any) -> Any:
    """Both operands promoted (Python numbers weakly; ``extra`` joins the promotion, as
    ``float`` does for division), then ``kernel``."""
    if any_symbolic(x1, x2):
        return symbolic_call(fn, x1, x2)
    a, b = (x if tensors._is_weak(x) else tensors.convert(x) for x in (x1, x2))
    dtype = result_type(*(tensors.dtype_of(v) for v in (a, b)), *extra)
    return kernel(tensors.convert(a, dtype), tensors.convert(b, dtype))


def _strong(x1: Any, x2: Any, *extra: Any) -> tuple[Any, Any, str]:
    """Both operands as tensors of the promotion of their dtypes (numbers not weak)."""
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype, b.dtype, *extra)
    return tensors.convert(a, dtype), tensors.convert(b, dtype), dtype


def add(x1: Any, x2: Any) -> Any:
    """``x1 + x2`` with broadcasting.

    >>> add([1.0], [2.0]).numpy().tolist()
    [3.0]
    """
    return _weak(add, x1, x2, math_ops.add)


def subtract(x1: Any, x2: Any) -> Any:
    """``x1 - x2`` with broadcasting.

    >>> subtract([3.0], 1.0).numpy().tolist()
    [2.0]
    """
    return _weak(subtract, x1, x2, math_ops.subtract)


def multiply(x1: Any, x2: Any) -> Any:
    """``x1 * x2`` with broadcasting.

    >>> multiply([3.0], 2.0).numpy().tolist()
    [6.0]
    """
    return _weak(multiply, x1, x2, math_ops.multiply)


def divide(x1: Any, x2: Any) -> Any:
    """``x1 / x2`` as floats.

    >>> divide([3], 2).numpy().tolist()
    [1.5]
    """
    return _weak(divide, x1, x2, math_ops.divide, float)


def true_divide(x1: Any, x2: Any) -> Any:
    """``x1 / x2`` as floats (as ``divide``).

    >>> true_divide(1, 4).numpy().tolist()
    0.25
    """
    return _weak(true_divide, x1, x2, math_ops.divide, float)


def floor_divide(x1: Any, x2: Any) -> Any:
    """``floor(x1 / x2)``, in the operands' common dtype.

    >>> floor_divide([7, -7], 2).numpy().tolist()
    [3, -4]
    """
    return _weak(floor_divide, x1, x2, math_ops.floordiv)


def mod(x1: Any, x2: Any) -> Any:
    """The remainder of floor division (the sign of ``x2``).

    >>> mod([7, -7], 3).numpy().tolist()
    [1, 2]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(mod, x1, x2)
    a, b, dtype = _strong(x1, x2)
    if dtype == "bool":
        a, b = math_ops.cast(a, "int32"), math_ops.cast(b, "int32")
    return math_ops.floormod(a, b)


def fmod(x1: Any, x2: Any) -> Any:
    """The remainder of truncated division (the sign of ``x1``).

    >>> fmod([7, -7], 3).numpy().tolist()
    [1, -1]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(fmod, x1, x2)
    a, b, dtype = _strong(x1, x2)
    if dtype == "bool":
        dtype = "int32"
    work = "int32" if dtype in ("uint8", "uint16", "uint32") else dtype
    a, b = math_ops.cast(a, work), math_ops.cast(b, work)
    out = math_ops.sign(a) * math_ops.floormod(math_ops.abs(a), math_ops.abs(b))
    return math_ops.cast(out, dtype)


def power(x1: Any, x2: Any) -> Any:
    """``x1 ** x2`` with broadcasting.

    >>> power([2.0, 3.0], 2).numpy().tolist()
    [4.0, 9.0]
    """

    def kernel(a: Any, b: Any) -> Any:
        if a.dtype.is_unsigned:
            work = math_ops.pow(math_ops.cast(a, "int32"), math_ops.cast(b, "int32"))
            return math_ops.cast(work, a.dtype)
        return math_ops.pow(a, b)

    return _weak(power, x1, x2, kernel)


def maximum(x1: Any, x2: Any) -> Any:
    """The larger of two tensors, elementwise.

    >>> maximum([1.0, 5.0], 3.0).numpy().tolist()
    [3.0, 5.0]
    """
    return _weak(maximum, x1, x2, math_ops.maximum)


def minimum(x1: Any, x2: Any) -> Any:
    """The smaller of two tensors, elementwise.

    >>> minimum([1.0, 5.0], 3.0).numpy().tolist()
    [1.0, 3.0]
    """
    return _weak(minimum, x1, x2, math_ops.minimum)


def _ignoring_nan(pick: Callable) -> Callable:
    def kernel(a: Any, b: Any) -> Any:
        out = pick(a, b)
        if not a.dtype.is_floating:
            return out
        nan_a, nan_b = comparison_ops.is_nan(a), comparison_ops.is_nan(b)
        only_a = comparison_ops.logical_and(nan_a, comparison_ops.logical_not(nan_b))
        only_b = comparison_ops.logical_and(nan_b, comparison_ops.logical_not(nan_a))
        out = array_ops.where(only_a, math_ops.add(b, array_ops.zeros_like(a)), out)
        return array_ops.where(only_b, math_ops.add(a, array_ops.zeros_like(b)), out)

    return kernel


def fmax(x1: Any, x2: Any) -> Any:
    """The larger value, ignoring NaN where the other is a number.

    >>> fmax([float("nan"), 1.0], [2.0, 3.0]).numpy().tolist()
    [2.0, 3.0]
    """
    return _weak(fmax, x1, x2, _ignoring_nan(math_ops.maximum))


def fmin(x1: Any, x2: Any) -> Any:
    """The smaller value, ignoring NaN where the other is a number.

    >>> fmin([float("nan"), 1.0], [2.0, 3.0]).numpy().tolist()
    [2.0, 1.0]
    """
    return _weak(fmin, x1, x2, _ignoring_nan(math_ops.minimum))


def arctan2(x1: Any, x2: Any) -> Any:
    """The angle of the point ``(x2, x1)``, in ``[-pi, pi]``.

    >>> arctan2([0.0], [1.0]).numpy().tolist()
    [0.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(arctan2, x1, x2)
    a, b, _ = _strong(x1, x2, float)
    return trig_ops.atan2(a, b)


def _float_of_ints(dtype: str) -> str:
    """Keras' float for an integer result: int64 → float64, smaller ints → floatx."""
    if dtype == "int64":
        return "float64"
    if "int" in dtype:
        return backend.floatx()
    return dtype


def hypot(x1: Any, x2: Any) -> Any:
    """``sqrt(x1**2 + x2**2)``, without overflow.

    >>> hypot([3.0], [4.0]).numpy().tolist()
    [5.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(hypot, x1, x2)
    a, b, dtype = _strong(x1, x2)
    dtype = _float_of_ints(dtype)
    a, b = math_ops.abs(math_ops.cast(a, dtype)), math_ops.abs(math_ops.cast(b, dtype))
    big, small = math_ops.maximum(a, b), math_ops.minimum(a, b)
    ratio = safe_math_ops.divide_no_nan(small, big)
    return big * math_ops.sqrt(1.0 + math_ops.square(ratio))


def _logaddexp(a: Any, b: Any, base: float) -> Any:
    delta = a - b
    scale = tensors.convert(_math.log(base), a.dtype)
    tail = math_ops.log1p(math_ops.exp(-math_ops.abs(delta) * scale)) / scale
    return array_ops.where(comparison_ops.is_nan(delta), a + b, math_ops.maximum(a, b) + tail)


def logaddexp(x1: Any, x2: Any) -> Any:
    """``log(exp(x1) + exp(x2))``, computed stably.

    >>> round(float(logaddexp(0.0, 0.0)), 4)
    0.6931
    """
    if any_symbolic(x1, x2):
        return symbolic_call(logaddexp, x1, x2)
    a, b, _ = _strong(x1, x2, float)
    return _logaddexp(a, b, _math.e)


def logaddexp2(x1: Any, x2: Any) -> Any:
    """``log2(2**x1 + 2**x2)``, computed stably.

    >>> float(logaddexp2(1.0, 1.0))
    2.0
    """
    if any_symbolic(x1, x2):
        return symbolic_call(logaddexp2, x1, x2)
    a, b, _ = _strong(x1, x2, float)
    return _logaddexp(a, b, 2.0)


def heaviside(x1: Any, x2: Any) -> Any:
    """0 where ``x1 < 0``, 1 where ``x1 > 0``, ``x2`` where ``x1 == 0``.

    >>> heaviside([-1.0, 0.0, 2.0], 0.5).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(heaviside, x1, x2)
    a, b, dtype = _strong(x1, x2)
    dtype = _float_of_ints(dtype)
    a, b = math_ops.cast(a, dtype), math_ops.cast(b, dtype)
    zero = tensors.convert(0, dtype)
    b = b + array_ops.zeros_like(a)
    inner = array_ops.where(comparison_ops.greater(a, zero), array_ops.ones_like(b), b)
    return array_ops.where(comparison_ops.less(a, zero), array_ops.zeros_like(b), inner)


def ldexp(x1: Any, x2: Any) -> Any:
    """``x1 * 2 ** x2`` for integer exponents ``x2``.

    >>> ldexp([3.0], [2]).numpy().tolist()
    [12.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(ldexp, x1, x2)
    a, b = tensors.convert(x1), tensors.convert(x2)
    if not b.dtype.is_integer:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={b.dtype}")
    dtype = result_type(a.dtype, b.dtype, float)
    a = math_ops.cast(a, dtype)
    out = a * math_ops.pow(tensors.convert(2.0, dtype), math_ops.cast(b, dtype))
    keep = comparison_ops.logical_or(comparison_ops.is_inf(a), comparison_ops.equal(a, 0.0))
    return array_ops.where(keep, a + array_ops.zeros_like(out), out)


def nextafter(x1: Any, x2: Any) -> Any:
    """The next representable float after ``x1`` toward ``x2``.

    >>> import numpy as np
    >>> float(nextafter(np.float64(1.0), 2.0)) > 1.0
    True
    """
    if any_symbolic(x1, x2):
        return symbolic_call(nextafter, x1, x2)
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype, b.dtype, float)
    a64, b64 = math_ops.cast(a, "float64"), math_ops.cast(b, "float64")
    return math_ops.cast(math_extra_ops.nextafter(a64, b64), dtype)


def divide_no_nan(x1: Any, x2: Any) -> Any:
    """``x1 / x2``, 0 where ``x2`` is 0.

    >>> divide_no_nan([1.0, 1.0], [0.0, 2.0]).numpy().tolist()
    [0.0, 0.5]
    """
    return _weak(divide_no_nan, x1, x2, safe_math_ops.divide_no_nan, float)


def _python_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def clip(x: Any, x_min: Any, x_max: Any) -> Any:
    """``x`` limited to ``[x_min, x_max]`` (bools become int32).

    >>> clip([-2.0, 0.5, 3.0], -1.0, 1.0).numpy().tolist()
    [-1.0, 0.5, 1.0]
    """
    if any_symbolic(x, x_min, x_max):
        return symbolic_call(clip, x, x_min, x_max)
    t = tensors.convert(x)
    if t.dtype.is_bool:
        t = math_ops.cast(t, "int32")
    # A Python bound becomes a tensor of x's dtype directly (tf.clip_by_value): a float64
    # tensor is clipped at 0.01 itself, not at float32's rounding of it
    low, high = (
        tensors.convert(b, t.dtype.name)
        if t.dtype.is_floating and _python_number(b)
        else tensors.convert(b)
        for b in (x_min, x_max)
    )
    if low.dtype != t.dtype:
        low = math_ops.cast(low, t.dtype)
    if high.dtype != t.dtype:
        high = math_ops.cast(high, t.dtype)
    return clip_ops.clip_by_value(t, low, high)
