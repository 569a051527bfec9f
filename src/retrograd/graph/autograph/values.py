"""The values converted code handles: ``Undefined`` (a variable a branch did not assign),
and the tests for graph tensors and Python numbers.

>>> ld(lambda: undefined_name, "undefined_name")
<Undefined 'undefined_name'>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.tensor import Tensor
from retrograd.graph.graph import SymbolicTensor

__all__ = ["ReturnProbe", "Undefined", "ld", "is_symbolic", "python_scalar", "bool_tensor", "shown"]


class Undefined:
    """The value of a variable that a converted branch or loop did not assign: using it is
    an error naming the variable."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _fail(self, *_: Any, **__: Any) -> Any:
        raise NameError(
            f"'{self.name}' is used before it is assigned (AutoGraph: it was assigned only in "
            f"some branches of a converted statement)"
        )

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self._fail()

    __bool__ = __call__ = __iter__ = __len__ = __index__ = __float__ = __int__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __neg__ = __getitem__ = __lt__ = __gt__ = _fail
    __le__ = __ge__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = _fail

    def __repr__(self) -> str:
        return f"<Undefined '{self.name}'>"


class ReturnProbe:
    """The return value of a function while a graph loop that may return is tried once to
    find the dtype and shape of what it returns (the loop needs a value of them before it
    starts)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<return value not known yet>"


def ld(read: Callable[[], Any], name: str) -> Any:
    """The value of a variable, or ``Undefined(name)`` when it has none yet."""
    try:
        return read()
    except NameError:  # UnboundLocalError, or a free variable not bound yet
        return Undefined(name)


def is_symbolic(value: Any) -> bool:
    """Whether ``value`` is a graph tensor (its truth is known only when the graph runs)."""
    return isinstance(value, SymbolicTensor)


def python_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, complex, np.generic, np.ndarray))


def shown(name: str) -> str:
    return "return value" if name.startswith("ag__ret") else name


def bool_tensor(test: Any, construct: str, line: int) -> Tensor:
    if test.dtype.name != "bool" or test._value.shape not in ((), None):
        raise TypeError(
            f"The condition of the {construct} at line {line} must be a scalar bool tensor, "
            f"got {test.dtype.name}{test.shape}"
        )
    return test
