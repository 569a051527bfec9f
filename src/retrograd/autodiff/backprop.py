"""The backward walk: from target gradients back to sources, through recorded operations.

``backward`` orders the records reachable from the targets so that every consumer comes
before its producer, keeps only the ops through which a source influences a target, and
calls each op's gradient function with the summed gradients of its outputs. Nothing here
knows any particular op: which function computes an op's gradient — its own, a user's
(checked by ``call_rule``), an override, a sparse variant — and who watches it, is decided
by :class:`Rules`, which wraps the function accordingly.

With ``batch_shape``, every seed carries extra leading axes (several backward passes at
once, e.g. the rows of a Jacobian); this needs every rule on the path to be batchable
(``OpDef.batchable``), else ``NotBatchableError`` is raised before any rule runs.

>>> import retrograd as rg
>>> x = rg.constant(3.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = x * x + x
>>> tape.gradient(y, x)  # the walk: AddV2's rule, then Mul's; the parts for x are summed
<retrograd.Tensor: shape=(), dtype=float32, numpy=7.0>
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from retrograd.autodiff.overrides import overridden_rule
from retrograd.autodiff.rule_checks import call_rule, describe_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import Operation, context, rule_changes
from retrograd.core.records import is_stand_in
from retrograd.core.registry import gradient_registry
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, math_ops
from retrograd.ops.indexed_slices import IndexedSlices, concat_slices, densify

__all__ = ["backward", "call_rule", "describe_rule", "NotBatchableError", "Rules"]


class NotBatchableError(ValueError):
    """A batched backward pass met an op whose gradient function is not batchable."""


_walks = itertools.count(1)


def backward(
    producers: dict,
    targets: list,
    seeds: list,
    sources: list,
    batch_shape: tuple = (),
    release: bool = False,
    graph_map: bool = False,
    sparse: bool = False,
    all_influenced: bool = False,
) -> list[Tensor | None]:
    """Propagates ``seeds`` (one per target) back through ``producers`` (value id -> the
    record that produced it, in the order they were recorded; None for a watched value) to
    ``sources``; returns one gradient per source (None where there is none).

    Seeds and results have ``batch_shape`` leading axes. With ``release``, each record is
    dropped from ``producers`` once used, so that what it kept is freed during the walk (a
    non-persistent tape's last use). ``all_influenced``: every record depends on a source
    (every watched value is one), so the walk need not work out which. ``graph_map``: the
    ops' ``gradient_override_map`` entries count (``tf.gradients``). ``sparse``: a source's
    sparse total (IndexedSlices) is returned as it is, else made dense.
    """
    rules = Rules(batch_shape, graph_map, sparse)
    outer_walk = autodiff_state.backward_pass
    autodiff_state.backward_pass = next(_walks)
    outer_batch = broadcast.set_gradient_batch_dims(len(batch_shape))
    if not rules.observed:  # the whole walk is gradient work (else: each rule call)
        context.rule_depth += 1
    try:
        grads = _walk(producers, targets, seeds, sources, rules, release, all_influenced)
    finally:
        if not rules.observed:
            context.rule_depth -= 1
        autodiff_state.backward_pass = outer_walk
        broadcast.set_gradient_batch_dims(outer_batch)
    if sparse:
        return grads
    return [densify(g) if type(g) is IndexedSlices else g for g in grads]


def _walk(
    producers: dict,
    targets: list,
    seeds: list,
    sources: list,
    rules: Rules,
    release: bool,
    all_influenced: bool,
) -> list:
    source_ids = {s._id for s in sources}
    influenced: dict | set  # (ids of the values whose gradient is wanted: only `in` is asked)
    if all_influenced:
        order, influenced = _consumers_first(producers), producers
    else:
        order, influenced = _plan(producers, targets, source_ids)
    if rules.batch_shape:
        rules.check_batchable(order)
    grads: dict[int, Any] = {}  # value id -> its gradient so far, or the parts to sum
    for t, seed in zip(targets, seeds):
        if seed is not None:
            grads[t._id] = _with_part(grads.get(t._id), seed)
    by_type = rules.by_type
    for position in range(len(order)):
        op = order[position]
        outputs = op.outputs
        if release:  # every consumer of its outputs is done: nothing needs the record
            order[position] = None  # type: ignore[call-overload]  # (never read again)
            op.released = True
            for y in outputs:
                producers.pop(y._id, None)
        key = outputs[0]._id
        if len(outputs) == 1 and key not in source_ids:  # (the common case, inline)
            g = grads.pop(key, None)
            if g is None:  # no gradient reached it (a value the targets do not use)
                continue
            found = by_type.get(op.type)
            rule, dense = found if found is not None else rules(op)
            if type(g) is not Tensor:
                g = _total(g, dense)
            upstream: tuple = (g,)
        else:
            found = by_type.get(op.type)
            rule, dense = found if found is not None else rules(op)
            upstream = tuple([_take(grads, y._id, source_ids, dense) for y in outputs])
            if _nothing(upstream):
                continue
        if rule is None:
            continue
        inputs = op.inputs
        skip: tuple = ()  # (TF's attribute: the inputs whose gradient the rule may leave None)
        if len(inputs) > 1:  # (an op of one input is on a path only through that input)
            for x in inputs:
                if x._id not in influenced:
                    skip = tuple([i for i, x in enumerate(inputs) if x._id not in influenced])
                    break
        if skip:
            op.skip_input_indices = skip
            try:
                downstream = rule(op, *upstream)
            finally:
                op.skip_input_indices = ()
        else:
            downstream = rule(op, *upstream)
        upstream = g = None  # type: ignore[assignment]  # (the walk holds no upstream now)
        if type(downstream) is not tuple and type(downstream) is not list:
            downstream = (downstream,)
        for x, part in zip(inputs, downstream):
            if part is not None:
                key = x._id
                if key in influenced:
                    pending = grads.get(key)
                    grads[key] = part if pending is None else _with_part(pending, part)
        downstream = part = None  # (what it held may go)
    return [_total(grads.get(s._id), False) for s in sources]


def _with_part(pending: Any, g: Any) -> Any:
    """What ``grads`` holds for a value once part ``g`` of its gradient is added: the parts
    are kept in a list and summed when the value's producer asks for them (``add_n``, whose
    kernel sums into one buffer of its own)."""
    if pending is None:
        return g
    if type(pending) is list:
        pending.append(g)
        return pending
    return [pending, g]


def _take(grads: dict, key: int, source_ids: set, dense: bool) -> Any:
    """The total gradient of a value, no longer kept, except a source's (also a result)."""
    if key in source_ids:
        total = grads[key] = _total(grads.get(key), False)
        if total is None:
            del grads[key]
        return _total(total, dense)
    return _total(grads.pop(key, None), dense)


def _total(pending: Any, dense: bool) -> Any:
    """The sum of a value's gradient parts (``dense``: a sparse total made dense)."""
    if type(pending) is list:
        pending = _sum(pending)
    return densify(pending) if dense and type(pending) is IndexedSlices else pending


def _nothing(upstream: tuple) -> bool:
    """Whether no output got a gradient (tested by identity: ``==`` on tensors is an op)."""
    for g in upstream:  # noqa: SIM110 - a plain loop: cheaper than all() once per op
        if g is not None:
            return False
    return True


def _plan(producers: dict, targets: list, source_ids: set) -> tuple[list[Operation], set]:
    """The records the walk calls, every consumer before its producer, and the ids of the
    values some source influences (the only values whose gradient is wanted).

    ``producers`` holds the values in the order they were produced, so no sort is needed:
    one pass forward finds what the sources influence, one backward what the targets need.
    """
    influenced = set(source_ids)
    reached: list[Operation] = []
    for op in _each_record(producers.values()):
        for value in op.inputs:
            if value._id in influenced:
                reached.append(op)
                influenced.update([y._id for y in op.outputs])
                break
    needed = {t._id for t in targets}
    order = []
    for op in reversed(reached):
        for y in op.outputs:
            if y._id in needed:
                order.append(op)
                needed.update([x._id for x in op.inputs])
                break
    return order, influenced


def _consumers_first(producers: dict) -> list[Operation]:
    """Every record of ``producers`` once, consumers first."""
    return _each_record(reversed(producers.values()))


def _each_record(records: Any) -> list[Operation]:
    """The records among ``records`` (values of a ``producers`` map) once each: watched values
    (None) are skipped, and a multi-output op is listed once however many outputs it has."""
    found = []
    last = None
    multi_output: set[int] = set()
    for op in records:
        if op is None or op is last:  # a watched value; the same op's next output
            continue
        last = op
        if len(op.outputs) > 1:
            if id(op) in multi_output:
                continue
            multi_output.add(id(op))
        found.append(op)
    return found


def _sum(parts: list) -> Any:
    """The total of a value's gradient parts: sparse parts are concatenated when all are
    sparse (as TensorFlow does), else made dense and added."""
    if any(type(p) is IndexedSlices for p in parts):
        if all(type(p) is IndexedSlices for p in parts):
            return concat_slices(parts)
        parts = [densify(p) if type(p) is IndexedSlices else p for p in parts]
    return math_ops.add_n(parts)


class _PlainRules:
    """What ``Rules`` resolved for the ops' own rules in walks with nothing special, by
    ``sparse``; valid while ``rule_changes.count`` is ``changes``."""

    changes = -1
    by_type: tuple[dict, dict] = ({}, {})


_plain_rules = _PlainRules()


class Rules:
    """Which function computes each op's gradient in one walk, as ``rules(op) -> (rule,
    dense)``: ``rule(op, *upstream)`` (None: the op has no gradient) and whether it wants
    its upstream gradients dense.

    The op's own rule is called as it is. Every other rule — a custom gradient's, a user's,
    an override, any rule of a batched pass — is wrapped by ``call_rule``, which checks what
    it returns; while backward observers watch, every rule is, and they are shown each call.
    Multi-output ops whose outputs did not all get a gradient are given zeros for those
    (``OpDef.missing_upstream``). With ``sparse``, an op's sparse gradient replaces its own
    where it has one, and ops that pass sparse gradients through get them as they are.
    """

    def __init__(self, batch_shape: tuple, graph_map: bool, sparse: bool) -> None:
        self.batch_shape = batch_shape
        self.graph_map = graph_map
        self.overridden = graph_map or bool(context.gradient_overrides)
        self.sparse = sparse and not batch_shape
        self.observed = bool(autodiff_state.backward_observers)
        # op type -> (rule, dense), for the ops whose rule their type alone decides (not
        # custom gradients, nor ops of a graph's gradient_override_map): the walk looks here
        # first. In a walk with nothing special (no batch, override or observer), ops' own
        # rules are shared with the other such walks until a rule changes.
        self._plain = not (batch_shape or self.overridden or self.observed)
        if self._plain:
            if _plain_rules.changes != rule_changes.count:
                _plain_rules.by_type = ({}, {})
                _plain_rules.changes = rule_changes.count
            self.by_type = _plain_rules.by_type[self.sparse]
        else:
            self.by_type = {}
        self._checked: dict[str, tuple] = {}  # (a plain walk's checked rules, not shared)
        self._by_override: dict[tuple, tuple] = {}
        self._custom: Any = None  # (made when the walk meets its first custom gradient)

    def __call__(self, op: Operation) -> tuple[Callable[..., Any] | None, bool]:
        if op.grad_fn is not None:  # a custom gradient: a rule of its own, always checked
            if self._custom is None:
                self._custom = self._custom_rule()
            return self._custom, True
        if self.graph_map:
            key = (op.type, getattr(op, "gradient_override", None))
            found = self._by_override.get(key)
            if found is None:
                found = self._by_override[key] = self._resolve(op)
            return found
        found = self._checked.get(op.type)
        if found is None:
            found = self._resolve(op)
            entry = op.op_def.gradient
            shared = found[0] is None or (entry is not None and entry.own)
            (self.by_type if shared or not self._plain else self._checked)[op.type] = found
        return found

    def _resolve(self, op: Operation) -> tuple[Callable[..., Any] | None, bool]:
        op_def = op.op_def
        entry = op_def.gradient
        if self.overridden:
            rule = overridden_rule(op, self.graph_map)
            entry = op_def.gradient
            own = entry is not None and entry.own and rule is entry.fn
        else:
            if entry is None:  # registered before the op was defined, or never (raises)
                gradient_registry.lookup(op.type)
                entry = op_def.gradient
            rule, own = entry.fn, entry.own
        if rule is None:
            return None, True
        observed = rule
        if own and self.sparse and op_def.sparse_gradient is not None:
            rule = op_def.sparse_gradient
        dense = not (self.sparse and own and op_def.passes_slices)
        checked = not own or bool(self.batch_shape)
        return self._wrap(rule, observed, op, checked, refuse_dropped=not own), dense

    def _wrap(
        self, rule: Any, observed: Any, op: Operation, checked: bool, refuse_dropped: bool = False
    ) -> Any:
        """``rule`` as the walk calls it: given zeros for outputs no gradient reached (where
        the op wants them), refusing records that dropped values another rule may read,
        checked by ``call_rule`` and shown to observers where that is asked for."""
        zeros = op.op_def.multi_output and op.op_def.missing_upstream == "zeros"
        checked = checked or self.observed
        if not (checked or zeros or refuse_dropped):
            return rule
        batch_shape, observers = self.batch_shape, autodiff_state.backward_observers

        def wrapped(op: Operation, *upstream: Any) -> Any:
            if zeros and not all(g is not None for g in upstream):
                upstream = tuple(
                    _zeros_like(y, batch_shape) if g is None and y._value.dtype.kind in "fc" else g
                    for g, y in zip(upstream, op.outputs)
                )
            if refuse_dropped:
                _refuse_dropped_values(op, observed)
            if not checked:
                return rule(op, *upstream)
            downstream = call_rule(rule, op, list(upstream), batch_shape)
            if observers:
                _show(observers, op, observed, upstream, downstream)
            return downstream

        return wrapped

    def _custom_rule(self) -> Any:
        """The rule of custom-gradient records (each carries its own ``grad_fn``, checked by
        ``call_rule`` and shown to observers; outputs no gradient reached come as None)."""
        batch_shape, observers = self.batch_shape, autodiff_state.backward_observers

        def custom(op: Operation, *upstream: Any) -> Any:
            downstream = call_rule(op.grad_fn, op, list(upstream), batch_shape)
            if observers:
                _show(observers, op, op.grad_fn, upstream, downstream)
            return downstream

        return custom

    def check_batchable(self, order: list) -> None:
        """Raises NotBatchableError unless every rule on the path takes batched gradients."""
        scoped = context.gradient_overrides or ()
        for op in order:
            entry = op.op_def.gradient
            if (
                op.grad_fn is None
                and op.type not in scoped
                and (entry is None or entry.fn is None or (entry.own and op.op_def.batchable))
            ):
                continue
            what = f"custom gradient '{op.name}'" if op.grad_fn else f"op type '{op.type}'"
            raise NotBatchableError(f"the gradient function of {what} is not batchable")


def _show(observers: list, op: Operation, rule: Any, upstream: Any, downstream: Any) -> None:
    """Shows one rule call to the backward observers, the op as it is outside the walk
    (nothing skipped: a check may call the rule again)."""
    skip, op.skip_input_indices = op.skip_input_indices, ()
    shown = [densify(g) if type(g) is IndexedSlices else g for g in downstream]
    try:
        for observer in list(observers):
            observer.observe_backward(op, rule, list(upstream), shown)
    finally:
        op.skip_input_indices = skip


def _zeros_like(y: Any, batch_shape: tuple) -> Tensor:
    if batch_shape:
        return array_ops.zeros((*batch_shape, *y.shape), y.dtype)
    return array_ops.zeros_like(y)


def _refuse_dropped_values(op: Operation, rule: Any) -> None:
    """Raises ValueError when ``rule`` (not the op's own) is about to run on a record that
    did not keep a value because the op's own gradient does not read it (an override
    entered after the forward computation ran)."""
    for kind, values in (("input", op.inputs), ("output", op.outputs)):
        for i, value in enumerate(values):
            if is_stand_in(getattr(value, "_value", None)):
                raise ValueError(
                    f"The gradient function of op '{op.name}' (type {op.type}) is "
                    f"{describe_rule(op, rule)}, but the value of its {kind} {i} was not kept "
                    f"when the op ran, because the op's own gradient function does not read "
                    f"it. Enter the override (retrograd.gradient_override) before running the "
                    f"forward computation."
                )
