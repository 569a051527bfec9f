"""``retrograd.nn``: TensorFlow's ``tf.nn`` namespace."""

from retrograd.distribute.losses import compute_average_loss, scale_regularization_loss
from retrograd.ops.activation_ops import elu, gelu, leaky_relu, relu6, selu, silu, softsign, swish
from retrograd.ops.conv_ops import conv1d, conv2d, conv2d_transpose
from retrograd.ops.embedding_ops import embedding_lookup
from retrograd.ops.math_ops import sigmoid, tanh
from retrograd.ops.nn_layer_ops import batch_normalization, bias_add, dropout
from retrograd.ops.nn_losses import (
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
)
from retrograd.ops.nn_ops import l2_loss, log_softmax, relu, softmax, softplus
from retrograd.ops.pool_ops import (
    avg_pool,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
)
from retrograd.ops.sort_ops import top_k
from retrograd.ops.statistics_ops import l2_normalize, moments

__all__ = ["sigmoid", "tanh", "l2_loss", "log_softmax", "relu", "softmax", "softplus"]
__all__ += ["compute_average_loss", "scale_regularization_loss"]
__all__ += ["top_k", "l2_normalize", "moments"]
__all__ += ["elu", "gelu", "leaky_relu", "relu6", "selu", "silu", "softsign", "swish"]

# Convolution and pooling (issue 4).
__all__ += [
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "avg_pool",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "max_pool",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
]

# Losses, layers' building blocks and embeddings (issue 4).
__all__ += [
    "embedding_lookup",
    "batch_normalization",
    "bias_add",
    "dropout",
    "sigmoid_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits",
    "weighted_cross_entropy_with_logits",
]
