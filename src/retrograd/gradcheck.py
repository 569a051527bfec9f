"""Checking gradients against central finite differences, to any order.

``check_gradients(f, *args, order=2)`` compares the reverse-mode gradient of
``sum(f(*args) * u)`` (``u`` random) with central differences in float64; at order 2 it
does the same for the function ``x -> sum(grad(x) * w)``, which exercises the gradient of
every gradient function (nested tapes), and so on.

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
from retrograd.ops import reduction_ops
from retrograd.tape import GradientTape
from retrograd.tensor import Tensor, constant

__all__ = ["check_gradients", "numerical_gradient", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """A gradient disagrees with finite differences; the message says where and by how much."""


def _name(f: Callable) -> str:
    return getattr(f, "__qualname__", getattr(f, "__name__", repr(f)))


def _weighted_sum(f: Callable, weights: list[np.ndarray]) -> Callable:
    """``x -> sum_i sum(f(x)_i * weights_i)``, a scalar function of the same arguments."""

    def scalar(*xs: Tensor) -> Tensor:
        outputs = nest.flatten(f(*xs))
        terms = [
            reduction_ops.reduce_sum(y * w) for y, w in zip(outputs, weights) if y.dtype.is_floating
        ]
        return terms[0] if len(terms) == 1 else sum(terms[1:], terms[0])

    return scalar


def _reverse_gradients(scalar: Callable, args: list[Tensor]) -> list[np.ndarray]:
    with GradientTape() as tape:
        tape.watch(args)
        value = scalar(*args)
    grads = tape.gradient(value, args)
    return [np.zeros(a.shape) if g is None else g.numpy() for g, a in zip(grads, args)]


def numerical_gradient(
    scalar: Callable, args: list[Tensor], index: int, delta: float
) -> np.ndarray:
    """Central differences of a scalar function with respect to argument ``index``."""
    base = args[index].numpy()
    out = np.zeros(base.shape)
    for position in np.ndindex(base.shape):
        values = []
        for step in (delta, -delta):
            moved = np.array(base, dtype=np.float64)
            moved[position] += step
            shifted = [*args[:index], constant(moved), *args[index + 1 :]]
            values.append(float(scalar(*shifted).numpy()))
        out[position] = (values[0] - values[1]) / (2 * delta)
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
                total = total + reduction_ops.reduce_sum(g * w)
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

    Arguments are converted to float64 tensors.
    """
    rng = np.random.default_rng(seed)
    tensors = [constant(np.asarray(a, dtype=np.float64)) for a in args]
    outputs = nest.flatten(f(*tensors))
    # A scalar output is weighted by 1 (so messages show its plain derivative); others randomly.
    weights = [np.ones(()) if y.ndim == 0 else rng.standard_normal(y.shape) for y in outputs]
    scalar = _weighted_sum(f, weights)
    for level in range(1, order + 1):
        analytic = _reverse_gradients(scalar, tensors)
        for i, computed in enumerate(analytic):
            expected = numerical_gradient(scalar, tensors, i, delta)
            _compare(f, level, i, computed, expected, atol, rtol)
        if level < order:
            scalar = _gradient_dot(scalar, [rng.standard_normal(t.shape) for t in tensors])


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
            f"{float(computed[where]):.6g}, finite differences {float(expected[where]):.6g})"
        )
