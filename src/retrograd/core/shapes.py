"""TensorShape: a tuple of dimensions, where ``None`` marks a dimension not yet known.

>>> import retrograd as rg
>>> s = rg.constant([[1.0, 2.0, 3.0]]).shape
>>> s, s.rank, s.as_list(), s == (1, 3)
(TensorShape([1, 3]), 2, [1, 3], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from retrograd.core.errors import InvalidArgumentError


def _dimension(value: Any) -> int:
    """One known dimension: an integer >= 0 (TensorFlow's rule and messages)."""
    if isinstance(value, (bool, float, str, bytes)) or not hasattr(value, "__index__"):
        raise TypeError(
            f"Dimension value must be integer or None or have an __index__ method, got value "
            f"{value!r} with type {type(value)!r}"
        )
    d = int(value.__index__())
    if d < 0:
        raise ValueError(f"Dimension {d} must be >= 0")
    return d


class TensorShape(tuple):
    """The shape of a tensor; compares equal to tuples and lists of the same dimensions.

    >>> import retrograd as rg
    >>> s = rg.TensorShape([2, None])
    >>> s.rank, s.as_list(), s == [2, None], s.is_fully_defined()
    (2, [2, None], True, False)
    """

    __slots__ = ()

    def __new__(cls, dims: Iterable[int | None] | None = ()) -> TensorShape:
        if dims is None:
            return _UNKNOWN_RANK
        if isinstance(dims, TensorShape):
            return dims
        return tuple.__new__(cls, (None if d is None else _dimension(d) for d in dims))

    @property
    def rank(self) -> int | None:
        """The number of dimensions (None when even that is unknown)."""
        return len(self)

    ndims = rank

    @property
    def dims(self) -> list[int | None]:
        return list(self)

    def as_list(self) -> list[int | None]:
        """The dimensions as a list."""
        return list(self)

    def num_elements(self) -> int | None:
        """The number of elements, or None when a dimension is unknown."""
        total = 1
        for d in self:
            if d is None:
                return None
            total *= d
        return total

    def is_fully_defined(self) -> bool:
        return None not in self

    def is_compatible_with(self, other: Iterable[int | None]) -> bool:
        """True when the shapes could be equal once unknown dimensions are known."""
        other = tuple(other)
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other)
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            other = tuple(other)
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return TensorShape(item) if isinstance(key, slice) else item

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"

    def __str__(self) -> str:
        return (
            "("
            + ", ".join("None" if d is None else str(d) for d in self)
            + (",)" if len(self) == 1 else ")")
        )


class _UnknownRankShape(TensorShape):
    """The shape of a graph tensor whose number of dimensions is not known."""

    __slots__ = ()

    @property
    def rank(self) -> None:
        return None

    ndims = rank

    def as_list(self):
        raise ValueError("as_list() is not defined on a TensorShape of unknown rank.")

    def num_elements(self) -> None:
        return None

    def is_fully_defined(self) -> bool:
        return False

    def is_compatible_with(self, other) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return other is self

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return "TensorShape(None)"

    def __str__(self) -> str:
        return "<unknown>"


_UNKNOWN_RANK = tuple.__new__(_UnknownRankShape, ())


def broadcast_dims(shapes: list, op_type: str) -> tuple | None:
    """NumPy's broadcast of shapes that may hold unknown (None) dimensions or ranks."""
    if any(s is None for s in shapes):
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-rank, 0):
        dims = [s[i] for s in shapes if len(s) >= -i]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise InvalidArgumentError(f"{op_type}: shapes {shapes} are not broadcastable")
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)
