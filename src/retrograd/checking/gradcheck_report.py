"""The words of ``check_gradients``: what failed, how strong the evidence is, how it was checked.

A comparison that failed at every step is a :class:`Finding`. It blames the rule ("is
wrong") only when the finite differences are trustworthy there: the one-sided differences
agree (no kink) and the central differences at the larger steps agree with the first (no
rounding noise or kink nearby). Otherwise the message says the gradient *does not match*
and why the differences may be what is off. Every message ends with how the check was made:
the random weights on the outputs, the directions and the steps.

>>> finding = Finding(2.0, 1e-6, [(8e-6, 3.0), (6.4e-5, 3.0)], 3.0, 3.0, 3.0)
>>> finding.blames, finding.verb
(True, 'is wrong')
>>> Finding(1.0, 1e-6, [(8e-6, 0.5)], 0.5, 1.0, 0.0).blames  # a kink: not the rule's fault
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.checking.finite_differences import STEP_FACTORS, numerical_gradient
from retrograd.checking.upstream import FIX, UpstreamProbe, diagnosis

__all__ = [
    "Finding",
    "name",
    "not_finite",
    "summary",
    "number",
    "reverse_failure",
    "forward_failure",
    "upstream_lines",
    "how",
]


def name(f: Callable) -> str:
    return getattr(f, "__qualname__", getattr(f, "__name__", repr(f)))


def not_finite(value: Any) -> str:
    """'NaN', 'infinity' or 'NaN and infinity' when ``value`` holds such numbers, else ''."""
    found = [
        word for word, test in (("NaN", np.isnan), ("infinity", np.isinf)) if np.any(test(value))
    ]
    return " and ".join(found)


def summary(value: Any) -> str:
    value = np.asarray(value)
    return number(value) if value.size == 1 else f"an array of shape {value.shape}"


def number(value: Any) -> str:
    """A number for a message: real ones as ``1.5``, complex ones as ``1.5+2j``."""
    value = complex(np.asarray(value).reshape(-1)[0])
    return f"{value.real:.6g}" if value.imag == 0 else f"{value.real:.6g}{value.imag:+.6g}j"


class Finding:
    """A derivative that disagreed with finite differences at every step tried.

    ``error`` and ``tolerance`` at the first step; ``tried``: ``(step, central difference)``
    at the larger steps; ``expected``: the central difference at the first step; ``ahead``
    and ``behind``: the one-sided differences there."""

    def __init__(self, error, tolerance, tried, expected, ahead, behind) -> None:
        self.error, self.tolerance, self.tried = float(error), float(tolerance), tried
        self.expected, self.ahead, self.behind = float(expected), float(ahead), float(behind)
        self.kink = abs(self.ahead - self.behind) > max(self.tolerance, 0.5 * self.error)
        finite = [abs(v - self.expected) for _, v in tried if np.isfinite(v)]
        self.spread = max(finite, default=0.0)
        self.unstable = not self.kink and self.spread > 0.25 * self.error
        self.blames = not (self.kink or self.unstable)

    @property
    def verb(self) -> str:
        return "is wrong" if self.blames else "does not match finite differences"

    def note(self, f: Callable) -> str:
        if self.kink:
            return (
                f"; the one-sided differences disagree ({self.ahead:.6g} ahead, "
                f"{self.behind:.6g} behind): '{name(f)}' may not be differentiable at this "
                f"point, where no gradient is right or wrong: check at another point"
            )
        if self.unstable:
            steps = ", ".join(f"{v:.6g} at h={h:.3g}" for h, v in self.tried)
            return (
                f"; the finite differences change with the step ({steps}): they are too "
                f"noisy here to judge the gradient (rounding, or a kink nearby): check at "
                f"another point or with a larger delta"
            )
        return ""


def reverse_failure(check, level, i, scalar, g, v, computed, finding, limit) -> str:
    """The message of a reverse-mode failure: the worst element when the argument has at
    most ``limit`` elements (or the direction is a unit vector), else the direction."""
    head = (
        f"gradient of '{name(check.f)}' at order {level} {finding.verb} for argument {i} "
        f"(reverse mode)"
    )
    x = check.xs[i]
    is_unit = np.count_nonzero(v) == 1 and np.max(np.abs(v)) == 1.0
    if is_unit or int(x._value.size) <= limit:
        numeric = numerical_gradient(scalar, check.xs, i, check.delta)
        error = np.abs(g - numeric)
        bad = error > check.atol + check.rtol * np.abs(numeric)
        if np.any(bad):
            where = np.unravel_index(np.argmax(np.where(bad, error, -1)), error.shape)
            return (
                f"{head}: largest error {float(error[where]):.6g} at index "
                f"{tuple(int(k) for k in where)} (computed {number(g[where])}, finite "
                f"differences {number(numeric[where])})" + finding.note(check.f)
            )
        reason = "no single element is off by more than the tolerance"
    else:
        reason = f"the argument has {x._value.size} elements, too many to locate one"
    return (
        f"{head}: along a random direction the error is {finding.error:.6g} (computed "
        f"⟨gradient, v⟩ = {computed:.6g}, finite differences {finding.expected:.6g}); {reason}"
        + finding.note(check.f)
    )


def forward_failure(check, level, i, k, index, computed, finding) -> str:
    return (
        f"gradient of '{name(check.f)}' at order {level} {finding.verb} for argument {i} "
        f"(forward mode): along a random direction the largest error of the Jacobian-vector "
        f"product is {finding.error:.6g}, at output {k} index {index} (computed "
        f"{computed:.6g}, finite differences {finding.expected:.6g})" + finding.note(check.f)
    )


def upstream_lines(scalar: Callable, xs: list, gradient_of: Callable) -> list[str]:
    """The rules that ignore their upstream gradient in the gradient of ``scalar``, each in
    the shared words of :mod:`retrograd.checking.upstream`."""
    probe = UpstreamProbe()
    try:
        with probe:
            gradient_of(scalar)(*xs)
    except Exception:  # a diagnosis must never replace the failure it explains
        return []
    return [f"{diagnosis(rule)}. {FIX}" for rule in probe.found]


def _weights_text(weights: list) -> str:
    parts = []
    for k, w in enumerate(weights):
        label = f"output {k}: " if len(weights) > 1 else ""
        if w.size == 1:
            parts.append(f"{label}w = {number(w)}")
        else:
            parts.append(f"{label}w of shape {tuple(w.shape)}, standard normal")
    return "; ".join(parts)


def _scalar_text(check: Any, level: int) -> str:
    weights = _weights_text(check.weights[level - 1])
    if any(w.size == 1 for w in check.weights[level - 1]):
        weights += (
            "; a single value's weight is never 1, so a rule that ignores its upstream "
            "gradient cannot pass"
        )
    if level == 1:
        return (
            f"s1(x) = sum(w * f(x)), the outputs of '{name(check.f)}' weighted at random "
            f"({weights})"
        )
    return f"s{level}(x) = sum(w * gradient of s{level - 1}(x)) ({weights})"


def how(check: Any, level: int, mode: str) -> str:
    """How the check that failed was made: weights, directions, steps, tolerances."""
    steps = ", ".join(f"{check.delta * f:.3g}" for f in STEP_FACTORS)
    tail = (
        f"along directions v (unit vectors for up to {check.directions} elements, else "
        f"random normals), h = {check.delta:.3g} (then {steps} where that failed); "
        f"tolerance {check.atol:g} + {check.rtol:g} * magnitude + rounding in "
        f"{check.working}."
    )
    if mode == "reverse":
        return (
            f"How it was checked: {_scalar_text(check, level)}; ⟨gradient of s{level}, v⟩ "
            f"against (s{level}(x + h v) - s{level}(x - h v)) / 2h {tail}"
        )
    if level == 1:
        what = f"'{name(check.f)}'"
    else:
        what = f"the gradient of s{level - 1}, where {_scalar_text(check, level - 1)}"
    return (
        f"How it was checked: the Jacobian-vector product of {what} (forward mode) against "
        f"(F(x + h v) - F(x - h v)) / 2h element by element, {tail}"
    )
