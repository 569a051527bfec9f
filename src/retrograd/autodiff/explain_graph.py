"""Why is a symbolic gradient None? ``retrograd.gradients(ys, xs, explain=True)`` (or every
``tf.gradients`` while ``retrograd.debugging.explain_none_gradients()`` is on) warns with a
``NoneGradientWarning`` for each ``x`` whose gradient is None, with the reasons of
:mod:`retrograd.autodiff.explain` that apply to a graph:

- ``no path``: the ys are not computed from it in the graph (or only through
  ``stop_gradients``);
- ``no gradient op``: the path goes through an op without a gradient (``Round``, a ``Cast``
  to an integer, ``ArgMax``, a comparison, ``StopGradient``), named with a fix;
- ``rule returned None``: a gradient function (a custom rule, named) returned None for it;
- ``not differentiable``: its dtype is an integer or bool.

A graph has no tape: every op the ys are computed from counts as recorded, and nothing needs
watching.

>>> import warnings, retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default(), warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     x = rg.compat.v1.placeholder(rg.float32, [2])
...     (dx,) = rg.gradients(rg.round(x) * 3.0, [x], explain=True)
>>> dx is None
True
>>> print(str(caught[0].message).splitlines()[1][:53])
  no gradient op: the path from it to the target goes
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.autodiff.backprop import describe_rule
from retrograd.autodiff.explain import RuleNoneWatch, explanations, user_site, warn_none
from retrograd.autodiff.state import state as autodiff_state

__all__ = ["explained_symbolic"]


class _GraphRecords:
    """What ``explanations`` reads from a tape, for a graph: nothing noted (captures, paused
    recording), nothing opened, every variable watched."""

    def __init__(self) -> None:
        self.notes: dict = {}
        self.opened = 0
        self.watches_accessed_variables = True


def _differentiable(value: Any) -> bool:
    return getattr(getattr(value, "_value", None), "dtype", None) is not None and (
        value._value.dtype.kind in "fc"
    )


def explained_symbolic(
    tracked: dict, ys: list, xs: list, stops: set, walk: Callable[[], list]
) -> list:
    """``walk()`` (the symbolic backward pass over ``tracked``: one gradient per x), with a
    NoneGradientWarning for each None saying why."""
    watch = RuleNoneWatch()
    autodiff_state.backward_observers.append(watch)
    try:
        grads = walk()
    finally:
        autodiff_state.backward_observers.remove(watch)
    if all(g is not None for g in grads):
        return grads
    ops = {id(op): op for op in tracked.values() if op is not None}.values()
    reached = {v._id for op in ops for v in (*op.inputs, *op.outputs)}
    # Ops where a float value becomes only integer or bool ones: gradients stop there.
    blocked = [
        op
        for op in ops
        if op.outputs
        and not any(_differentiable(out) for out in op.outputs)
        and any(_differentiable(v) for v in op.inputs)
    ]
    stop_note = " (stop_gradients cut the paths through the tensors it lists)" if stops else ""
    reasons: list[str | None] = [None] * len(xs)
    wanted = []  # the Nones explanations() is asked about: connected in the graph
    for i, (x, g) in enumerate(zip(xs, grads)):
        if g is None and x._id not in reached and _differentiable(x):
            reasons[i] = (
                "no path: the ys are not computed from it in this graph (it is not an input "
                f"of any op they depend on){stop_note}"
            )
            wanted.append(0)
        else:
            wanted.append(g)
    # A source the ys reach without it being an op's output (a variable) counts as recorded.
    tracked = {**{x._id: None for x in xs if x._id in reached}, **tracked}
    found = explanations(
        _GraphRecords(), tracked, blocked, ys, xs, wanted, watch.found, describe_rule
    )
    reasons = [r if r is not None else f for r, f in zip(reasons, found)]
    if stop_note:
        reasons = [r + stop_note if r and r.startswith("no path: it") else r for r in reasons]
    warn_none(xs, reasons, user_site())
    return grads
