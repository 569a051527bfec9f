"""Does a gradient rule use its upstream gradient? One diagnosis for every checker.

A gradient function must return upstream × local derivative. The commonest mistake (the
seeds' question, "what is ``dy``?") is to return the local derivative alone: the rule is then
right wherever its upstream gradient happens to be 1 (a scalar loss seeded with 1) and
wrong everywhere else. A rule is linear in its upstream gradient, so calling it again with
the upstream doubled must double what it returns: :func:`ignores_upstream` tests exactly
that, and ``check_gradients``, ``retrograd check`` and ``enable_gradient_checks()`` say it
in the same words (:func:`diagnosis`). :class:`UpstreamProbe` watches a backward pass and
names every rule that ignores its upstream.

>>> import retrograd as tf
>>> @tf.custom_gradient
... def square(x):
...     return x * x, lambda dy: 2 * x  # forgot dy
>>> x = tf.constant(1.5, tf.float64)
>>> probe = UpstreamProbe()
>>> with probe:
...     with tf.GradientTape() as tape:
...         tape.watch(x)
...         y = square(x)
...     _ = tape.gradient(y, x)
>>> print(probe.found[0].split(" (defined at")[0])
custom_gradient function 'square'
>>> print(diagnosis("the rule"))
the rule ignores its upstream gradient (dy): its result does not change when dy doubles
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.autodiff.rule_checks import call_rule, describe_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.checking.observing import paused
from retrograd.core.execute import Operation
from retrograd.core.registry import gradient_registry
from retrograd.core.tensor import Tensor

__all__ = ["IGNORES_UPSTREAM", "FIX", "diagnosis", "ignores_upstream", "UpstreamProbe"]

IGNORES_UPSTREAM = "ignores its upstream gradient (dy): its result does not change when dy doubles"
FIX = (
    "A gradient function must return dy times the local derivative, one gradient per input "
    "(for y = x * x: lambda dy: dy * 2 * x, not lambda dy: 2 * x)."
)
_PACKAGE = __file__.rsplit("checking", 1)[0]  # the retrograd package folder


def diagnosis(rule_text: str) -> str:
    """The shared sentence: ``<rule_text> ignores its upstream gradient (dy): ...``."""
    return f"{rule_text} {IGNORES_UPSTREAM}"


def _nonzero(value: Any) -> bool:
    return isinstance(value, Tensor) and bool(np.any(value._value != 0))


def ignores_upstream(rule: Any, op: Operation, upstream: list, downstream: list) -> bool:
    """True when ``rule`` returns the same nonzero gradients for ``op`` with every upstream
    gradient doubled (``downstream``: what it returned for ``upstream``). A rule that cannot
    be called again (it raised) is not judged: False."""
    if not any(isinstance(u, Tensor) for u in upstream) or not any(map(_nonzero, downstream)):
        return False
    if any(u is not None and not isinstance(u, Tensor) for u in upstream):
        return False  # sparse upstream gradients: not doubled here
    try:
        with paused():
            doubled = [None if u is None else u * 2 for u in upstream]
            again = call_rule(rule, op, doubled)
    except Exception:  # a diagnosis must never replace the failure it explains
        return False
    for first, second in zip(downstream, again):
        if first is None and second is None:
            continue
        if not (isinstance(first, Tensor) and isinstance(second, Tensor)):
            return False
        a, b = first._value, second._value
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-6, atol=0.0, equal_nan=True):
            return False
    return True


def _checked(op: Operation, rule: Any) -> Any:
    """The key of a rule worth probing (custom gradients and rules registered outside
    retrograd), or None."""
    f = getattr(rule, "_f", None)
    if f is not None and hasattr(rule, "call"):
        return ("custom", f)
    if op.type in gradient_registry:
        where = gradient_registry.location(op.type)
        if not where.startswith(_PACKAGE):
            return ("registered", op.type)
    return None


class UpstreamProbe:
    """A backward observer (``with probe:`` while a gradient runs) that tests every custom
    rule, and every rule registered outside retrograd, with :func:`ignores_upstream`;
    ``found`` names the rules that ignore it (``describe_rule``'s words), each once."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self._seen: set = set()

    def observe_backward(self, op: Operation, rule: Any, upstream: list, downstream: list) -> None:
        key = _checked(op, rule)
        if key is None or key in self._seen:
            return
        self._seen.add(key)
        if ignores_upstream(rule, op, upstream, list(downstream)):
            self.found.append(describe_rule(op, rule))

    def __enter__(self) -> UpstreamProbe:
        autodiff_state.backward_observers.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        autodiff_state.backward_observers.remove(self)
