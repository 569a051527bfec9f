"""``tf.keras.metrics`` over many thresholds: ``AUC`` and the operating points
``PrecisionAtRecall``, ``RecallAtPrecision``, ``SensitivityAtSpecificity`` and
``SpecificityAtSensitivity``, accumulated as confusion counts at evenly spaced thresholds.

>>> import retrograd as rg
>>> m = rg.keras.metrics.AUC()
>>> m.update_state([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> round(float(m.result()), 4)
0.75
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.confusion_metrics import confusion_counts
from retrograd.keras.src.metrics import Metric
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors
from retrograd.ops import math_ops, safe_math_ops

__all__ = [
    "AUC",
    "PrecisionAtRecall",
    "RecallAtPrecision",
    "SensitivityAtSpecificity",
    "SpecificityAtSensitivity",
]

_CURVES = ("ROC", "PR", "PRGAIN")
_SUMMATIONS = ("interpolation", "minoring", "majoring")


def _div(a: Any, b: Any) -> Any:
    return safe_math_ops.divide_no_nan(a, b)


class AUC(Metric):
    """The area under the ROC (or precision-recall, or PR-gain) curve, from confusion counts
    at ``num_thresholds`` thresholds (or the given ``thresholds``).

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.AUC(curve="PR")
    >>> m.update_state([0, 1], [0.2, 0.9])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(
        self,
        num_thresholds: int = 200,
        curve: str = "ROC",
        summation_method: str = "interpolation",
        name: Any = None,
        dtype: Any = None,
        thresholds: Any = None,
        multi_label: bool = False,
        num_labels: Any = None,
        label_weights: Any = None,
        from_logits: bool = False,
    ) -> None:
        curve = str(curve).upper()
        summation_method = str(summation_method).lower()
        if curve not in _CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are {_CURVES}')
        if summation_method not in _SUMMATIONS:
            raise ValueError(
                f'Invalid AUC summation method value: "{summation_method}". Expected values '
                f"are {_SUMMATIONS}"
            )
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            self.num_thresholds = len(inner) + 2
        else:
            if num_thresholds <= 1:
                raise ValueError(
                    "Argument `num_thresholds` must be an integer > 1. Received: "
                    f"num_thresholds={num_thresholds}"
                )
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        eps = backend.epsilon()
        self._thresholds = np.array([0.0 - eps] + inner + [1.0 + eps])
        self.curve, self.summation_method = curve, summation_method
        super().__init__(name=name, dtype=dtype)
        self.multi_label, self.num_labels = multi_label, num_labels
        self.label_weights = (
            None if label_weights is None else tensors.convert(label_weights, self.dtype.name)
        )
        self._from_logits = from_logits
        self._built = False
        if not multi_label or num_labels:
            self._build(num_labels)

    @property
    def thresholds(self) -> list[float]:
        return list(self._thresholds)

    def _build(self, labels: Any) -> None:
        shape = (self.num_thresholds, labels) if self.multi_label else (self.num_thresholds,)
        for name in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, name, self.add_variable(shape=shape, name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tensors.convert(y_pred)
        if not self._built:
            self._build(y_pred.shape.as_list()[-1])
        if self._from_logits:
            y_pred = math_ops.sigmoid(y_pred)
        counts = confusion_counts(
            y_true,
            y_pred,
            self._thresholds,
            sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
            dtype=self.dtype.name,
        )
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _by_label(self, terms: Any) -> Any:
        if not self.multi_label:
            return knp.sum(terms)
        per_label = knp.sum(terms, axis=0)
        if self.label_weights is None:
            return knp.mean(per_label)
        return _div(knp.sum(per_label * self.label_weights), knp.sum(self.label_weights))

    def _interpolate_pr_auc(self) -> Any:
        n = self.num_thresholds
        tp, fp, fn = (
            v.read_value()
            for v in (self.true_positives, self.false_positives, self.false_negatives)
        )
        dtp = tp[: n - 1] - tp[1:]
        p = tp + fp
        dp = p[: n - 1] - p[1:]
        slope = _div(dtp, knp.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        both = knp.logical_and(knp.greater(p[: n - 1], 0), knp.greater(p[1:], 0))
        ratio = knp.where(both, _div(p[: n - 1], knp.maximum(p[1:], 0)), knp.ones_like(p[1:]))
        increment = _div(
            slope * (dtp + intercept * knp.log(ratio)), knp.maximum(tp[1:] + fn[1:], 0)
        )
        return self._by_label(increment)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        tp, fp, tn, fn = (
            v.read_value()
            for v in (
                self.true_positives,
                self.false_positives,
                self.true_negatives,
                self.false_negatives,
            )
        )
        recall = _div(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _div(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, _div(tp, tp + fp)
        else:
            scale = _div(tp + fn, tn + fp)
            recall_gain = 1.0 - scale * _div(fn, tp)
            precision_gain = 1.0 - scale * _div(fp, tp)
            no_tp = knp.equal(tp, 0.0)
            x = knp.maximum(knp.where(no_tp, 0.0, recall_gain), 0.0)
            y = knp.where(no_tp, 1.0, precision_gain)
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = (y[: n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = knp.minimum(y[: n - 1], y[1:])
        else:
            heights = knp.maximum(y[: n - 1], y[1:])
        return self._by_label((x[: n - 1] - x[1:]) * heights)

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        config = {
            **super().get_config(),
            "num_thresholds": self.num_thresholds,
            "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label,
            "num_labels": self.num_labels,
            "label_weights": None
            if self.label_weights is None
            else self.label_weights.numpy().tolist(),
            "from_logits": self._from_logits,
        }
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


class _OperatingPoint(Metric):
    """Confusion counts at ``num_thresholds`` evenly spaced thresholds in [0, 1]; the
    result is the best ``dependent`` rate among the thresholds whose ``constrained`` rate
    reaches ``value``."""

    _value_name = "value"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if not 0 <= value <= 1:
            raise ValueError(
                f"Argument `{self._value_name}` must be in the range [0, 1]. Received: "
                f"{self._value_name}={value}"
            )
        if num_thresholds <= 0:
            raise ValueError(
                "Argument `num_thresholds` must be an integer > 0. Received: "
                f"num_thresholds={num_thresholds}"
            )
        super().__init__(name=name, dtype=dtype)
        self.value, self.class_id, self.num_thresholds = value, class_id, num_thresholds
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds = [0.0] + inner + [1.0]
        size = (len(self.thresholds),)
        for name_ in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, name_, self.add_variable(shape=size, name=name_))

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(
            y_true,
            y_pred,
            self.thresholds,
            sample_weight,
            class_id=self.class_id,
            dtype=self.dtype.name,
        )
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _rates(self) -> dict[str, Any]:
        tp, fp, tn, fn = (
            v.read_value()
            for v in (
                self.true_positives,
                self.false_positives,
                self.true_negatives,
                self.false_negatives,
            )
        )
        return {
            "recall": _div(tp, tp + fn),
            "precision": _div(tp, tp + fp),
            "specificity": _div(tn, tn + fp),
        }

    def _best(self, constrained: Any, dependent: Any) -> Any:
        feasible = knp.greater_equal(constrained, self.value)
        return knp.max(knp.where(feasible, dependent, 0.0), initial=0.0)

    def get_config(self):
        return {
            **super().get_config(),
            "num_thresholds": self.num_thresholds,
            self._value_name: self.value,
            "class_id": self.class_id,
        }


class PrecisionAtRecall(_OperatingPoint):
    """The best precision among thresholds where recall is at least ``recall``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.PrecisionAtRecall(0.5)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    1.0
    """

    _value_name = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.recall = recall
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["recall"], rates["precision"])


class RecallAtPrecision(_OperatingPoint):
    """The best recall among thresholds where precision is at least ``precision``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.RecallAtPrecision(0.8)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.5
    """

    _value_name = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.precision = precision
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["precision"], rates["recall"])


class SensitivityAtSpecificity(_OperatingPoint):
    """The best sensitivity (recall) among thresholds where specificity is at least
    ``specificity``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.SensitivityAtSpecificity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> float(m.result())
    0.5
    """

    _value_name = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.specificity = specificity
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["specificity"], rates["recall"])


class SpecificityAtSensitivity(_OperatingPoint):
    """The best specificity among thresholds where sensitivity (recall) is at least
    ``sensitivity``.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics.SpecificityAtSensitivity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _value_name = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.sensitivity = sensitivity
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["recall"], rates["specificity"])
