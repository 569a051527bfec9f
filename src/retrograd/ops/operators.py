"""Python operators on tensors and variables, bound to ops in one table.

``x + y`` is ``add(x, y)``, ``x[1:]`` a StridedSlice, ``x > 0`` a Greater, and so on; a
Python or NumPy operand adopts the tensor's dtype. ``==`` is elementwise (``None`` compares
False, shapes that cannot broadcast compare False, as in TensorFlow).

>>> import retrograd as rg
>>> x = rg.constant([1.0, 2.0, 3.0])
>>> (2 * x + 1)[::2].numpy().tolist(), (x == 2.0).numpy().tolist()
([3.0, 7.0], [False, True, False])
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops, comparison_ops, linalg_ops, math_ops
from retrograd.ops.define import tensor_pair


def _named(fn: Callable[..., Tensor], name: str) -> Callable[..., Tensor]:
    """``fn`` itself (same code, no extra call) with ``name`` defaulting to TensorFlow's name
    for the operator: in a graph, ``x + y`` is ``add:0`` and ``x[1:]`` ``strided_slice:0``."""
    parameters = list(inspect.signature(fn).parameters.values())
    with_defaults = [p.name for p in parameters if p.default is not inspect.Parameter.empty]
    defaults = tuple(name if n == "name" else d for n, d in zip(with_defaults, fn.__defaults__))
    named = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, defaults, fn.__closure__)
    named.__kwdefaults__ = fn.__kwdefaults__
    return functools.update_wrapper(named, fn, updated=())


def _logical_or_bitwise(logical, bitwise, op_type, name):
    def apply(x: Any, y: Any) -> Tensor:
        x, y = tensor_pair(op_type, x, y)
        return logical(x, y, name=name) if x._value.dtype.kind == "b" else bitwise(x, y)

    return apply


_and = _logical_or_bitwise(
    comparison_ops.logical_and, comparison_ops.bitwise_and, "LogicalAnd", "and"
)
_or = _logical_or_bitwise(comparison_ops.logical_or, comparison_ops.bitwise_or, "LogicalOr", "or")
_xor = _logical_or_bitwise(
    comparison_ops.logical_xor, comparison_ops.bitwise_xor, "LogicalXor", "xor"
)


def _invert(x: Any) -> Tensor:
    x = convert_to_tensor(x)
    return comparison_ops.logical_not(x) if x._value.dtype.kind == "b" else comparison_ops.invert(x)


class _TensorEquality:
    """Process-wide, as TensorFlow's ``Tensor._USE_EQUALITY``: ``elementwise`` True (TF2's
    default) while ``==`` and ``!=`` on tensors and variables compare elementwise, False
    (TensorFlow 1: ``disable_tensor_equality``, ``disable_v2_behavior``) while they compare
    identities, so that ``v in some_list`` works on graph values."""

    elementwise = True


tensor_equality = _TensorEquality()


def disable_tensor_equality() -> None:
    """From now on ``==`` and ``!=`` compare tensors' and variables' identities (TensorFlow 1).

    >>> import retrograd as rg
    >>> rg.compat.v1.disable_tensor_equality()
    >>> x = rg.constant([1.0, 2.0])
    >>> x == x, x in [rg.constant([1.0, 2.0])]
    (True, False)
    >>> rg.compat.v1.enable_tensor_equality()
    """
    tensor_equality.elementwise = False


def enable_tensor_equality() -> None:
    """From now on ``==`` and ``!=`` compare elementwise (TensorFlow 2's behaviour, the default).

    >>> import retrograd as rg
    >>> rg.compat.v1.enable_tensor_equality()
    >>> (rg.constant([1.0, 2.0]) == 2.0).numpy().tolist()
    [False, True]
    """
    tensor_equality.elementwise = True


def _equality(compare, result_if_none: bool, op_type: str):
    def apply(x: Any, y: Any) -> Any:
        if not tensor_equality.elementwise:
            return (x is y) is not result_if_none  # identity: `==` for Equal, `!=` for NotEqual
        if y is None:
            return result_if_none
        x, y = tensor_pair(op_type, x, y)
        try:
            broadcast_dims([x._value.shape, y._value.shape], op_type)
        except InvalidArgumentError:
            return Tensor(np.bool_(result_if_none))
        return compare(x, y)

    return apply


def _iterate(x: Any):
    if len(x.shape) == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    return iter(array_ops.unstack(x))


_BINARY = {
    "add": math_ops.add,
    "sub": math_ops.subtract,
    "mul": math_ops.multiply,
    "truediv": math_ops.divide,
    "floordiv": math_ops.floordiv,
    "mod": math_ops.floormod,
    "pow": math_ops.pow,
    "matmul": linalg_ops.matmul,
    "and": _logical_or_bitwise(
        comparison_ops.logical_and, comparison_ops.bitwise_and, "LogicalAnd", None
    ),
    "or": _logical_or_bitwise(
        comparison_ops.logical_or, comparison_ops.bitwise_or, "LogicalOr", None
    ),
    "xor": _logical_or_bitwise(
        comparison_ops.logical_xor, comparison_ops.bitwise_xor, "LogicalXor", None
    ),
}

_OTHERS = {
    "__lt__": comparison_ops.less,
    "__le__": comparison_ops.less_equal,
    "__gt__": comparison_ops.greater,
    "__ge__": comparison_ops.greater_equal,
    "__eq__": _equality(comparison_ops.equal, False, "Equal"),
    "__ne__": _equality(comparison_ops.not_equal, True, "NotEqual"),
    "__neg__": math_ops.negative,
    "__abs__": math_ops.abs,
    "__invert__": _invert,
    "__getitem__": array_ops.getitem,
    "__iter__": _iterate,
}

# Graph tensors' operators build ops with TensorFlow's names (``x + y`` is ``add:0``, ``x[1:]``
# ``strided_slice:0``): the same functions with that name as their default (no extra call;
# eager ops keep no names, as in TensorFlow).
_NAMED_BINARY = {
    **{op: _named(fn, op) for op, fn in _BINARY.items() if op not in ("and", "or", "xor")},
    "and": _and,
    "or": _or,
    "xor": _xor,
}
_NAMED_OTHERS = {"__getitem__": _named(array_ops.getitem, "strided_slice")}


def _reflect(fn):
    def reflected(self: Any, other: Any) -> Tensor:
        return fn(other, self)

    return reflected


def install(cls: type, named: bool = False) -> None:
    """Binds the operator table onto ``cls`` (``named``: the operators of graph tensors, a
    subclass, whose ops take TensorFlow's operator names; the rest they inherit)."""
    binary, others = (_NAMED_BINARY, _NAMED_OTHERS) if named else (_BINARY, _OTHERS)
    for name, fn in binary.items():
        setattr(cls, f"__{name}__", fn)
        setattr(cls, f"__r{name}__", _reflect(fn))
    for name, fn in others.items():
        setattr(cls, name, fn)
    if not named:
        cls.__hash__ = object.__hash__  # identity hashing next to the elementwise __eq__


install(Tensor)
install(Variable)
