"""TensorFlow 1's signatures of ``tf.nn`` functions retrograd has in TensorFlow 2's: the old
argument names (``filter``, ``rate``, ``dilation_rate``, ``rates``, ``kernel``, ``value``,
``keep_dims``, ``Targmax``), the old orders (``name`` before ``axis``/``data_format``,
``padding`` before ``strides``), defaults of None where TensorFlow 1 has them, and the
``partition_strategy`` of the sampled losses ("mod", TensorFlow 1's default, for weights
given as several shards). Each old name is an alias: giving both is a ValueError.

>>> import retrograd as rg
>>> x = rg.ones([1, 3, 3, 1])
>>> convolution(x, rg.ones([2, 2, 1, 1]), "VALID").shape
TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

from typing import Any

from retrograd.compat import v1_nn
from retrograd.compat.v1_argument_orders import either
from retrograd.core import dtypes
from retrograd.core.tensor import Tensor
from retrograd.ops import conv3d_ops, conv_more_ops, nn_extra_ops, nn_losses

__all__ = [
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
]


def crelu(features, name=None, axis=-1) -> Tensor:
    """TF1's ``crelu`` (``name`` before ``axis``).

    >>> crelu([1.0, -2.0]).numpy().tolist()
    [1.0, 0.0, 0.0, 2.0]
    """
    return nn_extra_ops.crelu(features, axis=axis, name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """TF1's ``sparse_softmax_cross_entropy_with_logits`` (both arguments must be given).

    >>> round(float(sparse_softmax_cross_entropy_with_logits([0], [[0.0, 0.0]])[0]), 4)
    0.6931
    """
    if labels is None or logits is None:
        raise ValueError(
            "Both labels and logits must be provided for sparse_softmax_cross_entropy_with_logits"
        )
    return nn_losses.sparse_softmax_cross_entropy_with_logits(labels, logits, name)


def _keepdims(keepdims: Any, keep_dims: Any) -> bool:
    value = either(keepdims, keep_dims, "keepdims", "keep_dims")
    return False if value is None else bool(value)


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None) -> tuple:
    """TF1's ``sufficient_statistics`` (``keep_dims`` is the old name of ``keepdims``).

    >>> count, total, squares, shift = sufficient_statistics([1.0, 3.0], [0])
    >>> float(count), float(total), float(squares), shift
    (2.0, 4.0, 10.0, None)
    """
    return nn_extra_ops.sufficient_statistics(x, axes, shift, _keepdims(keepdims, keep_dims), name)


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None) -> tuple:
    """TF1's ``weighted_moments`` (``name`` before ``keep_dims``/``keepdims``).

    >>> [float(t) for t in weighted_moments([1.0, 3.0], [0], [1.0, 3.0])]
    [2.5, 0.75]
    """
    keep = _keepdims(keepdims, keep_dims)
    return nn_extra_ops.weighted_moments(x, axes, frequency_weights, keep, name)


def max_pool_with_argmax(
    input,
    ksize,
    strides,
    padding,
    data_format="NHWC",
    Targmax=None,  # noqa: N803  (TensorFlow's name)
    name=None,
    output_dtype=None,
    include_batch_in_index=False,
) -> tuple:
    """TF1's ``max_pool_with_argmax`` (``Targmax`` is the old name of ``output_dtype``;
    int64 when neither is given).

    >>> import retrograd as rg
    >>> out, arg = max_pool_with_argmax(rg.reshape(rg.range(4.0), [1, 2, 2, 1]), 2, 2, "VALID")
    >>> float(out[0, 0, 0, 0]), int(arg[0, 0, 0, 0]), arg.dtype.name
    (3.0, 3, 'int64')
    """
    if data_format != "NHWC":
        raise ValueError("Data formats other than 'NHWC' are not yet supported")
    dtype = either(output_dtype, Targmax, "output_dtype", "Targmax")
    return conv_more_ops.max_pool_with_argmax(
        input,
        ksize,
        strides,
        padding,
        data_format,
        dtypes.int64 if dtype is None else dtype,
        include_batch_in_index,
        name,
    )


def _mod_shards_joined(weights: Any, partition_strategy: str, who: str) -> Any:
    """``weights`` given as shards in TensorFlow 1's "mod" way as one table (row ``i`` is
    row ``i // n`` of shard ``i % n``); one tensor, or "div" shards, as they are."""
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"{who}: Unrecognized partition_strategy: {partition_strategy!r}")
    if not isinstance(weights, (list, tuple)) or len(weights) == 1 or partition_strategy == "div":
        return weights
    rows = sum(int(w.shape[0]) for w in weights)
    return v1_nn.embedding_lookup(list(weights), list(range(rows)), partition_strategy="mod")


def nce_loss(
    weights,
    biases,
    labels,
    inputs,
    num_sampled,
    num_classes,
    num_true=1,
    sampled_values=None,
    remove_accidental_hits=False,
    partition_strategy="mod",
    name="nce_loss",
) -> Tensor:
    """TF1's ``nce_loss``: ``weights`` may be shards split by ``partition_strategy``
    ("mod" by default, as TensorFlow 1; TensorFlow 2's is "div").

    >>> import retrograd as rg
    >>> w, b = rg.ones([5, 2]), rg.zeros([5])
    >>> sampled = ([0, 2], [[0.5]], [0.5, 0.5])
    >>> nce_loss(w, b, [[1]], [[1.0, 0.0]], 2, 5, sampled_values=sampled).shape
    TensorShape([1])
    """
    weights = _mod_shards_joined(weights, partition_strategy, "nce_loss")
    return nn_extra_ops.nce_loss(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true,
        sampled_values, remove_accidental_hits, name,
    )  # fmt: skip


def sampled_softmax_loss(
    weights,
    biases,
    labels,
    inputs,
    num_sampled,
    num_classes,
    num_true=1,
    sampled_values=None,
    remove_accidental_hits=True,
    partition_strategy="mod",
    name="sampled_softmax_loss",
    seed=None,
) -> Tensor:
    """TF1's ``sampled_softmax_loss`` (``partition_strategy`` as in :func:`nce_loss`).

    >>> import retrograd as rg
    >>> w, b = rg.ones([5, 2]), rg.zeros([5])
    >>> sampled_softmax_loss(w, b, [[1]], [[1.0, 0.0]], 2, 5,
    ...                      sampled_values=([0, 2], [[0.5]], [0.5, 0.5])).shape
    TensorShape([1])
    """
    weights = _mod_shards_joined(weights, partition_strategy, "sampled_softmax_loss")
    return nn_extra_ops.sampled_softmax_loss(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true,
        sampled_values, remove_accidental_hits, seed, name,
    )  # fmt: skip


def depthwise_conv2d(
    input, filter, strides, padding, rate=None, name=None, data_format=None, dilations=None
) -> Tensor:
    """TF1's ``depthwise_conv2d`` (``rate`` is the old name of ``dilations``).

    >>> import retrograd as rg
    >>> depthwise_conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 2]), [1, 1, 1, 1], "VALID",
    ...                  rate=[1, 1]).shape
    TensorShape([1, 2, 2, 2])
    """
    dilations = either(dilations, rate, "dilations", "rate")
    return conv_more_ops.depthwise_conv2d(
        input, filter, strides, padding, data_format, dilations, name
    )


def separable_conv2d(
    input,
    depthwise_filter,
    pointwise_filter,
    strides,
    padding,
    rate=None,
    name=None,
    data_format=None,
    dilations=None,
) -> Tensor:
    """TF1's ``separable_conv2d`` (``rate`` is the old name of ``dilations``).

    >>> import retrograd as rg
    >>> separable_conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 2]), rg.ones([1, 1, 2, 3]),
    ...                  [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 3])
    """
    dilations = either(dilations, rate, "dilations", "rate")
    return conv_more_ops.separable_conv2d(
        input, depthwise_filter, pointwise_filter, strides, padding, data_format, dilations, name
    )


def pool(
    input,
    window_shape,
    pooling_type,
    padding,
    dilation_rate=None,
    strides=None,
    name=None,
    data_format=None,
    dilations=None,
) -> Tensor:
    """TF1's ``pool`` (``padding`` before ``strides``; ``dilation_rate`` is the old name of
    ``dilations``).

    >>> import retrograd as rg
    >>> pool(rg.ones([1, 4, 4, 1]), [2, 2], "MAX", "VALID", strides=[2, 2]).shape
    TensorShape([1, 2, 2, 1])
    """
    dilations = either(dilations, dilation_rate, "dilations", "dilation_rate")
    return conv_more_ops.pool(
        input, window_shape, pooling_type, strides, padding, data_format, dilations, name
    )


def convolution(
    input,
    filter,
    padding,
    strides=None,
    dilation_rate=None,
    name=None,
    data_format=None,
    filters=None,
    dilations=None,
) -> Tensor:
    """TF1's ``convolution`` (``filter``, ``padding`` before ``strides``, ``dilation_rate``;
    ``filters`` and ``dilations`` are their TensorFlow 2 names, given with ``filter=None``).

    >>> import retrograd as rg
    >>> convolution(rg.ones([1, 3, 1]), rg.ones([2, 1, 1]), "SAME").shape
    TensorShape([1, 3, 1])
    """
    filters = either(filters, filter, "filters", "filter")
    dilations = either(dilations, dilation_rate, "dilations", "dilation_rate")
    return conv_more_ops.convolution(input, filters, strides, padding, data_format, dilations, name)


def conv3d(
    input,
    filter=None,
    strides=None,
    padding=None,
    data_format="NDHWC",
    dilations=(1, 1, 1, 1, 1),
    name=None,
    filters=None,
) -> Tensor:
    """TF1's ``conv3d`` (``filter`` is the old name of ``filters``).

    >>> import retrograd as rg
    >>> conv3d(rg.ones([1, 2, 2, 2, 1]), rg.ones([1, 1, 1, 1, 3]), [1] * 5, "VALID").shape
    TensorShape([1, 2, 2, 2, 3])
    """
    filters = either(filters, filter, "filters", "filter")
    return conv3d_ops.conv3d(input, filters, strides, padding, data_format, dilations, name)


def conv3d_transpose(
    value,
    filter=None,
    output_shape=None,
    strides=None,
    padding="SAME",
    data_format="NDHWC",
    name=None,
    input=None,
    filters=None,
    dilations=None,
) -> Tensor:
    """TF1's ``conv3d_transpose`` (``value`` and ``filter`` are the old names of ``input``
    and ``filters``).

    >>> import retrograd as rg
    >>> conv3d_transpose(rg.ones([1, 2, 2, 2, 3]), rg.ones([1, 1, 1, 1, 3]), [1, 2, 2, 2, 1],
    ...                  [1] * 5).shape
    TensorShape([1, 2, 2, 2, 1])
    """
    value = either(input, value, "input", "value")
    filters = either(filters, filter, "filters", "filter")
    return conv3d_ops.conv3d_transpose(
        value, filters, output_shape, strides, padding, data_format, dilations, name
    )


def dilation2d(
    input, filter=None, strides=None, rates=None, padding=None, name=None, filters=None,
    dilations=None,
) -> Tensor:  # fmt: skip
    """TF1's ``dilation2d`` (``filter`` and ``rates`` are the old names of ``filters`` and
    ``dilations``; NHWC only).

    >>> import retrograd as rg
    >>> dilation2d(rg.ones([1, 3, 3, 1]), rg.zeros([2, 2, 1]), [1, 1, 1, 1], [1, 1, 1, 1],
    ...            "VALID").shape
    TensorShape([1, 2, 2, 1])
    """
    filters = either(filters, filter, "filters", "filter")
    dilations = either(dilations, rates, "dilations", "rates")
    return conv_more_ops.dilation2d(input, filters, strides, padding, "NHWC", dilations, name)


def erosion2d(value, kernel, strides, rates, padding, name=None) -> Tensor:
    """TF1's ``erosion2d`` (``kernel`` and ``rates``: TensorFlow 2's ``filters`` and
    ``dilations``; NHWC only).

    >>> import retrograd as rg
    >>> erosion2d(rg.ones([1, 3, 3, 1]), rg.zeros([2, 2, 1]), [1, 1, 1, 1], [1, 1, 1, 1],
    ...           "VALID").shape
    TensorShape([1, 2, 2, 1])
    """
    return conv_more_ops.erosion2d(value, kernel, strides, padding, "NHWC", rates, name)
