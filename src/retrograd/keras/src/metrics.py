"""``tf.keras.metrics``: running means over batches (``update_state``, ``result``,
``reset_state``), with Keras 3's per-sample averaging.

>>> import retrograd as rg
>>> m = rg.keras.metrics.BinaryAccuracy()
>>> m.update_state([[1.0], [0.0]], [[0.9], [0.8]])
>>> float(m.result())
0.5
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import dtypes
from retrograd.core.dimensions import dimension_value
from retrograd.core.shapes import plain_dims
from retrograd.core.variables import Variable
from retrograd.keras.src import backend, losses, tf_ops

__all__ = [
    "Metric",
    "Mean",
    "Sum",
    "MeanMetricWrapper",
    "Accuracy",
    "BinaryAccuracy",
    "CategoricalAccuracy",
    "SparseCategoricalAccuracy",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "accuracy",
    "binary_accuracy",
    "categorical_accuracy",
    "sparse_categorical_accuracy",
    "get",
    "serialize",
    "deserialize",
]


def accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where the prediction equals the target, else 0.0.

    >>> import retrograd as rg
    >>> rg.keras.metrics.accuracy([1, 2, 3], [1, 0, 3]).numpy().tolist()
    [1.0, 0.0, 1.0]
    """
    y_true, y_pred = losses.match_ranks(y_true, y_pred)
    return tf_ops.cast(tf_ops.equal(y_true, y_pred), backend.floatx())


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
    """1.0 where ``y_pred > threshold`` agrees with the target.

    >>> import retrograd as rg
    >>> rg.keras.metrics.binary_accuracy([[1.0], [0.0]], [[0.8], [0.7]]).numpy().tolist()
    [[1.0], [0.0]]
    """
    y_true, y_pred = losses.match_ranks(y_true, y_pred)
    predicted = tf_ops.cast(tf_ops.greater(y_pred, threshold), y_true.dtype)
    return tf_ops.cast(tf_ops.equal(y_true, predicted), backend.floatx())


def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where the arg-max classes of target and prediction agree.

    >>> import retrograd as rg
    >>> y_true, y_pred = [[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.8], [0.3, 0.7]]
    >>> rg.keras.metrics.categorical_accuracy(y_true, y_pred).numpy().tolist()
    [1.0, 0.0]
    """
    y_true = tf_ops.argmax(tf_ops.convert_to_tensor(y_true), axis=-1)
    y_pred = tf_ops.argmax(tf_ops.convert_to_tensor(y_pred), axis=-1)
    return tf_ops.cast(tf_ops.equal(y_true, y_pred), backend.floatx())


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where the integer target is the prediction's arg-max class.

    >>> import retrograd as rg
    >>> y_pred = [[0.2, 0.8], [0.3, 0.7]]
    >>> rg.keras.metrics.sparse_categorical_accuracy([1, 0], y_pred).numpy().tolist()
    [1.0, 0.0]
    """
    y_pred = tf_ops.convert_to_tensor(y_pred)
    y_true = tf_ops.convert_to_tensor(y_true)
    if y_true.shape.rank == y_pred.shape.rank and dimension_value(y_true.shape[-1]) == 1:
        y_true = tf_ops.squeeze(y_true, -1)
    predicted = tf_ops.argmax(y_pred, axis=-1)
    y_true = tf_ops.cast(y_true, predicted.dtype)
    return tf_ops.cast(tf_ops.equal(y_true, predicted), backend.floatx())


class Metric:
    """Base class: state in non-trainable variables, ``update_state`` / ``result`` /
    ``reset_state``; calling a metric updates it and returns the result.

    >>> import retrograd as rg
    >>> class Count(rg.keras.metrics.Metric):
    ...     def __init__(self):
    ...         super().__init__(name='count')
    ...         self.n = 0
    ...     def update_state(self, values):
    ...         self.n += 1
    ...     def result(self):
    ...         return rg.constant(self.n)
    >>> c = Count()
    >>> c.update_state([1.0])
    >>> c.result().numpy().tolist()
    1
    """

    def __init__(self, dtype: Any = None, name: str | None = None) -> None:
        self.name = name or backend.snake_case(type(self).__name__)
        self.dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._metric_variables: list[Variable] = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None) -> Variable:
        from retrograd.keras.src import initializers

        value = initializers.get(initializer)(shape, dtype or self.dtype)
        variable = Variable(value, trainable=False, name=name)
        self._metric_variables.append(variable)
        return variable

    add_weight = add_variable

    @property
    def variables(self) -> list[Variable]:
        return list(self._metric_variables)

    def reset_state(self) -> None:
        for variable in self._metric_variables:
            variable.assign(tf_ops.zeros_like(variable._value))

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__}.update_state")

    def result(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.result")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype.name}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


class Sum(Metric):
    """The running sum of the values.

    >>> import retrograd as rg
    >>> s = rg.keras.metrics.Sum()
    >>> s.update_state([1.0, 2.0])
    >>> s.update_state(3.0)
    >>> s.result().numpy().tolist()
    6.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = tf_ops.cast(tf_ops.convert_to_tensor(values), self.dtype)
        if sample_weight is not None:
            values = values * tf_ops.cast(tf_ops.convert_to_tensor(sample_weight), self.dtype)
        self.total.assign_add(tf_ops.reduce_sum(values))

    def result(self):
        return self.total.read_value()


def _samplewise(values: Any, sample_weight: Any, dtype: Any) -> tuple:
    """Keras' weighted values: ranks matched (a trailing axis of 1 dropped), values averaged
    down to the weights' rank and multiplied by the weights; then both averaged down to one
    per sample (``total`` adds the values, ``count`` the weights)."""
    weight = tf_ops.cast(tf_ops.convert_to_tensor(sample_weight), dtype)
    v_rank, w_rank = values.shape.rank, weight.shape.rank
    if v_rank == w_rank + 1 and values.shape[-1] == 1:
        if w_rank == 1:
            weight = tf_ops.expand_dims(weight, -1)
        else:
            values = tf_ops.squeeze(values, -1)
    elif w_rank == v_rank + 1 and weight.shape[-1] == 1:
        if v_rank == 1:
            values = tf_ops.expand_dims(values, -1)
        else:
            weight = tf_ops.squeeze(weight, -1)
    v_rank, w_rank = values.shape.rank, weight.shape.rank
    if v_rank > w_rank:
        values = tf_ops.reduce_mean(values, axis=list(range(w_rank, v_rank)))
    weight = weight + tf_ops.zeros_like(values)
    values = values * weight
    if w_rank > 1:
        weight = tf_ops.reduce_mean(weight, axis=list(range(1, w_rank)))
    if values.shape.rank > 1:
        values = tf_ops.reduce_mean(values, axis=list(range(1, values.shape.rank)))
    return values, weight


class Mean(Metric):
    """The (weighted) mean of the values: each sample's values are averaged first.

    >>> import retrograd as rg
    >>> mean = rg.keras.metrics.Mean()
    >>> mean.update_state([1.0, 2.0])
    >>> mean.update_state(6.0)
    >>> mean.result().numpy().tolist()
    3.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values = tf_ops.cast(tf_ops.convert_to_tensor(values), self.dtype)
        if sample_weight is None:
            if values.shape.rank and values.shape.rank > 1:
                values = tf_ops.reduce_mean(values, axis=list(range(1, values.shape.rank)))
            count = float(values.shape.num_elements() or 0) if values.shape.rank else 1.0
            self.total.assign_add(tf_ops.reduce_sum(values))
            self.count.assign_add(tf_ops.constant(count, dtype=self.dtype))
            return
        values, weight = _samplewise(values, sample_weight, self.dtype)
        self.total.assign_add(tf_ops.reduce_sum(values))
        self.count.assign_add(tf_ops.reduce_sum(weight))

    def result(self):
        count = self.count.read_value()
        return tf_ops.where(count > 0, self.total.read_value() / tf_ops.maximum(count, 1e-30), 0.0)


class MeanMetricWrapper(Mean):
    """The running mean of ``fn(y_true, y_pred, **kwargs)``.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.MeanMetricWrapper(rg.keras.losses.mean_absolute_error, name='mae')
    >>> metric.update_state([[1.0], [2.0]], [[2.0], [2.0]])
    >>> metric.result().numpy().tolist()
    0.5
    """

    def __init__(self, fn: Callable, name=None, dtype=None, **kwargs):
        super().__init__(name or fn.__name__, dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


class Accuracy(MeanMetricWrapper):
    """The running mean of ``accuracy``.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.Accuracy()
    >>> metric.update_state([1, 2, 3, 4], [1, 2, 0, 0])
    >>> metric.result().numpy().tolist()
    0.5
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """The running mean of ``binary_accuracy``.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.BinaryAccuracy()
    >>> metric.update_state([[1.0], [0.0]], [[0.8], [0.7]])
    >>> metric.result().numpy().tolist()
    0.5
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """The running mean of ``categorical_accuracy``.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.CategoricalAccuracy()
    >>> metric.update_state([[0.0, 1.0]], [[0.2, 0.8]])
    >>> metric.result().numpy().tolist()
    1.0
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """The running mean of ``sparse_categorical_accuracy``.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.SparseCategoricalAccuracy()
    >>> metric.update_state([1, 1], [[0.2, 0.8], [0.9, 0.1]])
    >>> metric.result().numpy().tolist()
    0.5
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class MeanSquaredError(MeanMetricWrapper):
    """The running mean of the mean squared error.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.MeanSquaredError()
    >>> metric.update_state([[1.0], [2.0]], [[2.0], [4.0]])
    >>> metric.result().numpy().tolist()
    2.5
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name, dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The running mean of the mean absolute error.

    >>> import retrograd as rg
    >>> metric = rg.keras.metrics.MeanAbsoluteError()
    >>> metric.update_state([[1.0], [2.0]], [[2.0], [4.0]])
    >>> metric.result().numpy().tolist()
    1.5
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name, dtype)


_BY_NAME: dict[str, Callable[[str], Metric]] = {
    "binary_accuracy": lambda n: BinaryAccuracy(name=n),
    "categorical_accuracy": lambda n: CategoricalAccuracy(name=n),
    "sparse_categorical_accuracy": lambda n: SparseCategoricalAccuracy(name=n),
    "mse": lambda n: MeanSquaredError(name=n),
    "mean_squared_error": lambda n: MeanSquaredError(name=n),
    "mae": lambda n: MeanAbsoluteError(name=n),
    "mean_absolute_error": lambda n: MeanAbsoluteError(name=n),
}


def _all_metrics() -> dict[str, Any]:
    """Keras' metric names: every class by its name and snake-case name, the functions, and
    the aliases ``bce``, ``mse``, ``mae``, ``mape``, ``msle`` (and upper case)."""
    from retrograd.keras import metrics as public

    table: dict[str, Any] = {}
    for name in public.__all__:
        obj = getattr(public, name)
        if isinstance(obj, type) and issubclass(obj, Metric):
            table.setdefault(name, obj)
            table.setdefault(backend.snake_case(name), obj)
        elif callable(obj) and name not in ("get", "serialize", "deserialize"):
            table.setdefault(name, obj)
    for alias, cls in (
        ("bce", "BinaryCrossentropy"),
        ("mse", "MeanSquaredError"),
        ("mae", "MeanAbsoluteError"),
        ("mape", "MeanAbsolutePercentageError"),
        ("msle", "MeanSquaredLogarithmicError"),
    ):
        table[alias] = table[alias.upper()] = getattr(public, cls)
    return table


def serialize(metric: Any) -> Any:
    """The metric as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> rg.keras.metrics.serialize(rg.keras.metrics.Mean())["class_name"]
    'Mean'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(metric)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The metric a serialized dict describes.

    >>> import retrograd as rg
    >>> m = rg.keras.metrics
    >>> type(m.deserialize(m.serialize(m.Sum()))).__name__
    'Sum'
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier: Any, y_true: Any = None, y_pred: Any = None, loss: Any = None) -> Metric:
    """A metric object from a name, a function or a Metric. ``'accuracy'``/``'acc'`` pick
    binary, sparse categorical or categorical accuracy from the shapes, as Keras does.

    >>> import retrograd as rg
    >>> type(rg.keras.metrics.get('accuracy')).__name__, type(rg.keras.metrics.get('mae')).__name__
    ('BinaryAccuracy', 'MeanAbsoluteError')
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier in ("accuracy", "acc"):
            pred_shape = plain_dims(y_pred.shape) if y_pred is not None else (None, 1)
            true_shape = plain_dims(y_true.shape) if y_true is not None else pred_shape
            if pred_shape[-1] == 1:
                return BinaryAccuracy(name=identifier)
            if len(true_shape) < len(pred_shape) or (true_shape[-1] == 1 and pred_shape[-1] > 1):
                return SparseCategoricalAccuracy(name=identifier)
            return CategoricalAccuracy(name=identifier)
        if identifier in _BY_NAME:
            return _BY_NAME[identifier](identifier)
        found = _all_metrics().get(identifier)
        if isinstance(found, type) and issubclass(found, Metric):
            return found(name=identifier)
        if found is not None:
            return MeanMetricWrapper(found, name=identifier)
        raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
    if isinstance(identifier, dict):  # a serialized metric (a saved model's config)
        from retrograd.keras.src import serialization

        return serialization.deserialize_keras_object(identifier)
    if callable(identifier):
        return MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", None))
    raise TypeError(f"Could not interpret metric identifier: {identifier!r}")
