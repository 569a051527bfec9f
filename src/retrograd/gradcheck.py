"""Checking gradients against central finite differences, to any order.

``check_gradients(f, *args, order=2)`` compares the reverse-mode gradient of
``sum(f(*args) * u)`` (``u`` random) with central differences in float64; at order 2 it
does the same for the function ``x -> sum(grad(x) * w)``, which exercises the gradient of
every gradient function (nested tapes), and so on.

Complex arguments follow TensorFlow's convention: for a real scalar ``L(z)`` the gradient
is ``dL/dRe(z) + i*dL/dIm(z)``, which central differences along the real and the imaginary
part give directly. A complex output ``y`` enters the scalar as
``sum(Re(y) * Re(u) + Im(y) * Im(u))``.

>>> import retrograd as rg
>>> rg.check_gradients(lambda x: rg.sin(x) * x, [0.3, -1.2], order=2)
>>> @rg.custom_gradient
... def wrong_square(x):
...     return x * x, lambda upstream: upstream * x  # forgot the factor 2
>>> rg.check_gradients(wrong_square, 1.5, order=1)
Traceback (most recent call last):
    ...
retrograd.gradcheck.GradientCheckError: gradient of 'wrong_square' at order 1 is wrong ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd import nest
from retrograd.ops import complex_ops, reduction_ops
from retrograd.tape import GradientTape
from retrograd.tensor import Tensor, constant

__all__ = ["check_gradients", "numerical_gradient", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """A gradient disagrees with finite differences; the message says where and by how much."""


def _name(f: Callable) -> str:
    return getattr(f, "__qualname__", getattr(f, "__name__", repr(f)))


def _inner(y: Tensor, w: np.ndarray) -> Tensor:
    """The real inner product ``sum(y * w)``, complex values taken as pairs of reals."""
    if y.dtype.is_complex:
        return reduction_ops.reduce_sum(complex_ops.real(y) * w.real) + reduction_ops.reduce_sum(
            complex_ops.imag(y) * w.imag
        )
    return reduction_ops.reduce_sum(y * w)


def _random_like(rng: np.random.Generator, shape: Any, is_complex: bool) -> np.ndarray:
    """Standard normal weights (complex ones for complex values: real, then imaginary part)."""
    w = rng.standard_normal(shape)
    return w + 1j * rng.standard_normal(shape) if is_complex else w


def _weighted_sum(f: Callable, weights: list[np.ndarray]) -> Callable:
    """``x -> sum_i <f(x)_i, weights_i>``, a real scalar function of the same arguments."""

    def scalar(*xs: Tensor) -> Tensor:
        outputs = nest.flatten(f(*xs))
        terms = [_inner(y, w) for y, w in zip(outputs, weights) if y.dtype.is_trainable]
        return terms[0] if len(terms) == 1 else sum(terms[1:], terms[0])

    return scalar


def _reverse_gradients(scalar: Callable, args: list[Tensor]) -> list[np.ndarray]:
    with GradientTape() as tape:
        tape.watch(args)
        value = scalar(*args)
    grads = tape.gradient(value, args)
    return [
        np.zeros(a.shape, a._value.dtype) if g is None else g.numpy() for g, a in zip(grads, args)
    ]


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
        for direction in (1, 1j) if is_complex else (1,):
            values = []
            for step in (delta, -delta):
                moved = np.array(base, dtype=dtype)
                moved[position] += step * direction
                shifted = [*args[:index], constant(moved), *args[index + 1 :]]
                values.append(float(scalar(*shifted).numpy()))
            out[position] += direction * (values[0] - values[1]) / (2 * delta)
    return out


def _gradient_dot(f: Callable, weights: list[np.ndarray]) -> Callable:
    """``x -> sum_i sum(grad_i(x) * weights_i)`` where grad is the reverse-mode gradient of f."""

    def dotted(*xs: Tensor) -> Tensor:
        with GradientTape() as tape:
            tape.watch(list(xs))
            value = f(*xs)
        grads = tape.gradient(value, list(xs))
        total = constant(0.0, dtype="float64")
        for g, w in zip(grads, weights):
            if g is not None:
                total = total + _inner(g, w)
        return total

    return dotted


def check_gradients(
    f: Callable,
    *args: Any,
    order: int = 2,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    delta: float = 1e-6,
    seed: int = 0,
) -> None:
    """Raises GradientCheckError unless ``f``'s gradients up to ``order`` match finite differences.

    Arguments are converted to float64 tensors, complex ones to complex128 tensors.
    """
    rng = np.random.default_rng(seed)
    tensors = [_as_float64(a) for a in args]
    outputs = nest.flatten(f(*tensors))
    # A real scalar output is weighted by 1 (so messages show its plain derivative); others
    # randomly.
    weights = [
        np.ones(())
        if y.ndim == 0 and not y.dtype.is_complex
        else _random_like(rng, y.shape, y.dtype.is_complex)
        for y in outputs
    ]
    scalar = _weighted_sum(f, weights)
    for level in range(1, order + 1):
        analytic = _reverse_gradients(scalar, tensors)
        for i, computed in enumerate(analytic):
            expected = numerical_gradient(scalar, tensors, i, delta)
            _compare(f, level, i, computed, expected, atol, rtol)
        if level < order:
            directions = [_random_like(rng, t.shape, t.dtype.is_complex) for t in tensors]
            scalar = _gradient_dot(scalar, directions)


def _as_float64(value: Any) -> Tensor:
    array = np.asarray(value)
    return constant(array.astype(np.complex128 if np.iscomplexobj(array) else np.float64))


def _compare(
    f: Callable,
    level: int,
    i: int,
    computed: np.ndarray,
    expected: np.ndarray,
    atol: float,
    rtol: float,
) -> None:
    error = np.abs(computed - expected)
    bad = error > atol + rtol * np.abs(expected)
    if np.any(bad):
        where = np.unravel_index(np.argmax(np.where(bad, error, -1)), error.shape)
        raise GradientCheckError(
            f"gradient of '{_name(f)}' at order {level} is wrong for argument {i}: largest "
            f"error {float(error[where]):.6g} at index {tuple(int(k) for k in where)} (computed "
            f"{_number(computed[where])}, finite differences {_number(expected[where])})"
        )


def _number(value: Any) -> str:
    if np.iscomplexobj(value):
        return f"{complex(value):.6g}"
    return f"{float(value):.6g}"
