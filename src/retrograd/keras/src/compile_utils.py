"""What ``compile`` makes of its arguments: the compiled metrics (plain, weighted, per
output), the losses of a model with several outputs, ``class_weight`` as sample weights,
and the masks Keras applies to both.

>>> from retrograd.keras.src.compile_utils import class_weight_to_sample_weights
>>> class_weight_to_sample_weights([0, 1, 1], {1: 2.0}).tolist()
[1.0, 2.0, 2.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.core.dimensions import dimension_value
from retrograd.keras.src import backend, tf_ops
from retrograd.keras.src import losses as losses_module
from retrograd.keras.src import metrics as metrics_module

__all__ = [
    "CompileMetrics",
    "CompiledLoss",
    "OutputLosses",
    "OutputMetrics",
    "output_names",
    "by_output",
    "class_weight_to_sample_weights",
    "weighted_by_class",
]


def _masked(metric: Any, sample_weight: Any, mask: Any) -> tuple:
    """The sample weights a compiled metric gets: with a mask, those of Keras' per-value
    metrics (MeanMetricWrapper) are multiplied by it."""
    if mask is not None and isinstance(metric, metrics_module.MeanMetricWrapper):
        sample_weight = losses_module.apply_mask(sample_weight, mask, metric.dtype, "sum")
    return () if sample_weight is None else (sample_weight,)


class CompileMetrics(metrics_module.Metric):
    """The metrics given to ``compile``, made into objects on the first batch (when the
    shapes that pick 'accuracy''s kind are known); ``result()`` is a dict."""

    def __init__(
        self, identifiers: Any, weighted_identifiers: Any = None, prefix: str = ""
    ) -> None:
        super().__init__(name="compile_metrics")
        self._prefix = prefix  # an output's name for models with several: "cls_accuracy"
        identifiers = [identifiers] if isinstance(identifiers, str) else identifiers
        weighted_identifiers = (
            [weighted_identifiers]
            if isinstance(weighted_identifiers, str)
            else weighted_identifiers
        )
        self._identifiers = list(identifiers or [])
        self._weighted_identifiers = list(weighted_identifiers or [])
        self._metrics: list[metrics_module.Metric] | None = None
        self._weighted: list[metrics_module.Metric] = []

    @property
    def metrics(self) -> list[metrics_module.Metric]:
        return list(self._metrics or []) + self._weighted

    def update_state(self, y_true, y_pred, sample_weight=None, mask=None):
        """``metrics`` ignore sample weights (and class weights); ``weighted_metrics`` use
        them, as in Keras 3; metrics of per-value functions also weigh by the outputs'
        timestep ``mask``."""
        if self._metrics is None:
            y_t, y_p = tf_ops.convert_to_tensor(y_true), tf_ops.convert_to_tensor(y_pred)
            self._metrics = [metrics_module.get(i, y_t, y_p) for i in self._identifiers]
            taken = {m.name for m in self._metrics}
            for identifier in self._weighted_identifiers:
                metric = metrics_module.get(identifier, y_t, y_p)
                if metric.name in taken:
                    metric.name = f"weighted_{metric.name}"
                self._weighted.append(metric)
            if self._prefix:
                for metric in self.metrics:
                    metric.name = f"{self._prefix}_{metric.name}"
        for metric in self._metrics:
            metric.update_state(y_true, y_pred, *_masked(metric, None, mask))
        for metric in self._weighted:
            metric.update_state(y_true, y_pred, *_masked(metric, sample_weight, mask))

    def result(self):
        return {m.name: m.result() for m in self.metrics}

    def reset_state(self):
        for metric in self.metrics:
            metric.reset_state()


class CompiledLoss:
    """``model.compiled_loss(y, y_pred, sample_weight, regularization_losses)``, as older
    custom ``train_step`` code calls it."""

    def __init__(self, model: Any) -> None:
        self._model = model

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        loss = self._model._loss_value(y_true, y_pred, sample_weight)
        for extra in regularization_losses or []:
            loss = loss + extra
        return loss


def output_names(model: Any) -> list[str]:
    """The names of a model's outputs: a dict's keys (in its order), else the layers that
    make them (Keras' ``output_names``)."""
    struct = getattr(model, "_outputs_struct", None)
    if isinstance(struct, dict):
        return list(struct)
    outputs = getattr(model, "outputs", None) or []
    return [t.node.layer.name if t.node is not None else t.input_layer.name for t in outputs]


def by_output(value: Any, names: list[str], what: str) -> list:
    """``value`` (a list/tuple in output order, or a dict by output name) as one entry per
    output."""
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(names))
        if unknown:
            raise ValueError(f"{what}: unknown output names {unknown}; the outputs are {names}")
        return [value.get(name) for name in names]
    if isinstance(value, (list, tuple)) and len(value) == len(names):
        return list(value)
    raise ValueError(
        f"{what}: expected one entry per model output ({len(names)}: {names}), got {value!r}"
    )


class OutputLosses:
    """The losses of a model with several outputs (``compile(loss=[...])`` or ``{...}``):
    the total is the sum of each output's loss times its weight, and each output's
    (unweighted) loss is tracked as ``"<output>_loss"``, as Keras 3 does."""

    def __init__(self, losses: Any, weights: Any, names: list[str]) -> None:
        self.names = names
        self.losses = [
            None if loss is None else _loss_object(loss)
            for loss in by_output(losses, names, "compile(loss=...)")
        ]
        weights = [None] * len(names) if weights is None else weights
        self.weights = by_output(weights, names, "compile(loss_weights=...)")
        self.trackers = [
            metrics_module.Mean(name=f"{name}_loss")
            for name, loss in zip(names, self.losses)
            if loss is not None
        ]

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        predictions = by_output(y_pred, self.names, "model outputs")
        targets = by_output(y_true, self.names, "y")
        weights = (
            by_output(sample_weight, self.names, "sample_weight")
            if isinstance(sample_weight, (dict, list, tuple))
            else [sample_weight] * len(self.names)
        )
        total, trackers = None, iter(self.trackers)
        for loss, weight, y_t, y_p, s_w in zip(
            self.losses, self.weights, targets, predictions, weights
        ):
            if loss is None:
                continue
            value = loss(y_t, y_p, s_w)
            next(trackers).update_state(value, sample_weight=int(dimension_value(y_p.shape[0])))
            if weight is not None:
                value = value * float(weight)
            total = value if total is None else total + value
        return total


def _loss_object(identifier: Any) -> Any:
    loss = losses_module.get(identifier)
    if isinstance(loss, losses_module.Loss):
        return loss
    return losses_module.LossFunctionWrapper(loss)


class OutputMetrics(metrics_module.Metric):
    """The compiled metrics of a model with several outputs, one CompileMetrics per output
    (named ``"<output>_<metric>"``); ``result()`` is a dict."""

    def __init__(self, metrics: Any, weighted: Any, names: list[str]) -> None:
        super().__init__(name="compile_metrics")
        plain = (
            by_output(metrics, names, "compile(metrics=...)") if metrics else [None] * len(names)
        )
        weighted = (
            by_output(weighted, names, "compile(weighted_metrics=...)")
            if weighted
            else [None] * len(names)
        )
        self.per_output = [
            CompileMetrics(p, w, prefix=name) for name, p, w in zip(names, plain, weighted)
        ]
        self.names = names

    @property
    def metrics(self) -> list:
        return [m for compiled in self.per_output for m in compiled.metrics]

    def update_state(self, y_true, y_pred, sample_weight=None, mask=None):
        predictions = by_output(y_pred, self.names, "model outputs")
        targets = by_output(y_true, self.names, "y")
        for compiled, y_t, y_p in zip(self.per_output, targets, predictions):
            compiled.update_state(y_t, y_p, sample_weight)

    def result(self):
        return {m.name: m.result() for m in self.metrics}

    def reset_state(self):
        for compiled in self.per_output:
            compiled.reset_state()


def class_weight_to_sample_weights(y: Any, class_weight: dict) -> np.ndarray:
    """Keras' ``class_weight``: each sample weighs its class's weight (1 for classes not
    listed); the class is the label, the argmax of a one-hot row, or a rounded probability.

    >>> from retrograd.keras.src.compile_utils import class_weight_to_sample_weights
    >>> class_weight_to_sample_weights([[0.0, 1.0], [1.0, 0.0]], {1: 3.0}).tolist()
    [3.0, 1.0]
    """
    if isinstance(y, dict) or (
        isinstance(y, (list, tuple)) and any(hasattr(v, "shape") for v in y)
    ):
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    labels = np.asarray(y)
    if labels.ndim > 1:
        labels = np.argmax(labels, axis=-1) if labels.shape[-1] != 1 else labels[..., 0]
    labels = np.round(labels).astype(np.int32)
    weights = np.ones(labels.shape[0], dtype=backend.floatx())
    for i, label in enumerate(labels.reshape(labels.shape[0], -1)[:, 0]):
        weights[i] = class_weight.get(int(label), 1.0)
    return weights


def weighted_by_class(data: Any, class_weight: dict) -> Any:
    x, y, sample_weight = data if len(data) == 3 else (*data, None)
    if sample_weight is not None:
        raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
    # The labels on the host: the weights are looked up in a Python dict.
    y_value = np.asarray(backends.to_host(y._value) if hasattr(y, "_value") else y)
    return x, y, tf_ops.constant(class_weight_to_sample_weights(y_value, class_weight))
