"""``tensorflow.python.ops.nn_ops``: TensorFlow's neural-network functions."""

from retrograd.ops.activation_ops import elu, leaky_relu, relu6, selu
from retrograd.ops.conv_ops import conv1d, conv2d, conv2d_transpose
from retrograd.ops.nn_layer_ops import bias_add, dropout
from retrograd.ops.nn_losses import (
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
)
from retrograd.ops.nn_ops import log_softmax, relu, softmax, softplus
from retrograd.ops.pool_ops import avg_pool, max_pool

__all__ = [
    "avg_pool", "bias_add", "conv1d", "conv2d", "conv2d_transpose", "dropout", "elu",
    "leaky_relu", "log_softmax", "max_pool", "relu", "relu6", "selu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "sparse_softmax_cross_entropy_with_logits",
]  # fmt: skip
