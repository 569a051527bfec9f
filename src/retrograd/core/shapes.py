"""TensorShape: a tuple of dimensions, where ``None`` marks a dimension not yet known.

A shape's dimensions are ints and None. Under TensorFlow 1 behaviour
(``disable_v2_tensorshape``, which ``compat.v1.disable_v2_behavior`` and ``retrograd run
--tf1`` call) every shape made is a :class:`V1TensorShape`, whose items are
:class:`~retrograd.core.dimensions.Dimension` objects (``x.get_shape()[1].value``), as in
TensorFlow 1 -- for every caller, the library's own code too, which therefore reads
dimensions through ``dimension_value``, ``as_list()``, ``plain_dims`` or a tensor's raw
tuple (``t._value.shape``), all ints and None in either behaviour.

>>> import retrograd as rg
>>> s = rg.constant([[1.0, 2.0, 3.0]]).shape
>>> s, s.rank, s.as_list(), s == (1, 3)
(TensorShape([1, 3]), 2, [1, 3], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NoReturn

from retrograd.core.dimensions import Dimension, known_dimension
from retrograd.core.errors import InvalidArgumentError

__all__ = [
    "TensorShape",
    "V1TensorShape",
    "broadcast_dims",
    "dimension_at_index",
    "disable_v2_tensorshape",
    "enable_v2_tensorshape",
    "plain_dims",
    "public_shape",
    "shape_text",
    "tensorshape_behaviour",
]


class _TensorShapeBehaviour:
    """Process-wide, as TensorFlow's ``_TENSORSHAPE_V2_OVERRIDE``: ``v1`` True while shapes
    given to user code index to Dimensions (``disable_v2_tensorshape``), False (TF2's
    default) while they index to ints and None."""

    v1 = False


tensorshape_behaviour = _TensorShapeBehaviour()


def _dimension(value: Any) -> int | None:
    """One dimension of a new shape: None, an int >= 0, or a Dimension (its value)."""
    if value is None:
        return None
    if isinstance(value, Dimension):
        return value.value
    return known_dimension(value)


def disable_v2_tensorshape() -> None:
    """From now on, shapes behave as TensorFlow 1's: ``shape[i]`` is a Dimension
    (``.value``), and unknown dimensions print as ``?``.

    >>> import retrograd as rg
    >>> rg.compat.v1.disable_v2_tensorshape()
    >>> s = rg.TensorShape([None, 4])
    >>> s[1].value, str(s)
    (4, '(?, 4)')
    >>> rg.compat.v1.enable_v2_tensorshape()
    >>> rg.TensorShape([None, 4])[1]
    4
    """
    tensorshape_behaviour.v1 = True


def enable_v2_tensorshape() -> None:
    """From now on, ``shape[i]`` is an int or None (TensorFlow 2's behaviour, the default).

    >>> import retrograd as rg
    >>> rg.compat.v1.enable_v2_tensorshape()
    >>> rg.TensorShape([None, 4])[0] is None
    True
    """
    tensorshape_behaviour.v1 = False


def public_shape(dims: Any) -> TensorShape:
    """The shape of a tensor as ``x.shape`` gives it: ``TensorShape(dims)``, a
    :class:`V1TensorShape` (Dimensions) under TensorFlow 1 behaviour, else ints and None.

    >>> from retrograd.core.shapes import public_shape
    >>> public_shape((None, 4)).as_list()
    [None, 4]
    """
    return TensorShape(dims)


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
        v1 = tensorshape_behaviour.v1
        if type(dims) is (V1TensorShape if v1 else TensorShape) or dims is _UNKNOWN_RANK:
            return dims
        if isinstance(dims, TensorShape):
            return tuple.__new__(V1TensorShape if v1 else TensorShape, tuple.__iter__(dims))
        items: Iterable[Any] = dims
        if not hasattr(dims, "__iter__"):  # one dimension, as TensorFlow: TensorShape(2) is [2]
            items = [dims]
        return tuple.__new__(V1TensorShape if v1 else TensorShape, map(_dimension, items))

    @property
    def rank(self) -> int | None:
        """The number of dimensions (None when even that is unknown)."""
        return len(self)

    ndims = rank

    @property
    def dims(self) -> list[Dimension] | None:
        """The dimensions as Dimension objects (TensorFlow's ``dims``; None for an unknown rank)."""
        return [Dimension(d) for d in tuple.__iter__(self)]

    def as_list(self) -> list[int | None]:
        """The dimensions as a list of ints and None (also under TensorFlow 1 behaviour)."""
        return list(tuple.__iter__(self))

    def num_elements(self) -> int | None:
        """The number of elements, or None when a dimension is unknown."""
        total = 1
        for d in tuple.__iter__(self):
            if d is None:
                return None
            total *= d
        return total

    def is_fully_defined(self) -> bool:
        return None not in self

    def is_compatible_with(self, other: Iterable[int | None]) -> bool:
        """True when the shapes could be equal once unknown dimensions are known."""
        other = TensorShape(other)
        if other.rank is None:
            return True
        return len(self) == len(other) and all(
            a is None or b is None or a == b
            for a, b in zip(tuple.__iter__(self), tuple.__iter__(other))
        )

    # -- combining and checking (TensorFlow's TensorShape methods) -------------------------
    def _like(self, dims: Iterable[int | None]) -> TensorShape:
        """A shape of ``dims`` of this shape's kind (a TensorFlow 1 view stays one)."""
        kind = V1TensorShape if type(self) is V1TensorShape else TensorShape
        return tuple.__new__(kind, map(_dimension, dims))

    def merge_with(self, other: Any) -> TensorShape:
        """The shape both describe, taking known dimensions from either; ValueError when
        they differ."""
        other = TensorShape(other)
        if other.rank is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {self._like(other)} are not compatible")
        pairs = zip(tuple.__iter__(self), tuple.__iter__(other))
        return self._like(b if a is None else a for a, b in pairs)

    def concatenate(self, other: Any) -> TensorShape:
        """This shape's dimensions followed by ``other``'s."""
        other = TensorShape(other)
        if other.rank is None:
            return _UNKNOWN_RANK
        return self._like((*tuple.__iter__(self), *tuple.__iter__(other)))

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        """The dimensions both shapes agree on, unknown where they differ."""
        other = TensorShape(other)
        if other.rank is None or len(other) != len(self):
            return _UNKNOWN_RANK
        pairs = zip(tuple.__iter__(self), tuple.__iter__(other))
        return self._like(a if a == b else None for a, b in pairs)

    def with_rank(self, rank: int) -> TensorShape:
        """This shape; ValueError unless it has ``rank`` dimensions."""
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank: int) -> TensorShape:
        if len(self) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        if len(self) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        if len(self) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list) or type(other) is V1TensorShape:
            try:
                other = tuple(map(_dimension, other))
            except (TypeError, ValueError):
                return False
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __getitem__(self, key: Any) -> Any:
        item = tuple.__getitem__(self, key)
        return TensorShape(item) if isinstance(key, slice) else item

    def __repr__(self) -> str:
        return f"TensorShape({self.as_list()})"

    def __str__(self) -> str:
        return _shape_text(self, "None")


def _shape_text(shape: TensorShape, unknown: str) -> str:
    dims = [unknown if d is None else str(d) for d in tuple.__iter__(shape)]
    return "(" + ", ".join(dims) + (",)" if len(dims) == 1 else ")")


class V1TensorShape(TensorShape):
    """A shape as TensorFlow 1 hands it to user code: indexing and iterating give
    :class:`~retrograd.core.dimensions.Dimension` objects, ``as_list()`` gives ints, and it
    prints as ``(?, 4)``.

    >>> from retrograd.core.shapes import V1TensorShape
    >>> s = V1TensorShape((None, 4))
    >>> s[1].value, s[0].value, s, s.as_list(), s[1:]
    (4, None, TensorShape([Dimension(None), Dimension(4)]), [None, 4], TensorShape([Dimension(4)]))
    """

    __slots__ = ()

    # (mypy wants a V1TensorShape; None gives the one unknown-rank shape, as in TensorFlow)
    def __new__(cls, dims: Iterable[int | None] | None = ()) -> TensorShape:  # type: ignore[misc]
        if dims is None:
            return _UNKNOWN_RANK
        return tuple.__new__(cls, map(_dimension, dims))

    def __getitem__(self, key: Any) -> Any:
        item = tuple.__getitem__(self, key)
        if isinstance(key, slice):
            return tuple.__new__(V1TensorShape, item)
        return Dimension(item)

    def __iter__(self) -> Iterator[Dimension]:
        return (Dimension(d) for d in tuple.__iter__(self))

    def __add__(self, other: Any) -> TensorShape:  # (TensorFlow's: a longer shape)
        return self.concatenate(other)

    def __radd__(self, other: Any) -> TensorShape:
        return self._like(TensorShape(other)).concatenate(self)

    def __repr__(self) -> str:
        return f"TensorShape({self.dims})"

    def __str__(self) -> str:
        return _shape_text(self, "?")


class _UnknownRankShape(TensorShape):
    """The shape of a graph tensor whose number of dimensions is not known."""

    __slots__ = ()

    @property
    def rank(self) -> None:
        return None

    ndims = rank

    def as_list(self) -> NoReturn:
        raise ValueError("as_list() is not defined on a TensorShape of unknown rank.")

    def num_elements(self) -> None:
        return None

    @property
    def dims(self) -> None:
        return None

    def is_fully_defined(self) -> bool:
        return False

    def is_compatible_with(self, other: Any) -> bool:
        return True

    def merge_with(self, other: Any) -> TensorShape:
        return TensorShape(other) if other is not None else self

    def concatenate(self, other: Any) -> TensorShape:
        return self

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        return self

    def with_rank(self, rank: int) -> TensorShape:
        return TensorShape((None,) * rank)

    def with_rank_at_least(self, rank: int) -> TensorShape:
        return self

    with_rank_at_most = with_rank_at_least

    def assert_has_rank(self, rank: int) -> None:
        return None

    def assert_is_compatible_with(self, other: Any) -> None:
        return None

    def assert_is_fully_defined(self) -> None:
        raise ValueError("Shape <unknown> is not fully defined")

    def __eq__(self, other: object) -> bool:
        return other is self

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return "TensorShape(None)"

    def __str__(self) -> str:
        return "<unknown>"


_UNKNOWN_RANK = tuple.__new__(_UnknownRankShape, ())


def dimension_at_index(shape: Any, index: int) -> Dimension:
    """Dimension ``index`` of ``shape`` as a Dimension (unknown when the rank is unknown).

    >>> import retrograd as rg
    >>> rg.compat.v1.dimension_at_index(rg.TensorShape([None, 3]), 1)
    Dimension(3)
    """
    shape = TensorShape(shape)
    if shape.rank is None:
        return Dimension(None)
    return Dimension(tuple.__getitem__(shape, index))


def shape_text(dims: Any) -> str:
    """How a tensor's repr shows its shape: ``(None, 4)``, or TensorFlow 1's ``(?, 4)`` under
    TensorFlow 1 behaviour."""
    shape = TensorShape(dims)
    if tensorshape_behaviour.v1 and shape.rank is not None:
        return _shape_text(shape, "?")
    return str(shape)


def plain_dims(shape: Any) -> tuple:
    """The dimensions of a shape (a TensorShape, tuple or list, Dimensions allowed) as a
    tuple of ints and None in either behaviour, as library code reads them (under TensorFlow
    1 behaviour a shape's items are Dimensions); ``()`` for an unknown rank, as ``tuple()``.

    >>> plain_dims(V1TensorShape((None, 4))), plain_dims([2, Dimension(3)])
    ((None, 4), (2, 3))
    """
    if isinstance(shape, TensorShape):
        return tuple(tuple.__iter__(shape))
    return tuple(map(_dimension, shape))


def broadcast_dims(shapes: list, op_type: str) -> tuple | None:
    """NumPy's broadcast of shapes that may hold unknown (None) dimensions or ranks (shapes
    or tuples; a TensorFlow 1 shape's Dimensions are read as ints and None)."""
    if any(s is None for s in shapes):
        return None
    shapes = [tuple(tuple.__iter__(s)) if isinstance(s, TensorShape) else s for s in shapes]
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
