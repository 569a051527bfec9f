"""TensorFlow 1's ``tf.nn`` where it differs from TensorFlow 2's: the old argument names
(``value``, ``filter``, ``keep_dims``, ``targets``), ``embedding_lookup``'s ``"mod"``
partition of sharded parameters, and the functions TensorFlow 2 dropped (``xw_plus_b``,
``relu_layer``, ``fused_batch_norm``, ``conv2d_backprop_*``, ``max_pool_v2``, ...).

>>> import retrograd as rg
>>> xw_plus_b([[1.0, 2.0]], [[1.0], [1.0]], [0.5]).numpy().tolist()
[[3.5]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.autodiff.tape import GradientTape
from retrograd.core import dtypes
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import (
    array_ops,
    comparison_ops,
    conv_ops,
    embedding_ops,
    gather_ops,
    join_ops,
    linalg_ops,
    math_ops,
    nn_layer_ops,
    nn_losses,
    nn_ops,
    pool_ops,
    reduction_ops,
    statistics_ops,
)

__all__ = [
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
]


def _sizes(value: Any, who: str, argument: str) -> list[int]:
    """A shape given as a list or as a constant tensor, as Python ints."""
    if hasattr(value, "numpy"):
        try:
            value = value.numpy()
        except Exception as error:  # a graph tensor without a value yet
            raise ValueError(f"{who}: `{argument}` must be known when the op is built") from error
    return [int(v) for v in np.reshape(value, [-1])]


def _one(new: Any, old: Any, new_name: str, old_name: str, who: str) -> Any:
    """The value of an argument TensorFlow 1 also accepts under an older name."""
    if new is not None and old is not None:
        raise ValueError(f"{who}: give `{new_name}` or `{old_name}` (its old name), not both")
    return old if new is None else new


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    """TF1's ``nn.avg_pool`` (``value`` is the old name of ``input``).

    >>> avg_pool([[[[1.0], [3.0]]]], [1, 1, 2, 1], [1, 1, 2, 1], 'VALID').numpy().tolist()
    [[[[2.0]]]]
    """
    value = _one(input, value, "input", "value", "avg_pool")
    return pool_ops.avg_pool2d(value, ksize, strides, padding, data_format, name)


avg_pool2d = avg_pool


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    """TF1's ``nn.max_pool``.

    >>> max_pool([[[[1.0], [3.0]]]], [1, 1, 2, 1], [1, 1, 2, 1], 'VALID').numpy().tolist()
    [[[[3.0]]]]
    """
    value = _one(input, value, "input", "value", "max_pool")
    return pool_ops.max_pool2d(value, ksize, strides, padding, data_format, name)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):
    """TensorFlow 2's ``nn.max_pool`` (of any rank), under its TF1 name.

    >>> max_pool_v2([[[1.0], [3.0]]], 2, 2, 'VALID').numpy().tolist()
    [[[3.0]]]
    """
    return pool_ops.max_pool(input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):
    """TensorFlow 2's ``nn.avg_pool`` (of any rank), under its TF1 name.

    >>> avg_pool_v2([[[1.0], [3.0]]], 2, 2, 'VALID').numpy().tolist()
    [[[2.0]]]
    """
    return pool_ops.avg_pool(input, ksize, strides, padding, data_format, name)


def conv1d(
    value=None,
    filters=None,
    stride=None,
    padding=None,
    use_cudnn_on_gpu=None,
    data_format=None,
    name=None,
    input=None,
    dilations=None,
):
    """TF1's ``nn.conv1d`` (``value`` is the old name of ``input``; ``data_format`` ``NWC``
    or ``NCW``).

    >>> conv1d([[[1.0], [2.0], [3.0]]], [[[1.0]], [[1.0]]], 1, 'VALID').numpy().tolist()
    [[[3.0], [5.0]]]
    """
    value = _one(input, value, "input", "value", "conv1d")
    return conv_ops.conv1d(value, filters, stride, padding, data_format or "NWC", dilations, name)


def conv2d(
    input,
    filter=None,
    strides=None,
    padding=None,
    use_cudnn_on_gpu=True,
    data_format="NHWC",
    dilations=(1, 1, 1, 1),
    name=None,
    filters=None,
):
    """TF1's ``nn.conv2d`` (``filter`` is the old name of ``filters``).

    >>> import retrograd as rg
    >>> conv2d(rg.ones([1, 2, 2, 1]), filter=rg.ones([2, 2, 1, 1]), strides=[1, 1, 1, 1],
    ...        padding='VALID').numpy().tolist()
    [[[[4.0]]]]
    """
    filters = _one(filters, filter, "filters", "filter", "conv2d")
    return conv_ops.conv2d(input, filters, strides, padding, data_format, list(dilations), name)


def conv2d_transpose(
    value=None,
    filter=None,
    output_shape=None,
    strides=None,
    padding="SAME",
    data_format="NHWC",
    name=None,
    input=None,
    filters=None,
    dilations=None,
):
    """TF1's ``nn.conv2d_transpose`` (``value`` and ``filter``: the old names).

    >>> import retrograd as rg
    >>> conv2d_transpose(rg.ones([1, 1, 1, 1]), rg.ones([2, 2, 1, 1]), [1, 2, 2, 1],
    ...                  [1, 1, 1, 1], 'VALID').numpy()[0, :, :, 0].tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    value = _one(input, value, "input", "value", "conv2d_transpose")
    filters = _one(filters, filter, "filters", "filter", "conv2d_transpose")
    return conv_ops.conv2d_transpose(
        value, filters, output_shape, strides, padding, data_format, dilations, name
    )


def conv2d_backprop_input(
    input_sizes,
    filter=None,
    out_backprop=None,
    strides=None,
    padding=None,
    use_cudnn_on_gpu=True,
    data_format="NHWC",
    dilations=(1, 1, 1, 1),
    name=None,
    filters=None,
):
    """The gradient of ``conv2d`` with respect to its input, of shape ``input_sizes``.

    >>> import retrograd as rg
    >>> conv2d_backprop_input([1, 2, 2, 1], rg.ones([2, 2, 1, 1]), rg.ones([1, 1, 1, 1]),
    ...                       [1, 1, 1, 1], 'VALID').numpy()[0, :, :, 0].tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    filters = _one(filters, filter, "filters", "filter", "conv2d_backprop_input")
    sizes = _sizes(input_sizes, "conv2d_backprop_input", "input_sizes")
    return conv_ops.conv2d_transpose(
        out_backprop, filters, sizes, strides, padding, data_format, list(dilations), name
    )


def conv2d_backprop_filter(
    input,
    filter_sizes,
    out_backprop,
    strides,
    padding,
    use_cudnn_on_gpu=True,
    data_format="NHWC",
    dilations=(1, 1, 1, 1),
    name=None,
):
    """The gradient of ``conv2d`` with respect to its filters, of shape ``filter_sizes``.

    >>> import retrograd as rg
    >>> conv2d_backprop_filter(rg.ones([1, 2, 2, 1]), [2, 2, 1, 1], rg.ones([1, 1, 1, 1]),
    ...                        [1, 1, 1, 1], 'VALID').numpy()[:, :, 0, 0].tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    sizes = _sizes(filter_sizes, "conv2d_backprop_filter", "filter_sizes")
    x = convert_to_tensor(input)
    dy = convert_to_tensor(out_backprop, dtype=x.dtype)
    zeros = array_ops.zeros(sizes, x.dtype)
    with GradientTape() as tape:
        tape.watch(zeros)
        y = conv_ops.conv2d(x, zeros, strides, padding, data_format, list(dilations))
    grad = tape.gradient(y, zeros, output_gradients=dy)
    return grad if name is None else array_ops.identity(grad, name=name)


def embedding_lookup(
    params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None
):
    """TF1's ``nn.embedding_lookup``: with several shards, ``"mod"`` (TF1's default) keeps
    id ``i`` in shard ``i % n`` at row ``i // n``; ``"div"`` keeps contiguous ranges.

    >>> import retrograd as rg
    >>> shards = [rg.constant([[0.0], [2.0]]), rg.constant([[1.0], [3.0]])]
    >>> embedding_lookup(shards, [3, 0, 1]).numpy().tolist()
    [[3.0], [0.0], [1.0]]
    """
    if partition_strategy not in ("mod", "div"):
        raise ValueError(
            f"embedding_lookup: partition_strategy must be 'mod' or 'div', got "
            f"{partition_strategy!r}"
        )
    if isinstance(params, (list, tuple)) and len(params) > 1 and partition_strategy == "mod":
        shards = [convert_to_tensor(p) for p in params]
        sizes = [int(s.shape[0]) for s in shards]
        n, offsets = len(shards), np.cumsum([0, *sizes[:-1]])
        order = [int(offsets[i % n] + i // n) for i in range(sum(sizes))]
        params = gather_ops.gather(join_ops.concat(shards, 0), order)
    elif isinstance(params, (list, tuple)) and len(params) == 1:
        params = params[0]
    return embedding_ops.embedding_lookup(params, ids, max_norm, name)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """TF1's ``nn.moments`` (``keep_dims`` is the old name of ``keepdims``).

    >>> [v.numpy().tolist() for v in moments([[1.0, 3.0]], [1], keep_dims=True)]
    [[[2.0]], [[1.0]]]
    """
    keepdims = _one(keepdims, keep_dims, "keepdims", "keep_dims", "moments")
    return statistics_ops.moments(x, axes, shift, bool(keepdims), name)


def weighted_cross_entropy_with_logits(
    labels=None, logits=None, pos_weight=None, name=None, targets=None
):
    """TF1's ``nn.weighted_cross_entropy_with_logits`` (``targets``: the old name of
    ``labels``).

    >>> round(float(weighted_cross_entropy_with_logits(targets=[1.0], logits=[0.0],
    ...                                                pos_weight=2.0)[0]), 4)
    1.3863
    """
    labels = _one(labels, targets, "labels", "targets", "weighted_cross_entropy_with_logits")
    return nn_losses.weighted_cross_entropy_with_logits(labels, logits, pos_weight, name)


def xw_plus_b(x, weights, biases, name=None):
    """``matmul(x, weights) + biases``.

    >>> xw_plus_b([[1.0, 1.0]], [[2.0], [3.0]], [1.0]).numpy().tolist()
    [[6.0]]
    """
    return nn_layer_ops.bias_add(linalg_ops.matmul(x, weights), biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """``relu(matmul(x, weights) + biases)``.

    >>> relu_layer([[1.0, 1.0]], [[2.0], [-3.0]], [0.5]).numpy().tolist()
    [[0.0]]
    """
    return nn_ops.relu(xw_plus_b(x, weights, biases), name=name)


def in_top_k(predictions, targets, k, name=None):
    """Whether each target class is among the ``k`` highest predictions of its row (ties
    at the boundary count as in; a non-finite prediction or a class out of range as out).

    >>> in_top_k([[0.1, 0.9, 0.5], [0.3, 0.3, 0.2]], [2, 1], 1).numpy().tolist()
    [False, True]
    """
    predictions = convert_to_tensor(predictions, dtype=dtypes.float32)
    targets = convert_to_tensor(targets)
    classes = predictions.shape.as_list()[-1]
    valid = comparison_ops.logical_and(
        comparison_ops.greater_equal(targets, 0), comparison_ops.less(targets, classes)
    )
    safe = array_ops.where(valid, targets, array_ops.zeros_like(targets))
    chosen = gather_ops.gather(predictions, safe, axis=1, batch_dims=1)
    above = comparison_ops.greater(predictions, array_ops.expand_dims(chosen, 1))
    count = reduction_ops.reduce_sum(math_ops.cast(above, dtypes.int32), axis=1)
    finite = comparison_ops.is_finite(chosen)
    inside = comparison_ops.logical_and(valid, finite)
    return comparison_ops.logical_and(inside, comparison_ops.less(count, k), name=name)


def fused_batch_norm(
    x,
    scale,
    offset,
    mean=None,
    variance=None,
    epsilon=0.001,
    data_format="NHWC",
    is_training=True,
    name=None,
    exponential_avg_factor=1.0,
):
    """Batch normalization over every axis but the channels, returning ``(y, mean,
    variance)``: in training the batch's moments (the variance returned with Bessel's
    correction, mixed into ``mean``/``variance`` by ``exponential_avg_factor``), else the
    given ones. ``epsilon`` is at least 1.001e-5, as TensorFlow's kernel needs.

    >>> import retrograd as rg
    >>> y, m, v = fused_batch_norm(rg.constant([[[[1.0], [3.0]]]]), [1.0], [0.0])
    >>> [round(float(t), 3) for t in (y[0, 0, 0, 0], m[0], v[0])]
    [-1.0, 2.0, 2.0]
    """
    x = convert_to_tensor(x)
    if data_format not in ("NHWC", "NCHW", "NDHWC", "NCDHW"):
        raise ValueError(f"fused_batch_norm: unknown data_format {data_format!r}")
    rank = x.shape.rank
    channel = 1 if data_format.startswith("NC") else rank - 1
    axes = [a for a in range(rank) if a != channel]
    shape = [1] * rank
    shape[channel] = -1
    epsilon = max(float(epsilon), 1.001e-5)
    scale, offset = convert_to_tensor(scale), convert_to_tensor(offset)
    if is_training:
        batch_mean, batch_var = statistics_ops.moments(x, axes)
        size = math_ops.cast(array_ops.size(x), x.dtype)  # known when the op runs
        count = size / math_ops.cast(array_ops.shape(x)[channel], x.dtype)
        corrected = batch_var * count / math_ops.maximum(count - 1.0, 1.0)
        if exponential_avg_factor != 1.0 and mean is not None and variance is not None:
            f = exponential_avg_factor
            corrected = (1.0 - f) * convert_to_tensor(variance) + f * corrected
            out_mean = (1.0 - f) * convert_to_tensor(mean) + f * batch_mean
        else:
            out_mean = batch_mean
        use_mean, use_var, out_var = batch_mean, batch_var, corrected
    else:
        if mean is None or variance is None:
            raise ValueError(
                "fused_batch_norm: inference (is_training=False) needs mean and variance"
            )
        use_mean, use_var = convert_to_tensor(mean), convert_to_tensor(variance)
        out_mean, out_var = use_mean, use_var
    y = nn_layer_ops.batch_normalization(
        x,
        array_ops.reshape(use_mean, shape),
        array_ops.reshape(use_var, shape),
        array_ops.reshape(offset, shape),
        array_ops.reshape(scale, shape),
        epsilon,
    )
    return (y if name is None else array_ops.identity(y, name=name)), out_mean, out_var


def batch_norm_with_global_normalization(
    t=None,
    m=None,
    v=None,
    beta=None,
    gamma=None,
    variance_epsilon=None,
    scale_after_normalization=None,
    name=None,
    input=None,
    mean=None,
    variance=None,
):
    """TF1's oldest batch normalization: ``gamma`` is used only with
    ``scale_after_normalization``.

    >>> batch_norm_with_global_normalization([2.0], [1.0], [4.0], [0.0], [3.0], 0.0,
    ...                                      False).numpy().tolist()
    [0.5]
    """
    t = _one(input, t, "input", "t", "batch_norm_with_global_normalization")
    m = _one(mean, m, "mean", "m", "batch_norm_with_global_normalization")
    v = _one(variance, v, "variance", "v", "batch_norm_with_global_normalization")
    return nn_layer_ops.batch_normalization(
        t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon, name
    )
