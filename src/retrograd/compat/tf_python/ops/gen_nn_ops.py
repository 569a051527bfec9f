"""``tensorflow.python.ops.gen_nn_ops``: the raw neural-network ops by their generated
names (``relu_grad`` is the gradient op of ``Relu``)."""

from retrograd.ops.activation_ops import elu, relu6, selu
from retrograd.ops.conv_ops import conv2d
from retrograd.ops.nn_layer_ops import bias_add
from retrograd.ops.nn_ops import log_softmax, relu, relu_grad, softmax, softplus

__all__ = [
    "bias_add", "conv2d", "elu", "log_softmax", "relu", "relu6", "relu_grad", "selu",
    "softmax", "softplus",
]  # fmt: skip
