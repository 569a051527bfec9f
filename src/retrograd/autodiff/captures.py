"""Tensors a custom gradient captures: used by its forward or its ``grad_fn`` without being
inputs, while a tape differentiates them.

The custom op's gradient reaches its inputs only, so a captured tensor gets nothing through
the rule: the gradient with respect to whatever it came from is silently None (in
TensorFlow too). retrograd warns once per call site, naming the tensor and the rule and
saying how to fix it (pass the tensor as an argument); with
``retrograd.debugging.enable_strict_custom_gradients()`` it is a ``ValueError`` instead.

Not reported: values the forward computes from its inputs (``e = exp(x)`` used by
``grad_fn``: they stay connected), variables (they are the rule's ``variables``), and
custom gradients defined inside another rule's ``grad_fn`` (seed 004's
``first_order_custom`` captures the upstream gradient by design).

>>> import warnings, retrograd as rg
>>> x = rg.constant(2.0)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     with rg.GradientTape() as tape:
...         tape.watch(x)
...         scale = x * 3.0
...         @rg.custom_gradient
...         def f(a):
...             return a * scale, lambda dy: dy * scale
...         y = f(x)
>>> "uses the tensor 'scale'" in str(caught[0].message)
True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import context
from retrograd.core.registry import function_location
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = [
    "tape_sizes",
    "report_captures",
    "CapturedTensorWarning",
    "enable_strict_custom_gradients",
    "disable_strict_custom_gradients",
]


def enable_strict_custom_gradients() -> None:
    """From now on (in this thread), a custom gradient that captures a tensor being
    differentiated raises ValueError instead of warning.

    >>> import retrograd as rg
    >>> rg.debugging.enable_strict_custom_gradients()
    >>> x = rg.constant(2.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     scale = x * 3.0
    ...     @rg.custom_gradient
    ...     def f(a):
    ...         return a * scale, lambda dy: dy * scale
    ...     y = f(x)
    Traceback (most recent call last):
        ...
    ValueError: custom_gradient function 'f' ... uses the tensor 'scale' ...
    >>> rg.debugging.disable_strict_custom_gradients()
    """
    autodiff_state.strict_custom_gradients = True


def disable_strict_custom_gradients() -> None:
    """Captured tensors in custom gradients warn again (the default).

    >>> import retrograd as rg
    >>> rg.debugging.enable_strict_custom_gradients()
    >>> rg.debugging.disable_strict_custom_gradients()  # captured tensors warn again
    """
    autodiff_state.strict_custom_gradients = False


class CapturedTensorWarning(UserWarning):
    """A custom gradient uses a tensor being differentiated that is not one of its inputs.

    >>> import retrograd as rg
    >>> issubclass(rg.debugging.CapturedTensorWarning, UserWarning)
    True
    """


def tape_sizes() -> list[int]:
    """How many values each active tape tracks now (taken before a custom gradient's
    forward: the records added after it are the forward's, a tape's map keeping the order of
    recording, so the forward runs at full speed)."""
    return [tape.tracked_count() for tape in context.tapes]


def _forward_captures(tapes: list, sizes: list, inputs: list | tuple) -> tuple[set, list]:
    """The ids of the values the forward produced (with its inputs), and the tensors from
    outside that the ops it ran used while a tape tracked them."""
    produced = {x._id for x in inputs}
    captured: list = []
    for tape, size in zip(tapes, sizes):
        added = tape.tracked_count() - size
        if added <= 0:
            continue
        new = tape.recent(added)
        for key, _ in new:
            produced.add(key)
        last = None
        for _, op in new:
            if op is None or op is last:  # a watched value; the same op's next output
                continue
            last = op
            for value in op.inputs:
                key = value._id
                if key in produced or not tape.tracks(value) or isinstance(value, Variable):
                    continue
                produced.add(key)  # reported once
                captured.append((value, "forward"))
    return produced, captured


def _may_capture(tape: Any, size: int, args: Any, grad_fn: Callable) -> bool:
    """A quick test for one tape (which tracked ``size`` values before the forward of a
    custom gradient called with ``args`` ran): False when neither an op the forward ran nor
    ``grad_fn``'s closure uses a tensor the tape tracks from outside (so that the full
    analysis of ``report_captures`` would find nothing to report)."""
    produced = None
    added = tape.tracked_count() - size
    if added > 0:
        new = tape.recent(added)
        produced = {key for key, _ in new}
        for a in args:
            produced.add(a._id)
        outside = [
            value
            for _, op in new
            if op is not None
            for value in op.inputs
            if value._id not in produced
        ]
        if outside and tape.tracks_any(outside):
            return True
    cells = getattr(grad_fn, "__closure__", None)
    if cells:
        held = []
        for cell in cells:
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(value, Tensor):
                held.append(value)
        if held:
            if produced is None:
                produced = {a._id for a in args}
            held = [value for value in held if value._id not in produced]
            if held and tape.tracks_any(held):
                return True
    return False


def tracking_tape(value: Any) -> Any:
    """The innermost active tape that tracks ``value``, or None."""
    for tape in reversed(context.tapes):
        if tape.tracks(value):
            return tape
    return None


def report_captures(
    sizes: list,
    f: Callable,
    grad_fn: Callable,
    describe: Callable,
    inputs: list | tuple,
    keyword: Any,
) -> None:
    """Warns (or raises, in strict mode) for each tensor that the forward of ``f`` (run since
    ``sizes = tape_sizes()``) or ``grad_fn``'s closure captured (``describe(f)`` names the
    rule), when the tape differentiating it records the rule (a tape that tracks none of the
    inputs sees the forward's own ops, as in TensorFlow: nothing is lost); notes it on the
    tape for ``gradient(..., explain=True)``. ``keyword``: tensors passed by keyword (not
    inputs, and not captures either: a warning of their own names them)."""
    tapes = context.tapes
    if len(tapes) != len(sizes):  # the forward entered or left a tape: nothing to compare
        return
    arguments = [*inputs, *keyword] if keyword else inputs
    for i in range(len(tapes)):  # the common case, no capture, found quickly
        if _may_capture(tapes[i], sizes[i], arguments, grad_fn):
            break
    else:
        return
    produced, captured = _forward_captures(tapes, sizes, arguments)
    cells = getattr(grad_fn, "__closure__", None)
    if cells:
        for cell in cells:
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if (
                type(value) is not Variable
                and isinstance(value, Tensor)
                and value._id not in produced
                and tracking_tape(value) is not None
            ):
                produced.add(value._id)
                captured.append((value, "grad_fn"))
    if captured:
        _report(captured, f, grad_fn, describe, inputs)


def _report(
    captured: list, f: Callable, grad_fn: Callable, describe: Callable, inputs: list | tuple
) -> None:
    for value, where in captured:
        tape = tracking_tape(value)
        if not tape.tracks_any(inputs):
            continue
        name = _name_of(value, f, grad_fn)
        message = (
            f"{describe(f)} uses the tensor {name} ({describe_tensor(value)}) in its {where} "
            f"without taking it as an input, while a GradientTape differentiates it: the rule "
            f"gives it no gradient, so gradients with respect to what it was computed from "
            f"are None through this call. Fix: pass it as an argument of "
            f"'{f.__name__}' and return its gradient from grad_fn."
        )
        tape.notes.setdefault(value._id, ("captured", message))
        if autodiff_state.strict_custom_gradients:
            raise ValueError(message)
        warnings.warn(message, CapturedTensorWarning, stacklevel=6)


def describe_tensor(value: Any) -> str:
    """``shape (2,), float32, computed by op 'Mul' (type Mul) at file:line``: what is known."""
    text = f"shape {tuple(value._value.shape)}, {value._value.dtype.name}"
    tape = tracking_tape(value)
    op = tape.producer(value) if tape is not None else None
    if op is None:
        return text + ", watched directly"
    text += f", computed by op '{op.name}' (type {op.type})"
    site = autodiff_state.op_sites.get(op) if autodiff_state.op_sites is not None else None
    return text + (f" at {site}" if site else "")


def _closure(fn: Callable) -> list[tuple[str, Any]]:
    code, cells = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
    if code is None or not cells:
        return []
    found = []
    for name, cell in zip(code.co_freevars, cells):
        try:
            found.append((name, cell.cell_contents))
        except ValueError:  # an empty cell
            continue
    return found


def _name_of(value: Any, f: Callable, grad_fn: Callable) -> str:
    """How the user's code calls ``value``: a name in the closures or globals of ``f`` and
    ``grad_fn`` (``'scale'``), else ``a tensor``."""
    for fn in (grad_fn, f):
        for name, held in _closure(fn):
            if held is value:
                return f"'{name}'"
    for fn in (f, grad_fn):
        code, scope = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
        for name in getattr(code, "co_names", ()):
            if scope.get(name) is value:
                return f"'{name}'"
    return f"a tensor defined outside it (rule at {function_location(f)})"
