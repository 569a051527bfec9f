"""Checking gradients against central finite differences, to any order, in both modes.

``check_gradients(f, *args, order=2)`` runs ``f`` on float64 copies of ``args`` and
compares, argument by argument, the derivative along a few random directions ``v`` with
the central difference ``(s(x + h v) - s(x - h v)) / 2h``: ⟨gradient, v⟩ in reverse mode,
the Jacobian-vector product (``ForwardAccumulator``) in forward mode. Each direction costs
two evaluations of ``f`` however large the argument, so big inputs stay cheap. Order ``k``
repeats this on the derivative of order ``k - 1`` (nested tapes; forward over reverse),
which exercises the gradient of every gradient function. A failure raises
``GradientCheckError`` naming the function, the argument, the order, the mode, the largest
error and where it is (the element is found by elementwise finite differences when the
argument is small enough).

Complex arguments follow TensorFlow's convention: for a real scalar ``L(z)`` the gradient is
``dL/dRe(z) + i*dL/dIm(z)``, so ⟨gradient, v⟩ is the real inner product of the two as pairs
of reals, which a central difference along a complex ``v`` gives directly. A complex output
``y`` enters the scalar as ``sum(Re(y) * Re(w) + Im(y) * Im(w))``. Complex values are
checked in reverse mode.

>>> import retrograd as rg
>>> rg.check_gradients(lambda x: rg.sin(x) * x, [0.3, -1.2], order=2)
>>> @rg.custom_gradient
... def wrong_square(x):
...     return x * x, lambda upstream: upstream * x  # forgot the factor 2
>>> rg.check_gradients(wrong_square, 1.5, order=1)
Traceback (most recent call last):
    ...
retrograd.GradientCheckError: gradient of 'wrong_square' at order 1 is wrong ...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from retrograd.autodiff.forward import ForwardAccumulator
from retrograd.autodiff.tape import GradientTape
from retrograd.checking.progress import Progress
from retrograd.core import nest
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, constant, convert_to_tensor
from retrograd.ops import array_ops, complex_ops, reduction_ops

__all__ = [
    "check_gradients",
    "numerical_gradient",
    "GradientCheckError",
    "directional_difference",
]

# Arguments up to this many elements are checked elementwise when a random direction fails,
# to say which element is wrong (two evaluations of f per element).
LOCATE_LIMIT = 4096
MODES = ("reverse", "forward")
MAX_ORDER = 8  # each order nests one more tape: beyond this a check would not end usefully


class GradientCheckError(AssertionError):
    """A gradient disagrees with finite differences; the message says where and by how much.

    >>> import retrograd as rg
    >>> wrong = rg.custom_gradient(lambda x: (x * x, lambda dy: dy))  # should be 2 * x * dy
    >>> try:
    ...     rg.check_gradients(wrong, rg.constant(1.5, rg.float64), order=1)
    ... except rg.GradientCheckError as error:
    ...     caught = error
    >>> type(caught).__name__, isinstance(caught, AssertionError)
    ('GradientCheckError', True)
    """


GradientCheckError.__module__ = "retrograd"  # where users meet it: retrograd.GradientCheckError


def _name(f: Callable) -> str:
    return getattr(f, "__qualname__", getattr(f, "__name__", repr(f)))


def _modes(modes: Sequence[str] | str | None) -> tuple[str, ...]:
    if modes is None:
        return MODES
    chosen = (modes,) if isinstance(modes, str) else tuple(modes)
    unknown = [m for m in chosen if m not in MODES]
    if unknown or not chosen:
        raise ValueError(f"check_gradients: modes must be a subset of {MODES}, got {modes!r}")
    return chosen


def _promote(f: Callable, i: int, value: Any) -> Tensor:
    """A float64 (or complex128) copy of one argument; TypeError naming it otherwise."""
    array = np.asarray(getattr(value, "_value", value))
    if array.dtype.kind not in "biufc":
        raise TypeError(
            f"check_gradients('{_name(f)}'): argument {i} must hold numbers, got "
            f"{type(value).__name__} of dtype {array.dtype}"
        )
    return constant(array.astype(np.complex128 if array.dtype.kind == "c" else np.float64))


def _evaluate(f: Callable, xs: list[Tensor]) -> list[Tensor]:
    try:
        return nest.flatten(f(*xs))
    except TypeError as e:
        if "same dtype" not in str(e):
            raise
        raise TypeError(
            f"check_gradients runs '{_name(f)}' on float64 copies of its arguments, and it mixed "
            f"them with tensors of another dtype: {e}. Create constants inside it with the "
            f"input's dtype (retrograd.constant(1.0, dtype=x.dtype)) or use Python numbers."
        ) from e


def _float_outputs(values: list) -> list[Tensor]:
    """The differentiable outputs: floating and complex tensors."""
    return [y for y in values if isinstance(y, Tensor) and y.dtype.is_trainable]


def _inner(y: Tensor, w: np.ndarray) -> Tensor:
    """The real inner product ``sum(y * w)``, complex values taken as pairs of reals."""
    if y.dtype.is_complex:
        real = reduction_ops.reduce_sum(complex_ops.real(y) * np.real(w))
        return real + reduction_ops.reduce_sum(complex_ops.imag(y) * np.imag(w))
    return reduction_ops.reduce_sum(y * w)


def _real_inner(g: np.ndarray, v: np.ndarray) -> float:
    """⟨g, v⟩ with complex numbers as pairs of reals: Re(conj(g) v)."""
    return float(np.sum(np.real(g) * np.real(v) + np.imag(g) * np.imag(v)))


def _random_like(rng: np.random.Generator, shape: tuple, is_complex: bool) -> np.ndarray:
    """Standard normal values (complex ones for complex values)."""
    w = rng.standard_normal(shape)
    return w + 1j * rng.standard_normal(shape) if is_complex else w


def _weighted_sum(f: Callable, weights: list[np.ndarray]) -> Callable:
    """``x -> sum_i <f(x)_i, weights_i>`` over the differentiable outputs: a real scalar."""

    def scalar(*xs: Tensor) -> Tensor:
        outputs = _float_outputs(nest.flatten(f(*xs)))
        terms = [_inner(y, w) for y, w in zip(outputs, weights)]
        return terms[0] if len(terms) == 1 else sum(terms[1:], terms[0])

    return scalar


def _gradient_of(scalar: Callable) -> Callable:
    """``x -> [d scalar / d x_i]`` (zeros where unconnected), itself differentiable."""

    def gradient(*xs: Tensor) -> list[Tensor]:
        with GradientTape() as tape:
            tape.watch(list(xs))
            value = scalar(*xs)
        grads = tape.gradient(value, list(xs))
        # (a sparse gradient, an IndexedSlices, is compared as its dense tensor)
        return [
            array_ops.zeros_like(x) if g is None else convert_to_tensor(g)
            for g, x in zip(grads, xs)
        ]

    return gradient


def _reverse_gradients(scalar: Callable, args: list[Tensor]) -> list[np.ndarray]:
    return [np.asarray(g._value) for g in _gradient_of(scalar)(*args)]


def numerical_gradient(
    scalar: Callable, args: list[Tensor], index: int, delta: float
) -> np.ndarray:
    """Central differences of a real scalar function with respect to argument ``index``.

    For a complex argument the result is ``dL/dRe + i*dL/dIm``, TensorFlow's gradient.
    """
    base = args[index].numpy()
    is_complex = np.iscomplexobj(base)
    dtype = np.complex128 if is_complex else np.float64
    out = np.zeros(base.shape, dtype)
    for position in np.ndindex(base.shape):
        for unit in (1, 1j) if is_complex else (1,):
            values = []
            for step in (delta, -delta):
                moved = np.array(base, dtype=dtype)
                moved[position] += step * unit
                shifted = [*args[:index], constant(moved), *args[index + 1 :]]
                values.append(float(np.real(scalar(*shifted).numpy())))
            out[position] += unit * (values[0] - values[1]) / (2 * delta)
    return out


class Differences:
    """Finite differences along one direction, one array per floating output: ``central``,
    ``ahead`` = (f(x + h v) - f(x)) / h and ``behind`` = (f(x) - f(x - h v)) / h (the
    one-sided ones computed when asked for, to keep memory small), and ``value`` = f(x)."""

    def __init__(self, plus: list, value: list, minus: list, delta: float) -> None:
        self.central = [(p - m) / (2 * delta) for p, m in zip(plus, minus)]
        self.value = value
        self._plus, self._minus, self._delta = plus, minus, delta

    @property
    def ahead(self) -> list[np.ndarray]:
        return [(p - c) / self._delta for p, c in zip(self._plus, self.value)]

    @property
    def behind(self) -> list[np.ndarray]:
        return [(c - m) / self._delta for c, m in zip(self.value, self._minus)]


def directional_difference(
    fn: Callable, args: list[Tensor], index: int, direction: np.ndarray, delta: float
) -> Differences:
    """Differences of ``fn``'s float outputs along ``direction`` in argument ``index``."""
    base = args[index]._value
    values = []
    for step in (delta, 0.0, -delta):
        moved = constant((base + step * direction).astype(base.dtype, copy=False))
        outputs = nest.flatten(fn(*[*args[:index], moved, *args[index + 1 :]]))
        moved = None  # (freed before the next evaluation)
        values.append(
            [
                np.asarray(y._value, dtype=np.result_type(y._value, np.float64))
                for y in _float_outputs(outputs)
            ]
        )
        outputs = None
    plus, mid, minus = values
    return Differences(plus, mid, minus, delta)


def _directions(
    rng: np.random.Generator, shape: tuple, count: int, is_complex: bool = False
) -> Iterator[tuple[str, np.ndarray]]:
    """(description, direction) pairs: unit vectors (real and imaginary ones for complex
    arguments) when there are at most ``count`` of them, else ``count`` random normals. Made
    one at a time, so memory stays O(size of the argument)."""
    shape = plain_dims(shape)  # (ints: a TensorFlow 1 shape's items are Dimensions)
    size = int(np.prod(shape, dtype=np.int64))
    if size * (2 if is_complex else 1) <= count:
        for unit in (1, 1j) if is_complex else (1,):
            for k in range(size):
                v = np.zeros(size, np.complex128 if is_complex else np.float64)
                v[k] = unit
                index = tuple(int(n) for n in np.unravel_index(k, shape))
                yield f"unit direction {'i*' if unit == 1j else ''}e{index}", v.reshape(shape)
        return
    for k in range(count):
        yield f"random direction {k + 1} of {count}", _random_like(rng, shape, is_complex)


def check_gradients(
    f: Callable,
    *args: Any,
    order: int = 2,
    modes: Sequence[str] | str | None = None,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    delta: float = 1e-6,
    seed: int = 0,
    directions: int = 3,
    progress: bool | Callable[[str], Any] = False,
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
        atol: The absolute tolerance: an error larger than ``atol + rtol * magnitude``
            fails, and so does a NaN or infinite gradient or difference.
        rtol: The relative tolerance.
        delta: The step of the central differences.
        seed: Seeds the random directions.
        directions: Random directions tried per argument and order (drawn one at a time:
            memory stays proportional to the arguments).
        progress: True shows progress on stderr (the shared display of checking.progress, a
            step per direction); a callable receives each line instead.

    Raises:
        GradientCheckError: A derivative disagrees; the message says where and by how much.

    >>> import retrograd as rg
    >>> @rg.custom_gradient
    ... def cube(x):
    ...     return x ** 3, lambda dy: dy * 3 * x ** 2
    >>> rg.check_gradients(cube, rg.constant([0.5, -1.0], rg.float64))  # passes: returns None
    """
    order, directions = _check_arguments(order, atol, rtol, delta, directions, seed)
    chosen = _modes(modes)
    rng = np.random.default_rng(seed)
    xs = [_promote(f, i, a) for i, a in enumerate(args)]
    outputs = _float_outputs(_evaluate(f, xs))
    if not outputs:
        raise ValueError(f"check_gradients: '{_name(f)}' returned no floating-point tensor")
    complex_values = any(y.dtype.is_complex for y in outputs) or any(x.dtype.is_complex for x in xs)
    if "forward" in chosen and complex_values:
        if modes is not None:
            raise TypeError(
                f"check_gradients('{_name(f)}'): forward mode is checked on real values only; "
                f"use modes=('reverse',) for complex arguments or outputs"
            )
        chosen = tuple(m for m in chosen if m != "forward")
    # A real scalar output is weighted by 1 (messages show its plain derivative), others randomly.
    weights = [
        np.ones(())
        if y.ndim == 0 and not y.dtype.is_complex
        else _random_like(rng, plain_dims(y.shape), y.dtype.is_complex)
        for y in outputs
    ]
    check = _Check(f, xs, rng, atol, rtol, delta, directions)
    # progress=True: the shared one-line display (checking.progress), one step per direction
    display = Progress(None, "", enabled=True) if progress and not callable(progress) else None
    if progress:
        check.progress = progress if display is None else (lambda line: display.update(note=line))
    try:
        level_fn: Callable = f
        for level in range(1, int(order) + 1):
            scalar = _weighted_sum(level_fn, weights)
            if "reverse" in chosen:
                check.reverse(level, scalar)
            if "forward" in chosen:
                check.forward(level, level_fn)
            if level < order:
                level_fn = _gradient_of(scalar)
                weights = [_random_like(rng, plain_dims(x.shape), x.dtype.is_complex) for x in xs]
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

    real("delta", delta, positive=True)
    real("atol", atol, positive=False)
    real("rtol", rtol, positive=False)
    if seed is not None:
        integer("seed", seed, 0)
    return integer("order", order, 1, MAX_ORDER), integer("directions", directions, 1)


def _not_finite(value: Any) -> str:
    """'NaN', 'infinity' or 'NaN and infinity' when ``value`` holds such numbers, else ''."""
    found = [
        name for name, test in (("NaN", np.isnan), ("infinity", np.isinf)) if np.any(test(value))
    ]
    return " and ".join(found)


class _Check:
    """One check_gradients call: the point, the tolerances, and how failures are reported."""

    def __init__(self, f, xs, rng, atol, rtol, delta, directions) -> None:
        self.f, self.xs, self.rng = f, xs, rng
        self.atol, self.rtol, self.delta, self.directions = atol, rtol, delta, int(directions)
        self.progress: Callable[[str], Any] | None = None

    def _report(self, level: int, mode: str, i: int, described: str) -> None:
        if self.progress is not None:
            self.progress(
                f"check_gradients('{_name(self.f)}'): order {level}, {mode} mode, argument {i}, "
                f"{described}"
            )

    def _non_finite(self, level, mode, i, described, computed, expected) -> None:
        """Fails when the computed gradient or the finite difference is NaN or infinite."""
        for what, value in (
            ("the computed derivative", computed),
            ("finite differences", expected),
        ):
            found = _not_finite(value)
            if found:
                raise GradientCheckError(
                    f"gradient of '{_name(self.f)}' at order {level} is not finite for argument "
                    f"{i} ({mode} mode): {what} along {described} gave {found} (computed "
                    f"{_summary(computed)}, finite differences {_summary(expected)})"
                )

    def _tolerance(self, magnitude: Any, values: Any) -> Any:
        # Central differences lose about eps * |value| / delta to rounding.
        roundoff = 4 * np.finfo(np.float64).eps * np.abs(values) / self.delta
        return self.atol + self.rtol * magnitude + roundoff

    def reverse(self, level: int, scalar: Callable) -> None:
        grads = _reverse_gradients(scalar, self.xs)
        for i, (x, g) in enumerate(zip(self.xs, grads)):
            found = _not_finite(g)
            if found:
                where = tuple(int(n) for n in np.argwhere(~np.isfinite(g))[0]) if g.ndim else ()
                raise GradientCheckError(
                    f"gradient of '{_name(self.f)}' at order {level} is not finite for argument "
                    f"{i} (reverse mode): it holds {found}, first at index {where}"
                )
            for described, v in _directions(self.rng, x.shape, self.directions, x.dtype.is_complex):
                self._report(level, "reverse", i, described)
                d = directional_difference(scalar, self.xs, i, v, self.delta)
                computed, expected = _real_inner(g, v), float(np.real(d.central[0]))
                self._non_finite(level, "reverse", i, described, computed, expected)
                magnitude = max(abs(expected), float(np.sum(np.abs(g) * np.abs(v))))
                tolerance = self._tolerance(magnitude, d.value[0])
                if not abs(computed - expected) <= tolerance:
                    message = self._locate(level, i, scalar, g, v, computed, expected)
                    error = abs(computed - expected)
                    kink = _kink_note(self.f, d.ahead[0], d.behind[0], tolerance, error)
                    raise GradientCheckError(message + kink)

    def _locate(self, level, i, scalar, g, v, computed, expected) -> str:
        head = (
            f"gradient of '{_name(self.f)}' at order {level} is wrong for argument {i} "
            f"(reverse mode)"
        )
        x = self.xs[i]
        is_unit = np.count_nonzero(v) == 1 and np.max(np.abs(v)) == 1.0
        if is_unit or int(x._value.size) <= LOCATE_LIMIT:
            numeric = numerical_gradient(scalar, self.xs, i, self.delta)
            error = np.abs(g - numeric)
            bad = error > self.atol + self.rtol * np.abs(numeric)
            if np.any(bad):
                where = np.unravel_index(np.argmax(np.where(bad, error, -1)), error.shape)
                return (
                    f"{head}: largest error {float(error[where]):.6g} at index "
                    f"{tuple(int(k) for k in where)} (computed {_number(g[where])}, finite "
                    f"differences {_number(numeric[where])})"
                )
            reason = "no single element is off by more than the tolerance"
        else:
            reason = f"the argument has {x._value.size} elements, too many to locate one"
        return (
            f"{head}: along a random direction the error is {abs(computed - expected):.6g} "
            f"(computed ⟨gradient, v⟩ = {computed:.6g}, finite differences {expected:.6g}); "
            f"{reason}"
        )

    def forward(self, level: int, level_fn: Callable) -> None:
        for i, x in enumerate(self.xs):
            for described, v in _directions(self.rng, x.shape, self.directions):
                self._report(level, "forward", i, described)
                tangents = [
                    constant(v) if j == i else constant(np.zeros(plain_dims(t.shape)))
                    for j, t in enumerate(self.xs)
                ]
                with ForwardAccumulator(self.xs, tangents) as acc:
                    outputs = _float_outputs(nest.flatten(level_fn(*self.xs)))
                jvps = [acc.jvp(y) for y in outputs]
                computed = [
                    np.zeros(plain_dims(y.shape)) if t is None else np.asarray(t._value)
                    for t, y in zip(jvps, outputs)
                ]
                jvps = outputs = acc = None  # (freed before the differences are computed)
                d = directional_difference(level_fn, self.xs, i, v, self.delta)
                for c, e in zip(computed, d.central):
                    self._non_finite(level, "forward", i, described, c, e)
                self._compare_jvp(level, i, computed, d)

    def _compare_jvp(self, level: int, i: int, computed: list, d: Differences) -> None:
        for k, (c, e, y) in enumerate(zip(computed, d.central, d.value)):
            error = np.abs(c - e)
            tolerance = self._tolerance(np.maximum(np.abs(e), np.abs(c)), y)
            bad = ~(error <= tolerance)
            if np.any(bad):
                where = np.unravel_index(np.argmax(np.where(bad, error, -1)), error.shape)
                index = tuple(int(n) for n in where)
                a, b = d.ahead[k][where], d.behind[k][where]
                kink = _kink_note(self.f, a, b, tolerance[where], error[where])
                raise GradientCheckError(
                    f"gradient of '{_name(self.f)}' at order {level} is wrong for argument {i} "
                    f"(forward mode): along a random direction the largest error of the "
                    f"Jacobian-vector product is {float(error[where]):.6g}, at output {k} index "
                    f"{index} (computed {float(c[where]):.6g}, finite differences "
                    f"{float(e[where]):.6g})" + kink
                )


def _summary(value: Any) -> str:
    value = np.asarray(value)
    return _number(value) if value.size == 1 else f"an array of shape {value.shape}"


def _number(value: Any) -> str:
    """A number for a message: real ones as ``1.5``, complex ones as ``1.5+2j``."""
    value = complex(value)
    return f"{value.real:.6g}" if value.imag == 0 else f"{value.real:.6g}{value.imag:+.6g}j"


def _kink_note(f: Callable, ahead: Any, behind: Any, tolerance: Any, error: Any) -> str:
    """A note when one-sided differences disagree (by more than the error they would explain):
    the point may be a kink, not a bug. Where f is smooth they differ by O(delta) only."""
    if abs(float(ahead) - float(behind)) <= max(float(tolerance), 0.5 * float(error)):
        return ""
    return (
        f"; the one-sided differences disagree ({float(ahead):.6g} ahead, {float(behind):.6g} "
        f"behind): '{_name(f)}' may not be differentiable at this point"
    )
