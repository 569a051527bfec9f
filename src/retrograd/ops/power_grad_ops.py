"""The gradients of elementwise functions that are ops of their own, as TensorFlow's, computed
from the output ``y`` and the upstream gradient ``dy`` in one pass over the data.

TanhGrad and SigmoidGrad: ``dy * (1 - y * y)`` and ``dy * y * (1 - y)``. SqrtGrad, RsqrtGrad
and ReciprocalGrad are 0 wherever ``dy`` is 0, even where the local derivative is infinite
(at 0). So ``where(x > 0, sqrt(x), 0)`` has the gradient 0 at 0, not NaN, as in TensorFlow.

>>> import retrograd as rg
>>> x = rg.constant([0.0, 4.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.where(x > 0, rg.sqrt(x), 0.0)
>>> tape.gradient(y, x).numpy().tolist()
[0.0, 0.25]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.registry import op_gradient
from retrograd.ops import broadcast, define, math_ops
from retrograd.ops.define import FLOAT_COMPLEX

# The elementwise op factories of ops/define.py; the functions they make belong here.
binary_op = functools.partial(define.binary_op, module=__name__)

__all__ = ["sqrt_grad", "rsqrt_grad", "reciprocal_grad", "tanh_grad", "sigmoid_grad"]


def _zero_where_no_upstream(local: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A kernel ``(y, dy) -> local(y, dy)``, with 0 where ``dy`` is 0 (TensorFlow's kernels)."""

    def kernel(y: Any, dy: Any) -> Any:
        out = local(y, dy)
        return np.where(dy == 0, out.dtype.type(0), out)

    return kernel


sqrt_grad = binary_op(
    "sqrt_grad",
    "SqrtGrad",
    _zero_where_no_upstream(lambda y, dy: dy * (y.dtype.type(0.5) / y)),
    FLOAT_COMPLEX,
    "dy * 0.5 / y, 0 where dy is 0: the gradient of sqrt from its output y.",
    batchable=True,
    quiet=True,
)
rsqrt_grad = binary_op(
    "rsqrt_grad",
    "RsqrtGrad",
    _zero_where_no_upstream(lambda y, dy: dy * (y.dtype.type(-0.5) * y * y * y)),
    FLOAT_COMPLEX,
    "dy * -0.5 * y**3, 0 where dy is 0: the gradient of rsqrt from its output y.",
    batchable=True,
    quiet=True,
)

reciprocal_grad = binary_op(
    "reciprocal_grad",
    "ReciprocalGrad",
    _zero_where_no_upstream(lambda y, dy: -dy * (y * y)),
    FLOAT_COMPLEX,
    "-dy * y**2, 0 where dy is 0: the gradient of reciprocal from its output y.",
    batchable=True,
    quiet=True,
)


@op_gradient("Sqrt")
def _sqrt_grad(op, grad):
    return sqrt_grad(math_ops.conj(op.outputs[0]), grad)


@op_gradient("Rsqrt")
def _rsqrt_grad(op, grad):
    return rsqrt_grad(math_ops.conj(op.outputs[0]), grad)


@op_gradient("Reciprocal")
def _reciprocal_grad(op, grad):
    return reciprocal_grad(math_ops.conj(op.outputs[0]), grad)


# Their own gradients: z = 0.5 dy / y, z = -0.5 dy y^3 and z = -dy y^2, differentiated in
# y and in dy (the dy part is the same op again, so it keeps the zero rule).


@op_gradient("SqrtGrad")
def _sqrt_grad_grad(op, grad):
    y, dy = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    return broadcast.reduce_to_inputs(op, -grad * dy * 0.5 / math_ops.square(y), sqrt_grad(y, grad))


@op_gradient("RsqrtGrad")
def _rsqrt_grad_grad(op, grad):
    y, dy = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    return broadcast.reduce_to_inputs(
        op, grad * -1.5 * dy * math_ops.square(y), rsqrt_grad(y, grad)
    )


@op_gradient("ReciprocalGrad")
def _reciprocal_grad_grad(op, grad):
    y, dy = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    return broadcast.reduce_to_inputs(op, grad * -2.0 * dy * y, reciprocal_grad(y, grad))


def _tanh_grad_kernel(y: Any, dy: Any) -> Any:
    """``dy * (1 - y * y)`` with one temporary: the square is made fresh, then turned into
    the result in place (when ``dy`` has its shape; a typed 1: NumPy 1.x promotes scalars)."""
    out = y * y
    one = y.dtype.type(1)
    if isinstance(out, np.ndarray) and out.shape == np.shape(dy):
        np.subtract(one, out, out=out)
        return np.multiply(dy, out, out=out)
    return dy * (one - out)


def _sigmoid_grad_kernel(y: Any, dy: Any) -> Any:
    """``dy * (y * (1 - y))`` with one temporary, as ``_tanh_grad_kernel``."""
    one = y.dtype.type(1)
    out = one - y
    if isinstance(out, np.ndarray) and out.shape == np.shape(dy):
        np.multiply(y, out, out=out)
        return np.multiply(dy, out, out=out)
    return dy * (y * out)


# The gradients of tanh and sigmoid in terms of their outputs, one op each (TensorFlow's
# TanhGrad and SigmoidGrad): one pass over the data instead of three.
tanh_grad = binary_op(
    "tanh_grad",
    "TanhGrad",
    _tanh_grad_kernel,
    FLOAT_COMPLEX,
    "dy * (1 - y * y): the gradient of tanh from its output y and upstream gradient dy.",
    batchable=True,
    fresh=True,
)
sigmoid_grad = binary_op(
    "sigmoid_grad",
    "SigmoidGrad",
    _sigmoid_grad_kernel,
    FLOAT_COMPLEX,
    "dy * y * (1 - y): the gradient of sigmoid from its output y and upstream gradient dy.",
    batchable=True,
    fresh=True,
)


@op_gradient("TanhGrad")
def _tanh_grad_grad(op, grad):
    y, dy = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    return broadcast.reduce_to_inputs(op, grad * -2.0 * dy * y, tanh_grad(y, grad))


@op_gradient("SigmoidGrad")
def _sigmoid_grad_grad(op, grad):
    y, dy = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    scaled = grad * dy
    return broadcast.reduce_to_inputs(op, scaled - 2.0 * scaled * y, sigmoid_grad(y, grad))
