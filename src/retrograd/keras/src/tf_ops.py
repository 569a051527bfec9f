"""The retrograd ops Keras is built from, gathered in one namespace (``tf_ops.relu``,
``tf_ops.matmul``, ...) so Keras code reads like TensorFlow code.

>>> from retrograd.keras.src import tf_ops
>>> float(tf_ops.reduce_sum(tf_ops.constant([1.0, 2.0])))
3.0
"""

from retrograd.core.tensor import convert_to_tensor, is_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import constant
from retrograd.ops.activation_ops import softsign
from retrograd.ops.array_ops import (
    concat,
    expand_dims,
    identity,
    ones,
    ones_like,
    reshape,
    shape,
    squeeze,
    stop_gradient,
    transpose,
    where,
    zeros,
    zeros_like,
)
from retrograd.ops.clip_ops import clip_by_value
from retrograd.ops.comparison_ops import equal, greater, not_equal
from retrograd.ops.conv_ops import conv1d, conv2d
from retrograd.ops.creation_ops import one_hot
from retrograd.ops.embedding_ops import embedding_lookup
from retrograd.ops.gather_ops import gather
from retrograd.ops.linalg_ops import matmul, tensordot
from retrograd.ops.math_ops import (
    abs,
    cast,
    exp,
    log,
    log1p,
    maximum,
    minimum,
    rsqrt,
    sigmoid,
    sqrt,
    square,
    tanh,
)
from retrograd.ops.matrix_diag_ops import eye
from retrograd.ops.nn_layer_ops import batch_normalization, dropout
from retrograd.ops.nn_losses import (
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
)
from retrograd.ops.nn_ops import relu, softmax, softplus
from retrograd.ops.pad_ops import pad
from retrograd.ops.pool_ops import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from retrograd.ops.rearrange_ops import tile
from retrograd.ops.reduction_ops import argmax, reduce_max, reduce_mean, reduce_sum
from retrograd.ops.statistics_ops import moments

__all__ = [
    "Variable",
    "abs",
    "argmax",
    "avg_pool1d",
    "avg_pool2d",
    "batch_normalization",
    "cast",
    "clip_by_value",
    "concat",
    "constant",
    "conv1d",
    "conv2d",
    "convert_to_tensor",
    "dropout",
    "embedding_lookup",
    "equal",
    "exp",
    "eye",
    "expand_dims",
    "gather",
    "greater",
    "identity",
    "is_tensor",
    "log",
    "log1p",
    "matmul",
    "max_pool1d",
    "max_pool2d",
    "maximum",
    "minimum",
    "moments",
    "not_equal",
    "one_hot",
    "pad",
    "ones",
    "ones_like",
    "reduce_max",
    "reduce_mean",
    "reduce_sum",
    "relu",
    "reshape",
    "rsqrt",
    "shape",
    "sigmoid",
    "sigmoid_cross_entropy_with_logits",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softplus",
    "softsign",
    "sparse_softmax_cross_entropy_with_logits",
    "sqrt",
    "square",
    "squeeze",
    "stop_gradient",
    "tanh",
    "tensordot",
    "tile",
    "transpose",
    "where",
    "zeros",
    "zeros_like",
]
