"""Keras 3's dtype rules: names (``standardize_dtype``) and the promotion of mixed inputs
(``result_type``), as ``keras.ops`` applies them before calling an op.

Promotion follows a lattice in which Python numbers are *weak* (``int``, ``float``): they
take the other operand's dtype when it can hold them. Keras' TensorFlow backend keeps 64-bit
results (``int64`` stays ``int64``), and a weak result becomes a type of ``floatx``'s width.

>>> from retrograd.keras.src.dtype_rules import result_type
>>> result_type("int32", float), result_type("uint8", "int8"), result_type("float16", float)
('float32', 'int16', 'float16')
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.keras.src import backend

__all__ = [
    "ALLOWED",
    "standardize_dtype",
    "result_type",
    "is_float_dtype",
    "is_int_dtype",
    "dtype_of",
]

ALLOWED = (
    "float16",
    "float32",
    "float64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "bool",
    "string",
    "complex64",
    "complex128",
)
_PYTHON = {bool: "bool", int: "int64", float: "float32", str: "string", complex: "complex128"}

# Each type and the types directly above it ("int" and "float" are the weak Python types).
_ABOVE = {
    "bool": ("int",),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("float",),
    "int": ("uint8", "int8", "complex64"),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("float",),
    "float": ("bfloat16", "float16"),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "complex64": ("complex128",),
    "complex128": (),
}


def _upper_sets() -> dict[str, frozenset[str]]:
    """Every type with the set of types at or above it (the lattice's transitive closure)."""
    found = {}
    for start in _ABOVE:
        seen, stack = {start}, [start]
        while stack:
            for higher in _ABOVE[stack.pop()]:
                if higher not in seen:
                    seen.add(higher)
                    stack.append(higher)
        found[start] = frozenset(seen)
    return found


_UPPER = _upper_sets()


def standardize_dtype(dtype: Any) -> str:
    """A dtype's Keras name ('float32', 'int64', ...); None is ``floatx()``.

    >>> from retrograd.keras.src.dtype_rules import standardize_dtype
    >>> import numpy as np
    >>> standardize_dtype(np.float64), standardize_dtype(int), standardize_dtype(None)
    ('float64', 'int64', 'float32')
    """
    if dtype is None:
        return backend.floatx()
    if isinstance(dtype, type) and dtype in _PYTHON:
        name = _PYTHON[dtype]
    elif dtype == "int":
        name = "int64"
    elif isinstance(dtype, (dtypes.DType, np.dtype)):
        name = dtype.name
    elif isinstance(dtype, type) and issubclass(dtype, np.generic):
        name = np.dtype(dtype).name
    elif isinstance(dtype, str):
        name = dtype
    else:
        name = getattr(dtype, "name", None)
    if name not in ALLOWED:
        raise ValueError(f"Invalid dtype: {dtype}")
    return name


def _weak_form(name: str) -> str:
    if name == "bool":
        return name
    for kind in ("float", "int", "complex"):
        if kind in name:
            return kind
    raise ValueError(f"Invalid value for argument `dtype`. Received: dtype={name}")


@functools.lru_cache(maxsize=512)
def _least_upper_bound(*names: str) -> str:
    try:
        common = frozenset.intersection(*(_UPPER[n] for n in names))
    except KeyError:
        bad = next(n for n in names if n not in _UPPER)
        raise ValueError(f"dtype={bad!r} is not a valid dtype for Keras type promotion.") from None
    least = (common & set(names)) or {c for c in common if common <= _UPPER[c]}
    if len(least) != 1:
        raise ValueError(
            f"Input dtypes {names} have no available implicit dtype promotion path. Try "
            "explicitly casting inputs to the desired output type."
        )
    return next(iter(least))


def _resolve_weak(name: str) -> str:
    width = backend.floatx()[-2:]
    if name == "bool":
        return name
    kind = "f" if name == "bfloat16" else name[0]
    return {"i": f"int{width}", "u": f"uint{width}"}.get(kind, f"float{width}")


def result_type(*dtypes_: Any) -> str:
    """The dtype Keras computes mixed inputs in: Python ``int``/``float`` are weak types.

    >>> from retrograd.keras.src.dtype_rules import result_type
    >>> result_type("int32", "float32"), result_type(int, float), result_type("int64", int)
    ('float32', 'float32', 'int64')
    """
    if not dtypes_:
        return backend.floatx()
    names = [standardize_dtype(backend.floatx() if d is None else d) for d in dtypes_]
    weak = [d is int or d is float for d in dtypes_]
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(*sorted(set(names))), True
    else:
        marked = {_weak_form(n) if w else n for n, w in zip(names, weak)}
        out = _least_upper_bound(*sorted(marked))
        out_weak = out in ("int", "float")
    if out != "bool" and out_weak:
        out = _resolve_weak(out)
    return out


def is_float_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a floating-point type.

    >>> from retrograd.keras.src.dtype_rules import is_float_dtype
    >>> is_float_dtype("float16"), is_float_dtype("int32")
    (True, False)
    """
    name = standardize_dtype(dtype)
    return name.startswith("float") or name.startswith("bfloat")


def is_int_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a (signed or unsigned) integer type.

    >>> from retrograd.keras.src.dtype_rules import is_int_dtype
    >>> is_int_dtype("uint8"), is_int_dtype("float32")
    (True, False)
    """
    name = standardize_dtype(dtype)
    return name.startswith("int") or name.startswith("uint")


def dtype_of(value: Any) -> Any:
    """What ``result_type`` takes for ``value``: its dtype, or the Python type of a number
    (a weak type).

    >>> from retrograd.keras.src.dtype_rules import dtype_of
    >>> dtype_of(1.5), dtype_of(True)
    (<class 'float'>, <class 'bool'>)
    """
    if isinstance(value, bool):
        return bool
    if isinstance(value, (int, float)) and not isinstance(value, np.generic):
        return type(value)
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return dtype
    return np.asarray(value).dtype
