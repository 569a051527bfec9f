"""The JSON form of a case's result, shared by make_goldens.py (run on TensorFlow) and the
tests (run on retrograd): tensors and arrays keep their dtype, shape and values (NaN, inf
and complex numbers spelled out), Python values stay themselves, containers nest, and any
other object is kept as its type name and ``str``. No TensorFlow or retrograd import."""

from __future__ import annotations

import math

import numpy as np


def _number(v):
    if isinstance(v, complex):
        return {"re": _number(v.real), "im": _number(v.imag)}
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def _array(a: np.ndarray) -> dict:
    if a.dtype.kind in "SO":
        values = (
            np.vectorize(lambda b: b.decode("latin-1") if isinstance(b, bytes) else str(b))(
                a
            ).tolist()
            if a.size
            else a.tolist()
        )
        kind = "string"
    else:
        values = a.tolist()
        kind = a.dtype.name
    walk = lambda v: [walk(x) for x in v] if isinstance(v, list) else _number(v)  # noqa: E731
    return {"array": walk(values), "dtype": kind, "shape": list(a.shape)}


def encode(value):
    """``value`` as JSON data (see the module's docstring)."""
    if isinstance(value, np.ndarray | np.generic):
        return _array(np.asarray(value))
    if hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape"):
        return _array(np.asarray(value.numpy()))
    if value is None or isinstance(value, bool | int | str):
        return {"py": value}
    if isinstance(value, float | complex):
        return {"py": _number(value)}
    if isinstance(value, bytes):
        return {"py": value.decode("latin-1")}
    if isinstance(value, list | tuple):
        return {type(value).__name__ if type(value) in (list, tuple) else "tuple": [
            encode(v) for v in value
        ]}  # fmt: skip
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v) for k, v in value.items()}}
    kind = type(value).__name__
    if kind == "TensorShape":
        return {"shape": None if value.rank is None else list(value.as_list())}
    if kind == "DType":
        return {"dtype_obj": value.name}
    return {"object": kind, "str": str(value)}
