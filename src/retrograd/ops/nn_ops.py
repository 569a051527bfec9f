"""Neural-network activations and losses: relu, softplus, softmax, log_softmax, l2_loss.

>>> import retrograd as rg
>>> rg.nn.l2_loss([1.0, 2.0]), rg.nn.relu([-1.0, 2.0]).numpy().tolist()
(<retrograd.Tensor: shape=(), dtype=float32, numpy=2.5>, [0.0, 2.0])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, define, math_ops, reduction_ops
from retrograd.ops.define import FLOAT, REAL, tensor_arg, tensor_pair

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)


def _softmax_kernel(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax_kernel(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


_relu = unary_op(
    "relu",
    "Relu",
    lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
    REAL,
    """max(x, 0).

    >>> import retrograd as rg
    >>> rg.nn.relu([-1.0, 0.0, 2.0]).numpy().tolist()
    [0.0, 0.0, 2.0]
    """,
    inplace=lambda x, out: np.maximum(x, 0, out=out),
    batchable=True,
)

_softplus = unary_op(
    "softplus",
    "Softplus",
    lambda x: np.logaddexp(0, x).astype(x.dtype, copy=False),
    FLOAT,
    """log(1 + exp(x)), stably.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.softplus([-100.0, 0.0, 100.0]).numpy().tolist()]
    [0.0, 0.6931, 100.0]
    """,
    batchable=True,
)


def relu(features: TensorLike, name: str | None = None) -> Tensor:
    """max(features, 0).

    >>> import retrograd as rg
    >>> rg.nn.relu(features=[-1.0, 0.0, 2.0]).numpy().tolist()
    [0.0, 0.0, 2.0]
    """
    return _relu(features, name)


def softplus(features: TensorLike, name: str | None = None) -> Tensor:
    """log(1 + exp(features)), stably.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.softplus(features=[-100.0, 0.0, 100.0]).numpy().tolist()]
    [0.0, 0.6931, 100.0]
    """
    return _softplus(features, name)


_Softmax = define_op("Softmax", _softmax_kernel)
_LogSoftmax = define_op("LogSoftmax", _log_softmax_kernel)
_L2Loss = define_op("L2Loss", lambda t: (np.sum(np.square(t), dtype=t.dtype) / 2).astype(t.dtype))


def _relu_grad_kernel(gradients, features):
    # A product (as TensorFlow's kernel), so a NaN gradient stays NaN where features <= 0.
    return gradients * (features > 0)


_ReluGrad = define_op(
    "ReluGrad",
    _relu_grad_kernel,
    elementwise=True,
    inplace=lambda gradients, features, out: np.multiply(gradients, features > 0, out=out),
    batchable=True,
)


def relu_grad(gradients: Any, features: Any, name: str | None = None) -> Tensor:
    """``gradients`` where ``features > 0``, else 0, in one pass: the gradient of relu
    (TensorFlow's ReluGrad op; ``features`` may be relu's input or its output)."""
    g, f = tensor_pair("ReluGrad", gradients, features, REAL)
    broadcast_dims([g._value.shape, f._value.shape], "ReluGrad")
    return execute(_ReluGrad, (g, f), None, name)


@op_gradient("Relu")
def _relu_grad(op, grad):
    return relu_grad(grad, op.outputs[0])


@op_gradient("ReluGrad")
def _relu_grad_grad(op, grad):
    # Piecewise linear in `gradients`, piecewise constant in `features` (zero gradient).
    return broadcast.reduce_to_inputs(op, relu_grad(grad, op.inputs[1]), array_ops.zeros_like(grad))


@op_gradient("Softplus")
def _softplus_grad(op, grad):
    return grad * math_ops.sigmoid(op.inputs[0])


def _softmax(op, logits, axis, name):
    x = tensor_arg(op.type, logits, FLOAT, "logits")
    ndim = x._value.ndim
    if ndim == 0 or not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"{op.type}: axis {axis} is out of range for logits of rank {ndim}"
        )
    return execute(op, (x,), {"axis": axis % ndim}, name)


def softmax(logits: TensorLike, axis: int | None = None, name: str | None = None) -> Tensor:
    """exp(logits) / sum(exp(logits)) along ``axis``, computed stably.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.softmax([1000.0, 1000.0, 999.0]).numpy().tolist()]
    [0.4223, 0.4223, 0.1554]
    """
    return _softmax(_Softmax, logits, -1 if axis is None else axis, name)


def log_softmax(logits: TensorLike, axis: int | None = None, name: str | None = None) -> Tensor:
    """logits - log(sum(exp(logits))) along ``axis``, computed stably.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.log_softmax([0.0, 0.0]).numpy().tolist()]
    [-0.6931, -0.6931]
    """
    return _softmax(_LogSoftmax, logits, -1 if axis is None else axis, name)


@op_gradient("Softmax")
def _softmax_grad(op, grad):
    y = op.outputs[0]
    axis = op.get_attr("axis")
    return (grad - reduction_ops.reduce_sum(grad * y, axis, keepdims=True)) * y


@op_gradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    axis = op.get_attr("axis")
    return grad - reduction_ops.reduce_sum(grad, axis, keepdims=True) * math_ops.exp(op.outputs[0])


def l2_loss(t: TensorLike, name: str | None = None) -> Tensor:
    """sum(t ** 2) / 2.

    >>> import retrograd as rg
    >>> rg.nn.l2_loss([1.0, 2.0, 3.0]).numpy().tolist()
    7.0
    """
    return execute(_L2Loss, (tensor_arg("L2Loss", t, FLOAT, "t"),), None, name)


@op_gradient("L2Loss")
def _l2_loss_grad(op, grad):
    return op.inputs[0] * grad


sigmoid = math_ops.sigmoid
__all__ = ["relu", "softplus", "softmax", "log_softmax", "l2_loss", "sigmoid"]
