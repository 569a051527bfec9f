"""Data types: TensorFlow's DType objects over NumPy dtypes.

Rules (TensorFlow's): a Python float becomes float32, a Python int int32 (int64 when it
does not fit), a Python bool bool, a Python complex complex128; NumPy arrays keep their
dtype. Tensors of different dtypes never mix implicitly.

>>> import retrograd as rg
>>> rg.float32.name, rg.float32.is_floating, rg.float32 == "float32"
('float32', True, True)
>>> rg.as_dtype("int64").as_numpy_dtype
<class 'numpy.int64'>
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from retrograd.core.annotations import DTypeLike

__all__ = [
    "DType",
    "as_dtype",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "variant",
    "bool",
    "complex64",
    "complex128",
    "half",
    "double",
]


# TensorFlow's DataType enum values of the types retrograd has (``DType(1)`` is float32),
# their NumPy dtypes and names. ``variant`` holds opaque values (TensorArray lists) in 0-d
# object arrays.
_TYPES: dict[int, tuple[Any, str]] = {
    1: (np.float32, "float32"), 2: (np.float64, "float64"), 3: (np.int32, "int32"),
    4: (np.uint8, "uint8"), 5: (np.int16, "int16"), 6: (np.int8, "int8"),
    8: (np.complex64, "complex64"), 9: (np.int64, "int64"), 10: (np.bool_, "bool"),
    17: (np.uint16, "uint16"), 18: (np.complex128, "complex128"), 19: (np.float16, "float16"),
    21: (np.object_, "variant"), 22: (np.uint32, "uint32"), 23: (np.uint64, "uint64"),
}  # fmt: skip


class DType:
    """A tensor element type, wrapping a NumPy dtype; made from TensorFlow's enum value of
    the type (``DType(1)`` is float32, as ``tf.DType(1)``).

    >>> import retrograd as rg
    >>> rg.float64.is_floating, rg.int32.is_integer, rg.complex64.real_dtype
    (True, True, tf.float32)
    >>> rg.DType(1) == rg.float32, rg.float64.as_datatype_enum
    (True, 2)
    """

    __slots__ = ("_np", "name", "_enum")

    def __init__(self, type_enum: int, handle_data: Any = None) -> None:
        if type_enum not in _TYPES:
            raise TypeError(
                f"DType: {type_enum!r} is not the enum value of a type retrograd has; expected "
                f"one of {sorted(_TYPES)}"
            )
        np_type, self.name = _TYPES[type_enum]
        self._np = np.dtype(np_type)
        self._enum = type_enum

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's enum value of this type."""
        return self._enum

    @property
    def is_numeric(self) -> builtins.bool:
        """Whether values are numbers (bools included, as in TensorFlow; not variants)."""
        return self._np.kind in "biufc"

    @property
    def is_numpy_compatible(self) -> builtins.bool:
        """Whether values convert to NumPy arrays (not variants)."""
        return self._np.kind != "O"

    @property
    def is_quantized(self) -> builtins.bool:
        """Quantized types: retrograd has none."""
        return False

    @property
    def limits(self) -> tuple:
        """TensorFlow's intensity limits (of image values) with the negative range clipped:
        ``(0, 1)`` for floats, ``(0, max)`` for integers, ``(0, True)`` for bool."""
        if self._np.kind == "f":
            return 0, 1
        if self._np.kind not in "biu":
            raise ValueError(f"{self} does not have defined limits.")
        return 0, self.max

    def is_compatible_with(self, other: DTypeLike) -> builtins.bool:
        """Whether a value of type ``other`` may stand where this type is expected (the
        same type).

        >>> import retrograd as rg
        >>> rg.float32.is_compatible_with("float32"), rg.float32.is_compatible_with(rg.int32)
        (True, False)
        """
        return self == other

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type (``np.float32``, ...)."""
        return self._np.type

    @property
    def is_floating(self) -> builtins.bool:  # (the module's `bool` is the DType)
        return self._np.kind == "f"

    @property
    def is_complex(self) -> builtins.bool:
        return self._np.kind == "c"

    @property
    def is_integer(self) -> builtins.bool:
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> builtins.bool:
        return self._np.kind == "u"

    @property
    def is_bool(self) -> builtins.bool:
        return self._np.kind == "b"

    @property
    def is_trainable(self) -> builtins.bool:
        """Whether gradients flow through tensors of this type: floating and complex ones,
        and variants (a TensorArray's list, whose gradient is a list)."""
        return self._np.kind in "fcO"

    @property
    def real_dtype(self) -> DType:
        """The real counterpart: complex64 → float32, complex128 → float64, else itself."""
        if self._np.kind == "c":
            return _BY_NP[np.dtype(np.float32 if self._np.itemsize == 8 else np.float64)]
        return self

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self) -> Any:
        return np.finfo(self._np).min if self._np.kind in "fc" else _int_info(self._np).min

    @property
    def max(self) -> Any:
        return np.finfo(self._np).max if self._np.kind in "fc" else _int_info(self._np).max

    def __eq__(self, other: object) -> builtins.bool:
        if isinstance(other, DType):
            return self._np == other._np
        try:
            return self._np == as_dtype(other)._np  # type: ignore[arg-type]
        except TypeError:
            return False

    def __ne__(self, other: object) -> builtins.bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._np)

    def __repr__(self) -> str:
        return f"tf.{self.name}"  # (TensorFlow's repr: programs print it, in TensorSpecs too)

    def __str__(self) -> str:
        return f"<dtype: {self.name!r}>"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return as_dtype, (self.name,)


def _int_info(np_dtype: np.dtype) -> np.iinfo[Any] | type[_BoolInfo]:
    if np_dtype.kind == "b":
        return _BoolInfo
    return np.iinfo(np_dtype)


class _BoolInfo:
    min = False
    max = True


_BY_NP: dict[np.dtype, DType] = {}
_BY_NAME: dict[str, DType] = {}


def _define(np_type: type, name: str, *aliases: str) -> DType:
    dtype = DType(next(k for k, (t, n) in _TYPES.items() if n == name))
    _BY_NP[dtype._np] = dtype
    for key in (name, *aliases):
        _BY_NAME[key] = dtype
    return dtype


float16 = half = _define(np.float16, "float16", "half")
float32 = _define(np.float32, "float32", "float")
float64 = double = _define(np.float64, "float64", "double")
int8 = _define(np.int8, "int8")
int16 = _define(np.int16, "int16")
int32 = _define(np.int32, "int32")
int64 = _define(np.int64, "int64")
uint8 = _define(np.uint8, "uint8")
bool = _define(np.bool_, "bool")  # noqa: A001 - TensorFlow's name
complex64 = _define(np.complex64, "complex64")
complex128 = _define(np.complex128, "complex128")
uint16 = _define(np.uint16, "uint16")
uint32 = _define(np.uint32, "uint32")
uint64 = _define(np.uint64, "uint64")
variant = _define(np.object_, "variant")
# NumPy's object dtype is not a type of values (TensorFlow reads it as its string type, which
# retrograd does not have): only the arrays of variant tensors have it.
del _BY_NP[variant._np]


_PYTHON_DEFAULTS = {float: "float32", int: "int32", builtins.bool: "bool"}


def as_dtype(type_value: DTypeLike) -> DType:
    """Converts a DType, NumPy dtype or type, or name (``"float32"``) to a DType.

    Python's ``float``, ``int`` and ``bool`` mean the types Python numbers become (float32,
    int32, bool), as ``tf.cast(x, float)`` gives float32 in TensorFlow, not NumPy's float64.

    >>> import numpy as np, retrograd as rg
    >>> rg.as_dtype(np.float32) is rg.float32
    True
    >>> rg.as_dtype(float).name, rg.as_dtype(int).name, rg.as_dtype(bool).name
    ('float32', 'int32', 'bool')
    """
    value = type_value
    if isinstance(value, DType):
        return value
    if value is float or value is int or value is builtins.bool:
        return _BY_NAME[_PYTHON_DEFAULTS[value]]
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    found = None
    if value is not None:  # (NumPy reads None as float64; TensorFlow refuses it)
        try:
            found = _BY_NP.get(np.dtype(value))
        except (TypeError, ValueError):
            found = None
    if found is None:
        raise TypeError(
            f"Cannot convert {value!r} to a retrograd DType; expected one of "
            f"{sorted(d.name for d in _BY_NP.values())}"
        )
    return found


def from_numpy(np_dtype: np.dtype) -> DType:
    """The DType for a NumPy dtype object (fast path used by tensors)."""
    found = _BY_NP.get(np_dtype)
    if found is None:
        if np_dtype == variant._np:
            return variant
        raise TypeError(f"NumPy dtype {np_dtype} has no retrograd DType")
    return found
