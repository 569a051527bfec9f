"""``tf.test.compute_gradient``: the theoretical and numerical Jacobians of a function, to compare.

>>> import retrograd as rg
>>> theoretical, numerical = rg.test.compute_gradient(rg.square, [rg.constant([1.0, 2.0])])
>>> theoretical
(array([[2., 0.],
       [0., 4.]], dtype=float32),)
>>> bool(abs(numerical[0] - theoretical[0]).max() < 1e-3)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.autodiff.tape import GradientTape
from retrograd.core.backends import to_host
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops.indexed_slices import dense_gradients

__all__ = ["compute_gradient"]

# TensorFlow's default step, whatever the dtype: 1/1024 (exact in every float format).
DEFAULT_DELTA = 1.0 / 1024


def compute_gradient(
    f: Callable[..., Any], x: list | tuple, delta: float | None = None
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """The theoretical (backprop) and numerical (central differences) Jacobians of ``f``.

    ``x`` is a list or tuple of ``f``'s arguments. Returns ``(theoretical, numerical)``, each
    a tuple with one 2-d array per argument, of shape ``[y_size, x_size]`` and the argument's
    dtype, as TensorFlow's ``tf.test.compute_gradient``. Differences are taken in the
    argument's own dtype with step ``delta`` (default 1/1024).

    >>> import retrograd as rg
    >>> x = rg.constant([1.0, 2.0], rg.float64)
    >>> theoretical, numerical = rg.test.compute_gradient(lambda x: x * x, [x])
    >>> theoretical[0].tolist(), numerical[0].round(6).tolist()
    ([[2.0, 0.0], [0.0, 4.0]], [[2.0, 0.0], [0.0, 4.0]])
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError(
            f"compute_gradient: `x` must be a list or tuple of values convertible to a tensor "
            f"(the arguments of `f`), not a {type(x).__name__}"
        )
    xs = [convert_to_tensor(a) for a in x]
    for i, t in enumerate(xs):
        if t._value.dtype.kind != "f":
            raise TypeError(
                f"compute_gradient: argument {i} must be a real floating tensor, got {t.dtype.name}"
            )
    step = DEFAULT_DELTA if delta is None else float(delta)
    y = _single_output(f, xs)
    theoretical = tuple(_theoretical(f, xs, i, y) for i in range(len(xs)))
    numerical = tuple(_numerical(f, xs, i, y, step) for i in range(len(xs)))
    return theoretical, numerical


def _single_output(f: Callable, xs: list[Tensor]) -> Tensor:
    y = f(*xs)
    if not isinstance(y, Tensor):
        raise TypeError(
            f"compute_gradient: `f` must return one tensor, got {type(y).__name__}; wrap it to "
            f"return the output you want to check"
        )
    if y._value.dtype.kind != "f":
        raise TypeError(
            f"compute_gradient: cannot compute the gradient of an output of dtype {y.dtype.name}"
        )
    return y


def _theoretical(f: Callable, xs: list[Tensor], i: int, y: Tensor) -> np.ndarray:
    """Row ``r`` is the gradient of output element ``r`` with respect to argument ``i``."""
    x = xs[i]
    jacobian = np.zeros((y._value.size, x._value.size), dtype=x._value.dtype)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        out = f(*xs)
    for r in range(out._value.size):
        seed = np.zeros(out._value.size, dtype=out._value.dtype)
        seed[r] = 1
        (g,) = dense_gradients(
            [tape.gradient(out, x, output_gradients=Tensor(seed.reshape(out._value.shape)))]
        )
        if g is not None:
            jacobian[r] = g._value.reshape(-1)
    return jacobian


def _numerical(f: Callable, xs: list[Tensor], i: int, y: Tensor, delta: float) -> np.ndarray:
    """Column ``c`` is the central difference of ``f`` when element ``c`` of ``x_i`` moves."""
    base = xs[i]._value
    dtype = base.dtype
    jacobian = np.zeros((y._value.size, base.size), dtype=dtype)
    for c in range(base.size):
        values = []
        for step in (delta, -delta):
            moved = np.array(base, dtype=dtype).reshape(-1)
            moved[c] = moved[c] + dtype.type(step)
            shifted = [*xs[:i], Tensor(moved.reshape(base.shape)), *xs[i + 1 :]]
            values.append(np.asarray(to_host(f(*shifted)._value), dtype=dtype).reshape(-1))
        jacobian[:, c] = (values[0] - values[1]) / dtype.type(2 * delta)
    return jacobian
