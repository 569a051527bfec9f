"""Products and quotients that are 0 where they would be undefined: ``xlogy``, ``xdivy``
(0 where x is 0) and ``divide_no_nan`` (0 where the divisor is 0). Their gradients are
built from the same ops, so they are 0 at those points too and differentiate again.

>>> import retrograd as rg
>>> rg.math.xlogy([0.0, 2.0], [0.0, 1.0]).numpy().tolist()
[0.0, 0.0]
>>> rg.math.divide_no_nan([1.0, 3.0], [0.0, 2.0]).numpy().tolist()
[0.0, 1.5]
"""

from __future__ import annotations

import functools

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import broadcast, comparison_ops, define, math_ops
from retrograd.ops.define import FLOAT_COMPLEX

# The elementwise op factories of ops/define.py; the functions they make belong here.
binary_op = functools.partial(define.binary_op, module=__name__)


def _zero_where(condition, value):
    return np.where(condition, np.zeros_like(value), value)


xlogy = binary_op(
    "xlogy",
    "Xlogy",
    lambda x, y: _zero_where(x == 0, x * np.log(y)),
    FLOAT_COMPLEX,
    """x * log(y), and 0 where x is 0 (whatever y is), with broadcasting.

    >>> import retrograd as rg
    >>> rg.math.xlogy([0.0, 2.0], [0.0, 1.0]).numpy().tolist()
    [0.0, 0.0]
    """,
    quiet=True,
)
xdivy = binary_op(
    "xdivy",
    "Xdivy",
    lambda x, y: _zero_where(x == 0, x / y),
    FLOAT_COMPLEX,
    """x / y, and 0 where x is 0 (whatever y is), with broadcasting.

    >>> import retrograd as rg
    >>> rg.math.xdivy([0.0, 3.0], [0.0, 2.0]).numpy().tolist()
    [0.0, 1.5]
    """,
    quiet=True,
)
_DivNoNan = define_op("DivNoNan", lambda x, y: _zero_where(y == 0, x / y), quiet=True)


def divide_no_nan(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """x / y, and 0 where y is 0 (even where x is inf or nan); integers are divided as floats.

    >>> import retrograd as rg
    >>> rg.math.divide_no_nan([1, 2], [0, 4])
    <retrograd.Tensor: shape=(2,), dtype=float64, numpy=array([0. , 0.5])>
    """
    x, y = math_ops.true_division_operands("DivNoNan", x, y)
    broadcast_dims([x._value.shape, y._value.shape], "DivNoNan")
    return execute(_DivNoNan, (x, y), None, name)


def _nonzero(x: Tensor) -> Tensor:
    """1 where x is not 0, else 0 (a constant as far as gradients go)."""
    return math_ops.cast(comparison_ops.not_equal(x, 0), x.dtype)


@op_gradient("Xlogy")
def _xlogy_grad(op, grad):
    x, y = op.inputs
    gx = grad * math_ops.conj(xlogy(_nonzero(x), y))
    gy = grad * math_ops.conj(xdivy(x, y))
    return broadcast.reduce_to_inputs(op, gx, gy)


@op_gradient("Xdivy")
def _xdivy_grad(op, grad):
    x, y = op.inputs
    gx = grad * math_ops.conj(xdivy(_nonzero(x), y))
    gy = grad * math_ops.conj(xdivy(-x, y * y))
    return broadcast.reduce_to_inputs(op, gx, gy)


@op_gradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    gx = divide_no_nan(grad, y)
    gy = grad * divide_no_nan(divide_no_nan(-x, y), y)
    return broadcast.reduce_to_inputs(op, gx, gy)
