"""Keras' cropping, padding and upsampling layers in one, two and three spatial dimensions
(Cropping1D/2D/3D, ZeroPadding1D/3D, UpSampling1D/3D) and Identity.

>>> import retrograd as rg
>>> rg.keras.layers.Cropping1D((1, 2))(rg.ones([2, 6, 3])).shape.as_list()
[2, 3, 3]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "Cropping1D",
    "Cropping2D",
    "Cropping3D",
    "ZeroPadding1D",
    "ZeroPadding3D",
    "UpSampling1D",
    "UpSampling3D",
    "Identity",
]


def _pairs(value: Any, n: int, what: str) -> tuple[tuple[int, int], ...]:
    """``n`` (before, after) pairs from an int, ``n`` ints (symmetric) or ``n`` pairs."""
    if isinstance(value, int):
        return ((value, value),) * n
    value = tuple(value)
    if n == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        return ((int(value[0]), int(value[1])),)
    if len(value) != n:
        raise ValueError(f"`{what}` should have {n} elements. Received: {what}={value}.")
    pairs = []
    for v in value:
        if isinstance(v, int):
            pairs.append((v, v))
        else:
            v = tuple(int(e) for e in v)
            if len(v) != 2:
                raise ValueError(
                    f"`{what}` should be an int, a tuple of {n} ints, or a tuple of {n} "
                    f"tuples of 2 ints. Received: {what}={value}."
                )
            pairs.append(v)
    return tuple(pairs)


def _spatial_axes(data_format: str, rank: int, n: int) -> list[int]:
    """The ``n`` spatial axes of a ``rank``-dimensional input in ``data_format``."""
    first = 1 if data_format == "channels_last" else 2
    return list(range(first, min(first + n, rank)))


class _Cropping(Layer):
    n = 1

    def __init__(self, cropping: Any, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, self.n, "cropping")
        if any(v < 0 for pair in self.cropping for v in pair):
            raise ValueError(f"`cropping` cannot be negative. Received: cropping={self.cropping}.")
        self.data_format = data_format_of(data_format, type(self).__name__)

    def call(self, inputs):
        index = [slice(None)] * inputs.shape.rank
        for axis, (before, after) in zip(
            _spatial_axes(self.data_format, inputs.shape.rank, self.n), self.cropping
        ):
            size = inputs.shape[axis]
            if size is not None and before + after >= size:
                raise ValueError(
                    f"Values in `cropping` argument should be smaller than the corresponding "
                    f"spatial dimension of the input. Received: input_shape="
                    f"{tuple(inputs.shape.as_list())}, cropping={self.cropping}"
                )
            index[axis] = slice(before, size - after)
        return inputs[tuple(index)]

    def get_config(self):
        config = {**super().get_config(), "cropping": self.cropping}
        if self.n > 1:
            config["data_format"] = self.data_format
        return config


class Cropping1D(_Cropping):
    """Removes ``cropping`` steps from the start and end of ``[batch, steps, features]``.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(5.0), [1, 5, 1])
    >>> rg.keras.layers.Cropping1D(1)(x).numpy().ravel().tolist()
    [1.0, 2.0, 3.0]
    """

    def __init__(self, cropping: Any = (1, 1), **kwargs: Any) -> None:
        super().__init__(cropping, None, **kwargs)


class Cropping2D(_Cropping):
    """Crops rows and columns (``((top, bottom), (left, right))``).

    >>> import retrograd as rg
    >>> rg.keras.layers.Cropping2D(((1, 0), (2, 1)))(rg.ones([1, 5, 6, 3])).shape.as_list()
    [1, 4, 3, 3]
    """

    n = 2

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: Any = None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops depth, height and width.

    >>> import retrograd as rg
    >>> rg.keras.layers.Cropping3D()(rg.ones([1, 4, 4, 4, 1])).shape.as_list()
    [1, 2, 2, 2, 1]
    """

    n = 3

    def __init__(
        self, cropping: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(cropping, data_format, **kwargs)


class _ZeroPadding(Layer):
    n = 1

    def __init__(self, padding: Any, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.padding = _pairs(padding, self.n, "padding")
        self.data_format = data_format_of(data_format, type(self).__name__)

    def call(self, inputs):
        pads = [[0, 0]] * inputs.shape.rank
        for axis, pair in zip(
            _spatial_axes(self.data_format, inputs.shape.rank, self.n), self.padding
        ):
            pads[axis] = list(pair)
        return knp.pad(inputs, pads)

    def get_config(self):
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class ZeroPadding1D(_ZeroPadding):
    """Pads the steps with zeros (``padding`` an int or a (start, end) pair).

    >>> import retrograd as rg
    >>> rg.keras.layers.ZeroPadding1D((1, 2))(rg.ones([1, 2, 1])).numpy().ravel().tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding: Any = 1, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Pads depth, height and width with zeros.

    >>> import retrograd as rg
    >>> rg.keras.layers.ZeroPadding3D(1)(rg.ones([1, 2, 2, 2, 1])).shape.as_list()
    [1, 4, 4, 4, 1]
    """

    n = 3

    def __init__(
        self, padding: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(padding, data_format, **kwargs)


class UpSampling1D(Layer):
    """Repeats each step ``size`` times.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 2.0], [1, 2, 1])
    >>> rg.keras.layers.UpSampling1D(3)(x).numpy().ravel().tolist()
    [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]
    """

    def __init__(self, size: int = 2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        return knp.repeat(inputs, self.size, axis=1)

    def get_config(self):
        return {**super().get_config(), "size": self.size}


class UpSampling3D(Layer):
    """Repeats depth, height and width entries ``size`` times each.

    >>> import retrograd as rg
    >>> rg.keras.layers.UpSampling3D()(rg.ones([1, 1, 2, 3, 4])).shape.as_list()
    [1, 2, 4, 6, 4]
    """

    def __init__(self, size: Any = (2, 2, 2), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = (int(size),) * 3 if isinstance(size, int) else tuple(int(s) for s in size)
        if len(self.size) != 3:
            raise ValueError(f"UpSampling3D: `size` must be 3 integers, got {size}")
        self.data_format = data_format_of(data_format, "UpSampling3D")

    def call(self, inputs):
        for axis, size in zip(_spatial_axes(self.data_format, 5, 3), self.size):
            inputs = knp.repeat(inputs, size, axis=axis)
        return inputs

    def get_config(self):
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder in a model's graph).

    >>> import retrograd as rg
    >>> rg.keras.layers.Identity()(rg.constant([1.0, 2.0])).numpy().tolist()
    [1.0, 2.0]
    """

    supports_masking = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def call(self, inputs):
        return inputs
