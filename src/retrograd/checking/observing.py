"""Shared helpers for the tools built on the execution hooks (traces, checks, NaN origin).

``paused()`` runs code unseen by tapes and observers (a checker's finite differences must
not be recorded, traced or checked again). ``inside_gradient_rule()`` tells whether the op
now running is part of a gradient computation rather than of the forward program.
``summarize`` renders a value in one short line, whatever its size; a graph tensor (in a
function being traced, or a TensorFlow 1 graph) has no value yet and is shown by its dtype
and shape, marked symbolic (:class:`Symbolic`).

>>> import numpy as np
>>> summarize(np.arange(3.0)), summarize(np.float32(16.0))
('[0 1 2]', '16.0')
>>> summarize(np.zeros((100, 100), np.float32))
'float32[100,100] min=0 max=0 mean=0'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import context
from retrograd.core.records import is_stand_in
from retrograd.graph.graph_tensors import TensorMeta
from retrograd.ops.print_ops import format_value

__all__ = ["paused", "inside_gradient_rule", "summarize", "as_array", "Symbolic"]


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No tape records, no observer sees, no backward observer hears and no custom_gradient
    collects the variables read by what runs inside."""
    saved = (
        context.tapes,
        context.observers,
        context.recording,
        autodiff_state.backward_observers,
        context.variable_watchers,
    )
    context.tapes, context.observers, context.recording = [], [], False
    autodiff_state.backward_observers, context.variable_watchers = [], []
    try:
        yield
    finally:
        (
            context.tapes,
            context.observers,
            context.recording,
            autodiff_state.backward_observers,
            context.variable_watchers,
        ) = saved


def inside_gradient_rule() -> bool:
    """True while a gradient function called by the backward walk is running."""
    return context.rule_depth > 0


class Symbolic:
    """What is known of a graph tensor's value before it runs: dtype and shape (None for an
    unknown dimension or rank).

    >>> str(Symbolic((None, 3), np.float32))
    'float32[?,3] symbolic'
    """

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: Any, dtype: Any) -> None:
        self.shape = shape
        self.dtype = np.dtype(dtype)

    def __str__(self) -> str:
        if self.shape is None:
            return f"{self.dtype.name}[unknown rank] symbolic"
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.name}[{dims}] symbolic"


def as_array(value: Any) -> Any:
    """The array a tensor, variable or array-like holds (None stays None); a graph tensor's
    :class:`Symbolic` description."""
    if value is None:
        return None
    inner = getattr(value, "_value", value)
    if isinstance(inner, Symbolic):
        return inner
    if isinstance(inner, TensorMeta):
        return Symbolic(inner.shape, inner.dtype)
    return np.asarray(inner)


def summarize(value: Any, limit: int = 6) -> str:
    """One line: the values when there are at most ``limit`` of them, else dtype, shape, stats."""
    a = as_array(value)
    if a is None:
        return "None"
    if isinstance(a, Symbolic):
        return str(a)
    if a.ndim == 0:
        return str(a[()])
    if a.size <= limit:
        return " ".join(format_value(a, summarize=-1).split())
    shape = ",".join(str(d) for d in a.shape)
    if a.dtype.kind not in "iuf" or a.size == 0:
        return f"{a.dtype.name}[{shape}]"
    if is_stand_in(getattr(value, "_value", None)):
        return f"{a.dtype.name}[{shape}] (freed: no gradient function reads it)"
    finite = a[np.isfinite(a)] if a.dtype.kind == "f" else a
    stats = (
        f"min={_g(finite.min())} max={_g(finite.max())} mean={_g(finite.mean())}"
        if finite.size
        else "no finite values"
    )
    if finite.size != a.size:
        stats += f" non-finite={a.size - finite.size}"
    return f"{a.dtype.name}[{shape}] {stats}"


def _g(x: Any) -> str:
    return f"{float(x):.4g}"
