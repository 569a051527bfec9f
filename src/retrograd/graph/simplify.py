"""Graph simplifications applied when a plan is compiled.

``common_subexpressions`` finds ops that compute what an earlier op computes (the same op
type and attributes on the same inputs; small constants of equal value): gradient graphs
repeat such work, e.g. ``1 - y * y`` for both the first and the second derivative of tanh.
A plan computes each once.

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
        value = np.asarray(op.get_attr("value"))
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


def _plain(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return isinstance(value, _PLAIN)
