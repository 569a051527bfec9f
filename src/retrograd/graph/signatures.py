"""What selects a trace of a ``function``: ``TensorSpec`` (a dtype and a shape that may hold
None), the key of a call's arguments, and the relaxation ``reduce_retracing`` applies.

>>> import retrograd as rg
>>> spec = TensorSpec([None, 3])
>>> spec.is_compatible_with(rg.zeros([5, 3])), spec.is_compatible_with(rg.zeros([5, 4]))
(True, False)
>>> relaxed([TensorSpec([2, 3]), None], [TensorSpec([4, 3]), None])
[TensorSpec(shape=(None, 3), dtype=retrograd.float32, name=None), None]
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike
from retrograd.core.shapes import TensorShape, plain_dims
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = ["TensorSpec", "leaf_key", "tensor_types", "as_tensor", "relaxed"]


class TensorSpec:
    """The dtype and shape (None for an unknown dimension) a traced function accepts.

    >>> import retrograd as rg
    >>> spec = rg.TensorSpec([None, 3], rg.float32)
    >>> spec.shape.as_list(), spec.dtype.name
    ([None, 3], 'float32')
    >>> spec.is_compatible_with(rg.zeros([5, 3]))
    True
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(
        self, shape: ShapeLike | None, dtype: DTypeLike = dtypes.float32, name: str | None = None
    ) -> None:
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value: Any) -> bool:
        return value.dtype == self.dtype and self.shape.is_compatible_with(value.shape)

    def _key(self) -> tuple:
        return (self.dtype.name, None if self.shape.rank is None else plain_dims(self.shape))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shape = None if self.shape.rank is None else plain_dims(self.shape)
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


def tensor_types(args: tuple) -> tuple | None:
    """(dtype, shape) of each argument when all are tensors; else None."""
    key = []
    for a in args:
        if type(a) is not Tensor:
            return None
        value = a._value
        key.append((value.dtype, value.shape))
    return tuple(key)


def as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(np.array(value))


def leaf_key(leaf: Any, spec: TensorSpec | None) -> Hashable:
    """What of one argument selects the trace: a tensor's spec, a variable's identity, a
    Python value's value (or identity, when it cannot be hashed)."""
    if spec is not None:
        return ("tensor", spec._key())
    if isinstance(leaf, Variable):
        return ("variable", id(leaf))
    try:
        hash(leaf)
    except TypeError:
        return ("object", id(leaf))
    return ("python", type(leaf).__name__, leaf)


def relaxed(old: list, new: list) -> list | None:
    """The specs that cover both ``old`` and ``new`` calls (dimensions that differ become
    None), or None when they differ in more than dimensions (ranks, dtypes)."""
    if len(old) != len(new):
        return None
    out = []
    for a, b in zip(old, new):
        if (a is None) != (b is None):
            return None
        if a is None:
            out.append(None)
            continue
        if a.dtype != b.dtype:
            return None
        if a.shape.rank is None or b.shape.rank is None or a.shape.rank != b.shape.rank:
            return None  # ranks differ: traced apart (ops here need to know ranks)
        else:
            dims = [x if x == y else None for x, y in zip(plain_dims(a.shape), plain_dims(b.shape))]
            out.append(TensorSpec(dims, a.dtype, a.name))
    return out
