"""What a layer checks of its arguments and inputs, with Keras' errors: constructor
integers (``Dense(units=inf)`` is Keras' ValueError, not an OverflowError), the inputs of a
call (numbers, arrays and tensors become tensors; a string or another object is a
TypeError), and the rank a layer needs (``LSTM`` on a matrix is Keras' "expected ndim=3").

>>> import retrograd as rg
>>> try:
...     rg.keras.layers.Dense(float("inf"))
... except ValueError as error:
...     print(str(error).split(".")[0])
Received an invalid value for `units`, expected a positive integer
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = ["positive_int", "int_tuple", "cast_inputs", "given_arguments"]


def positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """``value`` as an int of at least ``minimum`` (a float that is a whole number counts,
    as Keras accepts ``Dense(16.0)``); Keras' ValueError otherwise."""
    whole = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if whole and isinstance(value, float):
        whole = value == value and abs(value) != float("inf") and value == int(value)
    if not whole or int(value) < minimum:
        expected = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(
            f"Received an invalid value for `{name}`, expected {expected}. Received: "
            f"{name}={value!r}"
        )
    return int(value)


def int_tuple(value: Any, n: int, name: str, minimum: int = 1) -> tuple[int, ...]:
    """An int, or a list or tuple of ``n`` ints, as ``n`` ints of at least ``minimum``."""
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(
                f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value!r}"
            )
        return tuple(positive_int(v, name, minimum) for v in value)
    return (positive_int(value, name, minimum),) * n


def _leaf(layer: Any, x: Any) -> Any:
    if x is None or isinstance(x, (Tensor, Variable)):
        return x
    if isinstance(x, (bool, np.bool_)):
        return np.asarray(x)
    if isinstance(x, (np.ndarray, numbers.Number)):
        if isinstance(x, np.ndarray) and x.dtype.kind not in "biufc":
            raise ValueError(
                f"Layer '{layer.name}' got an array of {x.dtype} as input: expected numbers"
            )
        return x
    if hasattr(type(x), "_as_tensor") or hasattr(x, "__array_function__"):
        return x  # (tensor-like objects and other array types)
    raise ValueError(  # (Keras' type: its conversion of the inputs fails)
        f"Layer '{layer.name}' expects tensors (or arrays of numbers) as inputs, got "
        f"{type(x).__name__}: {x!r:.80}"
    )


def cast_inputs(layer: Any, value: Any, constant: Any, cast: Any) -> Any:
    """The inputs of a call as tensors of the layer's dtype: ``constant`` and ``cast`` are
    the ops to use (the caller's)."""

    def one(x: Any) -> Any:
        x = _leaf(layer, x)
        if isinstance(x, (Tensor, Variable)):
            if layer.autocast and x.dtype.is_floating and x.dtype.name != layer.compute_dtype:
                return cast(x, layer.compute_dtype)
            return x
        if isinstance(x, (np.ndarray, float, int, np.number)) and not isinstance(x, bool):
            array = np.asarray(x)
            if array.dtype.kind == "f" or isinstance(x, float):
                return constant(array.astype(layer.compute_dtype))
            return constant(array)
        return x

    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(x, (int, float)) for x in nest.flatten(value))
    ):
        value = np.asarray(value)  # a nested list of numbers is one input
    return nest.map_structure(one, value)


def given_arguments(given: dict) -> dict:
    """A layer constructor's ``locals()`` as keyword arguments for its base class's
    constructor (its ``**kwargs`` merged in): how a layer with Keras' own signature (its
    defaults, its order) hands everything to a shared implementation.

    >>> given_arguments({"self": None, "units": 2, "kwargs": {"name": "d"}})
    {'units': 2, 'name': 'd'}
    """
    arguments = {k: v for k, v in given.items() if k not in ("self", "__class__", "kwargs")}
    return {**arguments, **given.get("kwargs", {})}
