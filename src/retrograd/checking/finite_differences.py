"""Finite differences for the gradient checks: along a direction, or element by element.

``directional_difference(fn, args, i, v, h)`` evaluates ``fn`` at ``x_i + h v``, ``x_i``
and ``x_i - h v`` and gives the central difference ``(fn(x + h v) - fn(x - h v)) / 2h`` of
each floating output (and the one-sided ones, for telling a kink from a bug). Each
direction costs three evaluations however large the argument, so big inputs stay cheap.
``numerical_gradient`` differentiates a real scalar function element by element (used to
say *which* element is wrong when a direction fails on a small argument). ``directions``
draws the directions: unit vectors when there are few elements, else random normals, made
one at a time so memory stays proportional to the argument.

>>> import numpy as np
>>> import retrograd as tf
>>> x = tf.constant(np.array([0.5, 1.0]))
>>> d = directional_difference(lambda x: tf.sin(x), [x], 0, np.array([1.0, 0.0]), 1e-6)
>>> np.round(d.central[0], 6).tolist()  # cos(0.5) along the first axis
[0.877583, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.backends import on_device_of, to_host
from retrograd.core.tensor import Tensor

__all__ = [
    "Differences",
    "directional_difference",
    "numerical_gradient",
    "directions",
    "direction_count",
    "float_outputs",
    "random_like",
    "real_inner",
    "STEP_FACTORS",
]

# A comparison that fails at the step ``h`` is tried again at these multiples of it: rounding
# noise shrinks as 1/h while a smooth function's truncation error grows only as h^2, so a
# correct gradient that rounding hid at ``h`` shows at a larger step; a wrong one shows at all.
STEP_FACTORS = (8.0, 64.0)


def float_outputs(values: list) -> list[Tensor]:
    """The differentiable outputs: floating and complex tensors."""
    return [y for y in values if isinstance(y, Tensor) and y.dtype.is_trainable]


def real_inner(g: np.ndarray, v: np.ndarray) -> float:
    """⟨g, v⟩ with complex numbers as pairs of reals: Re(conj(g) v).

    >>> real_inner(np.array([1.0, 2.0]), np.array([3.0, -1.0]))
    1.0
    """
    return float(np.sum(np.real(g) * np.real(v) + np.imag(g) * np.imag(v)))


def random_like(rng: np.random.Generator, shape: tuple, is_complex: bool) -> np.ndarray:
    """Standard normal values (complex ones for complex values).

    >>> random_like(np.random.default_rng(0), (2,), False).shape
    (2,)
    """
    w = rng.standard_normal(shape)
    return w + 1j * rng.standard_normal(shape) if is_complex else w


class Differences:
    """Finite differences along one direction, one array per floating output: ``central``,
    ``ahead`` = (f(x + h v) - f(x)) / h and ``behind`` = (f(x) - f(x - h v)) / h (the
    one-sided ones computed when asked for, to keep memory small), and ``value`` = f(x)
    (empty when it was not evaluated)."""

    def __init__(self, plus: list, value: list, minus: list, delta: float) -> None:
        self.central = [(p - m) / (2 * delta) for p, m in zip(plus, minus)]
        self.value = value
        self.delta = delta
        self._plus, self._minus = plus, minus

    @property
    def ahead(self) -> list[np.ndarray]:
        return [(p - c) / self.delta for p, c in zip(self._plus, self.value)]

    @property
    def behind(self) -> list[np.ndarray]:
        return [(c - m) / self.delta for c, m in zip(self.value, self._minus)]


def _float_arrays(outputs: Any) -> list[np.ndarray]:
    return [
        np.asarray(to_host(y._value), dtype=np.result_type(y._value.dtype, np.float64))
        for y in float_outputs(nest.flatten(outputs))
    ]


def directional_difference(
    fn: Callable,
    args: list[Tensor],
    index: int,
    direction: np.ndarray,
    delta: float,
    with_value: bool = True,
) -> Differences:
    """Differences of ``fn``'s float outputs along ``direction`` in argument ``index``
    (``with_value=False`` skips the evaluation at the point itself: central ones only)."""
    device_value = args[index]._value
    base = to_host(device_value)  # (the steps are taken on the host, then placed back)
    values = []
    for step in (delta, 0.0, -delta) if with_value else (delta, -delta):
        moved = (base + step * direction).astype(base.dtype, copy=False)
        moved = Tensor(on_device_of(moved, device_value))
        outputs = fn(*[*args[:index], moved, *args[index + 1 :]])
        moved = None  # (freed before the next evaluation)
        values.append(_float_arrays(outputs))
        outputs = None
    if with_value:
        plus, mid, minus = values
    else:
        (plus, minus), mid = values, []
    return Differences(plus, mid, minus, delta)


def numerical_gradient(
    scalar: Callable, args: list[Tensor], index: int, delta: float
) -> np.ndarray:
    """Central differences of a real scalar function with respect to argument ``index``,
    element by element (the first floating output of ``scalar`` is the scalar).

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
                placed = Tensor(on_device_of(moved, args[index]._value))
                shifted = [*args[:index], placed, *args[index + 1 :]]
                values.append(float(np.real(_float_arrays(scalar(*shifted))[0])))
            out[position] += unit * (values[0] - values[1]) / (2 * delta)
    return out


def directions(
    rng: np.random.Generator, shape: tuple, count: int, is_complex: bool = False
) -> Iterator[tuple[str, np.ndarray]]:
    """(description, direction) pairs: unit vectors (real and imaginary ones for complex
    arguments) when there are at most ``count`` of them, else ``count`` random normals. Made
    one at a time, so memory stays O(size of the argument)."""
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
        yield f"random direction {k + 1} of {count}", random_like(rng, shape, is_complex)


def direction_count(shape: tuple, count: int, is_complex: bool = False) -> int:
    """How many directions :func:`directions` yields for an argument of ``shape``.

    >>> direction_count((2,), 3), direction_count((100,), 3), direction_count((), 3, True)
    (2, 3, 2)
    """
    size = int(np.prod(shape, dtype=np.int64)) * (2 if is_complex else 1)
    return size if size <= count else count
