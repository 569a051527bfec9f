"""Thresholded metrics of ``tf.keras.metrics``: the confusion counts (``TruePositives``
...), ``Precision``/``Recall`` (with ``top_k`` and ``class_id``), ``AUC`` (ROC, PR and
PR-gain curves, Riemann or interpolated sums, multi-label) and the operating points
(``PrecisionAtRecall``, ``SensitivityAtSpecificity``...). A prediction counts as positive
at a threshold when it is strictly above it, as Keras decides.

>>> import retrograd as rg
>>> m = rg.keras.metrics.Precision()
>>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
>>> round(float(m.result()), 4)
0.6667
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src.metrics import Metric
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors
from retrograd.ops import array_ops, math_ops, reduction_ops, safe_math_ops, sort_ops

__all__ = [
    "confusion_counts",
    "TruePositives",
    "TrueNegatives",
    "FalsePositives",
    "FalseNegatives",
    "Precision",
    "Recall",
    "thresholds_of",
]

_NEG_INF = -1e10


def _same_rank(x: Any, y: Any) -> tuple[Any, Any]:
    """One trailing axis of size 1 dropped where the ranks differ by one (Keras' rule)."""
    rx, ry = x.shape.rank, y.shape.rank
    if rx == ry + 1 and x.shape.as_list()[-1] == 1:
        x = array_ops.squeeze(x, [rx - 1])
    elif ry == rx + 1 and y.shape.as_list()[-1] == 1:
        y = array_ops.squeeze(y, [ry - 1])
    return x, y


def _filter_top_k(x: Any, k: int) -> Any:
    _, indices = sort_ops.top_k(x, k)
    depth = x.shape.as_list()[-1]
    mask = reduction_ops.reduce_sum(
        tensors.convert(knp.equal(knp.expand_dims(indices, -1), knp.arange(depth)), x.dtype.name),
        -2,
    )
    return x * mask + _NEG_INF * (1 - mask)


def confusion_counts(
    y_true: Any,
    y_pred: Any,
    thresholds: Any,
    sample_weight: Any = None,
    top_k: Any = None,
    class_id: Any = None,
    multi_label: bool = False,
    label_weights: Any = None,
    dtype: str = "float32",
) -> dict[str, Any]:
    """The weighted true/false positive/negative counts of a batch at each threshold:
    ``(thresholds,)`` each, or ``(thresholds, labels)`` with ``multi_label``."""
    y_true = math_ops.cast(tensors.convert(y_true), dtype)
    y_pred = math_ops.cast(tensors.convert(y_pred), dtype)
    y_pred, y_true = _same_rank(y_pred, y_true)
    if sample_weight is not None:
        weight = array_ops.expand_dims(math_ops.cast(tensors.convert(sample_weight), dtype), -1)
        _, weight = _same_rank(y_true, weight)
    else:
        weight = None
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.shape.rank == 1:
            raise ValueError(
                "When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                f"num_classes), found shape: {tuple(y_pred.shape.as_list())}"
            )
        y_true, y_pred = y_true[..., class_id : class_id + 1], y_pred[..., class_id : class_id + 1]
        if weight is not None and weight.shape.rank == y_true.shape.rank:
            weight = weight[..., :1] if weight.shape.as_list()[-1] != 1 else weight
    if weight is not None:
        weight = knp.broadcast_to(weight, y_pred.shape.as_list())
    if label_weights is not None and not multi_label:
        lw = knp.broadcast_to(
            knp.expand_dims(tensors.convert(label_weights, dtype), 0), y_pred.shape.as_list()
        )
        weight = lw if weight is None else weight * lw
    t = tensors.convert(np.asarray(thresholds, dtype=dtype))
    if multi_label:
        preds = array_ops.expand_dims(y_pred, 0)
        labels = array_ops.expand_dims(math_ops.cast(y_true, "bool"), 0)
        thr = array_ops.reshape(t, [-1, 1, 1])
        weights = None if weight is None else array_ops.expand_dims(weight, 0)
    else:
        preds = array_ops.reshape(y_pred, [1, -1])
        labels = array_ops.reshape(math_ops.cast(y_true, "bool"), [1, -1])
        thr = array_ops.reshape(t, [-1, 1])
        weights = None if weight is None else array_ops.reshape(weight, [1, -1])
    predicted = knp.greater(preds, thr)
    negative, actual_negative = knp.logical_not(predicted), knp.logical_not(labels)

    def count(a: Any, b: Any) -> Any:
        both = knp.logical_and(a, b)
        values = math_ops.cast(both, dtype)
        if weights is not None:
            values = values * weights
        return reduction_ops.reduce_sum(values, 1)

    return {
        "tp": count(labels, predicted),
        "fp": count(actual_negative, predicted),
        "tn": count(actual_negative, negative),
        "fn": count(labels, negative),
    }


def thresholds_of(thresholds: Any, default: float) -> list[float]:
    values = (
        [default]
        if thresholds is None
        else ([thresholds] if isinstance(thresholds, (int, float)) else list(thresholds))
    )
    if thresholds is not None and any(not 0 <= v <= 1 for v in values):
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {values}")
    return [float(v) for v in values]


class _ConfusionCount(Metric):
    _kind = "tp"

    def __init__(self, thresholds: Any = None, name: Any = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = thresholds_of(thresholds, 0.5)
        self.accumulator = self.add_variable(shape=(len(self.thresholds),), name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(
            y_true, y_pred, self.thresholds, sample_weight, dtype=self.dtype.name
        )
        self.accumulator.assign_add(counts[self._kind])

    def result(self):
        value = self.accumulator.read_value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ConfusionCount):
    """The (weighted) number of positives predicted positive.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.TruePositives()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> float(m.result())
    2.0
    """

    _kind = "tp"


class TrueNegatives(_ConfusionCount):
    """The (weighted) number of negatives predicted negative.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.TrueNegatives()
    >>> m.update_state([0, 1, 0, 0], [1, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    _kind = "tn"


class FalsePositives(_ConfusionCount):
    """The (weighted) number of negatives predicted positive.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.FalsePositives()
    >>> m.update_state([0, 1, 0, 0], [0, 0, 1, 1])
    >>> float(m.result())
    2.0
    """

    _kind = "fp"


class FalseNegatives(_ConfusionCount):
    """The (weighted) number of positives predicted negative.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.FalseNegatives()
    >>> m.update_state([0, 1, 1, 1], [0, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    _kind = "fn"


class _PrecisionRecall(Metric):
    _counted = ("tp", "fp")

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        self.thresholds = thresholds_of(thresholds, 0.5 if top_k is None else _NEG_INF)
        size = (len(self.thresholds),)
        self.true_positives = self.add_variable(shape=size, name="true_positives")
        other = "false_positives" if self._counted[1] == "fp" else "false_negatives"
        self._other = self.add_variable(shape=size, name=other)
        setattr(self, other, self._other)

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(
            y_true,
            y_pred,
            self.thresholds,
            sample_weight,
            self.top_k,
            self.class_id,
            dtype=self.dtype.name,
        )
        self.true_positives.assign_add(counts["tp"])
        self._other.assign_add(counts[self._counted[1]])

    def result(self):
        tp = self.true_positives.read_value()
        value = safe_math_ops.divide_no_nan(tp, tp + self._other.read_value())
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {
            **super().get_config(),
            "thresholds": self.init_thresholds,
            "top_k": self.top_k,
            "class_id": self.class_id,
        }


class Precision(_PrecisionRecall):
    """``TP / (TP + FP)`` at each threshold (of the top ``k`` scores, or of ``class_id``).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.Precision(thresholds=0.5)
    >>> m.update_state([1, 0], [0.9, 0.8])
    >>> float(m.result())
    0.5
    """

    _counted = ("tp", "fp")


class Recall(_PrecisionRecall):
    """``TP / (TP + FN)`` at each threshold (of the top ``k`` scores, or of ``class_id``).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.Recall()
    >>> m.update_state([1, 1], [0.9, 0.2])
    >>> float(m.result())
    0.5
    """

    _counted = ("tp", "fn")
