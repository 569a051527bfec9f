"""Activation functions: softsign, elu, selu, leaky_relu, relu6 (ops with their own rules)
and gelu, silu/swish, log_sigmoid (built from other ops, as TensorFlow builds them).

At the kinks the gradients are TensorFlow's: elu and selu take the right-hand derivative at
0, leaky_relu the left-hand one (alpha), relu6 gives 0 at both 0 and 6.

>>> import retrograd as rg
>>> rg.nn.relu6([-1.0, 3.0, 8.0]).numpy().tolist(), rg.nn.leaky_relu([-1.0, 2.0]).numpy().tolist()
([0.0, 3.0, 6.0], [-0.20000000298023224, 2.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, comparison_ops, math_ops, nn_ops, special_ops
from retrograd.ops.define import FLOAT, FLOAT_COMPLEX, REAL, tensor_arg

# SELU's constants (Klambauer et al. 2017), as TensorFlow uses them.
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _elu_kernel(x):
    return np.where(x < 0, np.expm1(x), x)


def _selu_kernel(x):
    return (_SELU_SCALE * np.where(x < 0, _SELU_ALPHA * np.expm1(x), x)).astype(x.dtype, copy=False)


def _leaky_relu_kernel(x, alpha):
    return np.where(x > 0, x, x * alpha).astype(x.dtype, copy=False)


_Softsign = define_op("Softsign", lambda x: (x / (1 + np.abs(x))).astype(x.dtype, copy=False))
_Elu = define_op("Elu", _elu_kernel)
_Selu = define_op("Selu", _selu_kernel)
_Relu6 = define_op("Relu6", lambda x: np.clip(x, 0, 6).astype(x.dtype, copy=False))
_LeakyRelu = define_op("LeakyRelu", _leaky_relu_kernel)


def _activation(op, kinds: str, features: Any, name: str | None) -> Tensor:
    return execute(op, (tensor_arg(op.type, features, kinds, "features"),), None, name)


def softsign(features: TensorLike, name: str | None = None) -> Tensor:
    """``features / (1 + |features|)`` elementwise.

    >>> import retrograd as rg
    >>> rg.nn.softsign([-1.0, 0.0, 3.0]).numpy().tolist()
    [-0.5, 0.0, 0.75]
    """
    return _activation(_Softsign, FLOAT, features, name)


def elu(features: TensorLike, name: str | None = None) -> Tensor:
    """Exponential linear unit: ``x`` where ``x >= 0``, ``exp(x) - 1`` below.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.elu([-1.0, 0.0, 2.0]).numpy().tolist()]
    [-0.6321, 0.0, 2.0]
    """
    return _activation(_Elu, FLOAT, features, name)


def selu(features: TensorLike, name: str | None = None) -> Tensor:
    """Scaled ELU: ``scale * x`` where ``x >= 0``, ``scale * alpha * (exp(x) - 1)`` below,
    with the self-normalising constants scale = 1.0507..., alpha = 1.6732...

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.nn.selu([-1.0, 0.0, 2.0]).numpy().tolist()]
    [-1.1113, 0.0, 2.1014]
    """
    return _activation(_Selu, FLOAT, features, name)


def relu6(features: TensorLike, name: str | None = None) -> Tensor:
    """``min(max(features, 0), 6)`` elementwise; integer tensors too.

    >>> import retrograd as rg
    >>> rg.nn.relu6([-1.0, 3.0, 8.0]).numpy().tolist()
    [0.0, 3.0, 6.0]
    """
    return _activation(_Relu6, REAL, features, name)


def leaky_relu(features: TensorLike, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """``x`` where ``x > 0``, ``alpha * x`` elsewhere; integer features become float32 first.

    ``alpha`` is a Python number (an attribute of the op, as in TensorFlow).

    >>> import retrograd as rg
    >>> rg.nn.leaky_relu([-1.0, 0.0, 2.0], alpha=0.5).numpy().tolist()
    [-0.5, 0.0, 2.0]
    """
    x = tensor_arg("LeakyRelu", features, REAL, "features")
    if x._value.dtype.kind in "iu":
        x = math_ops.cast(x, dtypes.float32)
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(
        alpha, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"LeakyRelu: `alpha` must be a Python float, got {alpha!r}")
    return execute(_LeakyRelu, (x,), {"alpha": float(alpha)}, name)


def gelu(features: TensorLike, approximate: bool = False, name: str | None = None) -> Tensor:
    """Gaussian error linear unit ``x * P(X <= x)`` for a standard normal X.

    ``approximate=False`` computes ``0.5 * x * erfc(-x / sqrt(2))`` (needs SciPy);
    ``approximate=True`` the tanh approximation
    ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x ** 3)))``.

    >>> import retrograd as rg
    >>> print(rg.nn.gelu([-1.0, 1.0]).numpy(), rg.nn.gelu([-1.0, 1.0], approximate=True).numpy())
    [-0.15865526  0.8413447 ] [-0.158808  0.841192]
    """
    x = tensor_arg("Gelu", features, FLOAT, "features")
    if approximate:
        inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x))
        return math_ops.multiply(0.5 * x, 1 + math_ops.tanh(inner), name=name)
    return math_ops.multiply(0.5 * x, special_ops.erfc(-x * 0.7071067811865476), name=name)


def silu(features: TensorLike, beta: TensorLike = 1.0) -> Tensor:
    """``features * sigmoid(beta * features)``, differentiable in ``beta`` too (also
    ``swish``). A tensor ``beta`` is cast to the features' dtype; floats or complex.

    >>> import retrograd as rg
    >>> print(rg.nn.silu([0.0, 2.0]).numpy())
    [0.       1.761594]
    """
    x = tensor_arg("Silu", features, FLOAT_COMPLEX, "features")
    if isinstance(beta, (int, float)) and not isinstance(beta, bool) and beta == 1:
        return x * math_ops.sigmoid(x)
    if isinstance(beta, Tensor) or hasattr(type(beta), "_as_tensor"):
        b = math_ops.cast(convert_to_tensor(beta), x.dtype)
    else:
        b = convert_to_tensor(beta, dtype=x.dtype)
    return x * math_ops.sigmoid(b * x)


swish = silu


def log_sigmoid(x: TensorLike, name: str | None = None) -> Tensor:
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``.

    >>> import retrograd as rg
    >>> rg.math.log_sigmoid([-1000.0, 0.0]).numpy().tolist()
    [-1000.0, -0.6931471824645996]
    """
    t = tensor_arg("LogSigmoid", x, FLOAT, "x")
    return math_ops.negative(nn_ops.softplus(-t), name=name)


@op_gradient("Softsign")
def _softsign_grad(op, grad):
    return grad / math_ops.square(1 + math_ops.abs(op.inputs[0]))


@op_gradient("Elu")
def _elu_grad(op, grad):
    y = op.outputs[0]
    return array_ops.where(y < 0, grad * (y + 1), grad)


@op_gradient("Selu")
def _selu_grad(op, grad):
    y = op.outputs[0]
    return array_ops.where(y < 0, grad * (y + _SELU_SCALE * _SELU_ALPHA), grad * _SELU_SCALE)


@op_gradient("Relu6")
def _relu6_grad(op, grad):
    x = op.inputs[0]
    inside = comparison_ops.logical_and(x > 0, x < 6)
    return array_ops.where(inside, grad, array_ops.zeros_like(grad))


@op_gradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    return array_ops.where(op.inputs[0] > 0, grad, grad * op.get_attr("alpha"))
