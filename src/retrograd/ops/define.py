"""Building blocks of the op files: argument conversion and elementwise op factories.

Element kinds are NumPy's: ``f`` float, ``c`` complex, ``i`` signed and ``u`` unsigned int,
``b`` bool. An op lists the kinds it accepts; anything else is a TypeError naming the op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.execute import OpDef, define_op, execute
from retrograd.tensor import Tensor, convert_to_tensor

FLOAT = "f"
FLOAT_COMPLEX = "fc"
NUMERIC = "iufc"
REAL = "iuf"
INTEGER = "iu"
BOOL = "b"
ANY = "biufc"

_KIND_NAMES = {"f": "float", "c": "complex", "i": "int", "u": "unsigned int", "b": "bool"}


def describe_kinds(kinds: str) -> str:
    """``"fc"`` → ``"float or complex"``."""
    return " or ".join(_KIND_NAMES[k] for k in kinds)


def _kind_error(op_type: str, arg: str, tensor: Tensor, kinds: str) -> TypeError:
    return TypeError(
        f"{op_type}: `{arg}` must be a {describe_kinds(kinds)} tensor, got {tensor.dtype.name}"
    )


def tensor_arg(op_type: str, x: Any, kinds: str = ANY, arg: str = "x") -> Tensor:
    """Converts one op argument to a tensor whose element kind is in ``kinds``."""
    t = x if type(x) is Tensor else convert_to_tensor(x)
    if t._value.dtype.kind not in kinds:
        raise _kind_error(op_type, arg, t, kinds)
    return t


def _is_tensor_like(x: Any) -> bool:
    return isinstance(x, Tensor) or hasattr(type(x), "_as_tensor")


def tensor_pair(op_type: str, x: Any, y: Any, kinds: str = ANY) -> tuple[Tensor, Tensor]:
    """Converts two operands that must share a dtype.

    A Python or NumPy operand adopts the tensor operand's dtype (``x * 2``); two tensors of
    different dtypes raise TypeError naming the op and both dtypes.
    """
    if type(x) is Tensor and type(y) is Tensor:
        dx, dy = x._value.dtype, y._value.dtype
    else:
        if _is_tensor_like(x) or not _is_tensor_like(y):
            x = convert_to_tensor(x)
            y = convert_to_tensor(y) if _is_tensor_like(y) else convert_to_tensor(y, dtype=x.dtype)
        else:
            y = convert_to_tensor(y)
            x = convert_to_tensor(x, dtype=y.dtype)
        dx, dy = x._value.dtype, y._value.dtype
    if dx is not dy and dx != dy:
        raise TypeError(
            f"{op_type}: x and y must have the same dtype, got {x.dtype.name} and "
            f"{y.dtype.name}; cast one with retrograd.cast"
        )
    if dx.kind not in kinds:
        raise _kind_error(op_type, "x", x, kinds)
    return x, y


def _named(fn: Callable[..., Any], api_name: str, doc: str, op: OpDef) -> Callable[..., Any]:
    fn.__name__ = fn.__qualname__ = api_name
    fn.__doc__ = doc
    fn.op_def = op  # type: ignore[attr-defined]
    return fn


def unary_op(
    api_name: str, op_type: str, kernel: Callable[..., Any], kinds: str, doc: str
) -> Callable[..., Any]:
    """Defines an elementwise op of one tensor; returns its function ``f(x, name=None)``."""
    op = define_op(op_type, kernel, elementwise=True)

    def op_function(x: Any, name: str | None = None) -> Tensor:
        x = (
            x
            if type(x) is Tensor and x._value.dtype.kind in kinds
            else tensor_arg(op_type, x, kinds)
        )
        return execute(op, (x,), None, name)

    return _named(op_function, api_name, doc, op)


def binary_op(
    api_name: str, op_type: str, kernel: Callable[..., Any], kinds: str, doc: str
) -> Callable[..., Any]:
    """Defines an elementwise, broadcasting op of two same-dtype tensors: ``f(x, y, name=None)``."""
    op = define_op(op_type, kernel, elementwise=True)

    def op_function(x: Any, y: Any, name: str | None = None) -> Tensor:
        return execute(op, tensor_pair(op_type, x, y, kinds), None, name)

    return _named(op_function, api_name, doc, op)
