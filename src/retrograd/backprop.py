"""The backward walk: from target gradients back to sources, through recorded operations.

``backward`` orders the recorded ops reachable from the targets so that every consumer
comes before its producers (an iterative depth-first search: graphs of any depth work),
keeps only ops through which a source influences a target, and calls each op's gradient
function with the summed gradients of its outputs. ``call_rule`` checks what a rule
returns — one tensor (or None) per input, with the input's shape and dtype — and names
the rule when it does not. Nothing here knows any particular op.
"""

from __future__ import annotations

import itertools
from typing import Any

from retrograd.execute import Operation, context
from retrograd.ops import array_ops, math_ops
from retrograd.registry import gradient_registry
from retrograd.tensor import Tensor
from retrograd.variables import Variable

__all__ = ["backward", "call_rule", "describe_rule"]


_walks = itertools.count(1)


def backward(tracked: dict, targets: list, seeds: list, sources: list) -> list[Tensor | None]:
    """Propagates ``seeds`` (one per target) back through ``tracked`` to ``sources``."""
    outer_walk = context.backward_pass
    context.backward_pass = next(_walks)
    try:
        return _walk(tracked, targets, seeds, sources)
    finally:
        context.backward_pass = outer_walk


def _walk(tracked: dict, targets: list, seeds: list, sources: list) -> list[Tensor | None]:
    source_ids = {id(s) for s in sources}
    order = _reverse_topological(tracked, targets)
    relevant = _reaching_sources(order, tracked, source_ids)
    grads: dict[int, list[Tensor]] = {}
    for t, seed in zip(targets, seeds):
        if seed is not None:
            grads.setdefault(id(t), []).append(seed)
    for op in order:
        if id(op) not in relevant:
            continue
        upstream = _upstream(op, grads, source_ids)
        if upstream is None:
            continue
        rule = op.grad_fn or gradient_registry.lookup(op.type)
        if rule is None:  # declared non-differentiable
            continue
        downstream = call_rule(rule, op, upstream)
        for observer in context.backward_observers:
            observer.observe_backward(op, rule, upstream, downstream)
        for value, g in zip(op.inputs, downstream):
            if g is not None and (id(value) in tracked or id(value) in source_ids):
                grads.setdefault(id(value), []).append(g)
    return [_total(grads.get(id(s))) for s in sources]


def _reverse_topological(tracked: dict, targets: list) -> list[Operation]:
    """Ops reachable from ``targets``, every consumer before its producers."""
    order: list[Operation] = []
    seen: set[int] = set()
    for t in targets:
        root = tracked.get(id(t))
        if root is None or id(root) in seen:
            continue
        seen.add(id(root))
        stack = [(root, iter(root.inputs))]
        while stack:
            op, inputs = stack[-1]
            for value in inputs:
                producer = tracked.get(id(value))
                if producer is not None and id(producer) not in seen:
                    seen.add(id(producer))
                    stack.append((producer, iter(producer.inputs)))
                    break
            else:
                stack.pop()
                order.append(op)
    order.reverse()
    return order


def _reaching_sources(order: list, tracked: dict, source_ids: set) -> set[int]:
    """ids of the ops through which some source influences the targets."""
    relevant: set[int] = set()
    for op in reversed(order):  # producers first
        for value in op.inputs:
            key = id(value)
            producer = tracked.get(key)
            if key in source_ids or (producer is not None and id(producer) in relevant):
                relevant.add(id(op))
                break
    return relevant


def _upstream(op: Operation, grads: dict, source_ids: set) -> list | None:
    """The summed gradient of each output of ``op``; None when no output has one.

    Outputs without a gradient get zeros (floating outputs) or None, as in TensorFlow.
    """
    upstream = []
    found = False
    for out in op.outputs:
        key = id(out)
        pending = grads.get(key) if key in source_ids else grads.pop(key, None)
        if pending:
            found = True
            upstream.append(_total(pending))
        else:
            upstream.append(None)
    if not found:
        return None
    for i, (out, g) in enumerate(zip(op.outputs, upstream)):
        if g is None and out._value.dtype.kind in "fc":
            upstream[i] = array_ops.zeros_like(out)
    return upstream


def _total(pending: list | None) -> Tensor | None:
    if not pending:
        return None
    return pending[0] if len(pending) == 1 else math_ops.add_n(pending)


def describe_rule(op: Operation, rule: Any) -> str:
    """How error messages name the rule that computed ``op``'s gradient."""
    described = getattr(rule, "describe", None)
    if described is not None:
        return described
    return (
        f"the gradient function for op type '{op.type}' "
        f"(registered at {gradient_registry.location(op.type)})"
    )


def _input_label(op: Operation, i: int) -> str:
    value = op.inputs[i]
    return f"variable '{value.name}'" if isinstance(value, Variable) else f"input {i}"


def _same_shape(a: Any, b: Any) -> bool:
    """Equal shapes; in graphs, shapes that could be equal once unknown dimensions are known."""
    if a == b:
        return True
    if a is None or b is None:
        return True  # unknown rank
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def call_rule(rule: Any, op: Operation, upstream: list) -> list:
    """Calls a gradient function and checks that it returned one well-formed gradient per input."""
    context.rule_depth += 1
    try:
        result = rule(op, *upstream)
    finally:
        context.rule_depth -= 1
    grads = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(grads) != len(op.inputs):
        raise ValueError(
            f"{describe_rule(op, rule)} returned {len(grads)} gradient(s) but op '{op.name}' has "
            f"{len(op.inputs)} input(s); return one per input (None for no gradient)"
        )
    for i, (value, g) in enumerate(zip(op.inputs, grads)):
        if g is None:
            continue
        if not isinstance(g, Tensor):
            raise TypeError(
                f"{describe_rule(op, rule)} returned a {type(g).__name__} for "
                f"{_input_label(op, i)}; gradients must be retrograd tensors (or None)"
            )
        if g._value.dtype != value._value.dtype or not _same_shape(
            g._value.shape, value._value.shape
        ):
            raise ValueError(
                f"{describe_rule(op, rule)} returned a gradient of shape {tuple(g.shape)} and "
                f"dtype {g.dtype.name} for {_input_label(op, i)}, which has shape "
                f"{tuple(value.shape)} and dtype {value.dtype.name}; a gradient must match its "
                f"input"
            )
    return grads
