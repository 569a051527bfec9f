"""Score metrics of ``tf.keras.metrics`` kept as accumulated statistics: intersection over
union (``IoU``, ``MeanIoU``, ``BinaryIoU``, ``OneHotIoU``, ``OneHotMeanIoU``, from a running
confusion matrix), ``F1Score``/``FBetaScore`` (per class or averaged) and ``R2Score``.

>>> import retrograd as rg
>>> m = rg.keras.metrics.MeanIoU(num_classes=2)
>>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
>>> round(float(m.result()), 4)
0.3333
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.metrics import Metric
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors
from retrograd.ops import scatter_ops

__all__ = [
    "IoU",
    "MeanIoU",
    "BinaryIoU",
    "OneHotIoU",
    "OneHotMeanIoU",
    "FBetaScore",
    "F1Score",
    "R2Score",
]


class _IoUBase(Metric):
    def __init__(
        self,
        num_classes,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(name=name, dtype=dtype or "int64")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = self.add_variable(
            shape=(num_classes, num_classes), name="total_confusion_matrix"
        )

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self.dtype.name
        if not self.sparse_y_true:
            y_true = knp.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = knp.argmax(y_pred, axis=self.axis)
        y_true = knp.reshape(tensors.convert(y_true, dtype), [-1])
        y_pred = knp.reshape(tensors.convert(y_pred, dtype), [-1])
        weight = tensors.convert(1 if sample_weight is None else sample_weight, dtype)
        weight = knp.broadcast_to(
            knp.reshape(weight, [-1]) if weight.shape.rank else weight, y_true.shape.as_list()
        )
        n = self.num_classes
        valid = knp.logical_and(
            knp.logical_and(knp.greater_equal(y_true, 0), knp.less(y_true, n)),
            knp.logical_and(knp.greater_equal(y_pred, 0), knp.less(y_pred, n)),
        )
        if self.ignore_class is not None:
            valid = knp.logical_and(valid, knp.not_equal(y_true, self.ignore_class))
        zero = knp.zeros_like(y_true)
        y_true, y_pred = knp.where(valid, y_true, zero), knp.where(valid, y_pred, zero)
        weight = knp.where(valid, weight, knp.zeros_like(weight))
        indices = knp.stack(
            [tensors.convert(y_true, "int64"), tensors.convert(y_pred, "int64")], axis=1
        )
        self.total_cm.assign_add(scatter_ops.scatter_nd(indices, weight, [n, n]))

    def _iou(self, class_ids: Any) -> Any:
        cm = tensors.convert(self.total_cm.read_value(), "float32")
        predicted, actual = knp.sum(cm, axis=0), knp.sum(cm, axis=1)
        true_positives = knp.diagonal(cm)
        denominator = predicted + actual - true_positives
        ids = tensors.convert(np.asarray(class_ids, np.int32))
        true_positives = knp.take(true_positives, ids)
        denominator = knp.take(denominator, ids)
        valid = knp.greater(denominator, 1e-9)
        iou = knp.where(valid, true_positives / (denominator + backend.epsilon()), 0.0)
        count = knp.sum(tensors.convert(valid, "float32"))
        return knp.sum(iou, axis=self.axis) / (count + backend.epsilon())

    def get_config(self):
        return {
            **super().get_config(),
            "num_classes": self.num_classes,
            "ignore_class": self.ignore_class,
            "sparse_y_true": self.sparse_y_true,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class IoU(_IoUBase):
    """The mean intersection-over-union of the classes ``target_class_ids``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.IoU(num_classes=2, target_class_ids=[1])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(num_classes, name, dtype, ignore_class, sparse_y_true, sparse_y_pred, axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(
                "Target class id is out of range, which is [0, num_classes). Received: "
                f"target_class_ids={target_class_ids}, num_classes={num_classes}"
            )
        self.target_class_ids = list(target_class_ids)

    def result(self):
        return self._iou(self.target_class_ids)

    def get_config(self):
        return {**super().get_config(), "target_class_ids": self.target_class_ids}


class MeanIoU(_IoUBase):
    """The intersection-over-union averaged over all ``num_classes`` classes.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.MeanIoU(num_classes=2)
    >>> m.update_state([0, 1], [0, 1])
    >>> round(float(m.result()), 4)
    1.0
    """

    def result(self):
        return self._iou(list(range(self.num_classes)))


class BinaryIoU(IoU):
    """IoU of thresholded predictions (``y_pred >= threshold`` is class 1).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.BinaryIoU()
    >>> m.update_state([0, 1], [0.2, 0.7])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        predicted = knp.greater_equal(tensors.convert(y_pred, "float32"), self.threshold)
        super().update_state(y_true, tensors.convert(predicted, self.dtype.name), sample_weight)


class OneHotIoU(IoU):
    """``IoU`` of one-hot targets and score vectors (both arg-maxed along ``axis``).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.OneHotIoU(num_classes=2, target_class_ids=[0, 1])
    >>> m.update_state([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_pred=False,
        axis=-1,
    ):
        super().__init__(
            num_classes, target_class_ids, name, dtype, ignore_class, False, sparse_y_pred, axis
        )


class OneHotMeanIoU(MeanIoU):
    """``MeanIoU`` of one-hot targets and score vectors.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.OneHotMeanIoU(num_classes=2)
    >>> m.update_state([[1, 0], [0, 1]], [[0.9, 0.1], [0.8, 0.2]])
    >>> round(float(m.result()), 4)
    0.25
    """

    def __init__(
        self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1
    ):
        super().__init__(num_classes, name, dtype, ignore_class, False, sparse_y_pred, axis)


class FBetaScore(Metric):
    """The F-beta score of multi-class predictions (per class; averaged 'micro', 'macro'
    or 'weighted'); a prediction counts where it is above ``threshold`` (the row's
    largest value by default).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.FBetaScore(average="micro")
    >>> m.update_state([[1, 0], [0, 1]], [[0.9, 0.1], [0.8, 0.2]])
    >>> round(float(m.result()), 4)
    0.5
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(
                "Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                f"'weighted'}}. Received: average={average}"
            )
        if not isinstance(beta, float):
            raise ValueError(
                "Invalid `beta` argument value. It should be a Python float. Received: "
                f"beta={beta} of type '{type(beta)}'"
            )
        if beta <= 0.0:
            raise ValueError(
                f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}"
            )
        if threshold is not None and (
            not isinstance(threshold, float) or not 0.0 < threshold <= 1.0
        ):
            raise ValueError(
                "Invalid `threshold` argument value. It should be a Python float in the range "
                f"]0, 1]. Received: threshold={threshold}"
            )
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, classes: int) -> None:
        shape = () if self.average == "micro" else (classes,)
        for name in (
            "true_positives",
            "false_positives",
            "false_negatives",
            "intermediate_weights",
        ):
            setattr(self, name, self.add_variable(shape=shape, name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self.dtype.name
        y_true, y_pred = tensors.convert(y_true, dtype), tensors.convert(y_pred, dtype)
        if y_pred.shape.rank != 2 or y_true.shape.rank != 2:
            raise ValueError(
                "FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received "
                f"input shapes: y_pred.shape={tuple(y_pred.shape.as_list())} and "
                f"y_true.shape={tuple(y_true.shape.as_list())}."
            )
        if not self._built:
            self._build(y_pred.shape.as_list()[-1])
        if self.threshold is None:
            top = knp.max(y_pred, axis=-1, keepdims=True)
            predicted = knp.logical_and(
                knp.greater_equal(y_pred, top), knp.greater(knp.abs(y_pred), 1e-9)
            )
        else:
            predicted = knp.greater(y_pred, self.threshold)
        predicted = tensors.convert(predicted, dtype)
        weight = None if sample_weight is None else tensors.convert(sample_weight, dtype)

        def total(values: Any) -> Any:
            if weight is not None:
                values = values * knp.expand_dims(weight, 1)
            return knp.sum(values, axis=self.axis)

        self.true_positives.assign_add(total(predicted * y_true))
        self.false_positives.assign_add(total(predicted * (1 - y_true)))
        self.false_negatives.assign_add(total((1 - predicted) * y_true))
        self.intermediate_weights.assign_add(total(y_true))

    def result(self):
        eps = backend.epsilon()
        tp, fp, fn = (
            v.read_value()
            for v in (self.true_positives, self.false_positives, self.false_negatives)
        )
        precision = tp / (tp + fp + eps)
        recall = tp / (tp + fn + eps)
        score = (
            (precision * recall) / (self.beta**2 * precision + recall + eps) * (1 + self.beta**2)
        )
        if self.average == "weighted":
            weights = self.intermediate_weights.read_value()
            return knp.sum(score * weights / (knp.sum(weights) + eps))
        if self.average is not None:
            return knp.mean(score)
        return score

    def get_config(self):
        return {
            **super().get_config(),
            "average": self.average,
            "beta": self.beta,
            "threshold": self.threshold,
        }


class F1Score(FBetaScore):
    """The F1 score (``FBetaScore`` with ``beta=1``).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.F1Score(average="macro")
    >>> m.update_state([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)


class R2Score(Metric):
    """The coefficient of determination of 2-D targets, per output column, then averaged
    ('uniform_average', 'variance_weighted_average' or None); adjusted for
    ``num_regressors`` when given.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.R2Score()
    >>> m.update_state([[1.0], [2.0], [3.0]], [[1.0], [2.0], [4.0]])
    >>> float(m.result())
    0.5
    """

    def __init__(
        self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None
    ):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in (None, "uniform_average", "variance_weighted_average"):
            raise ValueError(
                "Invalid value for argument `class_aggregation`. Expected one of {None, "
                f"'uniform_average', 'variance_weighted_average'}}. Received: "
                f"class_aggregation={class_aggregation}"
            )
        if num_regressors < 0:
            raise ValueError(
                "Invalid value for argument `num_regressors`. Expected a value >= 0. Received: "
                f"num_regressors={num_regressors}"
            )
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable(name="num_samples")
        self._built = False

    def update_state(self, y_true, y_pred, sample_weight=None):
        from retrograd.keras.src.losses import match_ranks

        y_true, y_pred = match_ranks(tensors.convert(y_true, self.dtype.name), y_pred)
        if y_pred.shape.rank != 2 or y_true.shape.rank != 2:
            raise ValueError(
                "R2Score expects 2D inputs with shape (batch_size, output_dim). Received input "
                f"shapes: y_pred.shape={tuple(y_pred.shape.as_list())} and "
                f"y_true.shape={tuple(y_true.shape.as_list())}."
            )
        if not self._built:
            size = (y_pred.shape.as_list()[-1],)
            for name in ("squared_sum", "sum", "residual", "count"):
                setattr(self, name, self.add_variable(shape=size, name=name))
            self._built = True
        weight = tensors.convert(1 if sample_weight is None else sample_weight, y_true.dtype.name)
        if weight.shape.rank == 1:
            weight = knp.expand_dims(weight, 1)
        weight = knp.broadcast_to(weight, y_true.shape.as_list())
        weighted = y_true * weight
        self.sum.assign_add(knp.sum(weighted, axis=0))
        self.squared_sum.assign_add(knp.sum(y_true * weighted, axis=0))
        self.residual.assign_add(knp.sum(knp.square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(knp.sum(weight, axis=0))
        self.num_samples.assign_add(tensors.convert(y_true.shape.num_elements(), self.dtype.name))

    def result(self):
        total_sum, count = self.sum.read_value(), self.count.read_value()
        mean = total_sum / count
        total = self.squared_sum.read_value() - total_sum * mean
        raw = 1 - self.residual.read_value() / total
        raw = knp.where(knp.isinf(raw), 0.0, raw)
        if self.class_aggregation == "uniform_average":
            score = knp.mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = knp.sum(total * raw) / knp.sum(total)
        else:
            score = raw
        samples = float(self.num_samples.numpy())
        if self.num_regressors and self.num_regressors < samples - 1:
            score = 1.0 - (1.0 - score) * (samples - 1.0) / (samples - self.num_regressors - 1.0)
        return score

    def reset_state(self):
        super().reset_state()

    def get_config(self):
        return {
            **super().get_config(),
            "class_aggregation": self.class_aggregation,
            "num_regressors": self.num_regressors,
        }
