"""Branches and loop bodies traced as functions, for ``cond`` and ``while_loop``: each is
traced in a graph nested in the current one, returns only tensors of its own graph (a value
it captured unchanged is passed through an identity), and takes the union of the captures
of the functions traced with it, so that they all have the same inputs. Nesting deeper than
``MAX_NESTING`` is refused (recursion that a tensor decides never ends while traced).

>>> import retrograd as rg
>>> with rg.Graph().as_default():
...     x = rg.constant(2.0)
...     graph, _, out = trace(lambda: x, [], "then")
...     print(own_outputs(graph, out).op.graph is graph)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph.autograph.transformer import StagingError
from retrograd.graph.concrete_function import ConcreteFunction, captured_variables
from retrograd.graph.graph import Graph, placeholder
from retrograd.ops import array_ops

__all__ = [
    "MAX_NESTING",
    "trace",
    "own_outputs",
    "tensor_leaves",
    "traced_function",
    "union_captures",
    "union_variables",
    "merged_specs",
]

# Branches and loop bodies nested deeper than this are refused: both branches of a cond
# are traced, so a function calling itself inside a cond or loop on a tensor (recursion
# that depends on a tensor's value) would nest for ever.
MAX_NESTING = 50


def trace(fn: Callable, specs: list, name: str) -> tuple[Graph, list, Any]:
    """Traces ``fn`` on placeholders of ``specs`` in a graph nested in the current one."""
    depth, outer = 0, context.graph
    while outer is not None:
        depth, outer = depth + 1, outer.outer
    if depth > MAX_NESTING:
        raise StagingError(
            f"cond and while_loop bodies are nested more than {MAX_NESTING} deep: a function "
            f"that calls itself inside an if, a loop or a cond on a tensor traces both branches "
            f"and recurses for ever. Recursion in a traced function must stop on Python "
            f"values; to repeat work a tensor decides, use a while loop (tf.while_loop)"
        )
    graph = Graph(outer=context.graph)
    with graph.as_default():
        inputs = [placeholder(dtype, shape, name=name) for dtype, shape in specs]
        outputs = fn(*inputs)
    return graph, inputs, outputs


def own_outputs(graph: Graph, outputs: Any) -> Any:
    """``outputs`` with every tensor that ``graph`` did not make (a branch or body returning
    a value it captured unchanged: ``lambda: x``) replaced by an identity of it inside
    ``graph``, so that the value is captured as an input instead of being read from a graph
    the traced function cannot see."""

    def own(leaf: Any) -> Any:
        if (
            isinstance(leaf, Tensor)
            and getattr(getattr(leaf, "op", None), "graph", None) is not graph
        ):
            with graph.as_default():
                return array_ops.identity(leaf)
        return leaf

    return nest.map_structure(own, outputs)


def tensor_leaves(structure: Any, what: str) -> list:
    leaves = nest.flatten(structure)
    for leaf in leaves:
        if leaf is not None and not isinstance(leaf, (Tensor, Variable)):
            raise TypeError(f"{what} must return tensors, got {type(leaf).__name__}: {leaf!r}")
    return leaves


def traced_function(
    graph: Graph, inputs: list, outputs: Any, captures: list, variables: list, name: str
) -> ConcreteFunction:
    """A traced branch or body: its inputs are ``inputs`` then the given captures (the union
    over the traced functions, so every function takes the same inputs)."""
    own = {id(external): internal for external, internal in graph.external_captures}
    capture_inputs = []
    with graph.as_default():
        for external in captures:
            internal = own.get(id(external))
            if internal is None:  # used only by the other branch: an input it ignores
                internal = placeholder(external.dtype, external._value.shape, name="unused")
            capture_inputs.append(internal)
    return ConcreteFunction(
        graph, [*inputs, *capture_inputs], outputs, name, reads=[], variables=variables
    )


def union_captures(*graphs: Graph) -> list:
    seen: dict[int, Any] = {}
    for graph in graphs:
        for external, _ in graph.external_captures:
            seen.setdefault(id(external), external)
    return list(seen.values())


def union_variables(*graphs: Graph) -> list:
    seen: dict[int, Variable] = {}
    for graph in graphs:
        for v in captured_variables(graph):
            seen.setdefault(id(v), v)
    return list(seen.values())


def merged_specs(metas_a: list, metas_b: list) -> list:
    out = []
    for (shape_a, dtype), (shape_b, _) in zip(metas_a, metas_b):
        if shape_a is None or shape_b is None or len(shape_a) != len(shape_b):
            out.append((None, dtype))
        else:
            out.append((tuple(a if a == b else None for a, b in zip(shape_a, shape_b)), dtype))
    return out
