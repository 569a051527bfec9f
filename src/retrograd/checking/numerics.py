"""Where the first NaN or infinity came from, forward or backward.

``enable_check_numerics()`` installs an observer that looks at every op's outputs as it
runs and at every gradient rule's results; the first non-finite value raises
``InvalidArgumentError`` naming the op, its inputs (and, in the backward pass, the upstream
gradient and the rule), and the traceback of the line that created the op in the forward
pass. Tracebacks are captured only while enabled.

>>> import retrograd as rg
>>> x = rg.constant([0.0, 4.0])
>>> with rg.debugging.numeric_checks():
...     with rg.GradientTape() as tape:
...         tape.watch(x)
...         y = rg.reduce_sum(rg.sqrt(x))
...     tape.gradient(y, x)
Traceback (most recent call last):
    ...
retrograd.errors.InvalidArgumentError: Detected Infinity in the gradient for input 0 of op ...
"""

from __future__ import annotations

import contextlib
import os
import threading
import traceback
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.backprop import describe_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.checking.nan_patterns import backward_cause, forward_cause
from retrograd.checking.observing import inside_gradient_rule, summarize
from retrograd.core import sites
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import Operation, context

__all__ = ["enable_check_numerics", "disable_check_numerics", "numeric_checks"]


class _Installed(threading.local):
    """The checkers ``enable_check_numerics`` installed in this thread."""

    def __init__(self) -> None:
        self.checkers: list = []


_installed = _Installed()

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # retrograd/


class NumericsChecker:
    """Observer of ops (forward) and of rules (backward) that stops at the first non-finite."""

    def __init__(self, stack_height_limit: int = 30) -> None:
        self.stack_height_limit = int(stack_height_limit)
        self.created: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # id(tensor) -> (weak reference, producing op type, whether a where consumed it):
        # what the diagnosis of a first NaN looks at.
        self.producers: dict[int, list] = {}

    def _note_outputs(self, op: Operation) -> None:
        producers = self.producers
        for out in op.outputs:
            key = id(out)
            producers[key] = [
                weakref.ref(out, lambda _, k=key: producers.pop(k, None)),
                op.type,
                False,
            ]
        if op.type == "SelectV2":
            for value in op.inputs[1:]:
                found = producers.get(id(value))
                if found is not None and found[0]() is value:
                    found[2] = True

    def producer(self, value: Any) -> str | None:
        """The type of the op that produced ``value``, when this checker saw it."""
        found = self.producers.get(id(value))
        return found[1] if found is not None and found[0]() is value else None

    def _masked_by_where(self, value: Any) -> bool:
        found = self.producers.get(id(value))
        return found is not None and found[0]() is value and found[2]

    def observe(self, op: Operation) -> None:
        self._note_outputs(op)
        if inside_gradient_rule():
            # A rule's result is checked as a whole, with the rule named.
            self.created[op] = "inside a gradient function (a backward computation)"
            return
        self.created[op] = self._user_stack()
        for i, y in enumerate(op.outputs):
            problem = _non_finite(y)
            if problem:
                raise InvalidArgumentError(self._forward_message(op, i, y, problem))

    def observe_backward(self, op: Operation, rule: Any, upstream: list, downstream: list) -> None:
        for i, g in enumerate(downstream):
            problem = _non_finite(g)
            if problem:
                raise InvalidArgumentError(
                    self._backward_message(op, rule, upstream, i, g, problem)
                )

    def _user_stack(self) -> list[tuple]:
        """(code, line) of the calling frames outside retrograd, innermost last; formatted only
        when an error is raised (extracting source lines for every op would be slow)."""
        return sites.user_stack(self.stack_height_limit, 3)

    def _forward_message(self, op: Operation, i: int, y: Any, problem: str) -> str:
        lines = [
            f"Detected {problem} in output {i} of op '{op.name}' (type {op.type}) in the forward "
            f"pass: {_describe_value(y)}",
            *_inputs_lines(op),
        ]
        if any(_non_finite(v) for v in op.inputs):
            lines.append("  (its inputs already held non-finite values)")
        else:
            cause = forward_cause(op, i, self.producer)
            if cause:
                lines.append(f"Likely cause{self._line_of(op)}: {cause}")
        return "\n".join(lines + self._created_lines(op))

    def _backward_message(self, op, rule, upstream, i, g, problem) -> str:
        lines = [
            f"Detected {problem} in the gradient for input {i} of op '{op.name}' (type "
            f"{op.type}), computed by {describe_rule(op, rule)}: {_describe_value(g)}",
            *(f"  upstream gradient {k}: {summarize(u)}" for k, u in enumerate(upstream)),
            *_inputs_lines(op),
        ]
        if any(_non_finite(u) for u in upstream):
            lines.append("  (the upstream gradient already held non-finite values)")
        else:
            masked = any(self._masked_by_where(y) for y in op.outputs)
            cause = backward_cause(op, upstream, i, g, masked, self.producer)
            if cause:
                lines.append(f"Likely cause{self._line_of(op)}: {cause}")
        return "\n".join(lines + self._created_lines(op))

    def _line_of(self, op: Operation) -> str:
        """`` (at file:line)``: the user's line that created ``op``, when known."""
        stack = self.created.get(op)
        if not stack or isinstance(stack, str):
            return ""
        code, line = stack[-1]
        return f" (at {code.co_filename}:{line})"

    def _created_lines(self, op: Operation) -> list[str]:
        stack = self.created.get(op)
        if stack is None:
            return ["The op was created before check numerics was enabled."]
        if isinstance(stack, str):
            return [f"The op was created {stack}."]
        summary = traceback.StackSummary.from_list(
            [(code.co_filename, line, code.co_name, None) for code, line in stack]
        )
        frames = "".join(summary.format()).rstrip("\n")
        return ["The op was created at (most recent call last):", frames]


def _non_finite(value: Any) -> str:
    """ "NaN", "Infinity", "NaN and Infinity" or "" for a tensor (or None)."""
    a = getattr(value, "_value", None)
    if a is None or a.dtype.kind not in "fc" or np.all(np.isfinite(a)):
        return ""
    found = [name for name, test in (("NaN", np.isnan), ("Infinity", np.isinf)) if np.any(test(a))]
    return " and ".join(found)


def _describe_value(value: Any) -> str:
    a = value._value
    nan, inf = int(np.count_nonzero(np.isnan(a))), int(np.count_nonzero(np.isinf(a)))
    return (
        f"shape {tuple(a.shape)}, dtype {a.dtype.name}, {nan} NaN and {inf} infinite "
        f"element(s): {summarize(a)}"
    )


def _inputs_lines(op: Operation) -> list[str]:
    return [f"  input {k}: {summarize(v)}" for k, v in enumerate(op.inputs)]


def enable_check_numerics(stack_height_limit: int = 30, path_length_limit: int = 50) -> None:
    """From now on, the first op (forward or backward) producing NaN or infinity raises
    InvalidArgumentError saying where it was created (TensorFlow's signature); in this
    thread, as TensorFlow's op callbacks.

    >>> import retrograd as rg
    >>> rg.debugging.enable_check_numerics()
    >>> try:
    ...     rg.math.log(rg.constant(-1.0))
    ... except rg.errors.InvalidArgumentError:
    ...     print('NaN caught')
    NaN caught
    >>> rg.debugging.disable_check_numerics()
    """
    if _installed.checkers:
        return
    checker = NumericsChecker(stack_height_limit)
    _installed.checkers.append(checker)
    context.push_observer(checker)
    autodiff_state.backward_observers.append(checker)


def disable_check_numerics() -> None:
    """Stops what ``enable_check_numerics`` started.

    >>> import retrograd as rg
    >>> rg.debugging.enable_check_numerics()
    >>> rg.debugging.disable_check_numerics()
    >>> rg.math.is_nan(rg.math.log(-1.0)).numpy().tolist()
    True
    """
    while _installed.checkers:
        checker = _installed.checkers.pop()
        context.pop_observer(checker)
        autodiff_state.backward_observers.remove(checker)


@contextlib.contextmanager
def numeric_checks(stack_height_limit: int = 30) -> Iterator[NumericsChecker]:
    """``enable_check_numerics`` for the duration of a ``with`` block.

    >>> import retrograd as rg
    >>> with rg.debugging.numeric_checks():
    ...     try:
    ...         rg.sqrt(-1.0)
    ...     except rg.errors.InvalidArgumentError:
    ...         print('NaN caught')
    NaN caught
    """
    checker = NumericsChecker(stack_height_limit)
    context.push_observer(checker)
    autodiff_state.backward_observers.append(checker)
    try:
        yield checker
    finally:
        context.pop_observer(checker)
        autodiff_state.backward_observers.remove(checker)
