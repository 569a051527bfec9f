"""How ``keras.ops`` turns its arguments into tensors: Keras' ``convert_to_tensor`` (Python
floats are float32, ints int32, NumPy arrays keep their dtype; a requested dtype converts
exactly or casts) and the promotion of mixed operands (``dtype_rules.result_type``).

>>> from retrograd.keras.src.ops import tensors
>>> x, y = tensors.promote([1, 2], 0.5)
>>> x.dtype.name, y.dtype.name
('float32', 'float32')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import constant
from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import dtype_of, result_type, standardize_dtype
from retrograd.ops import array_ops, math_ops

__all__ = [
    "is_tensor",
    "convert",
    "promote",
    "float_input",
    "zeros_of",
    "full_like",
    "dtype_name",
    "static_shape",
]


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a backend tensor or variable."""
    return isinstance(x, (Tensor, Variable))


def dtype_name(x: Any) -> str:
    return dtypes.as_dtype(x.dtype).name


def convert(x: Any, dtype: Any = None) -> Tensor:
    """Keras' ``convert_to_tensor``: a tensor of ``dtype`` (cast if it has another).

    >>> from retrograd.keras.src.ops import tensors
    >>> tensors.convert([1, 2], "float64").dtype.name
    'float64'
    """
    if dtype is not None:
        dtype = standardize_dtype(dtype)
    if not is_tensor(x):
        if hasattr(type(x), "_as_tensor"):  # (a KerasTensor: refused with Keras' message)
            return convert_to_tensor(x)
        if dtype is None:
            return convert_to_tensor(x)
        if dtype == "bool" or "int" in dtype:
            return math_ops.cast(convert_to_tensor(x), dtype)
        return constant(x, dtype=dtype) if isinstance(x, np.ndarray) else _exact(x, dtype)
    t = convert_to_tensor(x)
    if dtype is not None and dtype_name(t) != dtype:
        return math_ops.cast(t, dtype)
    return t


def _exact(x: Any, dtype: str) -> Tensor:
    try:
        return convert_to_tensor(x, dtype=dtype)
    except (TypeError, ValueError):
        return math_ops.cast(convert_to_tensor(x), dtype)


def _is_weak(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, (bool, np.generic))


def promote(*xs: Any, dtype: Any = None) -> list[Tensor]:
    """The operands as tensors of their common dtype (Keras' promotion; Python numbers are
    weak), or of ``dtype`` when given."""
    converted = [x if _is_weak(x) else convert(x) for x in xs]
    if dtype is None:
        dtype = result_type(*(dtype_of(x) for x in converted))
    return [convert(x, dtype) for x in converted]


def float_input(x: Any) -> Tensor:
    """``x`` as floats, as Keras' unary float functions take it (int64 becomes ``floatx``,
    other types their promotion with ``float``)."""
    t = convert(x)
    name = dtype_name(t)
    target = backend.floatx() if name == "int64" else result_type(name, float)
    return convert(t, target)


def full_like(t: Tensor, value: Any) -> Tensor:
    """A tensor shaped like ``t`` filled with ``value`` (of ``value``'s own kind when it is
    a bool, else of ``t``'s dtype)."""
    dtype = "bool" if isinstance(value, (bool, np.bool_)) else t.dtype
    return array_ops.fill(array_ops.shape(t), convert(value, dtype))


def zeros_of(shape: Any, dtype: Any) -> Tensor:
    """Zeros of ``shape`` and ``dtype`` (what symbolic calls run on)."""
    return array_ops.zeros(list(shape), dtype=dtypes.as_dtype(dtype))


def static_shape(x: Any) -> tuple:
    """The shape of ``x`` as a tuple (``None`` for unknown dimensions)."""
    shape = x.shape
    as_list = getattr(shape, "as_list", None)
    if as_list is not None:
        return tuple(as_list())
    return tuple(shape)
