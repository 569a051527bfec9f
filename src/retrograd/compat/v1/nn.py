"""``retrograd.compat.v1.nn``: TensorFlow 1's ``tf.nn``: its v1 spellings
(``softmax_cross_entropy_with_logits`` without gradients into the labels, ``..._v2``,
``dropout(keep_prob=)``, ``softmax(dim=)``, ``conv2d(filter=)``, ``moments(keep_dims=)``,
``embedding_lookup``'s "mod" shards), the functions TensorFlow 2 dropped (``xw_plus_b``,
``fused_batch_norm``, ...) and every other function of ``retrograd.nn``.

>>> import retrograd as rg
>>> rg.compat.v1.nn.relu is rg.nn.relu
True
"""

from retrograd.compat.delegation import shared_names as _shared_names
from retrograd.compat.delegation import shared_value as _shared_value
from retrograd.compat.v1_argument_orders import space_to_batch
from retrograd.compat.v1_array_functions import depth_to_space, space_to_depth
from retrograd.compat.v1_more_functions import depthwise_conv2d_native
from retrograd.compat.v1_nn import (
    avg_pool,
    avg_pool2d,
    avg_pool_v2,
    batch_norm_with_global_normalization,
    conv1d,
    conv2d,
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv2d_transpose,
    embedding_lookup,
    fused_batch_norm,
    in_top_k,
    max_pool,
    max_pool_v2,
    moments,
    relu_layer,
    weighted_cross_entropy_with_logits,
    xw_plus_b,
)
from retrograd.compat.v1_nn_signatures import (
    conv3d,
    conv3d_transpose,
    convolution,
    crelu,
    depthwise_conv2d,
    dilation2d,
    erosion2d,
    max_pool_with_argmax,
    nce_loss,
    pool,
    sampled_softmax_loss,
    separable_conv2d,
    sparse_softmax_cross_entropy_with_logits,
    sufficient_statistics,
    weighted_moments,
)
from retrograd.compat.v1_signatures import (
    dropout,
    log_softmax,
    softmax,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
)
from retrograd.ops.conv3d_ops import conv3d_backprop_filter
from retrograd.ops.conv3d_ops import conv3d_backprop_filter as conv3d_backprop_filter_v2
from retrograd.ops.conv_more_ops import (
    depthwise_conv2d_backprop_filter as depthwise_conv2d_native_backprop_filter,
)
from retrograd.ops.conv_more_ops import (
    depthwise_conv2d_backprop_input as depthwise_conv2d_native_backprop_input,
)

__all__ = [
    "space_to_batch",
    "conv3d",
    "conv3d_transpose",
    "convolution",
    "crelu",
    "depthwise_conv2d",
    "dilation2d",
    "erosion2d",
    "max_pool_with_argmax",
    "nce_loss",
    "pool",
    "sampled_softmax_loss",
    "separable_conv2d",
    "sparse_softmax_cross_entropy_with_logits",
    "sufficient_statistics",
    "weighted_moments",
    "conv3d_backprop_filter",
    "conv3d_backprop_filter_v2",
    "depthwise_conv2d_native",
    "depthwise_conv2d_native_backprop_filter",
    "depthwise_conv2d_native_backprop_input",
    "depth_to_space",
    "space_to_depth",
    "avg_pool",
    "avg_pool2d",
    "avg_pool_v2",
    "batch_norm_with_global_normalization",
    "conv1d",
    "conv2d",
    "conv2d_backprop_filter",
    "conv2d_backprop_input",
    "conv2d_transpose",
    "embedding_lookup",
    "fused_batch_norm",
    "in_top_k",
    "max_pool",
    "max_pool_v2",
    "moments",
    "relu_layer",
    "weighted_cross_entropy_with_logits",
    "xw_plus_b",
    "dropout",
    "log_softmax",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits_v2",
]


def __getattr__(name):
    """The rest of ``retrograd.nn``."""
    return _shared_value(name, "tf.compat.v1.nn", "nn")


def __dir__():
    return sorted(set(__all__) | set(_shared_names("nn")))
