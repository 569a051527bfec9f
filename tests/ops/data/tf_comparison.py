"""What the comparisons with TensorFlow compute, written once against a library namespace
``lib`` (``tensorflow`` when data/make_tf_comparison_goldens.py makes the goldens, retrograd
when the tests check it): values, the gradient of a real loss ``sum(Re(y) Re(w) + Im(y)
Im(w))`` for weights ``w`` drawn from the case's name, and the second derivative along
directions drawn likewise. Results are stored as arrays in an npz file (no pickle): key
``<case>/<part>/<i>``, with ``<case>/<part>/n`` the length of each part (an array absent for
a None). Plain code: no TensorFlow or retrograd import here.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

PARTS = ("values", "grads", "second")


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def _draw(rng: np.random.Generator, shape: tuple, complex_: bool) -> np.ndarray:
    w = rng.standard_normal(shape)
    return w + 1j * rng.standard_normal(shape) if complex_ else w


def _real_loss(lib: Any, ys: list, weights: list) -> Any:
    total = None
    for y, w in zip(ys, weights):
        if y is None or w is None:
            continue
        if np.iscomplexobj(w):
            term = lib.reduce_sum(lib.math.real(y) * w.real) + lib.reduce_sum(
                lib.math.imag(y) * w.imag
            )
        else:
            term = lib.reduce_sum(y * w.astype(y.dtype.as_numpy_dtype))
        total = term if total is None else total + term
    return total


def differentiate(lib: Any, fn: Callable, arrays: list, order: int, name: str) -> dict:
    """Values (order 0), gradients (1) and second derivatives (2) of ``fn`` at ``arrays``,
    as NumPy (None where there is none; sparse gradients made dense)."""
    xs = [lib.constant(a) for a in arrays]
    rng = np.random.default_rng(seed_of(name))
    with lib.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with lib.GradientTape(persistent=True) as inner:
            inner.watch(xs)
            ys = lib.nest.flatten(fn(*xs))
            trainable = [y is not None and y.dtype.is_floating or y is not None and y.dtype.is_complex
                         for y in ys]  # fmt: skip
            weights = [_draw(rng, tuple(y.shape), y.dtype.is_complex) if t else None
                       for y, t in zip(ys, trainable)]  # fmt: skip
            loss = _real_loss(lib, ys, weights) if order >= 1 else None
        grads = [None] * len(xs)
        if loss is not None:
            grads = [
                None if g is None else lib.convert_to_tensor(g) for g in inner.gradient(loss, xs)
            ]
        directions = [_draw(rng, a.shape, np.iscomplexobj(a)) for a in arrays]
        second_loss = _real_loss(lib, grads, directions) if order >= 2 else None
    second = [None] * len(xs)
    if second_loss is not None:
        second = [None if g is None else lib.convert_to_tensor(g)
                  for g in outer.gradient(second_loss, xs)]  # fmt: skip
    as_numpy = lambda ts: [None if t is None else np.asarray(t.numpy()) for t in ts]  # noqa: E731
    return {
        "values": as_numpy(ys),
        "grads": as_numpy(grads) if order >= 1 else [],
        "second": as_numpy(second) if order >= 2 else [],
    }


def values_only(result: Any) -> dict:
    """A result that is just values (arrays, tensors, numbers or a list of them)."""
    items = result if isinstance(result, (list, tuple)) else [result]
    return {"values": [_array(v) for v in items], "grads": [], "second": []}


def _array(value: Any) -> np.ndarray | None:
    if value is None:
        return None
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value)


def pack(results: dict[str, dict]) -> dict[str, np.ndarray]:
    """``{case: {part: [array or None]}}`` as npz entries."""
    out: dict[str, np.ndarray] = {}
    for case, parts in results.items():
        for part in PARTS:
            items = parts.get(part, [])
            out[f"{case}/{part}/n"] = np.array(len(items))
            for i, item in enumerate(items):
                if item is not None:
                    out[f"{case}/{part}/{i}"] = np.asarray(item)
    return out


def unpack(stored: Any, case: str) -> dict | None:
    """One case's results from a loaded npz, or None when it has none."""
    if f"{case}/values/n" not in stored:
        return None
    result = {}
    for part in PARTS:
        n = int(stored[f"{case}/{part}/n"])
        result[part] = [stored.get(f"{case}/{part}/{i}", None) for i in range(n)]
    return result
