"""Layers that combine a list of inputs: Concatenate, Add, Subtract, Multiply, Average,
Maximum, Minimum, Dot, and their functional forms.

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
from retrograd.keras.src.ops import nn_activations
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "Concatenate",
    "Add",
    "Subtract",
    "Multiply",
    "Average",
    "Maximum",
    "Minimum",
    "Dot",
    "concatenate",
    "add",
    "subtract",
    "multiply",
    "average",
    "maximum",
    "minimum",
    "dot",
    "batch_contract",
]


def _merged_mask(mask: Any) -> Any:
    """Keras' mask of an elementwise merge: where every input's mask holds."""
    if mask is None or not isinstance(mask, (list, tuple)):
        return None
    present = [knp.expand_dims(m, 0) for m in mask if m is not None]
    if not present:
        return None
    return knp.all(knp.concatenate(present, axis=0), axis=0)


class _Elementwise(Layer):
    """An elementwise merge: its mask is where every input's mask holds."""

    def compute_mask(self, inputs, mask=None):
        return _merged_mask(mask)


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

    def compute_mask(self, inputs, mask=None):
        """Keras' rule: the inputs' masks (all-True for an input without one) joined along
        ``axis``, then any over the last axis."""
        if mask is None or all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                masks.append(knp.ones_like(x, dtype="bool"))
            elif len(m.shape) < len(x.shape):
                masks.append(knp.broadcast_to(knp.expand_dims(m, -1), tuple(x.shape)))
            else:
                masks.append(m)
        return knp.any(knp.concatenate(masks, axis=self.axis), axis=-1)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Add(_Elementwise):
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


class Multiply(_Elementwise):
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


class Subtract(_Elementwise):
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


class Average(_Elementwise):
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


class Maximum(_Elementwise):
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


class Minimum(_Elementwise):
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


class Dot(Layer):
    """The dot product of two samples' tensors along ``axes`` (an int for both, or one
    axis each), batch by batch; ``normalize`` L2-normalises them first (cosine proximity).
    Two ``[batch, n]`` inputs give ``[batch, 1]``.

    >>> import retrograd as rg
    >>> a, b = rg.constant([[1.0, 2.0]]), rg.constant([[3.0, 4.0]])
    >>> rg.keras.layers.Dot(axes=1)([a, b]).numpy().tolist()
    [[11.0]]
    """

    def __init__(self, axes: Any, normalize: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)) or len(axes) != 2:
                raise TypeError(
                    "Invalid type for argument `axes`: it should be a list or an int. "
                    f"Received: axes={axes}"
                )
            if not all(isinstance(a, int) for a in axes):
                raise ValueError(
                    f"Invalid format for argument `axes`: list elements should be integers. "
                    f"Received: axes={axes}"
                )
        self.axes, self.normalize = axes, normalize

    def call(self, inputs):
        inputs = _check_list(self, inputs)
        if len(inputs) != 2:
            raise ValueError(
                f"A `Dot` layer should be called on exactly 2 inputs. Received: inputs={inputs}"
            )
        x, y = inputs
        ranks = (x.shape.rank, y.shape.rank)
        axes = (self.axes, self.axes) if isinstance(self.axes, int) else tuple(self.axes)
        axes = tuple(a % r for a, r in zip(axes, ranks))
        if self.normalize:
            x = nn_activations.normalize(x, axis=axes[0])
            y = nn_activations.normalize(y, axis=axes[1])
        return batch_contract(x, y, axes)

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def batch_contract(x: Any, y: Any, axes: tuple) -> Any:
    """Keras' batch dot: per batch entry, ``x``'s axis ``axes[0]`` contracted with ``y``'s
    ``axes[1]``; the result's axes are ``x``'s others then ``y``'s others (a lone batch
    axis gets a trailing axis of 1).

    >>> import retrograd as rg
    >>> batch_contract(rg.ones([2, 3, 4]), rg.ones([2, 5, 4]), (2, 2)).shape.as_list()
    [2, 3, 5]
    """
    ranks = (x.shape.rank, y.shape.rank)
    axes = tuple(a % r for a, r in zip(axes, ranks))
    if min(ranks) < 2 or 0 in axes:
        raise ValueError(
            f"batch_dot: both inputs need a batch axis and at least one more, and the batch "
            f"axis cannot be reduced. Received: shapes {x.shape}, {y.shape}, axes={axes}"
        )
    letters = "abcdefghijklmnopqrstuvwxyz"
    xs, ys = list(letters[: ranks[0]]), list(letters[ranks[0] : ranks[0] + ranks[1]])
    ys[0], ys[axes[1]] = xs[0], xs[axes[0]]
    out = [xs[0], *(c for i, c in enumerate(xs) if i not in (0, axes[0]))]
    out += [c for i, c in enumerate(ys) if i not in (0, axes[1])]
    result = knp.einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)
    return knp.expand_dims(result, 1) if len(out) == 1 else result


def subtract(inputs: list, **kwargs: Any) -> Any:
    """``Subtract()(inputs)``: the first input minus the second.

    >>> import retrograd as rg
    >>> rg.keras.layers.subtract([rg.constant([5.0]), rg.constant([2.0])]).numpy().tolist()
    [3.0]
    """
    return Subtract(**kwargs)(inputs)


def average(inputs: list, **kwargs: Any) -> Any:
    """``Average()(inputs)``: the elementwise mean.

    >>> import retrograd as rg
    >>> rg.keras.layers.average([rg.constant([1.0]), rg.constant([2.0])]).numpy().tolist()
    [1.5]
    """
    return Average(**kwargs)(inputs)


def maximum(inputs: list, **kwargs: Any) -> Any:
    """``Maximum()(inputs)``: the elementwise maximum.

    >>> import retrograd as rg
    >>> rg.keras.layers.maximum([rg.constant([1.0]), rg.constant([2.0])]).numpy().tolist()
    [2.0]
    """
    return Maximum(**kwargs)(inputs)


def minimum(inputs: list, **kwargs: Any) -> Any:
    """``Minimum()(inputs)``: the elementwise minimum.

    >>> import retrograd as rg
    >>> rg.keras.layers.minimum([rg.constant([1.0]), rg.constant([2.0])]).numpy().tolist()
    [1.0]
    """
    return Minimum(**kwargs)(inputs)


def dot(inputs: list, axes: Any = -1, **kwargs: Any) -> Any:
    """``Dot(axes)(inputs)``: the batchwise dot product of two tensors.

    >>> import retrograd as rg
    >>> a, b = rg.constant([[1.0, 2.0]]), rg.constant([[3.0, 4.0]])
    >>> rg.keras.layers.dot([a, b], axes=-1).numpy().tolist()
    [[11.0]]
    """
    return Dot(axes=axes, **kwargs)(inputs)
