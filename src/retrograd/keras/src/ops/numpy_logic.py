"""``keras.ops`` comparisons, logic and bits (``keras.ops.numpy``): ``equal`` ...
``less_equal``, ``logical_*``, ``isclose``/``allclose``/``isin``, ``where``/``select``,
``bitwise_*`` and shifts, ``gcd``/``lcm``. Operands are promoted to a common dtype first.

>>> from retrograd.keras import ops
>>> ops.greater([1, 5], 2.5).numpy().tolist(), ops.where([True, False], 1, 0.5).numpy().tolist()
([False, True], [1.0, 0.5])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    bit_ops,
    comparison_ops,
    math_ops,
    reduction_ops,
)

__all__ = [
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "isclose",
    "allclose",
    "isin",
    "where",
    "select",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "left_shift",
    "right_shift",
    "gcd",
    "lcm",
]


def _pair(x1: Any, x2: Any) -> tuple[Any, Any, str]:
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype, b.dtype)
    return tensors.convert(a, dtype), tensors.convert(b, dtype), dtype


def _compare(fn: Callable, x1: Any, x2: Any, kernel: Callable) -> Any:
    if any_symbolic(x1, x2):
        return symbolic_call(fn, x1, x2)
    a, b, _ = _pair(x1, x2)
    return kernel(a, b)


def equal(x1: Any, x2: Any) -> Any:
    """``x1 == x2`` elementwise.

    >>> equal([1, 2], 2).numpy().tolist()
    [False, True]
    """
    return _compare(equal, x1, x2, comparison_ops.equal)


def not_equal(x1: Any, x2: Any) -> Any:
    """``x1 != x2`` elementwise.

    >>> not_equal([1, 2], 2).numpy().tolist()
    [True, False]
    """
    return _compare(not_equal, x1, x2, comparison_ops.not_equal)


def greater(x1: Any, x2: Any) -> Any:
    """``x1 > x2`` elementwise.

    >>> greater([1, 3], 2).numpy().tolist()
    [False, True]
    """
    return _compare(greater, x1, x2, comparison_ops.greater)


def greater_equal(x1: Any, x2: Any) -> Any:
    """``x1 >= x2`` elementwise.

    >>> greater_equal([1, 2], 2).numpy().tolist()
    [False, True]
    """
    return _compare(greater_equal, x1, x2, comparison_ops.greater_equal)


def less(x1: Any, x2: Any) -> Any:
    """``x1 < x2`` elementwise.

    >>> less([1, 2], 2).numpy().tolist()
    [True, False]
    """
    return _compare(less, x1, x2, comparison_ops.less)


def less_equal(x1: Any, x2: Any) -> Any:
    """``x1 <= x2`` elementwise.

    >>> less_equal([1, 3], 2).numpy().tolist()
    [True, False]
    """
    return _compare(less_equal, x1, x2, comparison_ops.less_equal)


def _bools(x: Any) -> Any:
    return math_ops.cast(tensors.convert(x), "bool")


def _logical(fn: Callable, x1: Any, x2: Any, kernel: Callable) -> Any:
    if any_symbolic(x1, x2):
        return symbolic_call(fn, x1, x2)
    return kernel(_bools(x1), _bools(x2))


def logical_and(x1: Any, x2: Any) -> Any:
    """Elementwise AND of the truth values.

    >>> logical_and([True, True], [1, 0]).numpy().tolist()
    [True, False]
    """
    return _logical(logical_and, x1, x2, comparison_ops.logical_and)


def logical_or(x1: Any, x2: Any) -> Any:
    """Elementwise OR of the truth values.

    >>> logical_or([True, False], [0, 0]).numpy().tolist()
    [True, False]
    """
    return _logical(logical_or, x1, x2, comparison_ops.logical_or)


def logical_xor(x1: Any, x2: Any) -> Any:
    """Elementwise XOR of the truth values.

    >>> logical_xor([True, True], [True, False]).numpy().tolist()
    [False, True]
    """
    return _logical(logical_xor, x1, x2, comparison_ops.logical_xor)


def logical_not(x: Any) -> Any:
    """Elementwise NOT of the truth values.

    >>> logical_not([0, 2]).numpy().tolist()
    [True, False]
    """
    if any_symbolic(x):
        return symbolic_call(logical_not, x)
    return comparison_ops.logical_not(_bools(x))


def _close(a: Any, b: Any, rtol: float, atol: float, equal_nan: bool) -> Any:
    tolerance = tensors.convert(atol, a.dtype) + tensors.convert(rtol, a.dtype) * math_ops.abs(b)
    result = comparison_ops.less_equal(math_ops.abs(a - b), tolerance)
    if equal_nan:
        both = comparison_ops.logical_and(comparison_ops.is_nan(a), comparison_ops.is_nan(b))
        result = comparison_ops.logical_or(result, both)
    return result


def isclose(x1: Any, x2: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False):
    """``|x1 - x2| <= atol + rtol * |x2|`` elementwise (exact equality for integers).

    >>> isclose([1.0, 1.1], [1.0 + 1e-7, 1.0]).numpy().tolist()
    [True, False]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(isclose, x1, x2, rtol, atol, equal_nan)
    a, b, dtype = _pair(x1, x2)
    if "float" not in dtype:
        return comparison_ops.equal(a, b)
    return _close(a, b, rtol, atol, equal_nan)


def allclose(x1: Any, x2: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False):
    """Whether every pair of elements is close (see ``isclose``); equal infinities are.

    >>> bool(allclose([1.0, 2.0], [1.0, 2.0 + 1e-6]))
    True
    """
    if any_symbolic(x1, x2):
        return symbolic_call(allclose, x1, x2, rtol, atol, equal_nan)
    a, b, dtype = _pair(x1, x2)
    if "float" not in dtype:
        return reduction_ops.reduce_all(comparison_ops.equal(a, b))
    finite = comparison_ops.logical_and(comparison_ops.is_finite(a), comparison_ops.is_finite(b))
    close = comparison_ops.logical_and(finite, _close(a, b, rtol, atol, False))
    result = comparison_ops.logical_or(close, comparison_ops.equal(a, b))
    if equal_nan:
        both = comparison_ops.logical_and(comparison_ops.is_nan(a), comparison_ops.is_nan(b))
        result = comparison_ops.logical_or(result, both)
    return reduction_ops.reduce_all(result)


def isin(x1: Any, x2: Any, assume_unique: bool = False, invert: bool = False) -> Any:
    """Whether each element of ``x1`` occurs in ``x2`` (negated with ``invert``).

    >>> isin([1, 2, 3], [2, 5]).numpy().tolist()
    [False, True, False]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(isin, x1, x2, assume_unique, invert)
    a, b, _ = _pair(x1, x2)
    flat_a, flat_b = array_ops.reshape(a, [-1, 1]), array_ops.reshape(b, [1, -1])
    found = reduction_ops.reduce_any(comparison_ops.equal(flat_a, flat_b), axis=1)
    if invert:
        found = comparison_ops.logical_not(found)
    return array_ops.reshape(found, array_ops.shape(a))


def where(condition: Any, x1: Any = None, x2: Any = None) -> Any:
    """``x1`` where ``condition`` holds, else ``x2`` (broadcast); with neither, the indices
    of the true elements (``nonzero``).

    >>> where([True, False], [1.0, 2.0], 0.0).numpy().tolist()
    [1.0, 0.0]
    """
    if any_symbolic(condition, x1, x2):
        return symbolic_call(where, condition, x1, x2)
    cond = _bools(condition)
    if x1 is None and x2 is None:
        from retrograd.keras.src.ops import numpy_shape

        return numpy_shape.nonzero(cond)
    if x1 is None or x2 is None:
        raise ValueError(
            "`x1` and `x2` either both should be `None` or both should have non-None value."
        )
    a, b = (x if tensors._is_weak(x) else tensors.convert(x) for x in (x1, x2))
    dtype = result_type(tensors.dtype_of(a), tensors.dtype_of(b))
    a, b = tensors.convert(a, dtype), tensors.convert(b, dtype)
    return array_ops.where(cond, a, b)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    """The element of the first choice whose condition holds, else ``default``.

    >>> select([[True, False], [False, True]], [[1, 1], [2, 2]], 9).numpy().tolist()
    [1, 2]
    """
    if any_symbolic(condlist, choicelist, default):
        return symbolic_call(select, condlist, choicelist, default)
    conditions = [_bools(c) for c in condlist]
    choices = [tensors.convert(c) for c in choicelist]
    if len(conditions) != len(choices):
        raise ValueError(
            "select: condlist and choicelist must have the same length, got "
            f"{len(conditions)} and {len(choices)}"
        )
    dtype = result_type(*(c.dtype for c in choices), tensors.dtype_of(default))
    out = tensors.convert(default, dtype)
    for cond, choice in reversed(list(zip(conditions, choices))):
        out = array_ops.where(cond, tensors.convert(choice, dtype), out)
    return out


def _bitwise(fn: Callable, x: Any, y: Any, kernel: Callable) -> Any:
    if any_symbolic(x, y):
        return symbolic_call(fn, x, y)
    a, b, _ = _pair(x, y)
    return kernel(a, b)


def bitwise_and(x: Any, y: Any) -> Any:
    """Bitwise AND of integers (logical AND of bools).

    >>> bitwise_and([12], [10]).numpy().tolist()
    [8]
    """
    return _bitwise(bitwise_and, x, y, comparison_ops.bitwise_and)


def bitwise_or(x: Any, y: Any) -> Any:
    """Bitwise OR of integers.

    >>> bitwise_or([12], [10]).numpy().tolist()
    [14]
    """
    return _bitwise(bitwise_or, x, y, comparison_ops.bitwise_or)


def bitwise_xor(x: Any, y: Any) -> Any:
    """Bitwise XOR of integers.

    >>> bitwise_xor([12], [10]).numpy().tolist()
    [6]
    """
    return _bitwise(bitwise_xor, x, y, comparison_ops.bitwise_xor)


def bitwise_invert(x: Any) -> Any:
    """Bitwise NOT of integers.

    >>> bitwise_invert([0]).numpy().tolist()
    [-1]
    """
    if any_symbolic(x):
        return symbolic_call(bitwise_invert, x)
    return comparison_ops.invert(tensors.convert(x))


def bitwise_not(x: Any) -> Any:
    """Bitwise NOT of integers (as ``bitwise_invert``).

    >>> bitwise_not([5]).numpy().tolist()
    [-6]
    """
    if any_symbolic(x):
        return symbolic_call(bitwise_not, x)
    return comparison_ops.invert(tensors.convert(x))


def _shift(fn: Callable, x: Any, y: Any, kernel: Callable) -> Any:
    if any_symbolic(x, y):
        return symbolic_call(fn, x, y)
    t = tensors.convert(x)
    if isinstance(y, int) and not isinstance(y, bool):
        return kernel(t, tensors.convert(y, t.dtype))
    a, b, _ = _pair(t, y)
    return kernel(a, b)


def bitwise_left_shift(x: Any, y: Any) -> Any:
    """``x << y`` for integers.

    >>> bitwise_left_shift([1], 3).numpy().tolist()
    [8]
    """
    return _shift(bitwise_left_shift, x, y, bit_ops.left_shift)


def left_shift(x: Any, y: Any) -> Any:
    """``x << y`` for integers (as ``bitwise_left_shift``).

    >>> left_shift([3], 1).numpy().tolist()
    [6]
    """
    return _shift(left_shift, x, y, bit_ops.left_shift)


def bitwise_right_shift(x: Any, y: Any) -> Any:
    """``x >> y`` for integers.

    >>> bitwise_right_shift([8], 3).numpy().tolist()
    [1]
    """
    return _shift(bitwise_right_shift, x, y, bit_ops.right_shift)


def right_shift(x: Any, y: Any) -> Any:
    """``x >> y`` for integers (as ``bitwise_right_shift``).

    >>> right_shift([6], 1).numpy().tolist()
    [3]
    """
    return _shift(right_shift, x, y, bit_ops.right_shift)


def _integers(name: str, x1: Any, x2: Any) -> tuple[Any, Any]:
    a, b, dtype = _pair(x1, x2)
    if not a.dtype.is_integer:
        raise TypeError(
            f"Arguments to {name} must be integers. Received: x1.dtype="
            f"{tensors.convert(x1).dtype.name}, x2.dtype={tensors.convert(x2).dtype.name}"
        )
    if not a.dtype.is_unsigned:
        a, b = math_ops.abs(a), math_ops.abs(b)
    zeros = array_ops.zeros_like(a + b)
    return a + zeros, b + zeros


def _gcd(a: Any, b: Any) -> Any:
    """Euclid's algorithm on every pair at once. It needs at most ~1.44 * bits steps (the
    worst case is two consecutive Fibonacci numbers), so a fixed count serves every input,
    in graphs too."""
    zero = array_ops.zeros_like(b)
    for _ in range(int(1.45 * a.dtype.size * 8) + 2):
        nonzero = comparison_ops.not_equal(b, zero)
        safe = array_ops.where(nonzero, b, array_ops.ones_like(b))
        a, b = (
            array_ops.where(nonzero, b, a),
            array_ops.where(nonzero, math_ops.floormod(a, safe), zero),
        )
    return a


def gcd(x1: Any, x2: Any) -> Any:
    """The greatest common divisor of integers, elementwise.

    >>> gcd([12, 7], [18, 0]).numpy().tolist()
    [6, 7]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(gcd, x1, x2)
    return _gcd(*_integers("gcd", x1, x2))


def lcm(x1: Any, x2: Any) -> Any:
    """The least common multiple of integers, elementwise (0 where one is 0).

    >>> lcm([4, 3], [6, 0]).numpy().tolist()
    [12, 0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(lcm, x1, x2)
    a, b = _integers("lcm", x1, x2)
    divisor = _gcd(a, b)
    zero = comparison_ops.equal(divisor, array_ops.zeros_like(divisor))
    safe = array_ops.where(zero, array_ops.ones_like(divisor), divisor)
    return array_ops.where(zero, array_ops.zeros_like(a), a * math_ops.floordiv(b, safe))
