"""Rounding to integers: floor, ceil, round (halves to even). Their outputs are piecewise
constant; like TensorFlow, retrograd declares them non-differentiable, so the inputs of
these ops get no gradient (``None``), not a zero gradient.

>>> import retrograd as rg
>>> rg.round([0.5, 1.5, 2.5, -1.5]).numpy().tolist(), rg.math.ceil(1.2).numpy().tolist()
([0.0, 2.0, 2.0, -2.0], 2.0)
"""

from __future__ import annotations

import functools

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import define
from retrograd.ops.define import FLOAT, REAL, tensor_arg

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)

floor = unary_op(
    "floor",
    "Floor",
    np.floor,
    FLOAT,
    """The largest integer <= x, elementwise.

    >>> import retrograd as rg
    >>> rg.floor([1.5, -1.5]).numpy().tolist()
    [1.0, -2.0]
    """,
)
ceil = unary_op(
    "ceil",
    "Ceil",
    np.ceil,
    FLOAT,
    """The smallest integer >= x, elementwise.

    >>> import retrograd as rg
    >>> rg.math.ceil([1.5, -1.5]).numpy().tolist()
    [2.0, -1.0]
    """,
)

_round = unary_op("round", "Round", np.round, FLOAT, "x rounded to the nearest integer.")


def round(x: TensorLike, name: str | None = None) -> Tensor:  # noqa: A001
    """``x`` rounded to the nearest integer, halves to the even one (banker's rounding);
    integer tensors are returned as they are.

    >>> import retrograd as rg
    >>> rg.round([0.5, 1.5, 2.5, -0.4]).numpy().tolist()
    [0.0, 2.0, 2.0, -0.0]
    """
    t = tensor_arg("Round", x, REAL)
    return t if t._value.dtype.kind in "iu" else _round(t, name=name)


for _op_type in ("Floor", "Ceil", "Round"):
    no_gradient(_op_type)
