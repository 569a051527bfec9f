"""The backward walk: from target gradients back to sources, through recorded operations.

``backward`` orders the recorded ops reachable from the targets so that every consumer
comes before its producers (an iterative depth-first search: graphs of any depth work),
keeps only ops through which a source influences a target, and calls each op's gradient
function with the summed gradients of its outputs. ``call_rule`` checks what a rule
returns — one tensor (or None) per input, with the input's shape and dtype — and names
the rule when it does not. Nothing here knows any particular op.

With ``batch_shape``, every seed carries extra leading axes (several backward passes at
once, e.g. the rows of a Jacobian); this needs every rule on the path to be batchable
(``registry.mark_batchable``), else ``NotBatchableError`` is raised before any rule runs.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import numpy as np

from retrograd.autodiff.overrides import overridden_rule
from retrograd.autodiff.rule_checks import call_rule, describe_rule
from retrograd.core.execute import Operation, context, writable_buffer
from retrograd.core.registry import gradient_registry, is_batchable, takes_missing_upstream
from retrograd.core.released_values import refuse_freed_values
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, math_ops
from retrograd.ops.gather_ops import sparse_gather_grad
from retrograd.ops.indexed_slices import IndexedSlices, concat_slices, densify

__all__ = ["backward", "call_rule", "describe_rule", "NotBatchableError"]


class NotBatchableError(ValueError):
    """A batched backward pass met an op whose gradient function is not batchable."""


_walks = itertools.count(1)

# Ops whose gradient is their upstream gradient: a sparse one passes through them as it is.
_PASSES_SLICES = frozenset({"ReadVariableOp", "Identity"})
# With ``sparse``, the registry's rule of these op types is replaced by one giving the
# gradient TensorFlow gives a caller (an IndexedSlices) where it can.
_SPARSE_RULES = {"GatherV2": sparse_gather_grad}


def backward(
    tracked: dict,
    targets: list,
    seeds: list,
    sources: list,
    batch_shape: tuple = (),
    release: bool = False,
    watched: set[int] | None = None,
    graph_map: bool = False,
    sparse: bool = False,
) -> list[Tensor | None]:
    """Propagates ``seeds`` (one per target) back through ``tracked`` to ``sources``.

    Seeds and results have ``batch_shape`` leading axes in front of their value's shape.
    With ``release``, each record is dropped from ``tracked`` once it has been used, so the
    values it saved are freed during the walk (a non-persistent tape's last use of them).
    ``watched`` (a tape's watched values, by id): when every one is a source, every record
    is influenced by a source (a tape records only ops on what it tracks), so the walk need
    not work out which. The walk is numbered in ``context.backward_pass`` while it runs.
    Gradient functions come from the registry, or from ``retrograd.gradient_override``'s
    scope, and with ``graph_map`` (``tf.gradients``) from the ops' gradient_override_map.

    A rule may return an ``IndexedSlices`` (``gather``'s); the walk hands every rule dense
    upstream gradients, sums sparse parts as TensorFlow does (all sparse: concatenated; mixed
    with dense: made dense and added), and with ``sparse`` returns a source's sparse total as
    is (``GradientTape.gradient``, ``tf.gradients``), else dense.
    """
    outer_walk = context.backward_pass
    context.backward_pass = next(_walks)
    outer_batch_dims = context.gradient_batch_dims
    if outer_batch_dims != len(batch_shape):
        broadcast.set_gradient_batch_dims(len(batch_shape))
    try:
        grads = _walk(
            tracked, targets, seeds, sources, batch_shape, release, watched, graph_map, sparse
        )
    finally:
        context.backward_pass = outer_walk
        if outer_batch_dims != len(batch_shape):
            broadcast.set_gradient_batch_dims(outer_batch_dims)
    if sparse:
        return grads
    return [densify(g) if type(g) is IndexedSlices else g for g in grads]


def _walk(
    tracked: dict,
    targets: list,
    seeds: list,
    sources: list,
    batch_shape: tuple,
    release: bool,
    watched: set[int] | None,
    graph_map: bool = False,
    sparse: bool = False,
) -> list[Tensor | None]:
    source_ids = {id(s) for s in sources}
    influenced: Any
    if watched is not None and watched <= source_ids:
        order, influenced = _consumers_first(tracked), tracked  # (see `backward`)
    else:
        order, influenced = _plan(tracked, targets, source_ids)
    if batch_shape:
        _check_batchable(order)
    grads: dict[int, Any] = {}  # id(value) -> its gradient, or a list of parts to sum
    for t, seed in zip(targets, seeds):
        if seed is not None:
            _accumulate(grads, id(t), seed)
    # Built-in rules (verified by the op tables) are called directly; users' rules, rules
    # of batched passes and rules that tools watch go through `call_rule`'s checks.
    builtin = gradient_registry.builtin if not batch_shape else frozenset()
    overridden = graph_map or bool(context.gradient_overrides)  # else: the registry's rules
    sparse_rules = _SPARSE_RULES if sparse and not batch_shape else {}
    # While tools watch, each rule call is marked as one (call_rule); otherwise the whole
    # walk counts as gradient work at once (``rule_depth``: see execute.context).
    watched_rules = bool(context.observers or context.backward_observers)
    if not watched_rules:
        context.rule_depth += 1
    try:
        _run_rules(
            order,
            tracked,
            grads,
            influenced,
            source_ids,
            batch_shape,
            release,
            graph_map,
            builtin,
            overridden,
            sparse_rules,
            watched_rules,
        )
    finally:
        if not watched_rules:
            context.rule_depth -= 1
    # A source given twice ([x, x]) gets the same total twice: summing its parts again would
    # add into the buffer the first sum was written to.
    totals: dict[int, Any] = {}
    for s in sources:
        if id(s) not in totals:
            totals[id(s)] = _total(grads.get(id(s)))
    return [totals[id(s)] for s in sources]


def _run_rules(
    order: list,
    tracked: dict,
    grads: dict,
    influenced: Any,
    source_ids: set,
    batch_shape: tuple,
    release: bool,
    graph_map: bool,
    builtin: Any,
    overridden: bool,
    sparse_rules: dict,
    watched_rules: bool,
) -> None:
    """Calls each op's gradient function in ``order`` and adds what it returns to ``grads``.

    The loop is written out (no helper calls in the common case): it runs once per op.
    """
    lookup = gradient_registry.lookup
    rules = gradient_registry.entries
    # op type -> (rule, checked, observed): the registry's rule of each type met, looked up
    # once per walk (``checked``: call_rule checks it; ``observed``: what observers see).
    resolved: dict[str, tuple] = {}
    for position in range(len(order)):
        op = order[position]
        outputs = op.outputs
        if len(outputs) == 1:
            key = id(outputs[0])
            if release:  # every consumer of its output is done: nothing needs the record
                order[position] = None
                tracked.pop(key, None)
            g = _take(grads, key, source_ids) if key in source_ids else grads.pop(key, None)
            if g is None:
                continue
            if type(g) is not Tensor:
                g = _total(g)
                if type(g) is IndexedSlices and _passes_slices(
                    op, overridden, graph_map, influenced
                ):
                    _accumulate(grads, id(op.inputs[0]), g)  # a variable's read: kept sparse
                    continue
                g = _dense(g)
            upstream = [g]
        else:
            if release:
                order[position] = None
                for out in outputs:
                    tracked.pop(id(out), None)
            upstream = _upstream(op, grads, source_ids, batch_shape)
            if upstream is None:
                continue
        rule = op.grad_fn
        if rule is not None:
            checked, observed = True, rule
        elif overridden:
            rule = observed = overridden_rule(op, graph_map)
            if rule is None:
                continue
            checked = op.type not in builtin or rule is not lookup(op.type)
            if checked and op.type in gradient_registry.builtin:
                refuse_freed_values(op, rule)
            if sparse_rules and op.type in sparse_rules and rule is lookup(op.type):
                rule = sparse_rules[op.type]
        else:
            found = resolved.get(op.type)
            if found is None:
                entry = rules.get(op.type)
                observed = lookup(op.type) if entry is None else entry[0]  # (unknown: raises)
                found = resolved[op.type] = (
                    sparse_rules.get(op.type, observed) if observed is not None else None,
                    op.type not in builtin,
                    observed,
                )
            rule, checked, observed = found
            if rule is None:  # declared non-differentiable
                continue
        inputs = op.inputs
        count = len(inputs)
        if count == 1 and not checked and not watched_rules:  # one input: the shortest path
            g = rule(op, *upstream)
            if type(g) is tuple or type(g) is list:
                g = g[0]
            if g is not None:
                key = id(inputs[0])
                if key in influenced:
                    pending = grads.get(key)
                    if pending is None:
                        grads[key] = g
                    else:
                        _accumulate(grads, key, g)
            g = upstream = None  # (the part is in `grads` alone: summable in place)
            continue
        skip: Any = ()
        if count == 2:  # (the common case, without building a list)
            if id(inputs[0]) not in influenced:
                skip = (0,) if id(inputs[1]) in influenced else (0, 1)
            elif id(inputs[1]) not in influenced:
                skip = (1,)
        elif count > 2:  # a single input's gradient is always wanted here
            skip = tuple([i for i in range(count) if id(inputs[i]) not in influenced])
        if skip:
            op.skip_input_indices = skip
        try:
            if checked or watched_rules:
                downstream = call_rule(rule, op, upstream, batch_shape)
            else:
                downstream = rule(op, *upstream)
                if type(downstream) is not tuple and type(downstream) is not list:
                    downstream = (downstream,)
        finally:
            if skip:
                op.skip_input_indices = ()
        if watched_rules and context.backward_observers:
            seen = [densify(g) if type(g) is IndexedSlices else g for g in downstream]
            for observer in context.backward_observers:
                observer.observe_backward(op, observed, upstream, seen)
        for i in range(count):
            g = downstream[i]
            if g is not None:
                key = id(inputs[i])
                if key in influenced:
                    pending = grads.get(key)
                    if pending is None:
                        grads[key] = g
                    else:
                        _accumulate(grads, key, g)
        g = upstream = downstream = None  # the parts are in `grads` alone: summable in place


def _plan(tracked: dict, targets: list, source_ids: set) -> tuple[list[Operation], set[int]]:
    """The ops the walk calls, every consumer before its producers, and the ids of the values
    some source influences (the only values whose gradient is wanted).

    ``tracked`` maps each value to its producer in the order the values were produced (a
    tape's order of execution), so no sort is needed: one pass forward finds what the
    sources influence, one pass backward what the targets depend on.
    """
    influenced = set(source_ids)
    reached: list[Operation] = []
    for op in _each_record(tracked.values()):
        for value in op.inputs:
            if id(value) in influenced:
                reached.append(op)
                for out in op.outputs:
                    influenced.add(id(out))
                break
    needed = {id(t) for t in targets}
    order = []
    for op in reversed(reached):
        for out in op.outputs:
            if id(out) in needed:
                order.append(op)
                for value in op.inputs:
                    needed.add(id(value))
                break
    return order, influenced


def _consumers_first(tracked: dict) -> list[Operation]:
    """Every record of ``tracked`` (kept in execution order) once, consumers first."""
    return _each_record(reversed(tracked.values()))


def _each_record(producers: Any) -> list[Operation]:
    """The records among ``producers`` (values of a ``tracked`` map, in its order or reversed)
    once each: sources (None) are skipped, and a multi-output op is listed once per output."""
    records = []
    last = None
    multi_output: set[int] = set()
    for op in producers:
        if op is None or op is last:  # a source; the same op's next output
            continue
        last = op
        if len(op.outputs) > 1:
            if id(op) in multi_output:
                continue
            multi_output.add(id(op))
        records.append(op)
    return records


def _passes_slices(op: Operation, overridden: bool, graph_map: bool, influenced: Any) -> bool:
    """Whether a sparse gradient goes through ``op`` as it is (a read, an identity whose
    registered rule is in force)."""
    return (
        op.type in _PASSES_SLICES
        and not op.grad_fn
        and id(op.inputs[0]) in influenced
        and (not overridden or overridden_rule(op, graph_map) is gradient_registry.lookup(op.type))
    )


def _accumulate(grads: dict, key: int, g: Tensor) -> None:
    pending = grads.get(key)
    if pending is None:
        grads[key] = g
    elif type(pending) is list:
        pending.append(g)
    else:
        grads[key] = [pending, g]


def _check_batchable(order: list) -> None:
    scoped = context.gradient_overrides or ()
    for op in order:
        if op.grad_fn is None and op.type not in scoped and _batchable_type(op.type):
            continue
        what = f"custom gradient '{op.name}'" if op.grad_fn else f"op type '{op.type}'"
        raise NotBatchableError(f"the gradient function of {what} is not batchable")


def _batchable_type(op_type: str) -> bool:
    return is_batchable(op_type) or gradient_registry.lookup(op_type) is None


def _upstream(op: Operation, grads: dict, source_ids: set, batch_shape: tuple) -> list | None:
    """The summed gradient of each output of a multi-output ``op`` (the walk takes a single
    output's itself); None when no output has one.

    Outputs without a gradient get zeros (floating outputs) or None, as in TensorFlow.
    """
    upstream = []
    found = False
    for out in op.outputs:
        g = _take(grads, id(out), source_ids)
        found = found or g is not None
        upstream.append(g)
    if not found:
        return None
    if takes_missing_upstream(op.type):
        return upstream
    for i, (out, g) in enumerate(zip(op.outputs, upstream)):
        if g is None and out._value.dtype.kind in "fc":
            upstream[i] = (
                array_ops.zeros((*batch_shape, *out.shape), out.dtype)
                if batch_shape
                else array_ops.zeros_like(out)
            )
    return upstream


def _take(grads: dict, key: int, source_ids: set) -> Tensor | None:
    """The total gradient of a value, removed from ``grads`` (kept, summed, for a source:
    its gradient is also a result)."""
    if key in source_ids:
        total = grads[key] = _total(grads.get(key))
        return _dense(total)
    return _dense(grads.pop(key, None))


def _total(pending: Any) -> Tensor | None:
    """The gradient kept in ``grads``: one tensor, or the sum of a list of parts."""
    if type(pending) is not list:
        return pending
    if any(type(part) is IndexedSlices for part in pending):
        if all(type(part) is IndexedSlices for part in pending):
            return concat_slices(pending)  # sparse parts are concatenated, as in TensorFlow
        pending = [densify(p) if type(p) is IndexedSlices else p for p in pending]
    if not context._recording:  # nothing records the sum: it may be computed in place
        summed = _sum_in_place(pending)
        if summed is not None:
            return summed
    return math_ops.add_n(pending)


def _dense(pending: Any) -> Tensor | None:
    """The total of a value's gradient parts as a tensor (what a rule is given)."""
    total = _total(pending)
    return densify(total) if type(total) is IndexedSlices else total


def _holders(parts: list, i: int) -> tuple[int, int]:
    """How many references part ``i`` and its array have, seen from here."""
    return sys.getrefcount(parts[i]), sys.getrefcount(parts[i]._value)


# What `_holders` sees for a part that only its list holds, whose array only the part holds
# (measured: it depends on the Python version).
_SOLE_PART, _SOLE_ARRAY = _holders([Tensor(np.empty(2))], 0)


_IN_PLACE_BYTES = 1 << 16


def _sum_in_place(parts: list) -> Tensor | None:
    """The sum of gradient ``parts`` accumulated into the buffer of one of them that nothing
    but the list holds (an array owning its memory); None when there is no such part."""
    for i in range(len(parts)):  # (not enumerate: its reused tuple would hold the part)
        part = parts[i]
        buffer = part._value
        if type(buffer) is not np.ndarray or buffer.nbytes < _IN_PLACE_BYTES:
            continue  # (a small sum: a new buffer costs less than finding a free one)
        if not writable_buffer(buffer):
            continue
        part_refs, array_refs = _holders(parts, i)
        # One more reference each: this function's `part` and `buffer`.
        if part_refs <= _SOLE_PART + 1 and array_refs <= _SOLE_ARRAY + 1:
            break
    else:
        return None
    for j, other in enumerate(parts):
        if j != i:
            np.add(buffer, other._value, out=buffer)
    return part
