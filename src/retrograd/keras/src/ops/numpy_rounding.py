"""``keras.ops`` elementwise functions of one tensor, continued (``keras.ops.numpy``):
signs, rounding, reciprocals and angles, complex parts, and the tests ``isnan``/``isinf``/
``isfinite``/... with ``nan_to_num``.

>>> from retrograd.keras import ops
>>> ops.round([1.5, 2.5]).numpy().tolist(), ops.isnan([1.0, float("nan")]).numpy().tolist()
([2.0, 2.0], [False, True])
"""

from __future__ import annotations

import math as _math
from collections.abc import Callable
from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.numpy_unary import _float_unary
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import array_ops, comparison_ops, complex_ops, math_ops, rounding_ops

__all__ = [
    "sign",
    "signbit",
    "ceil",
    "floor",
    "trunc",
    "round",
    "reciprocal",
    "rad2deg",
    "deg2rad",
    "cbrt",
    "conj",
    "conjugate",
    "real",
    "imag",
    "angle",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "nan_to_num",
]


def sign(x: Any) -> Any:
    """-1, 0 or 1 by the sign of each element.

    >>> sign([-2.0, 0.0, 3.0]).numpy().tolist()
    [-1.0, 0.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(sign, x)
    t = tensors.convert(x)
    if t.dtype.is_unsigned:
        return math_ops.cast(math_ops.sign(math_ops.cast(t, "int32")), t.dtype)
    return math_ops.sign(t)


def signbit(x: Any) -> Any:
    """Whether the sign bit is set (true for -0.0).

    >>> signbit([-0.0, 1.0]).numpy().tolist()
    [True, False]
    """
    if any_symbolic(x):
        return symbolic_call(signbit, x)
    t = tensors.convert(x)
    if t.dtype.is_bool or t.dtype.is_unsigned:
        return tensors.full_like(t, False)
    if t.dtype.is_integer:
        return comparison_ops.less(t, tensors.convert(0, t.dtype))
    zero = tensors.convert(0.0, t.dtype)
    negative_zero = comparison_ops.logical_and(
        comparison_ops.equal(t, zero), comparison_ops.less(math_ops.reciprocal(t), zero)
    )
    return comparison_ops.logical_or(comparison_ops.less(t, zero), negative_zero)


def ceil(x: Any) -> Any:
    """The smallest integer not below each element (as floats).

    >>> ceil([1.2]).numpy().tolist()
    [2.0]
    """
    return _float_unary(ceil, x, rounding_ops.ceil)


def floor(x: Any) -> Any:
    """The largest integer not above each element (as floats).

    >>> floor([1.7]).numpy().tolist()
    [1.0]
    """
    return _float_unary(floor, x, rounding_ops.floor)


def trunc(x: Any) -> Any:
    """Rounds toward zero (integers unchanged).

    >>> trunc([-1.7, 1.7]).numpy().tolist()
    [-1.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(trunc, x)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        return t
    negative_ = comparison_ops.less(t, tensors.convert(0.0, t.dtype))
    return array_ops.where(negative_, rounding_ops.ceil(t), rounding_ops.floor(t))


def round(x: Any, decimals: int = 0) -> Any:  # noqa: A001
    """Rounds to ``decimals`` digits (halves to even).

    >>> round([14.0, 26.0], decimals=-1).numpy().tolist()
    [10.0, 30.0]
    """
    if any_symbolic(x):
        return symbolic_call(round, x, decimals)
    t = tensors.convert(x)
    if decimals == 0:
        return rounding_ops.round(t)
    if t.dtype.is_integer:
        if decimals > 0:
            return t
        work = math_ops.cast(t, backend.floatx())
    else:
        work = t
    factor = tensors.convert(_math.pow(10, decimals), work.dtype)
    return math_ops.cast(rounding_ops.round(work * factor) / factor, t.dtype)


def reciprocal(x: Any) -> Any:
    """``1 / x`` elementwise.

    >>> reciprocal([4.0]).numpy().tolist()
    [0.25]
    """
    if any_symbolic(x):
        return symbolic_call(reciprocal, x)
    return math_ops.reciprocal(tensors.convert(x))


def rad2deg(x: Any) -> Any:
    """Radians to degrees.

    >>> rad2deg([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(rad2deg, x, lambda t: t * tensors.convert(180.0 / _math.pi, t.dtype))


def deg2rad(x: Any) -> Any:
    """Degrees to radians.

    >>> deg2rad([180.0]).numpy().tolist()
    [3.1415927410125732]
    """
    return _float_unary(deg2rad, x, lambda t: t * tensors.convert(_math.pi / 180.0, t.dtype))


def _cbrt(t: Any) -> Any:
    third = tensors.convert(1.0 / 3.0, t.dtype)
    return math_ops.sign(t) * math_ops.pow(math_ops.abs(t), third)


def cbrt(x: Any) -> Any:
    """The cube root (negative for negative inputs).

    >>> cbrt([-8.0]).numpy().tolist()
    [-2.0]
    """
    if any_symbolic(x):
        return symbolic_call(cbrt, x)
    t = tensors.convert(x)
    name = t.dtype.name
    if name == "int64":
        t = math_ops.cast(t, "float64")
    elif name not in ("float16", "float64", "bfloat16"):
        t = math_ops.cast(t, backend.floatx())
    return _cbrt(t)


def conj(x: Any) -> Any:
    """The complex conjugate (real inputs unchanged).

    >>> conj([1.0]).numpy().tolist()
    [1.0]
    """
    if any_symbolic(x):
        return symbolic_call(conj, x)
    return math_ops.conj(tensors.convert(x))


def conjugate(x: Any) -> Any:
    """The complex conjugate (as ``conj``).

    >>> conjugate([2.0]).numpy().tolist()
    [2.0]
    """
    if any_symbolic(x):
        return symbolic_call(conjugate, x)
    return conj(x)


def real(x: Any) -> Any:
    """The real part.

    >>> real([3.0]).numpy().tolist()
    [3.0]
    """
    if any_symbolic(x):
        return symbolic_call(real, x)
    return complex_ops.real(tensors.convert(x))


def imag(x: Any) -> Any:
    """The imaginary part (zeros for real inputs).

    >>> imag([3.0]).numpy().tolist()
    [0.0]
    """
    if any_symbolic(x):
        return symbolic_call(imag, x)
    return complex_ops.imag(tensors.convert(x))


def angle(x: Any) -> Any:
    """The complex argument (0 or pi for real inputs).

    >>> angle([-1.0, 1.0]).numpy().tolist()
    [3.1415927410125732, 0.0]
    """
    if any_symbolic(x):
        return symbolic_call(angle, x)
    t = tensors.convert(x)
    if not t.dtype.is_complex:
        t = tensors.float_input(t)
    return complex_ops.angle(t)


def _test(fn: Callable, x: Any, kernel: Callable, for_ints: bool) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x)
    t = tensors.convert(x)
    if not t.dtype.is_floating and not t.dtype.is_complex:
        return tensors.full_like(t, for_ints)
    return kernel(t)


def isfinite(x: Any) -> Any:
    """Whether each element is finite.

    >>> isfinite([1.0, float("inf")]).numpy().tolist()
    [True, False]
    """
    return _test(isfinite, x, comparison_ops.is_finite, True)


def isinf(x: Any) -> Any:
    """Whether each element is infinite.

    >>> isinf([1.0, float("-inf")]).numpy().tolist()
    [False, True]
    """
    return _test(isinf, x, comparison_ops.is_inf, False)


def isnan(x: Any) -> Any:
    """Whether each element is NaN.

    >>> isnan([1.0, float("nan")]).numpy().tolist()
    [False, True]
    """
    return _test(isnan, x, comparison_ops.is_nan, False)


def isneginf(x: Any) -> Any:
    """Whether each element is -inf.

    >>> isneginf([float("-inf"), float("inf")]).numpy().tolist()
    [True, False]
    """
    return _test(
        isneginf, x, lambda t: comparison_ops.equal(t, tensors.convert(-_math.inf, t.dtype)), False
    )


def isposinf(x: Any) -> Any:
    """Whether each element is +inf.

    >>> isposinf([float("-inf"), float("inf")]).numpy().tolist()
    [False, True]
    """
    return _test(
        isposinf, x, lambda t: comparison_ops.equal(t, tensors.convert(_math.inf, t.dtype)), False
    )


def isreal(x: Any) -> Any:
    """Whether each element has no imaginary part.

    >>> isreal([1.0]).numpy().tolist()
    [True]
    """
    if any_symbolic(x):
        return symbolic_call(isreal, x)
    t = tensors.convert(x)
    if t.dtype.is_complex:
        return comparison_ops.equal(
            complex_ops.imag(t), tensors.convert(0.0, complex_ops.imag(t).dtype)
        )
    return tensors.full_like(t, True)


def nan_to_num(x: Any, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (the dtype's largest
    finite values by default).

    >>> nan_to_num([float("nan"), 1.0]).numpy().tolist()
    [0.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(nan_to_num, x, nan, posinf, neginf)
    t = tensors.convert(x)
    if not t.dtype.is_floating:
        return t
    big = float(t.dtype.max)
    posinf = big if posinf is None else posinf
    neginf = -big if neginf is None else neginf
    t = array_ops.where(comparison_ops.is_nan(t), tensors.full_like(t, nan), t)
    t = array_ops.where(isposinf(t), tensors.full_like(t, posinf), t)
    return array_ops.where(isneginf(t), tensors.full_like(t, neginf), t)
