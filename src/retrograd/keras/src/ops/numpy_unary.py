"""``keras.ops`` elementwise functions of one tensor (``keras.ops.numpy``): powers and
logarithms, trigonometry, rounding, signs, and the tests ``isnan``/``isinf``/...

Float functions take integers as Keras does (``int64`` becomes ``floatx``, smaller integers
their promotion with ``float``); each is differentiable where its TensorFlow op is.

>>> from retrograd.keras import ops
>>> ops.sqrt([4, 9]).numpy().tolist(), ops.sqrt([4, 9]).dtype.name
([2.0, 3.0], 'float32')
"""

from __future__ import annotations

import math as _math
from collections.abc import Callable
from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    math_ops,
    trig_ops,
)

__all__ = [
    "abs",
    "absolute",
    "fabs",
    "negative",
    "sqrt",
    "square",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log10",
    "log2",
    "log1p",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "sinc",
]


def _float_unary(fn: Callable, x: Any, kernel: Callable) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x)
    return kernel(tensors.float_input(x))


def _floatx_if_int(x: Any) -> Any:
    """``x`` as a tensor, integers and bools cast to ``floatx`` (Keras' exp, log, ...)."""
    t = tensors.convert(x)
    if not t.dtype.is_floating and not t.dtype.is_complex:
        t = math_ops.cast(t, backend.floatx())
    return t


def _floatx_unary(fn: Callable, x: Any, kernel: Callable) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x)
    return kernel(_floatx_if_int(x))


def absolute(x: Any) -> Any:
    """``|x|`` elementwise (unsigned and bool inputs unchanged).

    >>> absolute([-1.5, 2.0]).numpy().tolist()
    [1.5, 2.0]
    """
    if any_symbolic(x):
        return symbolic_call(absolute, x)
    t = tensors.convert(x)
    if t.dtype.is_bool or t.dtype.is_unsigned:
        return t
    return math_ops.abs(t)


def abs(x: Any) -> Any:  # noqa: A001
    """``|x|`` elementwise (as ``absolute``).

    >>> abs([-3, 2]).numpy().tolist()
    [3, 2]
    """
    if any_symbolic(x):
        return symbolic_call(abs, x)
    return absolute(x)


def fabs(x: Any) -> Any:
    """``|x|`` as floats.

    >>> fabs([-3]).numpy().tolist()
    [3.0]
    """
    return _float_unary(fabs, x, math_ops.abs)


def negative(x: Any) -> Any:
    """``-x`` elementwise.

    >>> negative([1.0, -2.0]).numpy().tolist()
    [-1.0, 2.0]
    """
    if any_symbolic(x):
        return symbolic_call(negative, x)
    return math_ops.negative(tensors.convert(x))


def sqrt(x: Any) -> Any:
    """The square root, elementwise.

    >>> sqrt([4.0]).numpy().tolist()
    [2.0]
    """
    return _float_unary(sqrt, x, math_ops.sqrt)


def square(x: Any) -> Any:
    """``x * x`` elementwise (bools become int32).

    >>> square([3]).numpy().tolist()
    [9]
    """
    if any_symbolic(x):
        return symbolic_call(square, x)
    t = tensors.convert(x)
    if t.dtype.is_bool:
        t = math_ops.cast(t, "int32")
    return math_ops.square(t)


def exp(x: Any) -> Any:
    """``e ** x`` elementwise.

    >>> exp([0.0]).numpy().tolist()
    [1.0]
    """
    return _floatx_unary(exp, x, math_ops.exp)


def exp2(x: Any) -> Any:
    """``2 ** x`` elementwise.

    >>> exp2([3.0]).numpy().tolist()
    [8.0]
    """
    return _floatx_unary(exp2, x, lambda t: math_ops.pow(tensors.convert(2.0, t.dtype), t))


def expm1(x: Any) -> Any:
    """``exp(x) - 1``, accurate near 0.

    >>> expm1([0.0]).numpy().tolist()
    [0.0]
    """
    return _floatx_unary(expm1, x, math_ops.expm1)


def log(x: Any) -> Any:
    """The natural logarithm, elementwise.

    >>> log([1.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(log, x, math_ops.log)


def _log_base(base: float) -> Callable:
    def kernel(t: Any) -> Any:
        return math_ops.log(t) / tensors.convert(_math.log(base), t.dtype)

    return kernel


def log10(x: Any) -> Any:
    """The base-10 logarithm.

    >>> log10([100.0]).numpy().tolist()
    [2.0]
    """
    return _float_unary(log10, x, _log_base(10.0))


def log2(x: Any) -> Any:
    """The base-2 logarithm.

    >>> log2([8.0]).numpy().tolist()
    [3.0]
    """
    return _float_unary(log2, x, _log_base(2.0))


def log1p(x: Any) -> Any:
    """``log(1 + x)``, accurate near 0.

    >>> log1p([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(log1p, x, math_ops.log1p)


def sin(x: Any) -> Any:
    """The sine, elementwise.

    >>> sin([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(sin, x, math_ops.sin)


def cos(x: Any) -> Any:
    """The cosine, elementwise.

    >>> cos([0.0]).numpy().tolist()
    [1.0]
    """
    return _float_unary(cos, x, math_ops.cos)


def tan(x: Any) -> Any:
    """The tangent, elementwise.

    >>> tan([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(tan, x, math_ops.tan)


def arcsin(x: Any) -> Any:
    """The inverse sine.

    >>> arcsin([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arcsin, x, trig_ops.asin)


def arccos(x: Any) -> Any:
    """The inverse cosine.

    >>> arccos([1.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arccos, x, trig_ops.acos)


def arctan(x: Any) -> Any:
    """The inverse tangent.

    >>> arctan([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arctan, x, trig_ops.atan)


def sinh(x: Any) -> Any:
    """The hyperbolic sine.

    >>> sinh([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(sinh, x, trig_ops.sinh)


def cosh(x: Any) -> Any:
    """The hyperbolic cosine.

    >>> cosh([0.0]).numpy().tolist()
    [1.0]
    """
    return _float_unary(cosh, x, trig_ops.cosh)


def tanh(x: Any) -> Any:
    """The hyperbolic tangent.

    >>> tanh([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(tanh, x, math_ops.tanh)


def arcsinh(x: Any) -> Any:
    """The inverse hyperbolic sine.

    >>> arcsinh([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arcsinh, x, trig_ops.asinh)


def arccosh(x: Any) -> Any:
    """The inverse hyperbolic cosine.

    >>> arccosh([1.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arccosh, x, trig_ops.acosh)


def arctanh(x: Any) -> Any:
    """The inverse hyperbolic tangent.

    >>> arctanh([0.0]).numpy().tolist()
    [0.0]
    """
    return _float_unary(arctanh, x, trig_ops.atanh)


def _sinc(t: Any) -> Any:
    pi_x = t * tensors.convert(_math.pi, t.dtype)
    zero = comparison_ops.equal(t, tensors.convert(0.0, t.dtype))
    safe = array_ops.where(zero, array_ops.ones_like(pi_x), pi_x)
    return array_ops.where(zero, array_ops.ones_like(t), math_ops.sin(safe) / safe)


def sinc(x: Any) -> Any:
    """``sin(pi x) / (pi x)``, 1 at 0.

    >>> sinc([0.0]).numpy().tolist()
    [1.0]
    """
    return _float_unary(sinc, x, _sinc)
