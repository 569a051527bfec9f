"""Why is my gradient None? The reason for each source, from what the tape recorded.

``tape.gradient(y, x, explain=True)``, ``tape.jacobian(y, x, explain=True)`` and
``retrograd.gradients(ys, xs, explain=True)`` (in a graph: see
:mod:`retrograd.autodiff.explain_graph`) (or every gradient while
``retrograd.debugging.explain_none_gradients()`` is on) warns with a
:class:`NoneGradientWarning` for each source whose gradient is None, saying why:

- ``not watched``: the source was never watched (a tensor needs ``tape.watch``; a variable
  is watched when it is trainable and read inside the tape);
- ``no path``: it was watched, but the target does not depend on it through recorded ops;
- ``no gradient op``: the path goes through an op without a gradient (``Round``, ``Sign``,
  a ``Cast`` to an integer, ``ArgMax``, a comparison, ``StopGradient``), named with a
  straight-through fix;
- ``target not recorded``: the target was not computed by ops this tape recorded (the
  value left the tape through ``.numpy()``, ``float()``, NumPy or ``constant(tensor)``, was
  computed under ``stop_recording``, outside the ``with`` block or in another thread);
- ``rule returned None``: a gradient function (a custom rule, named) returned None for it;
- ``captured``: a custom rule used a tensor computed from it without taking it as input;
- ``not differentiable``: its dtype is an integer or bool.

While the debugging switch is on, the line of the user's code that ran each op is recorded,
and the reasons name it.

>>> import warnings, retrograd as rg
>>> x = rg.constant(2.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.round(x) * 3.0
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     tape.gradient(y, x, explain=True) is None
True
>>> print(str(caught[0].message).splitlines()[1][:78])
  no gradient op: the path from it to the target goes through op 'Round' (type
"""

from __future__ import annotations

import collections
import contextlib
import warnings
import weakref
from collections.abc import Iterator
from typing import Any

from retrograd.autodiff.backprop import describe_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core import sites
from retrograd.core.execute import Operation, context
from retrograd.core.records import is_stand_in
from retrograd.core.registry import gradient_registry
from retrograd.core.variables import Variable

__all__ = [
    "NoneGradientWarning",
    "explain_none_gradients",
    "enable_explain_none_gradients",
    "disable_explain_none_gradients",
    "RuleNoneWatch",
    "explanations",
    "user_site",
    "none_gradient_reasons",
    "explained_walk",
]


_STRAIGHT_THROUGH = (
    "To let a gradient through it (a straight-through estimator), use "
    "retrograd.grad_pass_through(fn)(x), or x + retrograd.stop_gradient(fn(x) - x)"
)


class NoneGradientWarning(UserWarning):
    """A gradient is None; the message says why.

    >>> import retrograd as rg
    >>> issubclass(rg.debugging.NoneGradientWarning, UserWarning)
    True
    """


def user_site(depth: int = 1) -> str:
    """``file:line`` of the innermost calling frame outside retrograd (and outside
    ``contextlib``, which runs ``with`` blocks): the user's code (``core.sites``)."""
    return sites.user_site(depth + 1)


class SiteLog:
    """What the debugging switch records (it lives on ``autodiff_state.op_sites`` while on): for
    every op, the user's line that ran it (``get(op)``); the last ``_RECENT`` ops are kept
    alive, numbered, since explanations look at ops that no tape recorded."""

    def __init__(self) -> None:
        self.sites: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.recent: collections.deque = collections.deque(maxlen=_RECENT)  # (number, op)
        self.count = 0  # ops seen so far

    def observe(self, op: Operation) -> None:
        self.sites[op] = user_site()
        self.count += 1
        self.recent.append((self.count, op))

    def get(self, op: Operation) -> str | None:
        """``file:line`` of the user's code that ran ``op``, when recorded."""
        return self.sites.get(op)


_RECENT = 4096


def ops_seen() -> int:
    """How many ops the debugging switch has seen (tapes note it when entered)."""
    log = autodiff_state.op_sites
    return log.count if log is not None else 0


def enable_explain_none_gradients() -> None:
    """From now on (in this thread), every None gradient of ``GradientTape.gradient`` comes
    with a NoneGradientWarning saying why, and the lines that ran ops are recorded.

    >>> import retrograd as rg
    >>> import warnings
    >>> rg.debugging.enable_explain_none_gradients()
    >>> x, unused = rg.constant(1.0), rg.constant(2.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch([x, unused])
    ...     y = x * 3.0
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter('always')
    ...     print(tape.gradient(y, unused))
    None
    >>> caught[0].category.__name__
    'NoneGradientWarning'
    >>> rg.debugging.disable_explain_none_gradients()
    """
    if autodiff_state.explain_none:
        return
    autodiff_state.explain_none = True
    autodiff_state.op_sites = SiteLog()
    context.push_observer(autodiff_state.op_sites)


def disable_explain_none_gradients() -> None:
    """Stops what ``enable_explain_none_gradients`` started.

    >>> import retrograd as rg
    >>> rg.debugging.enable_explain_none_gradients()
    >>> rg.debugging.disable_explain_none_gradients()  # None gradients are silent again
    """
    if not autodiff_state.explain_none:
        return
    autodiff_state.explain_none = False
    context.pop_observer(autodiff_state.op_sites)
    autodiff_state.op_sites = None


@contextlib.contextmanager
def explain_none_gradients() -> Iterator[None]:
    """``enable_explain_none_gradients`` for the duration of a ``with`` block.

    >>> import warnings, retrograd as rg
    >>> v = rg.Variable(1.0, name="v")
    >>> x = rg.constant(3.0)
    >>> with rg.debugging.explain_none_gradients(), warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     with rg.GradientTape() as tape:
    ...         y = x * 2.0
    ...     tape.gradient(y, v)
    >>> "never read while the tape recorded" in str(w[0].message)
    True
    """
    was = autodiff_state.explain_none
    enable_explain_none_gradients()
    try:
        yield
    finally:
        if not was:
            disable_explain_none_gradients()


class RuleNoneWatch:
    """Backward observer noting the inputs a gradient function returned None for."""

    def __init__(self) -> None:
        self.found: list[tuple[Operation, Any, int]] = []

    def observe_backward(self, op: Operation, rule: Any, upstream: list, grads: Any) -> None:
        for i, g in enumerate(grads):
            if g is None:
                self.found.append((op, rule, i))


def _records(tracked: dict) -> list[Operation]:
    seen: set[int] = set()
    ops = []
    for op in tracked.values():
        if op is not None and id(op) not in seen:
            seen.add(id(op))
            ops.append(op)
    return ops


def _site(op: Operation) -> str:
    sites = autodiff_state.op_sites
    site = sites.get(op) if sites is not None else None
    return f" at {site}" if site else ""


def _label(op: Operation) -> str:
    return f"op '{op.name}' (type {op.type}){_site(op)}"


def explanations(
    tape: Any,
    tracked: dict,
    blocked: list,
    targets: list,
    sources: list,
    grads: list,
    none_rules: list,
    describe_rule: Any,
) -> list[str | None]:
    """For each source whose gradient is None, why (None for the others)."""
    ops = _records(tracked)
    needed = {t._id for t in targets}
    for op in reversed(ops):
        if any(out._id in needed for out in op.outputs):
            needed.update(v._id for v in op.inputs)
    targets_recorded = any(t._id in tracked for t in targets)
    found: list[str | None] = []
    for source, g in zip(sources, grads):
        if g is not None:
            found.append(None)
            continue
        influenced = {source._id}
        for op in ops:
            if any(v._id in influenced for v in op.inputs):
                influenced.update(out._id for out in op.outputs)
        found.append(
            _reason(
                tape,
                tracked,
                blocked,
                ops,
                source,
                influenced,
                needed,
                targets_recorded,
                none_rules,
                describe_rule,
            )
        )
    return found


def _reason(
    tape: Any,
    tracked: dict,
    blocked: list,
    ops: list,
    source: Any,
    influenced: set,
    needed: set,
    targets_recorded: bool,
    none_rules: list,
    describe_rule: Any,
) -> str:
    dtype = source._value.dtype
    if dtype.kind not in "fc":
        return (
            f"not differentiable: it has dtype {dtype.name}; only floating and complex values "
            f"have gradients"
        )
    if source._id not in tracked:
        if isinstance(source, Variable):
            if not source.trainable:
                return (
                    "not watched: the variable is not trainable, so tapes do not watch it "
                    "when it is read; call tape.watch(v) to differentiate with respect to it"
                )
            if not tape.watches_accessed_variables:
                return (
                    "not watched: the tape was made with watch_accessed_variables=False and "
                    "tape.watch(v) was not called for this variable"
                )
            return (
                "not watched: the variable was never read while the tape recorded (it was "
                "not used inside the `with GradientTape()` block, or only under "
                "stop_recording or in another thread)"
            )
        return (
            "not watched: call tape.watch(x) inside the `with GradientTape()` block before "
            "computing with it (only trainable variables are watched automatically)"
        )
    for key in influenced:
        note = tape.notes.get(key)
        if note is not None and note[0] == "captured":
            return f"captured: {note[1]}"
    on_path = [op for op in ops if any(v._id in influenced for v in op.inputs)]
    for op in blocked:
        if any(v._id in influenced for v in op.inputs):
            out = op.outputs[0]._value.dtype.name
            return (
                f"no gradient op: the path from it goes through {_label(op)}, whose output "
                f"has dtype {out}: integer and bool values carry no gradient. "
                f"{_STRAIGHT_THROUGH}."
            )
    if not targets_recorded:
        found = _unrecorded_ancestry(tracked, influenced, tape.opened)
        if found:
            return found + _stopped_note(tape)
        return (
            "target not recorded: the target was not computed by ops this tape recorded from "
            "anything it watches: it does not depend on the source at all, or its value left "
            "the tape (through .numpy(), float(), NumPy arithmetic or "
            "retrograd.constant(tensor), which make a new constant), or it was "
            "computed under tape.stop_recording(), outside the `with` block, or in another "
            "thread" + _stopped_note(tape)
        )
    for op, rule, i in none_rules:
        if i < len(op.inputs) and op.inputs[i]._id in influenced:
            return (
                f"rule returned None: {describe_rule(op, rule)} returned None for input {i} of "
                f"{_label(op)}"
            )
    for op in on_path:
        if (
            op.grad_fn is None
            and _declared_without_gradient(op.type)
            and (any(out._id in needed for out in op.outputs) or op.type == "StopGradient")
        ):
            return _no_gradient(op)
    for op in on_path:
        if op.grad_fn is None and _declared_without_gradient(op.type):
            return _no_gradient(op)
    return (
        "no path: it was watched, but the target does not depend on it through the ops the "
        "tape recorded (it was not used to compute the target, or only through values that "
        "left the tape)"
    )


def _unrecorded_ancestry(tracked: dict, influenced: set, since: int) -> str:
    """With the lines recorded (the debugging switch), what the target was computed from
    while the tape did not record: an op run on a value the tape tracks (under
    stop_recording, outside the block, in another thread), or a constant holding the
    value of a tracked tensor (the value left the tape). "" when nothing is found."""
    log = autodiff_state.op_sites
    if log is None:
        return ""
    ops = [op for n, op in log.recent if n > since]  # run since the tape was entered
    recorded = {id(op) for op in tracked.values() if op is not None}
    for op in ops:
        if id(op) in recorded or op.type == "ReadVariableOp":
            continue
        for v in op.inputs:
            if v._id in influenced:
                return (
                    f"target not recorded: {_label(op)} computed with a value the tape tracks "
                    f"but the tape did not record it (it ran under tape.stop_recording(), "
                    f"outside the `with` block, or in another thread)"
                )
    # (shape, dtype, bytes) -> a tracked tensor computed from the source
    values: dict[tuple, Any] = {}
    for op in tracked.values():
        if op is None:
            continue
        for out in op.outputs:
            if out._id in influenced and not is_stand_in(out._value):  # (freed: unknown)
                a = out._value
                values.setdefault((a.shape, a.dtype.str, a.tobytes()), op)
    if not values:
        return ""
    produced = {out._id for op in ops for out in op.outputs}
    for op in ops:
        if id(op) in recorded:
            continue
        for v in op.inputs:
            a = getattr(v, "_value", None)
            if a is None or v._id in produced or v._id in tracked:
                continue
            source_op = values.get((a.shape, a.dtype.str, a.tobytes()))
            if source_op is not None:
                return (
                    f"target not recorded: the value of {_label(source_op)} left the tape and "
                    f"came back as a new constant, used by {_label(op)} (.numpy(), float(), "
                    f"NumPy arithmetic or retrograd.constant(tensor) make a new constant "
                    f"that no tape connects to what it was computed from); keep the "
                    f"computation in retrograd ops"
                )
    return ""


def _declared_without_gradient(op_type: str) -> bool:
    return op_type in gradient_registry and gradient_registry.find(op_type) is None


def _no_gradient(op: Operation) -> str:
    if op.type == "StopGradient":
        return f"no gradient op: the path from it to the target goes through {_label(op)}."
    return (
        f"no gradient op: the path from it to the target goes through {_label(op)}, which "
        f"has no gradient. {_STRAIGHT_THROUGH}."
    )


def _stopped_note(tape: Any) -> str:
    sites = [note[1] for note in tape.notes.values() if note[0] == "stopped"]
    if not sites:
        return "."
    return f". This tape's stop_recording() was used at {sites[0]}."


def warn_none(sources: list, reasons: list, site: str, stacklevel: int = 4) -> None:
    """One NoneGradientWarning per source with a reason (``stacklevel`` as ``warnings.warn``
    counts it from here: the user's frame)."""
    for i, (source, reason) in enumerate(zip(sources, reasons)):
        if reason is None:
            continue
        what = f"variable '{source.name}'" if isinstance(source, Variable) else "tensor"
        warnings.warn(
            NoneGradientWarning(
                f"The gradient for source {i} ({what}, shape {_shape_text(source)}, "
                f"{source._value.dtype.name}) requested at {site} is None:\n  {reason}"
            ),
            stacklevel=stacklevel,
        )


def _shape_text(source: Any) -> str:
    shape = source._value.shape  # (None in a graph where the rank is unknown)
    return "unknown" if shape is None else str(tuple(shape))


def none_gradient_reasons(variables: list) -> str:
    """Why the last ``GradientTape.gradient`` gave None for these variables (for the text of
    an optimizer's "no gradients" error); "" when it is not known."""
    known = autodiff_state.none_gradients or {}
    lines = []
    for v in variables:
        found = known.get(v._id)
        if found is not None and found[0] is v:
            lines.append(f"  '{v.name}': {found[1]}")
    if not lines:
        return ""
    return "\nWhy (from the last GradientTape.gradient):\n" + "\n".join(lines)


_MORE = (
    " (for the exact op and line, call tape.gradient(..., explain=True) or enable "
    "retrograd.debugging.explain_none_gradients())"
)


def _keep_for_optimizers(sources: list, reasons: list) -> None:
    """Why each variable got None, kept for the optimizer's "no gradients" error."""
    autodiff_state.none_gradients = {
        s._id: (s, r) for s, r in zip(sources, reasons) if r is not None and isinstance(s, Variable)
    }


def explained_walk(tape: Any, targets: list, sources: list, walk: Any, stacklevel: int = 4) -> list:
    """``walk()`` (the backward passes of ``tape.gradient`` or ``tape.jacobian``: one result
    per source, None where there is none), with a NoneGradientWarning for each None saying
    why; ``stacklevel`` counts from ``warn_none`` to the user's frame."""
    tracked, blocked = tape.producers(), list(tape.blocked_ops)
    watch = RuleNoneWatch()
    autodiff_state.backward_observers.append(watch)
    try:
        grads = walk()
    finally:
        autodiff_state.backward_observers.remove(watch)
    autodiff_state.none_gradients = None
    if any(g is None for g in grads):
        reasons = explanations(
            tape, tracked, blocked, targets, sources, grads, watch.found, describe_rule
        )
        _keep_for_optimizers(sources, reasons)
        warn_none(sources, reasons, user_site(), stacklevel)
    return grads


def note_none_variables(
    tape: Any, targets: list, sources: list, grads: list, recorded: bool
) -> None:
    """Why variables got None, from what the walk left (for optimizers' errors)."""
    if not any(g is None and isinstance(s, Variable) for s, g in zip(sources, grads)):
        return
    wanted = [g if isinstance(s, Variable) else 0 for s, g in zip(sources, grads)]
    tracked = tape.producers()
    if recorded and not any(t._id in tracked for t in targets):
        tracked[targets[0]._id] = None  # (released by the walk: it was recorded)
    reasons = explanations(
        tape, tracked, list(tape.blocked_ops), targets, sources, wanted, [], describe_rule
    )
    if not tape.persistent:
        reasons = [r if r is None or r.startswith("not ") else r + _MORE for r in reasons]
    _keep_for_optimizers(sources, reasons)
