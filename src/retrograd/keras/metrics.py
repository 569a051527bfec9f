"""``tf.keras.metrics``: running metrics (``update_state``/``result``/``reset_state``)."""

from retrograd.keras.src.metrics import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    Mean,
    MeanAbsoluteError,
    MeanMetricWrapper,
    MeanSquaredError,
    Metric,
    SparseCategoricalAccuracy,
    Sum,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    get,
    sparse_categorical_accuracy,
)

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
]
