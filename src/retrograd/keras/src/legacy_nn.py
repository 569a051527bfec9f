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

from typing import Any

from retrograd.core.tensor import convert_to_tensor
from retrograd.keras.src import backend
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.ops import (
    activation_ops,
    array_ops,
    clip_ops,
    comparison_ops,
    math_ops,
    nn_layer_ops,
    nn_losses,
    nn_ops,
    reduction_ops,
)

__all__ = [
    "batch_normalization",
    "bias_add",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "elu",
    "hard_sigmoid",
    "relu",
    "sigmoid",
    "softmax",
    "softplus",
    "softsign",
    "sparse_categorical_crossentropy",
    "tanh",
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
