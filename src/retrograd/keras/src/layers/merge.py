"""Layers that combine a list of inputs: Concatenate, Add, Multiply.

>>> import retrograd as rg
>>> rg.keras.layers.Add()([rg.constant([1.0]), rg.constant([2.0])]).numpy()
array([3.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import tf_ops
from retrograd.keras.src.layers.base import Layer

__all__ = [
    "Concatenate",
    "Add",
    "Subtract",
    "Multiply",
    "Average",
    "Maximum",
    "Minimum",
    "concatenate",
    "add",
    "multiply",
]


def _check_list(layer: Layer, inputs: Any) -> list:
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
        raise ValueError(f"A merge layer ({layer.name}) should be called on a list of inputs")
    return list(inputs)


class Concatenate(Layer):
    """Joins the inputs along ``axis``."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return tf_ops.concat(_check_list(self, inputs), axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Add(Layer):
    """The elementwise sum of the inputs."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return total


class Multiply(Layer):
    """The elementwise product of the inputs."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total * x
        return total


class Subtract(Layer):
    """The first input minus the second."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"A Subtract layer ({self.name}) takes exactly two inputs")
        return inputs[0] - inputs[1]


class Average(Layer):
    """The elementwise mean of the inputs."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return total / float(len(inputs))


class Maximum(Layer):
    """The elementwise maximum of the inputs."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = tf_ops.maximum(out, x)
        return out


class Minimum(Layer):
    """The elementwise minimum of the inputs."""

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = tf_ops.minimum(out, x)
        return out


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Any:
    return Concatenate(axis=axis, **kwargs)(inputs)


def add(inputs: list, **kwargs: Any) -> Any:
    return Add(**kwargs)(inputs)


def multiply(inputs: list, **kwargs: Any) -> Any:
    return Multiply(**kwargs)(inputs)
