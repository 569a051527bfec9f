"""Graph simplifications applied when a plan is compiled.

``common_subexpressions`` finds ops that compute what an earlier op computes (the same op
type and attributes on the same inputs; small constants of equal value): gradient graphs
repeat such work, e.g. ``1 - y * y`` for both the first and the second derivative of tanh.
A plan computes each once. A product with a tensor of ones known while the graph is built
(``OnesLike``, a constant of ones, or their broadcast) whose other operand already has the
product's shape and dtype is that operand: no pass is made (``1 * x`` is ``x`` exactly in
IEEE arithmetic), as compilers simplify ``x * 1``.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [3])
...     a, b = rg.exp(x), rg.exp(x)
>>> same = common_subexpressions(g.get_operations())
>>> same[id(b)] is a
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.graph.graph import GraphOperation, SymbolicTensor

__all__ = ["common_subexpressions"]

# Attribute values that compare by value (functions, arrays and variables do not qualify).
_PLAIN = (bool, int, float, str, type(None), np.dtype)


def common_subexpressions(ops: list[GraphOperation]) -> dict[int, Any]:
    """Maps id(value) -> the output of an earlier op in ``ops`` (in graph order) that computes
    the same value. Stateful ops (random draws, assignments, printing) and ops reading
    variables are never merged."""
    same: dict[int, Any] = {}
    first: dict[tuple, GraphOperation] = {}
    for op in ops:
        if op.type == "Mul":
            other = _times_one(op, same)
            if other is not None:
                same[id(op.outputs[0])] = other
                continue
        key = _key(op, same)
        if key is None:
            continue
        earlier = first.setdefault(key, op)
        if earlier is not op:
            for out, kept in zip(op.outputs, earlier.outputs):
                same[id(out)] = kept
    return same


# Constants up to this many elements are compared by value.
_CONSTANT_ELEMENTS = 64


def _key(op: GraphOperation, same: dict[int, Any]) -> tuple | None:
    if op.type == "Const":
        value = np.asarray(backends.to_host(op.get_attr("value")))
        if value.size > _CONSTANT_ELEMENTS:
            return None
        return ("Const", value.dtype.str, value.shape, value.tobytes())
    if op.op_def.stateful:
        return None
    inputs = []
    for value in op.inputs:
        if not isinstance(value, SymbolicTensor):  # a variable: its value changes
            return None
        inputs.append(id(same.get(id(value), value)))
    attrs = []
    for name, value in sorted(op._attrs.items()):
        if not _plain(value):
            return None
        attrs.append((name, value))
    return (op.type, tuple(inputs), tuple(attrs))


def _times_one(op: GraphOperation, same: dict[int, Any]) -> Any:
    """For ``Mul(x, ones)`` or ``Mul(ones, x)``, ``ones`` a broadcast of the number 1 and ``x``
    a graph value with the product's known shape and dtype: ``x``; else None."""
    out = op.outputs[0]._value
    if out.shape is None or None in out.shape:
        return None
    a, b = (same.get(id(v), v) for v in op.inputs)
    for ones, other in ((a, b), (b, a)):
        if (
            isinstance(other, SymbolicTensor)
            and other._value.shape == out.shape
            and other._value.dtype == out.dtype
            and _all_ones(ones)
        ):
            return other
    return None


# Ops whose output holds only values of their first input (broadcast, reshaped, copied).
_SPREADING = frozenset({"BroadcastTo", "Reshape", "ExpandDims", "Identity"})


def _all_ones(value: Any, depth: int = 4) -> bool:
    """Whether graph value ``value`` is made of ones whatever the graph is fed."""
    op = getattr(value, "op", None)
    if not isinstance(value, SymbolicTensor) or op is None or depth == 0:
        return False
    if op.type == "OnesLike":
        return True
    if op.type == "Const":
        constant = np.asarray(backends.to_host(op.get_attr("value")))
        return 0 < constant.size <= _CONSTANT_ELEMENTS and bool(np.all(constant == 1))
    return op.type in _SPREADING and _all_ones(op.inputs[0], depth - 1)


def _plain(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_plain(v) for v in tuple.__iter__(value))  # (a shape's items as stored)
    return isinstance(value, _PLAIN)
