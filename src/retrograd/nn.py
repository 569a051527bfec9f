"""``retrograd.nn``: TensorFlow's ``tf.nn`` namespace."""

import sys as _sys

from retrograd.distribute.losses import compute_average_loss, scale_regularization_loss
from retrograd.ops import nn_experimental_namespace as experimental
from retrograd.ops.activation_ops import elu, gelu, leaky_relu, relu6, selu, silu, softsign, swish
from retrograd.ops.approx_topk_ops import approx_max_k, approx_min_k
from retrograd.ops.conv3d_ops import conv3d, conv3d_transpose
from retrograd.ops.conv_more_ops import (
    atrous_conv2d,
    atrous_conv2d_transpose,
    conv1d_transpose,
    conv_transpose,
    convolution,
    depthwise_conv2d,
    depthwise_conv2d_backprop_filter,
    depthwise_conv2d_backprop_input,
    dilation2d,
    erosion2d,
    max_pool_with_argmax,
    pool,
    separable_conv2d,
    with_space_to_batch,
)
from retrograd.ops.conv_ops import conv1d, conv2d, conv2d_transpose
from retrograd.ops.ctc_ops import collapse_repeated, ctc_loss, ctc_unique_labels
from retrograd.ops.embedding_ops import embedding_lookup
from retrograd.ops.math_extra_ops import in_top_k, zero_fraction
from retrograd.ops.math_ops import sigmoid, tanh
from retrograd.ops.nn_extra_ops import (
    batch_norm_with_global_normalization,
    compute_accidental_hits,
    crelu,
    isotonic_regression,
    local_response_normalization,
    log_poisson_loss,
    lrn,
    nce_loss,
    normalize_moments,
    sampled_softmax_loss,
    sufficient_statistics,
    weighted_moments,
)
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
from retrograd.ops.random_distribution_ops import (
    all_candidate_sampler,
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from retrograd.ops.sort_ops import top_k
from retrograd.ops.space_batch_ops import depth_to_space, space_to_batch, space_to_depth
from retrograd.ops.statistics_ops import l2_normalize, moments

__all__ = ["sigmoid", "tanh", "l2_loss", "log_softmax", "relu", "softmax", "softplus"]
__all__ += ["top_k", "l2_normalize", "moments", "depth_to_space", "space_to_depth"]
__all__ += ["in_top_k", "space_to_batch", "zero_fraction"]
__all__ += [
    "all_candidate_sampler", "fixed_unigram_candidate_sampler",
    "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler",
    "uniform_candidate_sampler",
]  # fmt: skip
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
__all__ += [
    "approx_max_k", "approx_min_k", "batch_norm_with_global_normalization",
    "compute_accidental_hits", "compute_average_loss", "crelu", "experimental",
    "isotonic_regression", "local_response_normalization", "log_poisson_loss", "lrn",
    "nce_loss", "normalize_moments", "sampled_softmax_loss", "scale_regularization_loss",
    "sufficient_statistics", "weighted_moments",
]  # fmt: skip

__all__ += [
    "atrous_conv2d", "atrous_conv2d_transpose", "conv1d_transpose", "conv3d", "conv3d_transpose",
    "conv_transpose", "convolution", "depthwise_conv2d", "depthwise_conv2d_backprop_filter",
    "depthwise_conv2d_backprop_input", "dilation2d", "erosion2d", "max_pool_with_argmax", "pool",
    "separable_conv2d", "with_space_to_batch",
]  # fmt: skip

__all__ += ["collapse_repeated", "ctc_loss", "ctc_unique_labels"]

# `import retrograd.nn.experimental` works too.
_sys.modules[__name__ + ".experimental"] = experimental
