"""``tf.keras.losses`` with Keras 3's formulas: per-sample losses averaged over the last
axis, reduced with ``sum_over_batch_size``; probabilities are clipped to
``[epsilon, 1 - epsilon]`` unless ``from_logits=True``.

>>> import retrograd as rg
>>> float(rg.keras.losses.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]))
0.5
>>> rg.keras.losses.get("mae") is rg.keras.losses.mean_absolute_error
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import dtypes
from retrograd.core.dimensions import dimension_value
from retrograd.distribute.losses import scale_loss_for_distribution
from retrograd.keras.src import backend, tf_ops

__all__ = [
    "Loss",
    "LossFunctionWrapper",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "BinaryCrossentropy",
    "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy",
    "Huber",
    "mean_squared_error",
    "mean_absolute_error",
    "binary_crossentropy",
    "categorical_crossentropy",
    "sparse_categorical_crossentropy",
    "huber",
    "mse",
    "mae",
    "get",
    "match_ranks",
]

_REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", None)


def match_ranks(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
    """Tensors of the prediction's float dtype, ``y_true`` expanded or squeezed by one
    trailing axis of size 1 to the prediction's rank (Keras' rule).

    >>> import retrograd as rg
    >>> y_true, y_pred = rg.keras.losses.match_ranks([1, 0], [[0.9], [0.2]])
    >>> y_true.shape.as_list(), y_true.dtype.name
    ([2, 1], 'float32')
    """
    y_pred = tf_ops.convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = tf_ops.cast(y_pred, backend.floatx())
    y_true = tf_ops.convert_to_tensor(y_true)
    if y_true.dtype != y_pred.dtype:
        y_true = tf_ops.cast(y_true, y_pred.dtype)
    if y_true.shape.rank == y_pred.shape.rank + 1 and dimension_value(y_true.shape[-1]) == 1:
        y_true = tf_ops.squeeze(y_true, -1)
    elif y_pred.shape.rank == y_true.shape.rank + 1 and dimension_value(y_pred.shape[-1]) == 1:
        y_true = tf_ops.expand_dims(y_true, -1)
    return y_true, y_pred


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    """``mean(square(y_pred - y_true), axis=-1)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.mean_squared_error([[1.0, 2.0]], [[2.0, 4.0]]).numpy().tolist()
    [2.5]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    return tf_ops.reduce_mean(tf_ops.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    """``mean(abs(y_pred - y_true), axis=-1)``.

    >>> import retrograd as rg
    >>> rg.keras.losses.mean_absolute_error([[1.0, 2.0]], [[2.0, 4.0]]).numpy().tolist()
    [1.5]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    return tf_ops.reduce_mean(tf_ops.abs(y_pred - y_true), axis=-1)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    """Quadratic within ``delta`` of the target, linear beyond; mean over the last axis.

    >>> import retrograd as rg
    >>> rg.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy().tolist()
    [1.3125]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    error = y_pred - y_true
    absolute = tf_ops.abs(error)
    delta = tf_ops.constant(delta, dtype=y_pred.dtype)
    loss = tf_ops.where(
        absolute <= delta, 0.5 * tf_ops.square(error), delta * absolute - 0.5 * delta * delta
    )
    return tf_ops.reduce_mean(loss, axis=-1)


def binary_crossentropy(
    y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0, axis=-1
) -> Any:
    """Mean over ``axis`` of the binary cross-entropy of each element.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.binary_crossentropy([[1.0, 0.0]], [[0.0, 0.0]], from_logits=True)
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931]
    """
    y_true, y_pred = match_ranks(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        loss = tf_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        eps = backend.epsilon()
        p = tf_ops.clip_by_value(y_pred, eps, 1.0 - eps)
        loss = -(y_true * tf_ops.log(p) + (1.0 - y_true) * tf_ops.log(1.0 - p))
    return tf_ops.reduce_mean(loss, axis=axis)


def categorical_crossentropy(
    y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0, axis=-1
) -> Any:
    """Cross-entropy between one-hot (or soft) targets and predicted distributions.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931]
    """
    y_pred = tf_ops.convert_to_tensor(y_pred)
    y_true = tf_ops.cast(tf_ops.convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        classes = tf_ops.cast(tf_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return tf_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = y_pred / tf_ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    eps = backend.epsilon()
    p = tf_ops.clip_by_value(p, eps, 1.0 - eps)
    return -tf_ops.reduce_sum(y_true * tf_ops.log(p), axis=axis)


def sparse_categorical_crossentropy(
    y_true: Any, y_pred: Any, from_logits: bool = False, ignore_class: Any = None, axis: int = -1
) -> Any:
    """Cross-entropy with integer class targets (0 for targets equal to ``ignore_class``).

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.sparse_categorical_crossentropy([1], [[0.5, 0.5]])
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931]
    """
    y_pred = tf_ops.convert_to_tensor(y_pred)
    y_true = tf_ops.convert_to_tensor(y_true)
    if y_true.shape.rank == y_pred.shape.rank and dimension_value(y_true.shape[-1]) == 1:
        y_true = tf_ops.squeeze(y_true, -1)
    if y_true.dtype not in (dtypes.int32, dtypes.int64):
        y_true = tf_ops.cast(y_true, dtypes.int64)
    if ignore_class is not None:
        valid = tf_ops.not_equal(y_true, tf_ops.cast(ignore_class, y_true.dtype))
        safe_true = tf_ops.where(valid, y_true, tf_ops.zeros_like(y_true))
        values = sparse_categorical_crossentropy(safe_true, y_pred, from_logits, None, axis)
        return tf_ops.where(valid, values, tf_ops.zeros_like(values))
    logits = y_pred
    if not from_logits:
        eps = backend.epsilon()
        logits = tf_ops.log(tf_ops.clip_by_value(y_pred, eps, 1.0 - eps))
    return tf_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits)


mse, mae = mean_squared_error, mean_absolute_error


def reduce_loss(values: Any, reduction: str | None, sample_weight: Any = None) -> Any:
    """Keras' reductions of per-sample losses (optionally weighted)."""
    values = tf_ops.convert_to_tensor(values)
    if sample_weight is not None:
        weight = tf_ops.cast(tf_ops.convert_to_tensor(sample_weight), values.dtype)
        while weight.shape.rank > values.shape.rank and weight.shape[-1] == 1:
            weight = tf_ops.squeeze(weight, -1)
        values = values * weight
    if reduction in ("none", None):
        return values
    total = tf_ops.reduce_sum(values)
    if reduction == "sum":
        return total
    count = max(1, values.shape.num_elements() or 1)
    # (Keras 3: under a strategy, divided by the replicas, whose gradients are summed)
    return scale_loss_for_distribution(total / tf_ops.constant(count, dtype=values.dtype))


def apply_mask(sample_weight: Any, mask: Any, dtype: Any, reduction: str | None) -> Any:
    """Keras' timestep mask as sample weights: masked values weigh 0; for mean reductions the
    kept ones weigh ``total / kept``, so the mean is over the kept values.

    >>> from retrograd.keras.src.losses import apply_mask
    >>> apply_mask(None, [[True, False]], "float32", "sum_over_batch_size")
    <retrograd.Tensor: shape=(1, 2), dtype=float32, numpy=array([[2., 0.]], dtype=float32)>
    """
    if mask is None:
        return sample_weight
    keep = tf_ops.cast(tf_ops.convert_to_tensor(mask), "bool")
    if reduction in ("mean", "sum_over_batch_size"):
        total = tf_ops.constant(float(max(1, keep.shape.num_elements() or 1)), dtype=dtype)
        valid = tf_ops.reduce_sum(tf_ops.cast(keep, dtype))
        weight = tf_ops.where(valid > 0, total / tf_ops.maximum(valid, 1.0), 0.0)
        float_mask = tf_ops.where(keep, weight * tf_ops.ones_like(tf_ops.cast(keep, dtype)), 0.0)
    else:
        float_mask = tf_ops.cast(keep, dtype)
    if sample_weight is None:
        return float_mask
    weight = tf_ops.cast(tf_ops.convert_to_tensor(sample_weight), dtype)
    while weight.shape.rank > float_mask.shape.rank and weight.shape[-1] == 1:
        weight = tf_ops.squeeze(weight, -1)
    while weight.shape.rank < float_mask.shape.rank:
        weight = tf_ops.expand_dims(weight, -1)
    return weight * float_mask


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` reduces ``call``'s values.

    >>> import retrograd as rg
    >>> class Absolute(rg.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return rg.abs(y_true - y_pred)
    >>> Absolute()(rg.constant([1.0, 2.0]), rg.constant([2.0, 4.0])).numpy().tolist()
    1.5
    """

    def __init__(self, name: str | None = None, reduction: str = "sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: unknown reduction {reduction!r}")
        self.name = name or backend.snake_case(type(self).__name__)
        self.reduction = "sum_over_batch_size" if reduction == "mean" else reduction

    def call(self, y_true: Any, y_pred: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.call")

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return reduce_loss(self.call(y_true, y_pred), self.reduction, sample_weight)

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict) -> Loss:
        """The loss ``get_config`` describes: ``cls(**config)``."""
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A loss class around a per-sample loss function and its keyword arguments.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.LossFunctionWrapper(rg.keras.losses.huber, delta=0.5)
    >>> loss([[0.0]], [[2.0]]).numpy().tolist(), loss.get_config()['delta']
    (0.875, 0.5)
    """

    def __init__(self, fn: Callable, reduction="sum_over_batch_size", name=None, **kwargs):
        super().__init__(name=name or fn.__name__, reduction=reduction)
        self.fn, self._fn_kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


class MeanSquaredError(LossFunctionWrapper):
    """``mean_squared_error`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> rg.keras.losses.MeanSquaredError()([[1.0], [2.0]], [[2.0], [4.0]]).numpy().tolist()
    2.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    """``mean_absolute_error`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> rg.keras.losses.MeanAbsoluteError()([[1.0], [2.0]], [[2.0], [4.0]]).numpy().tolist()
    1.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction, name)


class Huber(LossFunctionWrapper):
    """``huber`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> rg.keras.losses.Huber(delta=1.0)([[0.0], [0.0]], [[0.5], [3.0]]).numpy().tolist()
    1.3125
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, reduction, name, delta=delta)


class BinaryCrossentropy(LossFunctionWrapper):
    """``binary_crossentropy`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.BinaryCrossentropy(from_logits=True)
    >>> round(float(loss([[1.0], [0.0]], [[0.0], [0.0]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_crossentropy",
        dtype=None,
    ):
        super().__init__(
            binary_crossentropy,
            reduction,
            name,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    """``categorical_crossentropy`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.CategoricalCrossentropy()
    >>> round(float(loss([[0.0, 1.0]], [[0.5, 0.5]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(
            categorical_crossentropy,
            reduction,
            name,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """``sparse_categorical_crossentropy`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> loss = rg.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    >>> round(float(loss([1], [[0.0, 0.0]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        ignore_class=None,
        reduction="sum_over_batch_size",
        axis=-1,
        name="sparse_categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(sparse_categorical_crossentropy, reduction, name, from_logits=from_logits)
        self.from_logits, self.ignore_class = from_logits, ignore_class

    def __call__(self, y_true, y_pred, sample_weight=None):
        if self.ignore_class is None:
            return super().__call__(y_true, y_pred, sample_weight)
        # Keras: targets equal to ignore_class are left out (a mask on the losses, so that a
        # mean reduction averages the other targets only)
        y_true = tf_ops.convert_to_tensor(y_true)
        y_pred = tf_ops.convert_to_tensor(y_pred)
        valid = tf_ops.not_equal(y_true, tf_ops.cast(self.ignore_class, y_true.dtype))
        safe_true = tf_ops.where(valid, y_true, tf_ops.zeros_like(y_true))
        keep = tf_ops.expand_dims(valid, -1) if y_true.shape.rank < y_pred.shape.rank else valid
        safe_pred = tf_ops.where(keep, y_pred, tf_ops.zeros_like(y_pred))
        values = self.call(safe_true, safe_pred)
        valid = tf_ops.reshape(valid, values.shape.as_list())
        values = tf_ops.where(valid, values, tf_ops.zeros_like(values))
        weight = apply_mask(sample_weight, valid, values.dtype, self.reduction)
        return reduce_loss(values, self.reduction, weight)

    def get_config(self):
        return {
            **super().get_config(),
            "from_logits": self.from_logits,
            "ignore_class": self.ignore_class,
        }


_BY_NAME = {
    "mse": mean_squared_error,
    "mean_squared_error": mean_squared_error,
    "mae": mean_absolute_error,
    "mean_absolute_error": mean_absolute_error,
    "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "huber": huber,
    "huber_loss": huber,
}
_CLASSES = {
    cls.__name__: cls
    for cls in (
        MeanSquaredError,
        MeanAbsoluteError,
        BinaryCrossentropy,
        CategoricalCrossentropy,
        SparseCategoricalCrossentropy,
        Huber,
    )
}


def get(identifier: Any) -> Any:
    """A loss from its name (function names, or class names for instances), or itself.

    >>> import retrograd as rg
    >>> rg.keras.losses.get('mse') is rg.keras.losses.mean_squared_error
    True
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        from retrograd.keras.src import loss_classes

        functions, classes = loss_classes.by_name()
        functions, classes = {**_BY_NAME, **functions}, {**_CLASSES, **classes}
        if identifier in functions:
            return functions[identifier]
        if identifier in classes:
            return classes[identifier]()
        raise ValueError(
            f"Could not interpret loss identifier: {identifier!r} (known: {sorted(functions)})"
        )
    if isinstance(identifier, dict):  # a serialized loss (a saved model's config)
        from retrograd.keras.src import serialization

        return serialization.deserialize_keras_object(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret loss identifier: {identifier!r}")
