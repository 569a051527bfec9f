"""Building blocks of the op files: argument conversion and elementwise op factories.

Element kinds are NumPy's: ``f`` float, ``c`` complex, ``i`` signed and ``u`` unsigned int,
``b`` bool. An op lists the kinds it accepts; anything else is a TypeError naming the op.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import BinaryOp, UnaryOp
from retrograd.core.execute import OpDef, define_op, execute_binary, execute_unary
from retrograd.core.tensor import Tensor, convert_to_tensor

_F = TypeVar("_F", bound=Callable[..., Any])

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


# Python numbers combined with tensors (`y * 1.01`), converted once per value and dtype:
# tensors are immutable, so one conversion serves every use. Bounded; zeros (whose sign the
# key cannot tell) and NaN are never cached.
_NUMBERS: dict[tuple, Tensor] = {}


def _number_operand(value: float | int, dtype: np.dtype) -> Tensor:
    key = (type(value), value, dtype)
    found = _NUMBERS.get(key)
    if found is None:
        found = convert_to_tensor(value, dtype=dtypes.from_numpy(dtype))
        # (kept unless a graph's constant or an array of a device: a NumPy scalar goes with any)
        if (
            value
            and value == value
            and type(found) is Tensor
            and isinstance(found._value, np.generic)
        ):
            if len(_NUMBERS) >= 4096:
                _NUMBERS.clear()
            _NUMBERS[key] = found
    return found


def same_dtype_tensors(op_type: str, values: list) -> list[Tensor]:
    """Converts a non-empty list of op arguments to tensors of the first one's dtype (as
    ``tensor_pair`` converts each against the first)."""
    if not values:
        raise ValueError(f"{op_type}: values must be a non-empty list of tensors")
    tensors = [values[0] if isinstance(values[0], Tensor) else convert_to_tensor(values[0])]
    for v in values[1:]:
        tensors.append(tensor_pair(op_type, tensors[0], v)[1])
    return tensors


def tensor_pair(op_type: str, x: Any, y: Any, kinds: str = ANY) -> tuple[Tensor, Tensor]:
    """Converts two operands that must share a dtype.

    A Python or NumPy operand adopts the tensor operand's dtype (``x * 2``); two tensors of
    different dtypes raise TypeError naming the op and both dtypes.
    """
    tx, ty = type(x), type(y)
    if tx is Tensor:
        if ty is Tensor:  # the common case first, in as few steps as possible
            dx = x._value.dtype
            if dx is y._value.dtype and dx.kind in kinds:
                return x, y
        elif ty is float or ty is int:
            dx = x._value.dtype
            if dx.kind in kinds:  # the number is converted to x's dtype (or raises)
                return x, _number_operand(y, dx)
    elif ty is Tensor and (tx is float or tx is int):
        x = _number_operand(x, y._value.dtype)
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


def _named(fn: _F, api_name: str, doc: str, op: OpDef, module: str) -> _F:
    fn.__name__ = fn.__qualname__ = api_name
    # The module that defines the op (the caller of unary_op / binary_op), as for any
    # function: help(), documentation tools, doctests and tracebacks find it there.
    fn.__module__ = module
    fn.__doc__ = doc
    fn.op_def = op  # type: ignore[attr-defined]
    return fn


def add_examples(functions: dict[str, Any], examples: dict[str, tuple[str, str]]) -> None:
    """Appends a doctest to the docstring of each op that a factory made: ``examples`` maps
    its name to ``(arguments, result)``, the result checked by hand (the doctest runs the
    op). Lists print as lists; a scalar result is rounded to 5 digits (robust to an ulp)."""
    for api_name, (arguments, result) in examples.items():
        call = f"rg.math.{api_name}({arguments})"
        shown = (
            f"{call}.numpy().tolist()" if arguments.startswith("[") else f"round(float({call}), 5)"
        )
        function = functions[api_name]
        function.__doc__ = (
            f"{function.__doc__}\n\n>>> import retrograd as rg\n>>> {shown}\n{result}\n"
        )


# Kernels that are Python operators compute into a buffer through their ufunc.
_OPERATOR_UFUNCS = {
    operator.add: np.add,
    operator.sub: np.subtract,
    operator.mul: np.multiply,
    operator.truediv: np.true_divide,
    operator.neg: np.negative,
}


def ufunc_inplace(kernel: Callable[..., Any]) -> Callable[..., Any] | None:
    """The in-place form (``f(*arrays, out=...)``) of a ufunc or operator kernel, else None."""
    if isinstance(kernel, np.ufunc):
        return kernel
    return _OPERATOR_UFUNCS.get(kernel)


def unary_op(
    api_name: str,
    op_type: str,
    kernel: Callable[..., Any],
    kinds: str,
    doc: str,
    inplace: Callable[..., Any] | None = None,
    batchable: bool = False,
    *,
    module: str,
) -> UnaryOp:
    """Defines an elementwise op of one tensor; returns its function ``f(x, name=None)``,
    which belongs to ``module`` (the defining module's ``__name__``).

    ``inplace`` is the kernel computing into a buffer (see OpDef), derived for ufuncs (whose
    results are fresh arrays); ``batchable`` as in OpDef."""
    inplace = inplace or ufunc_inplace(kernel)
    op = define_op(
        op_type,
        kernel,
        elementwise=True,
        inplace=inplace,
        fresh=ufunc_inplace(kernel) is not None,
        batchable=batchable,
    )

    def op_function(x: Any, name: str | None = None) -> Tensor:
        if type(x) is not Tensor or x._value.dtype.kind not in kinds:
            x = tensor_arg(op_type, x, kinds)
        return execute_unary(op, x, name)

    return _named(op_function, api_name, doc, op, module)


def binary_op(
    api_name: str,
    op_type: str,
    kernel: Callable[..., Any],
    kinds: str,
    doc: str,
    batchable: bool = False,
    fresh: bool = False,
    quiet: bool = False,
    *,
    module: str,
) -> BinaryOp:
    """Defines an elementwise, broadcasting op of two same-dtype tensors: ``f(x, y, name=None)``,
    which belongs to ``module`` (the defining module's ``__name__``).

    ``batchable``, ``fresh`` and ``quiet`` as in OpDef (``fresh`` is derived for ufunc
    kernels)."""
    op = define_op(
        op_type,
        kernel,
        elementwise=True,
        inplace=ufunc_inplace(kernel),
        fresh=fresh or ufunc_inplace(kernel) is not None,
        batchable=batchable,
        quiet=quiet,
    )

    def op_function(x: Any, y: Any, name: str | None = None) -> Tensor:
        if (
            type(x) is not Tensor
            or type(y) is not Tensor
            or x._value.dtype is not y._value.dtype
            or x._value.dtype.kind not in kinds
        ):
            x, y = tensor_pair(op_type, x, y, kinds)
        return execute_binary(op, x, y, name)

    return _named(op_function, api_name, doc, op, module)


def beside(array: np.ndarray, like: Tensor) -> Tensor:
    """Host data ``array`` (offsets, an identity, a grid a rule builds) as a tensor beside
    ``like``: eagerly a copy on ``like``'s device; while a graph is built (``like`` holds no
    array), a constant of the graph, which is placed as every graph constant is.

    >>> beside(np.arange(3), convert_to_tensor([1.0, 2.0])).numpy()
    array([0, 1, 2])
    """
    from retrograd.core.backends import is_array, on_device_of
    from retrograd.core.tensor import constant

    value = like._value
    return Tensor(on_device_of(array, value)) if is_array(value) else constant(array)
