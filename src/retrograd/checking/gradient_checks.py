"""Automatic gradient checks: every custom rule verified the first time it runs.

While enabled, a backward observer looks at each gradient rule the backward walk calls.
The first time a custom-gradient function's rule runs (and, with ``registered=True``, the
first time an op type's registered rule runs), the rule is called once more with a random
upstream gradient ``u`` and its result compared, input by input along a random direction
``v``, with the central difference of ``⟨u, f(x + h v)⟩`` — the function's forward run
again, in float64 where it allows. A wrong rule raises ``GradientCheckError`` naming the
rule and where it was defined. Off by default, nothing runs when off.

>>> import retrograd as rg
>>> @rg.custom_gradient
... def square(x):
...     return x * x, lambda upstream: 2 * x  # forgot to multiply by upstream
>>> x = rg.constant(3.0)
>>> with rg.debugging.gradient_checks():
...     with rg.GradientTape() as tape:
...         tape.watch(x)
...         loss = 2.0 * square(x)
...     tape.gradient(loss, x)
Traceback (most recent call last):
    ...
retrograd.GradientCheckError: gradient check failed: custom_gradient function 'square' ...
"""

from __future__ import annotations

import contextlib
import inspect
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.rule_checks import call_rule, describe_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.checking.gradcheck import GradientCheckError
from retrograd.checking.observing import paused, summarize
from retrograd.checking.upstream import FIX, diagnosis, ignores_upstream
from retrograd.core import nest
from retrograd.core.backends import to_host
from retrograd.core.execute import OP_DEFS, Operation, execute
from retrograd.core.records import is_stand_in
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = ["enable_gradient_checks", "disable_gradient_checks", "gradient_checks"]


class _Installed(threading.local):
    """The checkers ``enable_gradient_checks`` installed in this thread."""

    def __init__(self) -> None:
        self.checkers: list = []


_installed = _Installed()

LOCATE_LIMIT = 64  # inputs up to this size are located elementwise when a check fails
ATTEMPTS = 3  # inconclusive checks (kinks, non-finite values) are retried this many times


class GradientChecker:
    """The backward observer that checks rules; ``checked`` holds the rules that passed."""

    def __init__(self, registered: bool, skip: Iterable[Any], seed: int) -> None:
        self.registered = bool(registered)
        self.skip = list(skip)
        self.checked: set = set()
        self.attempts: dict = {}
        self.rng = np.random.default_rng(seed)

    def observe_backward(self, op: Operation, rule: Any, upstream: list, downstream: list) -> None:
        key = self._key(op, rule)
        if key is None or key in self.checked or self.attempts.get(key, 0) >= ATTEMPTS:
            return
        if any(is_stand_in(v._value) for v in (*op.inputs, *op.outputs)):
            return  # values freed before checks were enabled: checked on a later record
        self.attempts[key] = self.attempts.get(key, 0) + 1
        with paused():
            verdict = _RuleCheck(op, rule, self.rng).run()
        if verdict is True:
            self.checked.add(key)
        elif isinstance(verdict, str):
            raise GradientCheckError(verdict)

    def _key(self, op: Operation, rule: Any) -> Any:
        f = getattr(rule, "_f", None)
        if f is not None and hasattr(rule, "call"):
            names = {f.__name__, f.__qualname__}
            for s in self.skip:
                if (isinstance(s, str) and s in names) or inspect.unwrap(s) is f:
                    return None
            return ("custom", f)
        if not self.registered or op.type in self.skip:
            return None
        return ("op", op.type)


def enable_gradient_checks(
    registered: bool = False, skip: Iterable[Any] = (), seed: int = 0
) -> GradientChecker:
    """Checks every custom gradient (every registered gradient too with ``registered=True``)
    against finite differences the first time it runs; returns the checker.

    ``skip``: custom-gradient functions (or their names) and op types to leave out, e.g. a
    straight-through estimator whose gradient deliberately differs from the derivative.

    >>> import retrograd as rg
    >>> checker = rg.debugging.enable_gradient_checks()
    >>> @rg.custom_gradient
    ... def double(x):
    ...     return 2 * x, lambda dy: 2 * dy
    >>> x = rg.constant(1.0, rg.float64)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = double(x)
    >>> tape.gradient(y, x).numpy().tolist()  # checked against finite differences
    2.0
    >>> rg.debugging.disable_gradient_checks()
    """
    disable_gradient_checks()
    checker = GradientChecker(registered, skip, seed)
    _installed.checkers.append(checker)
    autodiff_state.backward_observers.append(checker)
    return checker


def disable_gradient_checks() -> None:
    """Stops the checks started by ``enable_gradient_checks`` (in this thread).

    >>> import retrograd as rg
    >>> checker = rg.debugging.enable_gradient_checks()
    >>> rg.debugging.disable_gradient_checks()  # custom gradients are trusted again
    """
    while _installed.checkers:
        checker = _installed.checkers.pop()
        if checker in autodiff_state.backward_observers:
            autodiff_state.backward_observers.remove(checker)


@contextlib.contextmanager
def gradient_checks(
    registered: bool = False, skip: Iterable[Any] = (), seed: int = 0
) -> Iterator[GradientChecker]:
    """``enable_gradient_checks`` for the duration of a ``with`` block.

    >>> import retrograd as rg
    >>> @rg.custom_gradient
    ... def double(x):
    ...     return 2 * x, lambda dy: dy  # wrong: should be 2 * dy
    >>> x = rg.constant(1.0, rg.float64)
    >>> with rg.debugging.gradient_checks():
    ...     with rg.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = double(x)
    ...     try:
    ...         tape.gradient(y, x)
    ...     except rg.GradientCheckError:
    ...         print('caught the wrong gradient')
    caught the wrong gradient
    """
    checker = GradientChecker(registered, skip, seed)
    autodiff_state.backward_observers.append(checker)
    try:
        yield checker
    finally:
        autodiff_state.backward_observers.remove(checker)


class _RuleCheck:
    """One check of one rule at the inputs of one recorded op."""

    def __init__(self, op: Operation, rule: Any, rng: np.random.Generator) -> None:
        self.op, self.rule, self.rng = op, rule, rng
        self.inputs = [np.asarray(to_host(v._value)) for v in op.inputs]
        self.custom = hasattr(rule, "call")

    def run(self) -> bool | str | None:
        """True: right; a message: wrong; None: inconclusive (kink, non-finite, no forward)."""
        op = self.op
        if not self.custom and any(not isinstance(v, Tensor) for v in op.inputs):
            return True  # variable reads: nothing to check
        if not self.custom and op.type not in OP_DEFS:
            return None
        if any(np.iscomplexobj(a) for a in self.inputs) or any(
            y._value.dtype.kind == "c" for y in op.outputs
        ):
            return None  # complex values: check_gradients checks them, this checker does not
        self.upstream = [
            Tensor(self.rng.standard_normal(y._value.shape).astype(y._value.dtype))
            if y._value.dtype.kind == "f"
            else None
            for y in op.outputs
        ]
        if all(u is None for u in self.upstream):
            return True
        self.grads = call_rule(self.rule, op, self.upstream)
        promoted = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in self.inputs]
        for values in (promoted, self.inputs):
            try:
                outputs = self._evaluate(values)
            except (TypeError, ValueError):
                continue
            return self._compare(values, outputs)
        return None

    # -- the forward, run again ---------------------------------------------------------
    def _evaluate(self, values: list[np.ndarray]) -> list[np.ndarray]:
        """The floating outputs of the op's forward at ``values`` (one per input)."""
        if self.custom:
            outputs = self._run_custom(values)
        else:
            op = self.op
            result = execute(OP_DEFS[op.type], [Tensor(v) for v in values], op.attrs or None)
            outputs = list(result) if isinstance(result, tuple) else [result]
        return [
            np.asarray(to_host(y._value), dtype=np.float64) if u is not None else None
            for y, u in zip(outputs, self.upstream)
        ]

    def _run_custom(self, values: list[np.ndarray]) -> list[Tensor]:
        args, kwargs = self.rule.call
        leaves = nest.flatten(args)
        slots = [k for k, a in enumerate(leaves) if isinstance(a, (Tensor, Variable))]
        new_leaves = list(leaves)
        for k, value in zip(slots, values):
            new_leaves[k] = Tensor(value)
        variables = self.rule._variables
        saved = [v._value for v in variables]
        try:
            for v, value in zip(variables, values[len(slots) :]):
                v._value = value
            result, _ = self.rule._f(*nest.pack_sequence_as(args, new_leaves), **kwargs)
        finally:
            for v, value in zip(variables, saved):
                v._value = value
        return [y if isinstance(y, Tensor) else Tensor(np.asarray(y)) for y in nest.flatten(result)]

    def _scalar(self, outputs: list) -> float:
        total = 0.0
        for y, u in zip(outputs, self.upstream):
            if u is not None:
                total += float(np.sum(y * np.asarray(to_host(u._value), dtype=np.float64)))
        return total

    # -- the comparison -----------------------------------------------------------------
    def _compare(self, values: list[np.ndarray], outputs: list) -> bool | str | None:
        eps = max(
            [np.finfo(v.dtype).eps for v in values if v.dtype.kind == "f"]
            + [np.finfo(np.float64).eps]
        )
        rule_eps = max(np.finfo(a.dtype).eps for a in self.inputs if a.dtype.kind == "f")
        rtol = max(3 * np.sqrt(rule_eps), 1e-6)
        base = self._scalar(outputs)
        for i, x in enumerate(values):
            if x.dtype.kind != "f" or x.size == 0:
                continue
            g = self._grad_array(i)
            step = eps ** (1 / 3) * max(1.0, float(np.max(np.abs(x))))
            v = self.rng.standard_normal(x.shape)
            plus, minus = (self._moved(values, i, s * v) for s in (step, -step))
            if not np.isfinite([plus, minus, base]).all():
                return None
            expected, computed = (plus - minus) / (2 * step), float(np.sum(g * v))
            magnitude = max(abs(expected), abs(computed), float(np.sum(np.abs(g * v))))
            tolerance = rtol * (magnitude + 1e-3) + 8 * eps * (abs(plus) + abs(minus)) / step
            if abs(computed - expected) <= tolerance:
                continue
            ahead, behind = (plus - base) / step, (base - minus) / step
            if abs(ahead - behind) > max(tolerance, 0.5 * abs(computed - expected)):
                return None  # not differentiable here along v: inconclusive
            return self._failure(values, i, g, step, computed, expected)
        return True

    def _grad_array(self, i: int) -> np.ndarray:
        g = self.grads[i]
        if g is None:
            return np.zeros(self.inputs[i].shape)
        return np.asarray(to_host(g._value), dtype=np.float64)

    def _moved(self, values: list, i: int, shift: np.ndarray) -> float:
        moved = list(values)
        moved[i] = (values[i] + shift).astype(values[i].dtype)
        try:
            return self._scalar(self._evaluate(moved))
        except (TypeError, ValueError):
            return float("nan")

    def _failure(self, values, i, g, step, computed, expected) -> str:
        op, rule = self.op, self.rule
        label = _input_label(op, i)
        where = self._locate(values, i, g, step)
        upstream = ", ".join(summarize(u) for u in self.upstream)
        lines = [
            f"gradient check failed: {describe_rule(op, rule)} is wrong for {label} "
            f"(value {summarize(self.inputs[i])}): with the upstream gradient {upstream} it "
            f"returned {summarize(self.grads[i])}, but finite differences of the forward give "
            f"{where}"
        ]
        hint = self._hint(computed, expected)
        if hint:
            lines.append(hint)
        name = rule._f.__name__ if self.custom else op.type
        if not hint.startswith("The rule ignores"):
            lines.append(
                "A gradient function must return upstream times the local derivative, one per "
                "input."
            )
        lines.append(
            "If this rule deliberately differs from the derivative (a straight-through or "
            f"surrogate gradient), leave it out: enable_gradient_checks(skip=['{name}'])."
        )
        return "\n".join(lines)

    def _locate(self, values, i, g, step) -> str:
        x = values[i]
        if x.size > LOCATE_LIMIT:
            return "a different directional derivative (the input is too large to show one)"
        numeric = np.zeros(x.shape)
        for position in np.ndindex(x.shape):
            unit = np.zeros(x.shape)
            unit[position] = 1.0
            plus, minus = (self._moved(values, i, s * unit) for s in (step, -step))
            numeric[position] = (plus - minus) / (2 * step)
        where = np.unravel_index(np.argmax(np.abs(g - numeric)), x.shape)
        index = tuple(int(k) for k in where)
        return (
            f"{summarize(numeric.astype(self.inputs[i].dtype))} (largest error "
            f"{float(abs(g - numeric)[where]):.6g} at index {index})"
        )

    def _hint(self, computed: float, expected: float) -> str:
        if expected != 0 and abs(computed + expected) <= 1e-3 * abs(expected):
            return "The sign looks flipped."
        if ignores_upstream(self.rule, self.op, self.upstream, list(self.grads)):
            return f"{diagnosis('The rule')}. {FIX}"
        return ""


def _input_label(op: Operation, i: int) -> str:
    value = op.inputs[i]
    return f"variable '{value.name}'" if isinstance(value, Variable) else f"input {i}"
