"""TensorFlow 1's ``tf.losses``: per-element losses reduced by ``weights`` and a
``Reduction`` (by default the sum over the elements of non-zero weight), each added to the
``losses`` collection of the graph (not eagerly: TensorFlow keeps no collections there);
``get_total_loss`` adds them up with the regularization losses of ``get_variable``.

>>> import retrograd as rg
>>> float(mean_squared_error([1.0, 2.0], [1.5, 2.0]))
0.125
>>> float(mean_squared_error([1.0, 2.0], [1.5, 2.0], weights=[1.0, 0.0]))
0.25
"""

from __future__ import annotations

from typing import Any

from retrograd.compat.loss_collections import LOSSES, add_loss
from retrograd.compat.variable_scopes import name_scope
from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import (
    array_ops,
    comparison_ops,
    math_ops,
    nn_losses,
    nn_ops,
    reduction_ops,
    safe_math_ops,
)

__all__ = [
    "Reduction",
    "absolute_difference",
    "compute_weighted_loss",
    "cosine_distance",
    "hinge_loss",
    "huber_loss",
    "log_loss",
    "mean_pairwise_squared_error",
    "mean_squared_error",
    "sigmoid_cross_entropy",
    "softmax_cross_entropy",
    "sparse_softmax_cross_entropy",
]


class Reduction:
    """How ``compute_weighted_loss`` reduces the weighted losses.

    >>> Reduction.SUM_BY_NONZERO_WEIGHTS
    'weighted_sum_by_nonzero_weights'
    >>> Reduction.validate("mean")
    Traceback (most recent call last):
    ...
    ValueError: Invalid Reduction Key mean. Key should be one of ('none', 'weighted_sum', \
'weighted_mean', 'weighted_sum_over_batch_size', 'weighted_sum_by_nonzero_weights', \
'weighted_sum_by_nonzero_weights').
    """

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple[str, ...]:
        """Every reduction key."""
        return (
            cls.NONE,
            cls.SUM,
            cls.MEAN,
            cls.SUM_OVER_BATCH_SIZE,
            cls.SUM_OVER_NONZERO_WEIGHTS,
            cls.SUM_BY_NONZERO_WEIGHTS,
        )

    @classmethod
    def validate(cls, key: str) -> None:
        """A ValueError unless ``key`` is one of :meth:`all`."""
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


def _check_broadcastable(weights: Any, losses: Any) -> None:
    """TensorFlow's rule for loss weights: a scalar, or of the losses' rank with each
    dimension 1 or the losses' own."""
    w_shape, l_shape = weights.shape, losses.shape
    if w_shape.rank is None or l_shape.rank is None or w_shape.rank == 0:
        return
    if w_shape.rank != l_shape.rank:
        raise ValueError(
            f"weights can not be broadcast to values. values.rank={l_shape.rank}. "
            f"weights.rank={w_shape.rank}. values.shape={l_shape}. weights.shape={w_shape}."
        )
    for w, v in zip(w_shape.as_list(), l_shape.as_list()):
        if w is not None and v is not None and w not in (1, v):
            raise ValueError(
                f"weights can not be broadcast to values: weights.shape={w_shape}, "
                f"values.shape={l_shape}"
            )


def _num_elements(losses: Any) -> Any:
    return math_ops.cast(array_ops.size(losses), losses.dtype)


def _num_present(losses: Any, weights: Any, per_batch: bool = False) -> Any:
    """The number of elements of ``losses`` whose broadcast weight is not zero. As in
    TensorFlow, a non-zero scalar weight counts every element, and eagerly a non-zero scalar
    weight tensor does too, even ``per_batch`` (so ``mean_pairwise_squared_error`` with
    scalar weights gives another value eagerly than in a graph, as TensorFlow's does)."""
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    if context.graph is None and weights.shape.rank == 0 and float(weights) != 0.0:
        return _num_elements(losses)
    weights = math_ops.cast(weights, dtypes.float32)
    present = array_ops.where(
        comparison_ops.equal(weights, 0.0),
        array_ops.zeros_like(weights),
        array_ops.ones_like(weights),
    )
    present = math_ops.multiply(present, array_ops.ones_like(losses))
    if per_batch:
        axes = list(range(1, losses.shape.rank))
        return reduction_ops.reduce_sum(present, axis=axes, keepdims=True)
    return reduction_ops.reduce_sum(present)


def compute_weighted_loss(
    losses: Any,
    weights: Any = 1.0,
    scope: str | None = None,
    loss_collection: str = LOSSES,
    reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """``losses * weights`` reduced by ``reduction``, in float32, cast back to the losses'
    dtype and added to ``loss_collection``.

    >>> float(compute_weighted_loss([1.0, 2.0, 3.0], [1.0, 0.0, 1.0]))
    2.0
    >>> float(compute_weighted_loss([1.0, 2.0, 3.0], reduction=Reduction.SUM))
    6.0
    """
    Reduction.validate(reduction)
    with name_scope(scope, "weighted_loss"):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = math_ops.cast(losses, dtypes.float32)
        weights = math_ops.cast(weights, dtypes.float32)
        _check_broadcastable(weights, losses)
        weighted = math_ops.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduction_ops.reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                count = reduction_ops.reduce_sum(array_ops.ones_like(losses) * weights)
                loss = safe_math_ops.divide_no_nan(loss, count)
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = safe_math_ops.divide_no_nan(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = safe_math_ops.divide_no_nan(loss, _num_elements(losses))
        loss = math_ops.cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _pair(labels: Any, predictions: Any, what: str = "predictions") -> tuple[Any, Any]:
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError(f"Argument `{what}` must not be None.")
    predictions = math_ops.cast(predictions, dtypes.float32)
    labels = math_ops.cast(labels, dtypes.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return labels, predictions


def absolute_difference(
    labels,
    predictions,
    weights=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """The weighted mean of ``|predictions - labels|``.

    >>> float(absolute_difference([1.0, 2.0], [2.0, 4.0]))
    1.5
    """
    with name_scope(scope, "absolute_difference") as scope:
        labels, predictions = _pair(labels, predictions)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def cosine_distance(
    labels,
    predictions,
    axis=None,
    weights=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
    dim=None,
):
    """``1 - sum(labels * predictions, axis)`` (the inputs are unit-normalised already).

    >>> round(float(cosine_distance([[1.0, 0.0]], [[0.6, 0.8]], axis=1)), 5)
    0.4
    """
    if axis is not None and dim is not None:
        raise ValueError("cosine_distance: give axis or dim (its old name), not both")
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    with name_scope(scope, "cosine_distance_loss") as scope:
        labels, predictions = _pair(labels, predictions)
        products = math_ops.multiply(predictions, labels)
        losses = 1 - reduction_ops.reduce_sum(products, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def hinge_loss(
    labels,
    logits,
    weights=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """``max(0, 1 - (2 labels - 1) logits)`` for labels in {0, 1}.

    >>> float(hinge_loss([1.0, 0.0], [0.5, 0.5]))
    1.0
    """
    with name_scope(scope, "hinge_loss") as scope:
        labels, logits = _pair(labels, logits, "logits")
        ones = array_ops.ones_like(labels)
        signs = math_ops.subtract(2 * labels, ones)
        losses = nn_ops.relu(math_ops.subtract(ones, math_ops.multiply(signs, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def huber_loss(
    labels,
    predictions,
    weights=1.0,
    delta=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """Quadratic within ``delta`` of the labels, linear beyond.

    >>> float(huber_loss([0.0, 0.0], [0.5, 3.0]))
    1.3125
    """
    with name_scope(scope, "huber_loss") as scope:
        labels, predictions = _pair(labels, predictions)
        error = math_ops.abs(math_ops.subtract(predictions, labels))
        quadratic = math_ops.minimum(error, delta)
        linear = math_ops.subtract(error, quadratic)
        losses = math_ops.add(
            math_ops.multiply(0.5, math_ops.multiply(quadratic, quadratic)),
            math_ops.multiply(delta, linear),
        )
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def log_loss(
    labels,
    predictions,
    weights=1.0,
    epsilon=1e-7,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """Binary cross-entropy of probabilities: ``-y log(p + eps) - (1 - y) log(1 - p + eps)``.

    >>> round(float(log_loss([1.0, 0.0], [0.9, 0.2])), 5)
    0.16425
    """
    with name_scope(scope, "log_loss") as scope:
        labels, predictions = _pair(labels, predictions)
        losses = -math_ops.multiply(labels, math_ops.log(predictions + epsilon)) - (
            math_ops.multiply(1 - labels, math_ops.log(1 - predictions + epsilon))
        )
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def mean_pairwise_squared_error(
    labels, predictions, weights=1.0, scope=None, loss_collection=LOSSES
):
    """For each example, the mean over pairs of elements of the squared difference of their
    differences (``(p_i - p_j) - (l_i - l_j)``), weighted per example and summed.

    >>> float(mean_pairwise_squared_error([[0.0, 0.0, 0.0]], [[1.0, 2.0, 3.0]]))
    2.0
    """
    with name_scope(scope, "mean_pairwise_squared_error"):
        weights = math_ops.cast(weights, dtypes.float32)
        labels, predictions = _pair(labels, predictions)
        _check_broadcastable(weights, labels)
        diffs = math_ops.subtract(predictions, labels)
        axes = list(range(1, diffs.shape.rank))
        sum_squares = reduction_ops.reduce_sum(math_ops.square(diffs), axis=axes, keepdims=True)
        present = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * safe_math_ops.divide_no_nan(sum_squares, math_ops.maximum(present - 1, 0))
        sum_diff = reduction_ops.reduce_sum(diffs, axis=axes, keepdims=True)
        term2 = 2.0 * safe_math_ops.divide_no_nan(
            math_ops.square(sum_diff),
            math_ops.maximum(math_ops.multiply(present, present - 1), 0),
        )
        loss = reduction_ops.reduce_sum(math_ops.multiply(term1 - term2, weights))
        mean_loss = array_ops.where(
            comparison_ops.greater(reduction_ops.reduce_sum(present), 0),
            loss,
            array_ops.zeros_like(loss),
        )
        add_loss(mean_loss, loss_collection)
        return mean_loss


def mean_squared_error(
    labels,
    predictions,
    weights=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """The weighted mean of ``(predictions - labels)**2``.

    >>> float(mean_squared_error([0.0, 0.0], [1.0, 3.0]))
    5.0
    """
    with name_scope(scope, "mean_squared_error") as scope:
        labels, predictions = _pair(labels, predictions)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def sigmoid_cross_entropy(
    multi_class_labels,
    logits,
    weights=1.0,
    label_smoothing=0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """Sigmoid cross-entropy of ``logits``; ``label_smoothing`` moves the labels towards
    1/2.

    >>> round(float(sigmoid_cross_entropy([1.0, 0.0], [0.0, 0.0])), 5)
    0.69315
    """
    if multi_class_labels is None:
        raise ValueError("Argument `multi_class_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with name_scope(scope, "sigmoid_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(multi_class_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(labels.shape)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn_losses.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def softmax_cross_entropy(
    onehot_labels,
    logits,
    weights=1.0,
    label_smoothing=0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """Softmax cross-entropy of ``logits`` against one-hot labels (no gradient into the
    labels); ``label_smoothing`` spreads that much of each label over the classes.

    >>> round(float(softmax_cross_entropy([[0.0, 1.0]], [[0.0, 0.0]])), 5)
    0.69315
    """
    if onehot_labels is None:
        raise ValueError("Argument `onehot_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with name_scope(scope, "softmax_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(labels.shape)
        if label_smoothing > 0:
            classes = math_ops.cast(array_ops.shape(labels)[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        labels = array_ops.stop_gradient(labels)
        losses = nn_losses.softmax_cross_entropy_with_logits(labels, logits, -1, "xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def _squeeze_weights(labels: Any, weights: Any) -> Any:
    """Weights with a trailing dimension of 1 beyond the labels' rank lose it."""
    weights = convert_to_tensor(weights)
    rank_w, rank_l = weights.shape.rank, labels.shape.rank
    if rank_w is not None and rank_l is not None and rank_w - rank_l == 1:
        weights = array_ops.squeeze(weights, [-1])
    return weights


def sparse_softmax_cross_entropy(
    labels,
    logits,
    weights=1.0,
    scope=None,
    loss_collection=LOSSES,
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """Softmax cross-entropy of ``logits`` against class indices (a trailing dimension of 1
    on the labels or weights is squeezed away).

    >>> round(float(sparse_softmax_cross_entropy([1], [[0.0, 0.0]])), 5)
    0.69315
    """
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with name_scope(scope, "sparse_softmax_cross_entropy_loss") as scope:
        labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
        rank_l, rank_p = labels.shape.rank, logits.shape.rank
        same_rank = rank_l is not None and rank_p is not None and rank_l == rank_p
        if same_rank and TensorShape(labels.shape[-1:]).is_compatible_with([1]):
            labels = array_ops.squeeze(labels, [-1])
        if not isinstance(weights, float):
            weights = _squeeze_weights(labels, weights)
        losses = nn_losses.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)
