"""A custom gradient's forward-mode rule (``defjvp``), bound to one call of the function.

>>> import retrograd as rg
>>> @rg.custom_gradient
... def square(x):
...     return x * x, lambda dy: dy * 2.0 * x
>>> @square.defjvp
... def _(primals, tangents, outputs):
...     return tangents[0] * 2.0 * primals[0]
>>> x = rg.constant(3.0)
>>> with rg.autodiff.ForwardAccumulator(x, rg.constant(1.0)) as acc:
...     y = square(x)
>>> float(acc.jvp(y))
6.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.backends import zeros_like
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable

__all__ = ["ForwardRule"]


class ForwardRule:
    """A ``defjvp`` rule bound to one call: its arguments and outputs."""

    __slots__ = ("_jvp_fn", "_args", "_outputs", "_describe")

    def __init__(self, jvp_fn: Callable, args: tuple, outputs: Any, describe: str) -> None:
        self._jvp_fn = jvp_fn
        self._args = args
        self._outputs = outputs
        self._describe = describe

    def __call__(self, inputs: list, tangents: list) -> list:
        given = iter(
            Tensor(zeros_like(x._value)) if t is None else t for x, t in zip(inputs, tangents)
        )
        structured = nest.pack_sequence_as(
            self._args,
            [
                next(given) if isinstance(a, (Tensor, Variable)) else None
                for a in nest.flatten(self._args)
            ],
        )
        returned = self._jvp_fn(self._args, structured, self._outputs)
        outputs, found = nest.flatten(self._outputs), nest.flatten(returned)
        if len(found) != len(outputs):
            raise ValueError(
                f"{self._describe}: the forward rule returned {len(found)} tangent(s) for "
                f"{len(outputs)} output(s); return one per output, in the structure of the outputs"
            )
        return [_as_tangent(t, y) for t, y in zip(found, outputs)]


def _as_tangent(t: Any, y: Tensor) -> Any:
    if isinstance(t, (int, float, complex, np.ndarray, np.generic)):
        return convert_to_tensor(t, dtype=y.dtype)
    return t
