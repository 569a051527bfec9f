"""The running means of ``tf.keras.metrics`` built on loss functions (cross-entropies,
hinges, KL divergence, Poisson, log-cosh, cosine similarity, percentage and logarithmic
errors), ``RootMeanSquaredError``, the top-k accuracies, the correlation metrics, and the
function names Keras also exports from ``keras.metrics`` (``mse``, ``kld``...).

>>> import retrograd as rg
>>> m = rg.keras.metrics.RootMeanSquaredError()
>>> m.update_state([[0.0], [0.0]], [[3.0], [4.0]])
>>> round(float(m.result()), 4)
3.5355
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import backend, loss_functions, losses
from retrograd.keras.src.metrics import Mean, MeanMetricWrapper
from retrograd.keras.src.ops import math as kmath
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors

__all__ = [
    "BinaryCrossentropy",
    "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy",
    "Hinge",
    "SquaredHinge",
    "CategoricalHinge",
    "KLDivergence",
    "Poisson",
    "LogCoshError",
    "CosineSimilarity",
    "MeanAbsolutePercentageError",
    "MeanSquaredLogarithmicError",
    "RootMeanSquaredError",
    "TopKCategoricalAccuracy",
    "SparseTopKCategoricalAccuracy",
    "PearsonCorrelation",
    "ConcordanceCorrelation",
    "top_k_categorical_accuracy",
    "sparse_top_k_categorical_accuracy",
    "pearson_correlation",
    "concordance_correlation",
    "MAE",
    "MAPE",
    "MSE",
    "MSLE",
    "KLD",
    "mae",
    "mape",
    "mse",
    "msle",
    "kld",
    "kullback_leibler_divergence",
    "logcosh",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "sparse_categorical_crossentropy",
    "categorical_hinge",
    "hinge",
    "squared_hinge",
    "huber",
    "poisson",
]

mse = MSE = losses.mean_squared_error
mae = MAE = losses.mean_absolute_error
mape = MAPE = loss_functions.mean_absolute_percentage_error
msle = MSLE = loss_functions.mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = loss_functions.kl_divergence
logcosh = loss_functions.log_cosh
binary_crossentropy = losses.binary_crossentropy
categorical_crossentropy = losses.categorical_crossentropy
sparse_categorical_crossentropy = losses.sparse_categorical_crossentropy
binary_focal_crossentropy = loss_functions.binary_focal_crossentropy
categorical_focal_crossentropy = loss_functions.categorical_focal_crossentropy
hinge, squared_hinge = loss_functions.hinge, loss_functions.squared_hinge
categorical_hinge, poisson, huber = (
    loss_functions.categorical_hinge,
    loss_functions.poisson,
    losses.huber,
)


class BinaryCrossentropy(MeanMetricWrapper):
    """The running mean of ``binary_crossentropy``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.BinaryCrossentropy()
    >>> m.update_state([[1.0]], [[0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0
    ):
        super().__init__(
            losses.binary_crossentropy,
            name,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
        )
        self.from_logits, self.label_smoothing = from_logits, label_smoothing


class CategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of ``categorical_crossentropy``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.CategoricalCrossentropy()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self,
        name="categorical_crossentropy",
        dtype=None,
        from_logits=False,
        label_smoothing=0,
        axis=-1,
    ):
        super().__init__(
            losses.categorical_crossentropy,
            name,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits, self.label_smoothing, self.axis = from_logits, label_smoothing, axis


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of ``sparse_categorical_crossentropy``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.SparseCategoricalCrossentropy()
    >>> m.update_state([1], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self,
        name="sparse_categorical_crossentropy",
        dtype=None,
        from_logits=False,
        ignore_class=None,
        axis=-1,
    ):
        super().__init__(
            losses.sparse_categorical_crossentropy,
            name,
            dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )
        self.from_logits, self.ignore_class, self.axis = from_logits, ignore_class, axis

    def get_config(self):
        return {
            **super().get_config(),
            "from_logits": self.from_logits,
            "ignore_class": self.ignore_class,
            "axis": self.axis,
        }


class Hinge(MeanMetricWrapper):
    """The running mean of ``hinge``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.Hinge()
    >>> m.update_state([[1.0]], [[0.25]])
    >>> float(m.result())
    0.75
    """

    def __init__(self, name="hinge", dtype=None):
        super().__init__(loss_functions.hinge, name, dtype)


class SquaredHinge(MeanMetricWrapper):
    """The running mean of ``squared_hinge``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.SquaredHinge()
    >>> m.update_state([[1.0]], [[0.5]])
    >>> float(m.result())
    0.25
    """

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(loss_functions.squared_hinge, name, dtype)


class CategoricalHinge(MeanMetricWrapper):
    """The running mean of ``categorical_hinge``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.CategoricalHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.25, 0.5]])
    >>> float(m.result())
    0.75
    """

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(loss_functions.categorical_hinge, name, dtype)


class KLDivergence(MeanMetricWrapper):
    """The running mean of ``kl_divergence``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.KLDivergence()
    >>> m.update_state([[0.5, 0.5]], [[0.5, 0.5]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(loss_functions.kl_divergence, name, dtype)


class Poisson(MeanMetricWrapper):
    """The running mean of ``poisson``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.Poisson()
    >>> m.update_state([[0.0]], [[2.0]])
    >>> float(m.result())
    2.0
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(loss_functions.poisson, name, dtype)


class LogCoshError(MeanMetricWrapper):
    """The running mean of ``log_cosh``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.LogCoshError()
    >>> m.update_state([[1.0]], [[1.0]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(loss_functions.log_cosh, name, dtype)


def _cosine(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    y_true, y_pred = losses.match_ranks(y_true, y_pred)
    from retrograd.keras.src.ops import nn_activations as nn

    return knp.sum(nn.normalize(y_true, axis=axis) * nn.normalize(y_pred, axis=axis), axis=axis)


class CosineSimilarity(MeanMetricWrapper):
    """The running mean of the cosine similarity along ``axis``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.CosineSimilarity()
    >>> m.update_state([[1.0, 0.0]], [[2.0, 0.0]])
    >>> float(m.result())
    1.0
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(_cosine, name, dtype, axis=axis)
        self.axis = axis


class MeanAbsolutePercentageError(MeanMetricWrapper):
    """The running mean of ``mean_absolute_percentage_error``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.MeanAbsolutePercentageError()
    >>> m.update_state([[2.0]], [[1.0]])
    >>> float(m.result())
    50.0
    """

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(loss_functions.mean_absolute_percentage_error, name, dtype)


class MeanSquaredLogarithmicError(MeanMetricWrapper):
    """The running mean of ``mean_squared_logarithmic_error``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.MeanSquaredLogarithmicError()
    >>> m.update_state([[1.0]], [[1.0]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(loss_functions.mean_squared_logarithmic_error, name, dtype)


class RootMeanSquaredError(Mean):
    """The square root of the running mean of squared errors.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.RootMeanSquaredError()
    >>> m.update_state([[0.0]], [[2.0]])
    >>> float(m.result())
    2.0
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses.match_ranks(y_true, y_pred)
        super().update_state(knp.square(y_pred - y_true), sample_weight)

    def result(self):
        return knp.sqrt(super().result())


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """1.0 where the one-hot target's class is among the ``k`` highest scores.

    >>> import retrograd as rg
    >>> rg.keras.metrics.top_k_categorical_accuracy([[0, 1, 0]], [[0.5, 0.3, 0.2]], k=2).numpy()
    array([1.], dtype=float32)
    """
    pred = tensors.convert(y_pred)
    labels = knp.argmax(tensors.convert(y_true, pred.dtype.name), axis=-1)
    return _in_top_k(labels, pred, k)


def _in_top_k(labels: Any, pred: Any, k: int) -> Any:
    shape = labels.shape.as_list()
    if pred.shape.rank > 2:
        pred = knp.reshape(pred, [-1, pred.shape.as_list()[-1]])
    flat = knp.reshape(labels, [-1]) if len(shape) > 1 else labels
    matches = tensors.convert(
        kmath.in_top_k(tensors.convert(flat, "int32"), pred, k), backend.floatx()
    )
    return knp.reshape(matches, shape) if len(shape) > 1 else matches


def sparse_top_k_categorical_accuracy(
    y_true: Any, y_pred: Any, k: int = 5, from_sorted_ids: bool = False
) -> Any:
    """1.0 where the integer target is among the ``k`` highest scores (or, with
    ``from_sorted_ids``, among the first ``k`` ids of ``y_pred``).

    >>> import retrograd as rg
    >>> rg.keras.metrics.sparse_top_k_categorical_accuracy([1], [[0.5, 0.3, 0.2]], k=2).numpy()
    array([1.], dtype=float32)
    """
    pred = tensors.convert(y_pred)
    labels = tensors.convert(y_true, pred.dtype.name if from_sorted_ids else "int32")
    if from_sorted_ids:
        found = knp.any(knp.equal(knp.expand_dims(labels, 1), pred[:, :k]), axis=1)
        return tensors.convert(found, backend.floatx())
    return _in_top_k(labels, pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """The running mean of ``top_k_categorical_accuracy``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.TopKCategoricalAccuracy(k=1)
    >>> m.update_state([[0, 1], [1, 0]], [[0.4, 0.6], [0.3, 0.7]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)
        self.k = k


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """The running mean of ``sparse_top_k_categorical_accuracy``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.SparseTopKCategoricalAccuracy(k=1)
    >>> m.update_state([1, 1], [[0.4, 0.6], [0.7, 0.3]])
    >>> float(m.result())
    0.5
    """

    def __init__(
        self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False
    ):
        super().__init__(
            sparse_top_k_categorical_accuracy, name, dtype, k=k, from_sorted_ids=from_sorted_ids
        )
        self.k, self.from_sorted_ids = k, from_sorted_ids


def pearson_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """The Pearson correlation of ``y_true`` and ``y_pred`` along ``axis``.

    >>> import retrograd as rg
    >>> round(float(rg.keras.metrics.pearson_correlation([1.0, 2.0, 3.0], [2.0, 4.0, 6.0])), 4)
    1.0
    """
    y_true, y_pred = losses.match_ranks(y_true, y_pred)
    t = y_true - knp.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - knp.mean(y_pred, axis=axis, keepdims=True)
    t = t / knp.std(t, axis=axis, keepdims=True)
    p = p / knp.std(p, axis=axis, keepdims=True)
    return knp.mean(t * p, axis=axis)


def concordance_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """Lin's concordance correlation of ``y_true`` and ``y_pred`` along ``axis`` (as Keras
    computes it).

    >>> import retrograd as rg
    >>> round(float(rg.keras.metrics.concordance_correlation([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])), 4)
    1.0
    """
    y_true, y_pred = losses.match_ranks(y_true, y_pred)
    t_mean = knp.mean(y_true, axis=axis, keepdims=True)
    p_mean = knp.mean(y_pred, axis=axis, keepdims=True)
    t_var = knp.var(y_true - t_mean, axis=axis, keepdims=True)
    p_var = knp.var(y_pred - p_mean, axis=axis, keepdims=True)
    covariance = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + knp.square(t_mean - p_mean)
    return knp.mean(2 * covariance / (norm + backend.epsilon()), axis=axis)


class PearsonCorrelation(MeanMetricWrapper):
    """The running mean of ``pearson_correlation`` over batches.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.PearsonCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]])
    >>> round(float(m.result()), 4)
    -1.0
    """

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name, dtype, axis=axis)
        self.axis = axis


class ConcordanceCorrelation(MeanMetricWrapper):
    """The running mean of ``concordance_correlation`` over batches.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.ConcordanceCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name, dtype, axis=axis)
        self.axis = axis
