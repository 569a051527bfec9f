"""Checking gradients against central finite differences, to any order, in both modes.

``check_gradients(f, *args, order=2)`` runs ``f`` on float64 copies of ``args`` and turns its
outputs into one real number ``s(x) = sum(w * f(x))`` with random weights ``w`` — never 1,
not even for a scalar output, so a rule that ignores its upstream gradient ``dy`` cannot
pass. Then, argument by argument, it compares the derivative along a few random directions
``v`` with the central difference ``(s(x + h v) - s(x - h v)) / 2h``: ⟨gradient, v⟩ in
reverse mode, the Jacobian-vector product (``ForwardAccumulator``) element by element in
forward mode. Each direction costs three evaluations of ``f`` however large the argument,
so big inputs stay cheap. Order ``k`` repeats this on the gradient of the order ``k - 1``
scalar weighted again (nested tapes; forward over reverse), which exercises the gradient of
every gradient function.

Tolerances follow the arithmetic: rounding in ``s`` grows with the number of elements it
sums (the check measures ``sum(|w * f(x)|)``) and with the unit roundoff of the precision
``f`` computes in (a function that works in float32 is held to float32's tolerances and a
step suited to it); a comparison that fails at the step ``h`` is tried again at larger steps
before anything is reported. A failure raises ``GradientCheckError`` naming the function,
the argument, the order, the mode, the error and where it is, says how the check was made
(the weights, the directions, the step) and blames the rule only when the evidence does: at
a kink or where the differences themselves are unstable it says so instead, and a rule that
ignores its upstream gradient is named with the shared diagnosis of
:mod:`retrograd.checking.upstream`.

Complex arguments follow TensorFlow's convention: for a real scalar ``L(z)`` the gradient is
``dL/dRe(z) + i*dL/dIm(z)``, so ⟨gradient, v⟩ is the real inner product of the two as pairs
of reals, which a central difference along a complex ``v`` gives directly. A complex output
``y`` enters the scalar as ``sum(Re(y) * Re(w) + Im(y) * Im(w))``. Complex values are
checked in reverse mode.

>>> import retrograd as tf
>>> tf.check_gradients(lambda x: tf.sin(x) * x, [0.3, -1.2], order=2)
>>> @tf.custom_gradient
... def wrong_square(x):
...     return x * x, lambda upstream: upstream * x  # forgot the factor 2
>>> tf.check_gradients(wrong_square, 1.5, order=1)
Traceback (most recent call last):
    ...
retrograd.GradientCheckError: gradient of 'wrong_square' at order 1 is wrong ...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrograd.autodiff.forward import ForwardAccumulator
from retrograd.autodiff.tape import GradientTape
from retrograd.checking import gradcheck_report as report
from retrograd.checking.finite_differences import (
    STEP_FACTORS,
    direction_count,
    directional_difference,
    directions,
    float_outputs,
    numerical_gradient,
    real_inner,
)
from retrograd.checking.progress import Progress
from retrograd.core import nest
from retrograd.core.backends import is_array, on_device_of, to_host
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, constant, convert_to_tensor
from retrograd.ops import array_ops, complex_ops, math_ops, reduction_ops

__all__ = [
    "check_gradients",
    "numerical_gradient",
    "GradientCheckError",
    "directional_difference",
    "WORKING_TOLERANCE",
]

# Arguments up to this many elements are checked elementwise when a random direction fails,
# to say which element is wrong (two evaluations of f per element).
LOCATE_LIMIT = 4096
MODES = ("reverse", "forward")
MAX_ORDER = 8  # each order nests one more tape: beyond this a check would not end usefully
# Floors of atol and rtol for a function that computes in a lower precision than float64
# (JAX's check_grads uses the same): its rounding alone is that large.
WORKING_TOLERANCE = {"float16": 1e-2, "bfloat16": 5e-2, "float32": 2e-3}
ROUNDOFF = 8.0  # central differences lose up to ROUNDOFF * eps * sum(|terms|) / h to rounding
PROGRESS_DELAY = 2.0  # progress appears (on a terminal) once a check has run this long


class GradientCheckError(AssertionError):
    """A gradient disagrees with finite differences; the message says where and by how much.

    >>> import retrograd as tf
    >>> wrong = tf.custom_gradient(lambda x: (x * x, lambda dy: dy))  # should be 2 * x * dy
    >>> try:
    ...     tf.check_gradients(wrong, tf.constant(1.5, tf.float64), order=1)
    ... except tf.GradientCheckError as error:
    ...     caught = error
    >>> type(caught).__name__, isinstance(caught, AssertionError)
    ('GradientCheckError', True)
    """


GradientCheckError.__module__ = "retrograd"  # where users meet it: retrograd.GradientCheckError


def _modes(modes: Sequence[str] | str | None) -> tuple[str, ...]:
    if modes is None:
        return MODES
    chosen = (modes,) if isinstance(modes, str) else tuple(modes)
    unknown = [m for m in chosen if m not in MODES]
    if unknown or not chosen:
        raise ValueError(f"check_gradients: modes must be a subset of {MODES}, got {modes!r}")
    return chosen


def _promote(f: Callable, i: int, value: Any) -> Tensor:
    """A float64 (or complex128) copy of one argument, on the argument's device (a value
    from the host: the current device); TypeError naming it otherwise."""
    held = getattr(value, "_value", value)
    array = np.asarray(to_host(held))
    if array.dtype.kind not in "biufc":
        raise TypeError(
            f"check_gradients('{report.name(f)}'): argument {i} must hold numbers, got "
            f"{type(value).__name__} of dtype {array.dtype}"
        )
    promoted = array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)
    if is_array(held) and not isinstance(held, (np.ndarray, np.generic)):
        return Tensor(on_device_of(promoted, held))
    return constant(promoted)


def _evaluate(f: Callable, xs: list[Tensor]) -> list[Tensor]:
    try:
        return nest.flatten(f(*xs))
    except TypeError as e:
        if "same dtype" not in str(e):
            raise
        raise TypeError(
            f"check_gradients runs '{report.name(f)}' on float64 copies of its arguments, and "
            f"it mixed them with tensors of another dtype: {e}. Create constants inside it "
            f"with the input's dtype (retrograd.constant(1.0, dtype=x.dtype)) or use Python "
            f"numbers."
        ) from e


def _inner(y: Tensor, w: np.ndarray) -> Tensor:
    """The real inner product ``sum(y * w)`` in float64, complex values taken as pairs of
    reals (the weights take the output's precision)."""
    part = np.real(np.zeros((), y._value.dtype)).dtype
    if y.dtype.is_complex:
        real = _on_device(np.real(w).astype(part), y)
        imag = _on_device(np.imag(w).astype(part), y)
        total = reduction_ops.reduce_sum(complex_ops.real(y) * real)
        total = total + reduction_ops.reduce_sum(complex_ops.imag(y) * imag)
    else:
        total = reduction_ops.reduce_sum(y * _on_device(w.astype(part), y))
    return total if part == np.float64 else math_ops.cast(total, np.float64)


def _on_device(array: np.ndarray, like: Tensor) -> Tensor:
    """Host data (weights, directions) as a tensor on ``like``'s device."""
    return Tensor(on_device_of(array, like._value))


def weights_like(rng: np.random.Generator, shape: tuple, is_complex: bool) -> np.ndarray:
    """Random weights for the outputs of one order: standard normals, and for a single
    value a magnitude from 1.3 to 2 with a random sign (or phase): never 1, so that a rule
    returning the local derivative without its upstream gradient cannot agree.

    >>> w = weights_like(np.random.default_rng(0), (), False)
    >>> 1.3 <= abs(float(w)) <= 2.0
    True
    """
    if int(np.prod(shape, dtype=np.int64)) != 1:
        w = rng.standard_normal(shape)
        return w + 1j * rng.standard_normal(shape) if is_complex else w
    size = rng.uniform(1.3, 2.0)
    turn = np.exp(2j * np.pi * rng.uniform()) if is_complex else rng.choice([-1.0, 1.0])
    return np.full(shape, size * turn)


def _weighted_sum(f: Callable, weights: list[np.ndarray]) -> Callable:
    """``x -> (sum_i <f(x)_i, weights_i>, sum_i <|f(x)_i|, |weights_i|>)`` over the
    differentiable outputs: the real scalar checked, and the size of what it sums (which
    bounds the rounding in it)."""

    def scalar(*xs: Tensor) -> tuple[Tensor, Tensor]:
        outputs = float_outputs(nest.flatten(f(*xs)))
        terms = [_inner(y, w) for y, w in zip(outputs, weights)]
        scale = sum(
            float(np.sum(np.abs(to_host(y._value)) * np.abs(w))) for y, w in zip(outputs, weights)
        )
        return (terms[0] if len(terms) == 1 else sum(terms[1:], terms[0])), constant(scale)

    return scalar


def _gradient_of(scalar: Callable) -> Callable:
    """``x -> [d scalar / d x_i]`` (zeros where unconnected), itself differentiable."""

    def gradient(*xs: Tensor) -> list[Tensor]:
        with GradientTape() as tape:
            tape.watch(list(xs))
            value = scalar(*xs)[0]
        grads = tape.gradient(value, list(xs))
        # (a sparse gradient, an IndexedSlices, is compared as its dense tensor)
        return [
            array_ops.zeros_like(x) if g is None else convert_to_tensor(g)
            for g, x in zip(grads, xs)
        ]

    return gradient


def _working_precision(outputs: list[Tensor]) -> np.dtype:
    """The least precise real type among the outputs (complex64 counts as float32)."""
    reals = [np.real(np.zeros((), y._value.dtype)).dtype for y in outputs]
    return max(reals, key=lambda d: np.finfo(d).eps)


def check_gradients(
    f: Callable,
    *args: Any,
    order: int = 2,
    modes: Sequence[str] | str | None = None,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    delta: float | None = None,
    seed: int = 0,
    directions: int = 3,
    progress: bool | Callable[[str], Any] | None = None,
) -> None:
    """Raises GradientCheckError unless ``f``'s derivatives up to ``order`` match finite
    differences.

    Args:
        f: The function checked, called as ``f(*args)``.
        *args: Its arguments, converted to float64 tensors.
        order: The highest order of derivative checked.
        modes: ``"reverse"`` (tapes) and/or ``"forward"``
            (``retrograd.autodiff.ForwardAccumulator``); by default both (forward on real
            values only).
        atol: The absolute tolerance: an error larger than ``atol + rtol * magnitude`` plus
            the rounding the differences suffer fails, and so does a NaN or infinite
            gradient or difference. A function computing in float32 (or float16) is held
            to at least ``2e-3`` (``1e-2``): ``WORKING_TOLERANCE``.
        rtol: The relative tolerance.
        delta: The step ``h`` of the central differences; by default 1e-6, or the cube
            root of the unit roundoff when ``f`` computes in a lower precision than float64.
            A failing comparison is tried again at 8 and 64 times the step.
        seed: Seeds the random weights and directions.
        directions: Random directions tried per argument and order (drawn one at a time:
            memory stays proportional to the arguments).
        progress: True shows progress (steps done of the total, time left) on stderr; by
            default it appears on a terminal once the check has run for 2 seconds; False
            never; a callable receives one line per direction instead.

    Raises:
        GradientCheckError: A derivative disagrees; the message says where and by how much.

    >>> import retrograd as tf
    >>> @tf.custom_gradient
    ... def cube(x):
    ...     return x ** 3, lambda dy: dy * 3 * x ** 2
    >>> tf.check_gradients(cube, tf.constant([0.5, -1.0], tf.float64))  # passes: returns None
    """
    order, directions = _check_arguments(order, atol, rtol, delta, directions, seed)
    chosen = _modes(modes)
    rng = np.random.default_rng(seed)
    xs = [_promote(f, i, a) for i, a in enumerate(args)]
    outputs = float_outputs(_evaluate(f, xs))
    if not outputs:
        raise ValueError(f"check_gradients: '{report.name(f)}' returned no floating-point tensor")
    complex_values = any(y.dtype.is_complex for y in outputs) or any(x.dtype.is_complex for x in xs)
    if "forward" in chosen and complex_values:
        if modes is not None:
            raise TypeError(
                f"check_gradients('{report.name(f)}'): forward mode is checked on real values "
                f"only; use modes=('reverse',) for complex arguments or outputs"
            )
        chosen = tuple(m for m in chosen if m != "forward")
    weights = [weights_like(rng, y.shape, y.dtype.is_complex) for y in outputs]
    check = _Check(f, xs, rng, (atol, rtol, delta), directions, _working_precision(outputs))
    total = sum(
        level * direction_count(x.shape, directions, x.dtype.is_complex)
        for level in range(1, order + 1)
        for _ in chosen
        for x in xs
    )
    display = check.start_progress(progress, total)
    try:
        level_fn: Callable = f
        for level in range(1, order + 1):
            check.weights.append(weights)
            scalar = _weighted_sum(level_fn, weights)
            if "reverse" in chosen:
                check.reverse(level, scalar)
            if "forward" in chosen:
                check.forward(level, level_fn, scalar)
            if level < order:
                level_fn = _gradient_of(scalar)
                weights = [weights_like(rng, x.shape, x.dtype.is_complex) for x in xs]
    finally:
        if display is not None:
            display.close()


def _check_arguments(order, atol, rtol, delta, directions, seed) -> tuple[int, int]:
    """``order`` and ``directions`` as ints; TypeError/ValueError naming a bad argument."""

    def integer(name: str, value: Any, low: int, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                f"check_gradients: {name} must be an int, got {type(value).__name__}: {value!r}"
            )
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise ValueError(f"check_gradients: {name} must be {bound}, got {value}")
        return int(value)

    def real(name: str, value: Any, positive: bool) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(
                f"check_gradients: {name} must be a number, got {type(value).__name__}: {value!r}"
            )
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            wanted = "a finite number > 0" if positive else "a finite number >= 0"
            raise ValueError(f"check_gradients: {name} must be {wanted}, got {value!r}")

    if delta is not None:
        real("delta", delta, positive=True)
    real("atol", atol, positive=False)
    real("rtol", rtol, positive=False)
    if seed is not None:
        integer("seed", seed, 0)
    return integer("order", order, 1, MAX_ORDER), integer("directions", directions, 1)


class _Check:
    """One check_gradients call: the point, the tolerances, and how failures are reported."""

    def __init__(self, f, xs, rng, tolerances, directions, working: np.dtype) -> None:
        atol, rtol, delta = tolerances
        self.f, self.xs, self.rng = f, xs, rng
        floor = WORKING_TOLERANCE.get(np.dtype(working).name, 0.0)
        self.atol, self.rtol = max(atol, floor), max(rtol, floor)
        self.eps = float(np.finfo(working).eps)
        lower = np.dtype(working) != np.float64
        self.delta = delta if delta is not None else (self.eps ** (1 / 3) if lower else 1e-6)
        self.working = np.dtype(working).name
        self.directions = int(directions)
        self.weights: list[list[np.ndarray]] = []  # the weights of each order
        self.progress: Callable[[str], Any] | None = None
        self.display: Progress | None = None

    def start_progress(self, progress: Any, total: int) -> Progress | None:
        """The display of ``progress`` (see check_gradients), or None."""
        if callable(progress) and not isinstance(progress, bool):
            self.progress = progress
            return None
        if progress is False:
            return None
        label = f"check_gradients('{report.name(self.f)}'):"
        if progress is True:
            self.display = Progress(total, label, enabled=True)
        else:
            self.display = Progress(total, label, enabled=None, delay=PROGRESS_DELAY)
        return self.display

    def _report(self, level: int, mode: str, i: int, described: str) -> None:
        if self.progress is not None:
            self.progress(
                f"check_gradients('{report.name(self.f)}'): order {level}, {mode} mode, "
                f"argument {i}, {described}"
            )
        if self.display is not None:
            self.display.update(
                level, note=f"order {level}, {mode} mode, argument {i}, {described}"
            )

    def _fail(self, level: int, mode: str, text: str, scalar: Callable | None) -> None:
        """Raises the error: ``text``, the rules found ignoring dy, and how it was checked."""
        lines = [text]
        if scalar is not None:
            lines += report.upstream_lines(scalar, self.xs, _gradient_of)
        lines.append(report.how(self, level, mode))
        raise GradientCheckError("\n".join(lines))

    def _non_finite(self, level, mode, i, described, computed, expected) -> None:
        """Fails when the computed gradient or the finite difference is NaN or infinite."""
        for what, value in (
            ("the computed derivative", computed),
            ("finite differences", expected),
        ):
            found = report.not_finite(value)
            if found:
                self._fail(
                    level,
                    mode,
                    f"gradient of '{report.name(self.f)}' at order {level} is not finite for "
                    f"argument {i} ({mode} mode): {what} along {described} gave {found} "
                    f"(computed {report.summary(computed)}, finite differences "
                    f"{report.summary(expected)})",
                    None,
                )

    def _tolerance(self, magnitude: Any, scale: Any, step: float) -> Any:
        return self.atol + self.rtol * magnitude + ROUNDOFF * self.eps * np.abs(scale) / step

    def _larger_steps(self, fn: Callable, i: int, v: np.ndarray, agrees: Callable) -> Any:
        """Differences at larger steps until ``agrees(central, step)``: None when one does,
        else the ``(step, central)`` pairs tried (the evidence the report weighs)."""
        tried = []
        for factor in STEP_FACTORS:
            step = self.delta * factor
            d = directional_difference(fn, self.xs, i, v, step, with_value=False)
            if agrees(d.central, step):
                return None
            tried.append((step, d.central))
        return tried

    def reverse(self, level: int, scalar: Callable) -> None:
        grads = [np.asarray(to_host(g._value)) for g in _gradient_of(scalar)(*self.xs)]
        for i, (x, g) in enumerate(zip(self.xs, grads)):
            found = report.not_finite(g)
            if found:
                where = tuple(int(n) for n in np.argwhere(~np.isfinite(g))[0]) if g.ndim else ()
                self._fail(
                    level,
                    "reverse",
                    f"gradient of '{report.name(self.f)}' at order {level} is not finite for "
                    f"argument {i} (reverse mode): it holds {found}, first at index {where}",
                    None,
                )
            for described, v in directions(self.rng, x.shape, self.directions, x.dtype.is_complex):
                self._report(level, "reverse", i, described)
                d = directional_difference(scalar, self.xs, i, v, self.delta)
                computed, expected = real_inner(g, v), float(np.real(d.central[0]))
                self._non_finite(level, "reverse", i, described, computed, expected)
                magnitude = max(abs(expected), float(np.sum(np.abs(g) * np.abs(v))))
                scale = float(d.value[1])

                def agrees(central: list, step: float, c=computed, m=magnitude, s=scale) -> bool:
                    tolerance = self._tolerance(m, s, step)
                    return bool(abs(c - float(np.real(central[0]))) <= tolerance)

                if agrees(d.central, self.delta):
                    continue
                tried = self._larger_steps(scalar, i, v, agrees)
                if tried is None:
                    continue
                finding = report.Finding(
                    abs(computed - expected),
                    self._tolerance(magnitude, scale, self.delta),
                    [(s, float(np.real(c[0]))) for s, c in tried],
                    expected,
                    d.ahead[0],
                    d.behind[0],
                )
                text = report.reverse_failure(
                    self, level, i, scalar, g, v, computed, finding, LOCATE_LIMIT
                )
                self._fail(level, "reverse", text, scalar if finding.blames else None)

    def forward(self, level: int, level_fn: Callable, scalar: Callable) -> None:
        for i, x in enumerate(self.xs):
            for described, v in directions(self.rng, x.shape, self.directions):
                self._report(level, "forward", i, described)
                tangents = [
                    _on_device(v if j == i else np.zeros(plain_dims(t.shape)), t)
                    for j, t in enumerate(self.xs)
                ]
                with ForwardAccumulator(self.xs, tangents) as acc:
                    outputs = float_outputs(nest.flatten(level_fn(*self.xs)))
                jvps = [acc.jvp(y) for y in outputs]
                computed = [
                    np.zeros(plain_dims(y.shape)) if t is None else np.asarray(to_host(t._value))
                    for t, y in zip(jvps, outputs)
                ]
                jvps = outputs = acc = None  # (freed before the differences are computed)
                d = directional_difference(level_fn, self.xs, i, v, self.delta)
                for c, e in zip(computed, d.central):
                    self._non_finite(level, "forward", i, described, c, e)
                self._compare_jvp(level, i, v, level_fn, scalar, computed, d)

    def _compare_jvp(self, level, i, v, level_fn, scalar, computed, d) -> None:
        """Element by element; the failing elements are tried again at larger steps."""
        for k, (c, e, y) in enumerate(zip(computed, d.central, d.value)):
            c, e, y = c.reshape(-1), e.reshape(-1), y.reshape(-1)
            error = np.abs(c - e)
            magnitude = np.maximum(np.abs(e), np.abs(c))
            failing = np.nonzero(~(error <= self._tolerance(magnitude, y, self.delta)))[0]
            tried = []
            for factor in STEP_FACTORS:
                if not failing.size:
                    break
                step = self.delta * factor
                again = directional_difference(level_fn, self.xs, i, v, step, with_value=False)
                e2 = again.central[k].reshape(-1)
                tried.append((step, e2))
                size = np.maximum(np.abs(e2[failing]), np.abs(c[failing]))
                tolerance = self._tolerance(size, y[failing], step)
                failing = failing[~(np.abs(c[failing] - e2[failing]) <= tolerance)]
            if not failing.size:
                continue
            worst = int(failing[np.argmax(error[failing])])
            finding = report.Finding(
                float(error[worst]),
                float(self._tolerance(magnitude[worst], y[worst], self.delta)),
                [(step, float(e2[worst])) for step, e2 in tried],
                float(e[worst]),
                d.ahead[k].reshape(-1)[worst],
                d.behind[k].reshape(-1)[worst],
            )
            index = tuple(int(n) for n in np.unravel_index(worst, d.central[k].shape))
            text = report.forward_failure(self, level, i, k, index, float(c[worst]), finding)
            self._fail(level, "forward", text, scalar if finding.blames else None)
