"""Layers that combine a list of inputs: Concatenate, Add, Multiply.

>>> import retrograd as rg
>>> rg.keras.layers.Add()([rg.constant([1.0]), rg.constant([2.0])]).numpy()
array([3.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
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
    if (
        not isinstance(inputs, (list, tuple))
        or len(inputs) < 1
        or not all(isinstance(x, (Tensor, Variable)) for x in inputs)
    ):
        raise ValueError(
            f"A merge layer ({layer.name}) should be called on a list of tensors, got "
            f"{inputs!r:.80}"
        )
    return list(inputs)


class Concatenate(Layer):
    """Joins the inputs along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.layers.Concatenate()([rg.zeros([2, 3]), rg.ones([2, 1])]).shape.as_list()
    [2, 4]
    """

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return tf_ops.concat(_check_list(self, inputs), axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Add(Layer):
    """The elementwise sum of the inputs.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 2.0]), rg.constant([10.0, 20.0])
    >>> rg.keras.layers.Add()([a, b]).numpy().tolist()
    [11.0, 22.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return total


class Multiply(Layer):
    """The elementwise product of the inputs.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 2.0]), rg.constant([10.0, 20.0])
    >>> rg.keras.layers.Multiply()([a, b]).numpy().tolist()
    [10.0, 40.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total * x
        return total


class Subtract(Layer):
    """The first input minus the second.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 2.0]), rg.constant([10.0, 20.0])
    >>> rg.keras.layers.Subtract()([a, b]).numpy().tolist()
    [-9.0, -18.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"A Subtract layer ({self.name}) takes exactly two inputs")
        return inputs[0] - inputs[1]


class Average(Layer):
    """The elementwise mean of the inputs.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 2.0]), rg.constant([3.0, 6.0])
    >>> rg.keras.layers.Average()([a, b]).numpy().tolist()
    [2.0, 4.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return total / float(len(inputs))


class Maximum(Layer):
    """The elementwise maximum of the inputs.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 8.0]), rg.constant([3.0, 6.0])
    >>> rg.keras.layers.Maximum()([a, b]).numpy().tolist()
    [3.0, 8.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = tf_ops.maximum(out, x)
        return out


class Minimum(Layer):
    """The elementwise minimum of the inputs.

    >>> import retrograd as rg
    >>> a, b = rg.constant([1.0, 8.0]), rg.constant([3.0, 6.0])
    >>> rg.keras.layers.Minimum()([a, b]).numpy().tolist()
    [1.0, 6.0]
    """

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = tf_ops.minimum(out, x)
        return out


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Any:
    """``Concatenate(axis)(inputs)``: the inputs joined along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.layers.concatenate([rg.zeros([2, 3]), rg.ones([2, 1])]).shape.as_list()
    [2, 4]
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


def add(inputs: list, **kwargs: Any) -> Any:
    """``Add()(inputs)``: the elementwise sum.

    >>> import retrograd as rg
    >>> rg.keras.layers.add([rg.constant([1.0]), rg.constant([2.0])]).numpy().tolist()
    [3.0]
    """
    return Add(**kwargs)(inputs)


def multiply(inputs: list, **kwargs: Any) -> Any:
    """``Multiply()(inputs)``: the elementwise product.

    >>> import retrograd as rg
    >>> rg.keras.layers.multiply([rg.constant([2.0]), rg.constant([3.0])]).numpy().tolist()
    [6.0]
    """
    return Multiply(**kwargs)(inputs)
