"""What an optimizer is given, checked and converted: the learning rate (a float, a
callable or a schedule of the step), the hyperparameters, and sparse gradients summed into
arrays.

>>> from retrograd.training import optimizer_arguments as arguments
>>> arguments.takes_step(lambda step: 0.1), arguments.takes_step(lambda: 0.1)
(True, False)
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import math_ops
from retrograd.ops.indexed_slices import IndexedSlices

__all__ = [
    "check_learning_rate",
    "check_hyperparameters",
    "keras_number",
    "rate_as",
    "takes_step",
    "sparse_arrays",
]


def sparse_arrays(name: str, i: int, grad: IndexedSlices, variable: Variable) -> tuple:
    """A sparse gradient's dense sum and the sum of its squared slices, as arrays.

    >>> import retrograd as rg
    >>> grad = rg.IndexedSlices(rg.constant([[1.0], [2.0]]), rg.constant([0, 0]), [2, 1])
    >>> dense, squared = sparse_arrays("SGD", 0, grad, rg.Variable([[0.0], [0.0]]))
    >>> dense.tolist(), squared.tolist()
    ([[3.0], [0.0]], [[5.0], [0.0]])
    """
    shape = variable._value.shape
    if tuple(grad.shape.as_list() or ()) != shape:
        raise ValueError(
            f"{name}.apply_gradients: gradient {i} (IndexedSlices) has dense shape "
            f"{grad.shape} but variable '{variable.name}' has shape {tuple(shape)}"
        )
    values, indices = grad.values._value, grad.indices._value
    if values.dtype.kind != "f":
        raise TypeError(
            f"{name}.apply_gradients: gradient {i} ({grad.dtype.name}) cannot update "
            f"variable '{variable.name}' ({variable.dtype.name})"
        )
    dense = np.zeros(shape, values.dtype)
    squared = np.zeros(shape, values.dtype)
    np.add.at(dense, indices, values)
    np.add.at(squared, indices, np.square(values))
    return dense, squared


def check_learning_rate(learning_rate: Any) -> None:
    """Keras' rule: a Python float (not an int, a NumPy float32 or a tensor), a schedule or a
    callable.

    >>> try:
    ...     check_learning_rate(1)
    ... except ValueError as error:
    ...     print(str(error)[-33:])
    Received instead: learning_rate=1
    """
    if isinstance(learning_rate, float) or callable(learning_rate):
        return
    raise ValueError(
        "Argument `learning_rate` should be float, or an instance of LearningRateSchedule, or "
        "a callable (that takes in the current iteration value and returns the corresponding "
        f"learning rate value). Received instead: learning_rate={learning_rate!r}"
    )


def check_hyperparameters(owner: str, **values: Any) -> None:
    """Each value is a real number (a Python or NumPy int/float/bool, or a 0-d float tensor).

    Keras takes any value here and fails (ValueError for None or a string) at the first
    update; retrograd fails at construction with the argument named, before any step.

    >>> check_hyperparameters("Adam", beta_1="0.9")
    Traceback (most recent call last):
    ValueError: Adam: argument `beta_1` must be a number (a float), received beta_1='0.9' (str)
    """
    for name, value in values.items():
        if isinstance(value, numbers.Real) and not isinstance(value, (str, bytes)):
            continue
        shape = getattr(value, "shape", None)
        dtype = getattr(value, "dtype", None)
        if shape is not None and plain_dims(shape) == () and getattr(dtype, "is_floating", False):
            continue
        raise ValueError(
            f"{owner}: argument `{name}` must be a number (a float), received "
            f"{name}={value!r} ({type(value).__name__})"
        )


def keras_number(value: Any) -> float:
    """A hyperparameter as Keras' ``ops.cast(value, dtype)`` sees it: a Python number (or
    anything not already a float64 value) goes through a float32 tensor first, so a
    float64 variable is updated with float32's rounding of 0.1, exactly as in Keras.

    >>> keras_number(0.1), keras_number(0.5)
    (0.10000000149011612, 0.5)
    """
    if getattr(value, "dtype", None) in (np.float64, "float64"):
        return float(np.asarray(value))
    return float(np.float32(np.asarray(value)))


def rate_as(rate: Any, dtype: Any) -> Any:
    """A learning rate (a float, or a tensor inside a traced function) as a tensor of
    ``dtype``; a float is converted directly (a float64 variable gets it exactly).

    >>> float(rate_as(0.1, "float64").numpy())
    0.1
    """
    if isinstance(rate, numbers.Real):
        return convert_to_tensor(rate, dtype=dtype)
    return math_ops.cast(rate, dtype)


def takes_step(learning_rate: Callable) -> bool:
    """Whether a callable learning rate is a schedule of the step (one argument); see the
    module's example."""
    try:
        return len(inspect.signature(learning_rate).parameters) >= 1
    except (TypeError, ValueError):
        return False
