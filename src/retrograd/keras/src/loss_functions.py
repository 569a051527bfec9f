"""Keras' per-sample loss functions beyond the squared/absolute errors and cross-entropies
(``tf.keras.losses``): hinges, Kullback-Leibler, Poisson, log-cosh, cosine similarity,
percentage and logarithmic errors, focal cross-entropies, Dice/Tversky, the generalised
cross-entropy and the circle loss. Formulas as Keras 3 writes them.

>>> import retrograd as rg
>>> rg.keras.losses.hinge([[1.0, -1.0]], [[0.5, 0.5]]).numpy().tolist()
[1.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.losses import match_ranks
from retrograd.keras.src.ops import nn_activations as nn
from retrograd.keras.src.ops import nn_misc, numpy_reduce, tensors
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "hinge",
    "squared_hinge",
    "categorical_hinge",
    "mean_absolute_percentage_error",
    "mean_squared_logarithmic_error",
    "cosine_similarity",
    "log_cosh",
    "logcosh",
    "kl_divergence",
    "kld",
    "kullback_leibler_divergence",
    "poisson",
    "binary_focal_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy",
    "dice",
    "tversky",
    "circle",
    "mape",
    "msle",
]


def _pred_and_true(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
    """``y_true`` in the dtype of ``y_pred``, and ``y_pred``, as tensors."""
    pred = tensors.convert(y_pred)
    return tensors.convert(y_true, pred.dtype.name), pred


def _as_hinge_labels(y_true: Any) -> Any:
    """Binary 0/1 labels as -1/1 (other labels unchanged), as Keras does."""
    binary = knp.all(knp.logical_or(knp.equal(y_true, 0), knp.equal(y_true, 1)))
    return knp.where(binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true: Any, y_pred: Any) -> Any:
    """``mean(maximum(1 - y_true * y_pred, 0), axis=-1)`` (0/1 labels become -1/1).

    >>> import retrograd as rg
    >>> rg.keras.losses.hinge([[1.0]], [[0.25]]).numpy().tolist()
    [0.75]
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    y_true = _as_hinge_labels(y_true)
    return knp.mean(knp.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true: Any, y_pred: Any) -> Any:
    """``mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.squared_hinge([[1.0]], [[0.5]]).numpy().tolist()
    [0.25]
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    y_true = _as_hinge_labels(y_true)
    return knp.mean(knp.square(knp.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Any:
    """``maximum(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.categorical_hinge([[0.0, 1.0]], [[0.25, 0.5]]).numpy().tolist()
    [0.75]
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    positive = knp.sum(y_true * y_pred, axis=-1)
    negative = knp.max((1.0 - y_true) * y_pred, axis=-1)
    return knp.maximum(negative - positive + 1.0, 0.0)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Any:
    """``100 * mean(|y_true - y_pred| / max(|y_true|, epsilon), axis=-1)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.mean_absolute_percentage_error([[2.0]], [[1.0]]).numpy().tolist()
    [50.0]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    eps = tensors.convert(backend.epsilon(), y_pred.dtype)
    ratio = knp.abs((y_true - y_pred) / knp.maximum(knp.abs(y_true), eps))
    return 100.0 * knp.mean(ratio, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Any:
    """``mean(square(log(1 + y_pred) - log(1 + y_true)), axis=-1)`` (values floored at
    epsilon).

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.mean_squared_logarithmic_error([[0.0]], [[1.0]])[0]), 4)
    0.4805
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    eps = tensors.convert(backend.epsilon(), y_pred.dtype)
    first = knp.log(knp.maximum(y_pred, eps) + 1.0)
    second = knp.log(knp.maximum(y_true, eps) + 1.0)
    return knp.mean(knp.square(first - second), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """Minus the cosine similarity of ``y_true`` and ``y_pred`` along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.losses.cosine_similarity([[1.0, 0.0]], [[2.0, 0.0]]).numpy().tolist()
    [-1.0]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    return -knp.sum(nn.normalize(y_true, axis=axis) * nn.normalize(y_pred, axis=axis), axis=axis)


def log_cosh(y_true: Any, y_pred: Any) -> Any:
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed stably.

    >>> import retrograd as rg
    >>> rg.keras.losses.log_cosh([[0.0]], [[0.0]]).numpy().tolist()
    [0.0]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    x = y_pred - y_true
    log2 = tensors.convert(0.6931471805599453, y_pred.dtype)
    return knp.mean(x + nn.softplus(x * -2.0) - log2, axis=-1)


logcosh = log_cosh


def kl_divergence(y_true: Any, y_pred: Any) -> Any:
    """``sum(y_true * log(y_true / y_pred), axis=-1)`` (both clipped to [epsilon, 1]).

    >>> import retrograd as rg
    >>> rg.keras.losses.kl_divergence([[0.5, 0.5]], [[0.5, 0.5]]).numpy().tolist()
    [0.0]
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    eps = backend.epsilon()
    y_true, y_pred = knp.clip(y_true, eps, 1), knp.clip(y_pred, eps, 1)
    return knp.sum(y_true * knp.log(y_true / y_pred), axis=-1)


kld = kullback_leibler_divergence = kl_divergence


def poisson(y_true: Any, y_pred: Any) -> Any:
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.poisson([[0.0]], [[2.0]]).numpy().tolist()
    [2.0]
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    eps = tensors.convert(backend.epsilon(), y_pred.dtype)
    return knp.mean(y_pred - y_true * knp.log(y_pred + eps), axis=-1)


def binary_focal_crossentropy(
    y_true: Any,
    y_pred: Any,
    apply_class_balancing: bool = False,
    alpha: float = 0.25,
    gamma: float = 2.0,
    from_logits: bool = False,
    label_smoothing: float = 0.0,
    axis: int = -1,
) -> Any:
    """The binary cross-entropy down-weighted by ``(1 - p_t) ** gamma`` on easy examples
    (and by ``alpha`` per class with ``apply_class_balancing``).

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.binary_focal_crossentropy([[1.0]], [[0.5]])[0]), 4)
    0.1733
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = nn.sigmoid(y_pred)
    bce = nn_misc.binary_crossentropy(y_true, y_pred)
    p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal = knp.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1 - y_true) * (1 - alpha)) * focal
    return knp.mean(focal, axis=axis)


def categorical_focal_crossentropy(
    y_true: Any,
    y_pred: Any,
    alpha: float = 0.25,
    gamma: float = 2.0,
    from_logits: bool = False,
    label_smoothing: float = 0.0,
    axis: int = -1,
) -> Any:
    """The categorical cross-entropy weighted by ``alpha * (1 - p) ** gamma``.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.categorical_focal_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
    >>> round(float(loss[0]), 4)
    0.0433
    """
    if isinstance(axis, bool):
        raise ValueError(
            f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}"
        )
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    if label_smoothing:
        classes = tensors.convert(y_true.shape.as_list()[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        y_pred = nn.softmax(y_pred, axis=axis)
    output = y_pred / knp.sum(y_pred, axis=axis, keepdims=True)
    eps = backend.epsilon()
    output = knp.clip(output, eps, 1.0 - eps)
    cross = -y_true * knp.log(output)
    return knp.sum(knp.power(1.0 - output, gamma) * alpha * cross, axis=axis)


def categorical_generalized_cross_entropy(y_true: Any, y_pred: Any, q: float) -> Any:
    """``(1 - p ** q) / q`` for the probability ``p`` of the true class (integer labels).

    >>> import retrograd as rg
    >>> rg.keras.losses.categorical_generalized_cross_entropy([1], [[0.75, 0.25]], 0.5).numpy()
    array([1.], dtype=float32)
    """
    pred = tensors.convert(y_pred)
    labels = tensors.convert(y_true, "int32")
    classes = pred.shape.as_list()[-1]
    one_hot = tensors.convert(nn.one_hot(labels, classes), pred.dtype.name)
    p = knp.sum(pred * one_hot, axis=-1)
    return (1 - knp.power(p, q)) / q


def dice(y_true: Any, y_pred: Any, axis: Any = None) -> Any:
    """``1 - 2 sum(y_true * y_pred) / (sum(y_true) + sum(y_pred))`` over ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.losses.dice([1.0, 0.0], [1.0, 0.0]).numpy()
    np.float32(0.0)
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    intersection = knp.sum(y_true * y_pred, axis=axis)
    total = knp.sum(y_true, axis=axis) + knp.sum(y_pred, axis=axis) + backend.epsilon()
    return 1 - knp.divide(2.0 * intersection, total)


def tversky(y_true: Any, y_pred: Any, alpha: float = 0.5, beta: float = 0.5, axis: Any = None):
    """``1 - TP / (TP + alpha FP + beta FN)`` over ``axis`` (soft counts).

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.tversky([1.0, 0.0], [1.0, 0.0])), 6)
    0.0
    """
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    intersection = knp.sum(y_true * y_pred, axis=axis)
    false_positive = knp.sum((1 - y_pred) * y_true, axis=axis)
    false_negative = knp.sum(y_pred * (1 - y_true), axis=axis)
    denominator = intersection + false_positive * alpha + false_negative * beta + backend.epsilon()
    return 1 - knp.divide(intersection, denominator)


def circle(
    y_true: Any,
    y_pred: Any,
    ref_labels: Any = None,
    ref_embeddings: Any = None,
    remove_diagonal: bool = True,
    gamma: float = 80,
    margin: float = 0.4,
) -> Any:
    """The circle loss of L2-normalised embeddings ``y_pred`` with integer labels: pulls
    same-label pairs together and pushes the others apart (Sun et al., 2020).

    >>> import retrograd as rg
    >>> e = rg.keras.ops.normalize([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]])
    >>> rg.keras.losses.circle([0, 1, 0], e).shape
    TensorShape([3])
    """
    pred = tensors.convert(y_pred)
    labels = tensors.convert(y_true, "int32")
    refs = pred if ref_embeddings is None else tensors.convert(ref_embeddings)
    ref_labels = labels if ref_labels is None else tensors.convert(ref_labels, "int32")
    distances = knp.maximum(1 - knp.matmul(pred, knp.transpose(refs)), 0.0)
    same = knp.equal(knp.expand_dims(labels, 1), knp.expand_dims(ref_labels, 0))
    positive, negative = same, knp.logical_not(same)
    if remove_diagonal:
        eye = knp.eye(same.shape.as_list()[0], same.shape.as_list()[1], dtype="bool")
        positive = knp.logical_and(positive, knp.logical_not(eye))
    pos_mask = tensors.convert(positive, pred.dtype.name)
    neg_mask = tensors.convert(negative, pred.dtype.name)
    pos_weights = knp.maximum((margin + distances) * pos_mask, 0.0)
    neg_weights = knp.maximum((1 + margin - distances) * neg_mask, 0.0)
    pos = -1 * gamma * pos_weights * (margin - distances)
    neg = gamma * neg_weights * ((1 - margin) - distances)
    minus_inf = float("-inf")
    p_loss = numpy_reduce.logsumexp(knp.where(positive, pos, minus_inf), axis=1)
    n_loss = numpy_reduce.logsumexp(knp.where(negative, neg, minus_inf), axis=1)
    return nn.softplus(p_loss + n_loss)


mape, msle = mean_absolute_percentage_error, mean_squared_logarithmic_error
