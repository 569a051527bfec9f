"""Inverse trigonometric and hyperbolic functions: asin, acos, atan, atan2, sinh, cosh,
asinh, acosh, atanh. All but atan2 accept complex tensors (NumPy's principal branches, as
TensorFlow's); their gradients are ``grad * conj(f'(x))``.

>>> import retrograd as rg
>>> rg.asin([1.0, 0.0]).numpy().tolist(), rg.atan2(1.0, -1.0).numpy().tolist()
([1.5707963705062866, 0.0], 2.356194496154785)
"""

from __future__ import annotations

import functools

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import broadcast, define, math_ops
from retrograd.ops.define import FLOAT, FLOAT_COMPLEX, tensor_pair

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)

asin = unary_op(
    "asin",
    "Asin",
    np.arcsin,
    FLOAT_COMPLEX,
    """Inverse sine elementwise.

    >>> import retrograd as rg
    >>> rg.asin(0.0).numpy().tolist(), round(float(rg.asin(1.0)), 4)
    (0.0, 1.5708)
    """,
)
acos = unary_op(
    "acos",
    "Acos",
    np.arccos,
    FLOAT_COMPLEX,
    """Inverse cosine elementwise.

    >>> import retrograd as rg
    >>> rg.acos(1.0).numpy().tolist(), round(float(rg.acos(0.0)), 4)
    (0.0, 1.5708)
    """,
)

atan = unary_op(
    "atan",
    "Atan",
    np.arctan,
    FLOAT_COMPLEX,
    """Inverse tangent elementwise.

    >>> import retrograd as rg
    >>> rg.atan(0.0).numpy().tolist(), round(float(rg.atan(1.0)), 4)
    (0.0, 0.7854)
    """,
)
sinh = unary_op(
    "sinh",
    "Sinh",
    np.sinh,
    FLOAT_COMPLEX,
    """Hyperbolic sine elementwise.

    >>> import retrograd as rg
    >>> rg.sinh(0.0).numpy().tolist(), round(float(rg.sinh(1.0)), 4)
    (0.0, 1.1752)
    """,
)
cosh = unary_op(
    "cosh",
    "Cosh",
    np.cosh,
    FLOAT_COMPLEX,
    """Hyperbolic cosine elementwise.

    >>> import retrograd as rg
    >>> rg.cosh(0.0).numpy().tolist(), round(float(rg.cosh(1.0)), 4)
    (1.0, 1.5431)
    """,
)
asinh = unary_op(
    "asinh",
    "Asinh",
    np.arcsinh,
    FLOAT_COMPLEX,
    """Inverse hyperbolic sine.

    >>> import retrograd as rg
    >>> rg.asinh(0.0).numpy().tolist(), round(float(rg.asinh(1.0)), 4)
    (0.0, 0.8814)
    """,
)
acosh = unary_op(
    "acosh",
    "Acosh",
    np.arccosh,
    FLOAT_COMPLEX,
    """Inverse hyperbolic cosine.

    >>> import retrograd as rg
    >>> rg.acosh(1.0).numpy().tolist(), round(float(rg.acosh(2.0)), 4)
    (0.0, 1.317)
    """,
)
atanh = unary_op(
    "atanh",
    "Atanh",
    np.arctanh,
    FLOAT_COMPLEX,
    """Inverse hyperbolic tangent.

    >>> import retrograd as rg
    >>> rg.atanh(0.0).numpy().tolist(), round(float(rg.atanh(0.5)), 4)
    (0.0, 0.5493)
    """,
)
_Atan2 = define_op("Atan2", np.arctan2)


def atan2(y: TensorLike, x: TensorLike, name: str | None = None) -> Tensor:
    """The angle of the point (x, y) in (-pi, pi], elementwise with broadcasting (floats).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.atan2([1.0, 1.0], [1.0, -1.0]).numpy().tolist()]
    [0.7854, 2.3562]
    """
    y, x = tensor_pair("Atan2", y, x, FLOAT)
    broadcast_dims([y._value.shape, x._value.shape], "Atan2")
    return execute(_Atan2, (y, x), None, name)


def _times_conj(grad: Tensor, derivative: Tensor) -> Tensor:
    return grad * math_ops.conj(derivative)


@op_gradient("Asin")
def _asin_grad(op, grad):
    x = op.inputs[0]
    return _times_conj(grad, math_ops.rsqrt(1 - x * x))


@op_gradient("Acos")
def _acos_grad(op, grad):
    x = op.inputs[0]
    return _times_conj(grad, -math_ops.rsqrt(1 - x * x))


@op_gradient("Atan")
def _atan_grad(op, grad):
    x = op.inputs[0]
    return _times_conj(grad, math_ops.reciprocal(1 + x * x))


@op_gradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    scale = grad / (x * x + y * y)
    return broadcast.reduce_to_inputs(op, scale * x, -scale * y)


@op_gradient("Sinh")
def _sinh_grad(op, grad):
    return _times_conj(grad, cosh(op.inputs[0]))


@op_gradient("Cosh")
def _cosh_grad(op, grad):
    return _times_conj(grad, sinh(op.inputs[0]))


@op_gradient("Asinh")
def _asinh_grad(op, grad):
    return _times_conj(grad, math_ops.reciprocal(cosh(op.outputs[0])))


@op_gradient("Acosh")
def _acosh_grad(op, grad):
    return _times_conj(grad, math_ops.reciprocal(sinh(op.outputs[0])))


@op_gradient("Atanh")
def _atanh_grad(op, grad):
    x = op.inputs[0]
    return _times_conj(grad, math_ops.reciprocal(1 - x * x))
