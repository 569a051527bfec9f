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
    """One row: ``fn`` applied to random inputs of ``shapes`` drawn from ``domain``."""

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

    @property
    def id(self) -> str:
        return f"{self.name}-{'x'.join(str(s) for s in self.shapes)}"

    def inputs(self, seed: int = 0) -> list[np.ndarray]:
        rng = np.random.default_rng(seed + sum(map(ord, self.id)))
        arrays = []
        for shape in self.shapes:
            low, high = self.domain
            a = rng.uniform(low, high, size=shape)
            for _ in range(100):
                bad = self.avoid(a) if self.avoid is not None else np.zeros(np.shape(a), bool)
                if not np.any(bad):
                    break
                a = np.where(bad, rng.uniform(low, high, size=shape), a)
            arrays.append(np.asarray(a, dtype=np.float64))
        return arrays


def unary(name: str, fn: Callable, reference: Callable, **kw: Any) -> list[Case]:
    return [Case(name, fn, (s,), reference, **kw) for s in UNARY_SHAPES]


def binary(name: str, fn: Callable, reference: Callable, **kw: Any) -> list[Case]:
    return [Case(name, fn, pair, reference, **kw) for pair in BINARY_SHAPES]


def check_forward(case: Case) -> None:
    """Values equal NumPy's (float64 and float32), and the result keeps the input dtype."""
    if case.reference is None:
        return
    args = case.inputs()
    for dtype, tol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        got = case.fn(*[rg.constant(a.astype(dtype)) for a in args])
        expected = case.reference(*[a.astype(dtype) for a in args])
        for g, e in zip(rg.nest.flatten(got), rg.nest.flatten(expected)):
            assert g.dtype == dtype, f"{case.id}: {g.dtype} result for {np.dtype(dtype)} inputs"
            np.testing.assert_allclose(g.numpy(), e, rtol=tol, atol=tol, err_msg=case.id)


def check_gradient(case: Case) -> None:
    rg.check_gradients(
        case.fn, *case.inputs(), order=case.order, atol=case.atol, rtol=case.rtol, delta=case.delta
    )


def recorded_op_types(case: Case) -> set[str]:
    """The op types a row's function records when its inputs are watched."""
    seen: set[str] = set()
    tensors = [rg.constant(a) for a in case.inputs()]
    with rg.GradientTape() as tape:
        tape.watch(tensors)
        case.fn(*tensors)
    for op in {id(op): op for op in tape._tracked.values() if op is not None}.values():
        seen.add(op.type)
    return seen
