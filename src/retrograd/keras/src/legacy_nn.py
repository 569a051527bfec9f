"""``tf.keras.backend``'s neural-network functions (Keras 2's backend, kept by TF 2.21):
activations, cross-entropies on probabilities (clipped to ``[eps, 1 - eps]``) or logits,
convolutions, pooling, paddings and ``rnn``.

>>> import retrograd as rg
>>> K = rg.keras.backend
>>> y = K.binary_crossentropy(rg.constant([1.0]), rg.constant([0.9]))
>>> y.numpy().astype("float64").round(4).tolist()
[0.1054]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.core.tensor import convert_to_tensor
from retrograd.keras.src import backend
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.keras.src.ops import nn_layers
from retrograd.ops import (
    activation_ops,
    array_ops,
    clip_ops,
    comparison_ops,
    conv_ops,
    join_ops,
    math_ops,
    nn_layer_ops,
    nn_losses,
    nn_ops,
    pad_ops,
    reduction_ops,
)

__all__ = [
    "batch_normalization",
    "bias_add",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "conv3d",
    "depthwise_conv2d",
    "elu",
    "hard_sigmoid",
    "pool2d",
    "pool3d",
    "relu",
    "rnn",
    "separable_conv2d",
    "sigmoid",
    "softmax",
    "softplus",
    "softsign",
    "sparse_categorical_crossentropy",
    "spatial_2d_padding",
    "spatial_3d_padding",
    "tanh",
    "temporal_padding",
]


def _eps(like: Any) -> Any:
    return math_ops.cast(backend.epsilon(), like.dtype)


def _clipped(output: Any) -> Any:
    eps = _eps(output)
    return clip_ops.clip_by_value(output, eps, 1.0 - eps)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` for positive inputs, ``alpha * (exp(x) - 1)`` otherwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.elu(rg.constant([-1.0, 2.0])).numpy().astype("float64").round(4).tolist()
    [-0.6321, 2.0]
    """
    res = activation_ops.elu(x)
    return res if alpha == 1 else array_ops.where(convert_to_tensor(x) > 0, res, alpha * res)


def hard_sigmoid(x: Any) -> Any:
    """``clip(0.2 x + 0.5, 0, 1)`` (Keras 2's slope).

    >>> import retrograd as rg
    >>> rg.keras.backend.hard_sigmoid(rg.constant([-5.0, 0.0, 1.0])).numpy().tolist()
    [0.0, 0.5, 0.699999988079071]
    """
    x = convert_to_tensor(x)
    y = x * math_ops.cast(0.2, x.dtype) + math_ops.cast(0.5, x.dtype)
    return clip_ops.clip_by_value(y, 0.0, 1.0)


def relu(x: Any, alpha: float = 0.0, max_value: Any = None, threshold: float = 0.0) -> Any:
    """A rectifier: ``alpha`` slope below ``threshold``, capped at ``max_value``.

    >>> import retrograd as rg
    >>> rg.keras.backend.relu(rg.constant([-2.0, 3.0, 9.0]), max_value=6.0).numpy().tolist()
    [0.0, 3.0, 6.0]
    """
    x = convert_to_tensor(x)
    if alpha != 0.0 and max_value is None and threshold == 0:
        return activation_ops.leaky_relu(x, alpha=alpha)
    negative = None
    if alpha != 0.0:
        negative = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    y = x * math_ops.cast(x > threshold, x.dtype) if threshold != 0 else nn_ops.relu(x)
    if max_value is not None:
        y = clip_ops.clip_by_value(y, 0.0, max_value)
    if negative is not None:
        y = y - alpha * negative
    return y


def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))``.

    >>> import retrograd as rg
    >>> rg.keras.backend.sigmoid(rg.constant([0.0])).numpy().tolist()
    [0.5]
    """
    return math_ops.sigmoid(x)


def tanh(x: Any) -> Any:
    """The hyperbolic tangent.

    >>> import retrograd as rg
    >>> rg.keras.backend.tanh(rg.constant([0.0])).numpy().tolist()
    [0.0]
    """
    return math_ops.tanh(x)


def softmax(x: Any, axis: Any = -1) -> Any:
    """Softmax over ``axis`` (of a tensor of rank 2 or more).

    >>> import retrograd as rg
    >>> rg.keras.backend.softmax(rg.constant([[0.0, 0.0]])).numpy().tolist()
    [[0.5, 0.5]]
    """
    x = convert_to_tensor(x)
    if x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        return nn_ops.softmax(x, axis=axis)
    numerator = math_ops.exp(x - reduction_ops.reduce_max(x, axis=axis, keepdims=True))
    return numerator / reduction_ops.reduce_sum(numerator, axis=axis, keepdims=True)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``.

    >>> import retrograd as rg
    >>> rg.keras.backend.softplus(rg.constant([0.0])).numpy().astype("float64").round(4).tolist()
    [0.6931]
    """
    return nn_ops.softplus(x)


def softsign(x: Any) -> Any:
    """``x / (1 + |x|)``.

    >>> import retrograd as rg
    >>> rg.keras.backend.softsign(rg.constant([1.0])).numpy().tolist()
    [0.5]
    """
    return activation_ops.softsign(x)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """Elementwise binary cross-entropy (no mean), Keras 2's epsilon handling.

    >>> import retrograd as rg
    >>> y = rg.keras.backend.binary_crossentropy(rg.constant([0.0]), rg.constant([0.0]), True)
    >>> y.numpy().astype("float64").round(4).tolist()
    [0.6931]
    """
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        return nn_losses.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    eps = _eps(output)
    bce = target * math_ops.log(output + eps)
    bce = bce + (1 - target) * math_ops.log(1 - output + eps)
    return -bce


def binary_focal_crossentropy(target: Any, output: Any, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0,
                              from_logits: bool = False) -> Any:  # fmt: skip
    """Binary cross-entropy scaled by ``(1 - p_t) ** gamma`` (and ``alpha`` balancing).

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> y = K.binary_focal_crossentropy(rg.constant([1.0]), rg.constant([0.5]))
    >>> y.numpy().astype("float64").round(4).tolist()
    [0.1733]
    """
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    probabilities = math_ops.sigmoid(output) if from_logits else output
    p_t = target * probabilities + (1 - target) * (1 - probabilities)
    focal = math_ops.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output, from_logits)
    if apply_class_balancing:
        focal = (target * alpha + (1 - target) * (1 - alpha)) * focal
    return focal


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                             axis: int = -1) -> Any:  # fmt: skip
    """Cross-entropy of one-hot ``target`` and probabilities (renormalised, clipped) or
    logits along ``axis``.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> y = K.categorical_crossentropy(rg.constant([[0.0, 1.0]]), rg.constant([[0.5, 0.5]]))
    >>> y.numpy().astype("float64").round(4).tolist()
    [0.6931]
    """
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        return nn_losses.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = _clipped(output / reduction_ops.reduce_sum(output, axis, True))
    return -reduction_ops.reduce_sum(target * math_ops.log(output), axis)


def categorical_focal_crossentropy(target: Any, output: Any, alpha: float = 0.25,
                                   gamma: float = 2.0, from_logits: bool = False,
                                   axis: int = -1) -> Any:  # fmt: skip
    """Categorical cross-entropy scaled by ``alpha * (1 - p) ** gamma`` per class.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> y = K.categorical_focal_crossentropy(rg.constant([[0.0, 1.0]]), rg.constant([[0.5, 0.5]]))
    >>> y.numpy().astype("float64").round(4).tolist()
    [0.0433]
    """
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        output = nn_ops.softmax(output, axis=axis)
    output = _clipped(output / reduction_ops.reduce_sum(output, axis=axis, keepdims=True))
    cce = -target * math_ops.log(output)
    focal = math_ops.pow(1.0 - output, gamma) * alpha * cce
    return reduction_ops.reduce_sum(focal, axis=axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                                    axis: int = -1, ignore_class: Any = None) -> Any:  # fmt: skip
    """Cross-entropy of integer ``target`` and probabilities or logits along ``axis``
    (``ignore_class`` entries give 0).

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> y = K.sparse_categorical_crossentropy(rg.constant([1]), rg.constant([[0.5, 0.5]]))
    >>> y.numpy().astype("float64").round(4).tolist()
    [0.6931]
    """
    target = math_ops.cast(convert_to_tensor(target), "int64")
    output = convert_to_tensor(output)
    if not from_logits:
        output = math_ops.log(_clipped(output))
    rank = output.shape.rank
    axis %= rank
    if axis != rank - 1:
        output = array_ops.transpose(output, [*range(axis), *range(axis + 1, rank), axis])
    if target.shape.rank == rank:
        target = array_ops.squeeze(target, [-1]) if target.shape[-1] == 1 else target
    valid = None
    if ignore_class is not None:
        valid = comparison_ops.not_equal(target, math_ops.cast(ignore_class, target.dtype))
        target = array_ops.where(valid, target, array_ops.zeros_like(target))
    result = nn_losses.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if valid is not None:
        result = array_ops.where(valid, result, array_ops.zeros_like(result))
    return result


def batch_normalization(x: Any, mean: Any, var: Any, beta: Any, gamma: Any, axis: int = -1,
                        epsilon: float = 0.001) -> Any:  # fmt: skip
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta``.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.batch_normalization(rg.constant([3.0]), 1.0, 4.0, 0.0, 1.0, epsilon=0.0).numpy()
    array([1.], dtype=float32)
    """
    return nn_layer_ops.batch_normalization(x, mean, var, beta, gamma, epsilon)


def bias_add(x: Any, bias: Any, data_format: Any = None) -> Any:
    """``x`` plus ``bias`` on the channel axis of ``data_format``.

    >>> import retrograd as rg
    >>> rg.keras.backend.bias_add(rg.zeros([1, 2]), rg.constant([1.0, 2.0])).numpy().tolist()
    [[1.0, 2.0]]
    """
    x, bias = convert_to_tensor(x), convert_to_tensor(bias)
    fmt = data_format_of(data_format, "bias_add")
    if bias.shape.rank != 1 and bias.shape.rank != x.shape.rank - 1:
        raise ValueError(
            f"Unexpected bias dimensions {bias.shape.rank}. Expected it to be 1 or "
            f"{x.shape.rank - 1} dimensions"
        )
    if fmt == "channels_first" and x.shape.rank > 2:
        shape = [1, bias.shape[-1]] + [1] * (x.shape.rank - 2)
        if bias.shape.rank > 1:
            bias = array_ops.transpose(bias, [bias.shape.rank - 1, *range(bias.shape.rank - 1)])
            shape = [1, *bias.shape.as_list()]
        return x + array_ops.reshape(bias, shape)
    return x + bias


def _conv(x, kernel, strides, padding, data_format, dilation_rate, what):
    fmt = data_format_of(data_format, what)
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding: {padding}")
    return nn_layers.conv(x, kernel, strides, padding, fmt, dilation_rate)


def conv1d(x: Any, kernel: Any, strides: int = 1, padding: str = "valid",
           data_format: Any = None, dilation_rate: int = 1) -> Any:  # fmt: skip
    """A 1-D convolution (``padding`` 'valid', 'same' or 'causal').

    >>> import retrograd as rg
    >>> rg.keras.backend.conv1d(rg.ones([1, 4, 1]), rg.ones([2, 1, 1])).shape.as_list()
    [1, 3, 1]
    """
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (int(kernel.shape[0]) - 1), 0))
        padding = "valid"
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv1d")


def conv2d(x: Any, kernel: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Any = None, dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A 2-D convolution.

    >>> import retrograd as rg
    >>> rg.keras.backend.conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 1])).shape.as_list()
    [1, 2, 2, 1]
    """
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv2d")


def conv3d(x: Any, kernel: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: Any = None, dilation_rate: Any = (1, 1, 1)) -> Any:  # fmt: skip
    """A 3-D convolution.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.conv3d(rg.ones([1, 2, 2, 2, 1]), rg.ones([2, 2, 2, 1, 1])).numpy().ravel().tolist()
    [8.0]
    """
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv3d")


def conv2d_transpose(x: Any, kernel: Any, output_shape: Any, strides: Any = (1, 1),
                     padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """The transposed 2-D convolution to ``output_shape`` (kernel ``(h, w, out, in)``).

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.conv2d_transpose(rg.ones([1, 2, 2, 1]), rg.ones([2, 2, 1, 1]), (1, 4, 4, 1),
    ...                    strides=(2, 2)).shape.as_list()
    [1, 4, 4, 1]
    """
    fmt = data_format_of(data_format, "conv2d_transpose")
    x = convert_to_tensor(x)
    if fmt == "channels_first":
        x = array_ops.transpose(x, [0, 2, 3, 1])
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (int(x.shape[0]), *output_shape[1:])
    out = conv_ops.conv2d_transpose(
        x,
        kernel,
        list(output_shape),
        [1, *strides, 1],
        padding=padding.upper(),
        dilations=[1, *dilation_rate, 1],
    )
    return array_ops.transpose(out, [0, 3, 1, 2]) if fmt == "channels_first" else out


def depthwise_conv2d(x: Any, depthwise_kernel: Any, strides: Any = (1, 1),
                     padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A depthwise 2-D convolution.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.depthwise_conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1])).shape.as_list()
    [1, 2, 2, 2]
    """
    fmt = data_format_of(data_format, "depthwise_conv2d")
    return nn_layers.depthwise_conv(x, depthwise_kernel, strides, padding, fmt, dilation_rate)


def separable_conv2d(x: Any, depthwise_kernel: Any, pointwise_kernel: Any,
                     strides: Any = (1, 1), padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A depthwise 2-D convolution, then a pointwise one.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.separable_conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]),
    ...                    rg.ones([1, 1, 2, 4])).shape.as_list()
    [1, 2, 2, 4]
    """
    fmt = data_format_of(data_format, "separable_conv2d")
    return nn_layers.separable_conv(
        x, depthwise_kernel, pointwise_kernel, strides, padding, fmt, dilation_rate
    )


def _pool(x, pool_size, strides, padding, data_format, pool_mode, what):
    fmt = data_format_of(data_format, what)
    if pool_mode == "max":
        return nn_layers.max_pool(x, pool_size, strides, padding, fmt)
    if pool_mode == "avg":
        return nn_layers.average_pool(x, pool_size, strides, padding, fmt)
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


def pool2d(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Any = None, pool_mode: str = "max") -> Any:  # fmt: skip
    """2-D max or average pooling (``pool_mode`` 'max' or 'avg').

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.backend.pool2d(x, (2, 2), (2, 2))[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, "pool2d")


def pool3d(x: Any, pool_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: Any = None, pool_mode: str = "max") -> Any:  # fmt: skip
    """3-D max or average pooling.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.backend.pool3d(x, (2, 2, 2), pool_mode='avg').numpy().ravel().tolist()
    [3.5]
    """
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, "pool3d")


def temporal_padding(x: Any, padding: Any = (1, 1)) -> Any:
    """Zeros before and after the steps of ``[batch, steps, features]``.

    >>> import retrograd as rg
    >>> rg.keras.backend.temporal_padding(rg.ones([1, 2, 1])).numpy().ravel().tolist()
    [0.0, 1.0, 1.0, 0.0]
    """
    if len(padding) != 2:
        raise ValueError(
            f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}"
        )
    return pad_ops.pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_2d_padding(x: Any, padding: Any = ((1, 1), (1, 1)), data_format: Any = None):
    """Zeros around the rows and columns of images.

    >>> import retrograd as rg
    >>> rg.keras.backend.spatial_2d_padding(rg.ones([1, 1, 1, 1])).shape.as_list()
    [1, 3, 3, 1]
    """
    if len(padding) != 2 or any(len(p) != 2 for p in padding):
        raise ValueError(
            "Expected `padding` to be a tuple of 2 tuples of 2 integers. Received: "
            f"padding={padding}"
        )
    spatial = [list(p) for p in padding]
    if data_format_of(data_format, "spatial_2d_padding") == "channels_first":
        return pad_ops.pad(x, [[0, 0], [0, 0], *spatial])
    return pad_ops.pad(x, [[0, 0], *spatial, [0, 0]])


def spatial_3d_padding(x: Any, padding: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None):
    """Zeros around the three spatial axes of volumes.

    >>> import retrograd as rg
    >>> rg.keras.backend.spatial_3d_padding(rg.ones([1, 1, 1, 1, 1])).shape.as_list()
    [1, 3, 3, 3, 1]
    """
    if len(padding) != 3 or any(len(p) != 2 for p in padding):
        raise ValueError(
            "Expected `padding` to be a tuple of 3 tuples of 2 integers. Received: "
            f"padding={padding}"
        )
    spatial = [list(p) for p in padding]
    if data_format_of(data_format, "spatial_3d_padding") == "channels_first":
        return pad_ops.pad(x, [[0, 0], [0, 0], *spatial])
    return pad_ops.pad(x, [[0, 0], *spatial, [0, 0]])


def rnn(step_function: Callable, inputs: Any, initial_states: list, go_backwards: bool = False,
        mask: Any = None, constants: Any = None, unroll: bool = False, input_length: Any = None,
        time_major: bool = False, zero_output_for_mask: bool = False,
        return_all_outputs: bool = True) -> tuple:  # fmt: skip
    """Runs ``step_function(input_t, states + constants) -> (output, new_states)`` over the
    time axis; returns ``(last_output, outputs, new_states)``. Masked steps keep the states
    and repeat the previous output (zeros with ``zero_output_for_mask``).

    >>> import retrograd as rg
    >>> step = lambda x, states: (x + states[0], [x + states[0]])
    >>> last, outputs, states = rg.keras.backend.rnn(step, rg.ones([1, 3, 2]), [rg.zeros([1, 2])])
    >>> last.numpy().tolist(), outputs.shape.as_list()
    ([[3.0, 3.0]], [1, 3, 2])
    """
    inputs = convert_to_tensor(inputs)
    steps = join_ops.unstack(inputs, axis=0 if time_major else 1)
    masks = None
    if mask is not None:
        mask = math_ops.cast(convert_to_tensor(mask), "bool")
        masks = join_ops.unstack(mask, axis=0 if time_major else 1)
    if go_backwards:
        steps = steps[::-1]
        masks = None if masks is None else masks[::-1]
    states = list(initial_states)
    outputs: list = []
    for t, x_t in enumerate(steps):
        output, new_states = step_function(x_t, [*states, *(constants or [])])
        new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
        if masks is not None:
            keep = masks[t]
            while keep.shape.rank < output.shape.rank:
                keep = array_ops.expand_dims(keep, -1)
            before = array_ops.zeros_like(output)
            if outputs and not zero_output_for_mask:
                before = outputs[-1]
            output = array_ops.where(keep, output, before)
            flat = []
            for n, o in zip(nest.flatten(new_states), nest.flatten(states)):
                k = masks[t]
                while k.shape.rank < n.shape.rank:
                    k = array_ops.expand_dims(k, -1)
                flat.append(array_ops.where(k, n, o))
            new_states = nest.pack_sequence_as(new_states, flat)
        states = list(new_states)
        outputs.append(output)
    stacked = join_ops.stack(outputs if return_all_outputs else outputs[-1:], axis=0)
    if not time_major:
        stacked = array_ops.transpose(stacked, [1, 0, *range(2, stacked.shape.rank)])
    return outputs[-1], stacked, states
