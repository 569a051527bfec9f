"""What ``function(f)`` is to type checkers (``TracedFunction``): the typing of
:func:`retrograd.function`'s result, kept apart from the tracing machinery.

>>> import retrograd as rg
>>> @rg.function
... def square(x):
...     return x * x
>>> square(rg.constant(3.0)).numpy()
np.float32(9.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from retrograd.graph.concrete_function import ConcreteFunction

__all__ = ["TracedFunction"]

_P = ParamSpec("_P")
_Q = ParamSpec("_Q")
_R = TypeVar("_R", covariant=True)
_S = TypeVar("_S")


class TracedFunction(Protocol[_P, _R]):
    """What ``function(f)`` is to type checkers: callable as ``f`` (bound as a method where
    ``f`` is one), with the methods of :class:`Function`."""

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction: ...
    def experimental_get_tracing_count(self) -> int: ...
    @property
    def python_function(self) -> Callable[_P, _R]: ...
    @property
    def name(self) -> str: ...
    @property
    def input_signature(self) -> list[Any] | None: ...
    @overload
    def __get__(self, instance: None, owner: Any = None) -> TracedFunction[_P, _R]: ...
    @overload
    def __get__(
        self: TracedFunction[Concatenate[Any, _Q], _S], instance: object, owner: Any = None
    ) -> TracedFunction[_Q, _S]: ...
