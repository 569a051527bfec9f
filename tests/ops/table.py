"""The op table harness: each row is an op, its inputs' shapes and domain, and a NumPy
reference. Every row is checked for forward values against NumPy and for gradients against
central finite differences in float64 at first and second order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import retrograd as rg

# Shapes every elementwise op is tried on; binary ops also on broadcasting pairs.
UNARY_SHAPES = [(), (3,), (2, 3)]
BINARY_SHAPES = [
    ((), ()),
    ((2, 3), (2, 3)),
    ((2, 3), (3,)),
    ((2, 1), (1, 3)),
    ((), (2,)),
    ((2, 2), ()),
]


@dataclass
class Case:
    """One row: ``fn`` applied to random inputs of ``shapes`` drawn from ``domain``.

    Inputs listed in ``complex_inputs`` (by position) are complex, with real and imaginary
    parts both drawn from ``domain``.
    """

    name: str
    fn: Callable[..., Any]
    shapes: tuple
    reference: Callable[..., Any] | None = None
    domain: tuple[float, float] = (-2.0, 2.0)
    order: int = 2
    # Inputs to avoid: a predicate on the array that must be False everywhere (kinks, poles).
    avoid: Callable[[np.ndarray], np.ndarray] | None = None
    atol: float = 1e-6
    rtol: float = 1e-5
    delta: float = 1e-6
    extra: dict = field(default_factory=dict)
    complex_inputs: tuple[int, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.name}-{'x'.join(str(s) for s in self.shapes)}"

    def inputs(self, seed: int = 0) -> list[np.ndarray]:
        rng = np.random.default_rng(seed + sum(map(ord, self.id)))
        arrays = []
        for i, shape in enumerate(self.shapes):
            draw = self._complex_draw if i in self.complex_inputs else self._real_draw
            a = draw(rng, shape)
            for _ in range(100):
                bad = self.avoid(a) if self.avoid is not None else np.zeros(np.shape(a), bool)
                if not np.any(bad):
                    break
                a = np.where(bad, draw(rng, shape), a)
            arrays.append(np.asarray(a))
        return arrays

    def _real_draw(self, rng: np.random.Generator, shape: tuple) -> np.ndarray:
        return np.asarray(rng.uniform(*self.domain, size=shape), dtype=np.float64)

    def _complex_draw(self, rng: np.random.Generator, shape: tuple) -> np.ndarray:
        return self._real_draw(rng, shape) + 1j * self._real_draw(rng, shape)


def unary(name: str, fn: Callable, reference: Callable, **kw: Any) -> list[Case]:
    return [Case(name, fn, (s,), reference, **kw) for s in UNARY_SHAPES]


def binary(name: str, fn: Callable, reference: Callable, **kw: Any) -> list[Case]:
    return [Case(name, fn, pair, reference, **kw) for pair in BINARY_SHAPES]


_PRECISIONS = {64: (np.float64, np.complex128), 32: (np.float32, np.complex64)}


def in_precision(kind: str, bits: int) -> type:
    """float64/complex128 (``bits`` 64) or float32/complex64 (32), by real or complex kind."""
    return _PRECISIONS[bits][kind == "c"]


def weighted_total(outputs: list, weights: list):
    """sum_i <y_i, w_i> over the differentiable outputs, complex ones as pairs of reals."""
    terms = []
    for y, w in zip(outputs, weights):
        if y.dtype.is_complex:
            terms.append(
                rg.reduce_sum(rg.math.real(y) * np.real(w))
                + rg.reduce_sum(rg.math.imag(y) * np.imag(w))
            )
        elif y.dtype.is_floating:
            terms.append(rg.reduce_sum(y * w))
    return rg.add_n(terms)


def random_weights(outputs: list, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    weights = []
    for y in outputs:
        w = rng.standard_normal(tuple(y.shape))
        weights.append(w + 1j * rng.standard_normal(tuple(y.shape)) if y.dtype.is_complex else w)
    return weights


def check_forward(case: Case) -> None:
    """Values equal NumPy's in 64 and 32 bits (float64/complex128, float32/complex64), and
    each result has the precision of the inputs (with the reference's real/complex kind)."""
    if case.reference is None:
        return
    args = case.inputs()
    for bits, tol in ((64, 1e-12), (32, 1e-5)):
        inputs = [a.astype(in_precision(a.dtype.kind, bits)) for a in args]
        got = case.fn(*[rg.constant(a) for a in inputs])
        expected = case.reference(*inputs)
        for g, e in zip(rg.nest.flatten(got), rg.nest.flatten(expected)):
            dtype = in_precision(np.asarray(e).dtype.kind, bits)
            assert g.dtype == dtype, f"{case.id}: {g.dtype} result, expected {np.dtype(dtype)}"
            np.testing.assert_allclose(g.numpy(), e, rtol=tol, atol=tol, err_msg=case.id)


def check_gradient(case: Case) -> None:
    rg.check_gradients(
        case.fn, *case.inputs(), order=case.order, atol=case.atol, rtol=case.rtol, delta=case.delta
    )


def gradient_of(f: Callable, x: Any) -> Any:
    """The tape gradient of ``f`` at ``x`` (a tensor, or a value made a constant); None
    where unconnected. For the rows' special points: kinks, ties, zeros. A sparse gradient
    (gather's IndexedSlices) is returned as its dense tensor."""
    x = x if isinstance(x, rg.Tensor) else rg.constant(x)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    return None if g is None else rg.convert_to_tensor(g)


def recorded_op_types(case: Case) -> set[str]:
    """The op types a row's function records when its inputs are watched."""
    seen: set[str] = set()
    tensors = [rg.constant(a) for a in case.inputs()]
    with rg.GradientTape() as tape:
        tape.watch(tensors)
        case.fn(*tensors)
    for op in {id(op): op for op in tape.producers().values() if op is not None}.values():
        seen.add(op.type)
    return seen
