"""What a traced function's graph does with values from outside: eager tensors it uses
become inputs (placeholders fed at every call, so tapes can differentiate with respect to
them), NumPy arrays converted while tracing become inputs fed the array itself (read when
the function runs), Python values become constants. A graph nested in the function's (a
branch, a loop body) takes them through the function's graph.

>>> import retrograd as rg
>>> w = rg.constant([1.0, 2.0])
>>> @rg.function
... def f(x):
...     return rg.reduce_sum(w * x) + 1.0
>>> concrete = f.get_concrete_function(rg.TensorSpec([2]))
>>> [c is w for c in concrete.captured_inputs]
[True]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import backends
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor

__all__ = ["function_graph", "eager_input", "literal"]


def function_graph(graph: Any) -> Any:
    """The function graph ``graph`` is or is nested in, while it is traced; else None."""
    while graph is not None and not graph.captures_as_inputs:
        graph = graph.outer
    return graph


def eager_input(graph: Any, value: Tensor) -> Any:
    """What stands for eager tensor ``value`` in ``graph``: an input of the function being
    traced, or (outside functions) a constant."""
    owner = function_graph(graph)
    if owner is None:
        return graph.capture(value)
    internal = _captured_input(owner, value)
    return internal if owner is graph else graph._capture_external(internal)


def _captured_input(graph: Any, value: Tensor) -> Any:
    from retrograd.graph.graph import _Placeholder

    found = graph._captures.get(id(value))
    if found is not None:
        return found[1]
    attrs = {"dtype": value.dtype, "shape": TensorShape(value._value.shape), "value": value._value}
    with graph.as_default():
        internal = graph.create_op(_Placeholder, (), attrs, "captured")
    graph._captures[id(value)] = (value, internal)  # keeps `value` alive: its id stays its own
    graph.eager_captures.append((value, internal))
    return internal


def literal(graph: Any, value: Tensor, live: Any = None) -> Any:
    """A value converted while a function is traced: a constant of ``graph``, or, for a
    NumPy array (``live``), an input of the function fed that array at every call."""
    if live is None:
        return graph.capture(value)
    found = graph._captures.get(id(live))
    if found is None:
        # The array itself, read when the function runs; inside `tf.device`, a copy placed
        # on that device (later changes to the host array are not seen there).
        fed = Tensor(backends.place(live))
        found = graph._captures[id(live)] = (live, eager_input(graph, fed))
    return found[1]
