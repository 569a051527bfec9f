"""Dimension: one dimension of a TensorShape as TensorFlow 1 hands it out, known or not.

Under TensorFlow 1 behaviour (``compat.v1.disable_v2_behavior()`` or
``disable_v2_tensorshape()``, and ``retrograd run --tf1``) ``shape[i]`` of a user's shape is a
Dimension: ``.value`` is the int or None, comparisons with an unknown dimension answer None
(unknown) and arithmetic with one gives an unknown dimension. Shape arguments accept
Dimensions wherever they accept ints.

>>> from retrograd.core.dimensions import Dimension
>>> d = Dimension(4)
>>> d.value, d * 2, d + None, d == 4, Dimension(None) == None, str(Dimension(None))
(4, Dimension(8), Dimension(None), True, None, '?')
"""

from __future__ import annotations

from typing import Any

__all__ = ["Dimension", "as_dimension", "dimension_value", "known_dimension"]


def known_dimension(value: Any) -> int:
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


class Dimension:
    """One dimension of a shape: ``value`` is an int >= 0, or None when not known.

    Comparing with an unknown dimension gives None (not known); arithmetic with one gives
    ``Dimension(None)``; ``int(d)`` and indexing with ``d`` need a known value.

    >>> from retrograd.core.dimensions import Dimension
    >>> Dimension(6) // 4, 7 % Dimension(4), Dimension(3) < Dimension(None), int(Dimension(5))
    (Dimension(1), Dimension(3), None, 5)
    """

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        if isinstance(value, Dimension):
            value = value._value
        self._value: int | None = None if value is None else known_dimension(value)

    @property
    def value(self) -> int | None:
        """The dimension as an int, or None when it is not known."""
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __int__(self) -> int:
        return self._value  # type: ignore[return-value]  # (None: Python's TypeError, as TF)

    __index__ = __int__

    def __float__(self) -> float:
        return float(self._value)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return bool(self._value)

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as TensorFlow's)

    def __eq__(self, other: Any) -> Any:
        other = _other(other)
        if other is NotImplemented:
            return other
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other: Any) -> Any:
        equal = self.__eq__(other)
        return equal if equal is None or equal is NotImplemented else not equal

    def _compare(self, other: Any, test: Any) -> Any:
        other = _other(other)
        if other is NotImplemented:
            return other
        if self._value is None or other._value is None:
            return None
        return test(self._value, other._value)

    def __lt__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a >= b)

    def _arithmetic(self, other: Any, combine: Any, reverse: bool = False) -> Any:
        other = _other(other)
        if other is NotImplemented:
            return other
        if self._value is None or other._value is None:
            return Dimension(None)
        a, b = (other._value, self._value) if reverse else (self._value, other._value)
        return Dimension(combine(a, b))

    def __add__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a + b)

    def __radd__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a + b, reverse=True)

    def __sub__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a - b)

    def __rsub__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a - b, reverse=True)

    def __mul__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a * b)

    def __rmul__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a * b, reverse=True)

    def __floordiv__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a // b)

    def __rfloordiv__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a // b, reverse=True)

    def __mod__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a % b)

    def __rmod__(self, other: Any) -> Any:
        return self._arithmetic(other, lambda a, b: a % b, reverse=True)

    def __truediv__(self, other: Any) -> Any:
        raise TypeError(
            f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', "
            f"please use // instead"
        )

    def __rtruediv__(self, other: Any) -> Any:
        raise TypeError(
            f"unsupported operand type(s) for /: '{type(other).__name__}' and 'Dimension', "
            f"please use // instead"
        )

    def is_compatible_with(self, other: Any) -> bool:
        """True when the two could be the same dimension (either unknown, or equal)."""
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other: Any) -> None:
        """ValueError unless :meth:`is_compatible_with`."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other: Any) -> Dimension:
        """The dimension both describe (the known one); ValueError when they differ."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    def _as_tensor(self) -> int:
        """``convert_to_tensor(d)``: the known value (an int32 scalar)."""
        if self._value is None:
            raise ValueError("Cannot convert an unknown Dimension to a Tensor: ?")
        return self._value


def _other(value: Any) -> Any:
    """``value`` as a Dimension for an operator, or NotImplemented for a foreign type."""
    try:
        return as_dimension(value)
    except (TypeError, ValueError):
        return NotImplemented


def as_dimension(value: Any) -> Dimension:
    """``value`` (an int, None or a Dimension) as a Dimension.

    >>> from retrograd.core.dimensions import as_dimension
    >>> as_dimension(3), as_dimension(None)
    (Dimension(3), Dimension(None))
    """
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension: Any) -> int | None:
    """The int (or None) of a dimension, whether it is a Dimension or already an int.

    >>> from retrograd.core.dimensions import Dimension, dimension_value
    >>> dimension_value(Dimension(3)), dimension_value(3), dimension_value(Dimension(None))
    (3, 3, None)
    """
    return dimension._value if isinstance(dimension, Dimension) else dimension
