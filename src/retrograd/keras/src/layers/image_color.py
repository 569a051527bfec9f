"""Keras' colour augmentation layers: RandomGrayscale, RandomInvert, Solarization,
AutoContrast and RandomPosterization (Keras' draws and value-range handling: colours are
worked on in [0, 255] and mapped back to ``value_range``).

>>> import retrograd as rg
>>> layer = rg.keras.layers.AutoContrast(value_range=(0, 1))
>>> layer(rg.constant([[[[0.2], [0.6]]]])).numpy().ravel().tolist()
[0.0, 1.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.image_preprocessing import _ImageLayer, _RandomLayer
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import numpy_logic
from retrograd.keras.src.ops.image import rgb_to_grayscale

__all__ = ["RandomGrayscale", "RandomInvert", "Solarization", "AutoContrast", "RandomPosterization"]


def _value_range(value_range: Any) -> list:
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(
            "The `value_range` argument should be a list of two numbers. Received: "
            f"value_range={value_range}"
        )
    return sorted(value_range)


def _rescale(images: Any, source: Any, target: Any, dtype: str) -> Any:
    """Values of ``source`` range mapped linearly onto ``target`` (Keras' rule)."""
    if source[0] == target[0] and source[1] == target[1]:
        return images
    images = kcore.cast(images, dtype)
    images = (images - source[0]) / (source[1] - source[0])
    return images * (target[1] - target[0]) + target[0]


def _batch(images: Any) -> int:
    shape = kcore.shape(images)
    if len(shape) not in (3, 4):
        raise ValueError(
            f"Expected the input image to be rank 3 or 4. Received inputs.shape={tuple(shape)}"
        )
    return shape[0] if len(shape) == 4 else 1


class RandomGrayscale(_RandomLayer):
    """Turns each image grey (its luma in every channel) with probability ``factor``.

    >>> import retrograd as rg
    >>> y = rg.keras.layers.RandomGrayscale(1.0, seed=1)(rg.constant([[[[1.0, 0.0, 0.0]]]]))
    >>> [round(v, 4) for v in y.numpy().ravel().tolist()]
    [0.2989, 0.2989, 0.2989]
    """

    def __init__(
        self, factor: float = 0.5, data_format: Any = None, seed: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor = factor
        self._seeded(seed)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        draws = keras_random.uniform((_batch(x),), 0, 1, seed=self.generator)
        if not training:
            return x
        apply = knp.reshape(draws < self.factor, (-1, 1, 1, 1))
        if len(x.shape) == 3:
            apply = apply[0]
        return knp.where(apply, rgb_to_grayscale(x, data_format=self.data_format), x)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "data_format": self.data_format,
            "seed": self.seed,
        }


class RandomInvert(_RandomLayer):
    """Inverts each image (``value_range[1] - x``) with a probability drawn from
    ``factor``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomInvert((1.0, 1.0), value_range=(0, 1), seed=2)
    >>> layer(rg.constant([[[[0.25]]]])).numpy().ravel().tolist()
    [0.75]
    """

    _FACTOR_BOUNDS = (0.0, 1.0)

    def __init__(
        self,
        factor: Any = 1.0,
        value_range: Any = (0, 255),
        seed: Any = None,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._seeded(seed)

    def _transform(self, images, training):
        if not training:
            return images
        x = kcore.cast(images, self.compute_dtype)
        batch = _batch(x)
        probability = keras_random.uniform(
            (batch,), self.factor[0], self.factor[1], seed=self.generator
        )
        threshold = keras_random.uniform((batch,), 0, 1, seed=self.generator)
        apply = knp.reshape(threshold < probability, (-1, 1, 1, 1))
        return knp.where(apply, self.value_range[1] - x, x)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "value_range": self.value_range,
            "seed": self.seed,
            "data_format": self.data_format,
        }


def _unit_pair(factor: Any, name: str) -> tuple:
    message = (
        "The `factor` argument should be a number (or a list of two numbers) in the range "
        f"[0, 1.0]. Received: {name}={factor}"
    )
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or not all(0 <= f <= 1.0 for f in factor):
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        if not 0 <= factor <= 1.0:
            raise ValueError(message)
        return (0, factor)
    raise ValueError(message)


class Solarization(_RandomLayer):
    """Adds a random amount to each image and inverts the values above a random threshold
    (both drawn from their factors, in [0, 255] units).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.Solarization(threshold_factor=(0, 0), value_range=(0, 1))
    >>> layer(rg.constant([[[[0.25], [0.75]]]])).numpy().ravel().tolist()  # all inverted
    [0.75, 0.25]
    """

    def __init__(
        self,
        addition_factor: Any = 0.0,
        threshold_factor: Any = 0.0,
        value_range: Any = (0, 255),
        seed: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(None, **kwargs)
        self._seeded(seed)
        self.addition_factor = _unit_pair(addition_factor, "addition_factor")
        self.threshold_factor = _unit_pair(threshold_factor, "threshold_factor")
        self.value_range = _value_range(value_range)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        shape = (_batch(x), 1, 1, 1) if len(x.shape) == 4 else (1, 1, 1)
        dtype = self.compute_dtype
        additions = keras_random.uniform(
            shape, self.addition_factor[0], self.addition_factor[1] * 255, dtype, self.generator
        )
        thresholds = keras_random.uniform(
            shape, self.threshold_factor[0], self.threshold_factor[1] * 255, dtype, self.generator
        )
        x = _rescale(x, self.value_range, (0, 255), dtype)
        out = knp.clip(x + additions, 0, 255)
        out = knp.where(out < thresholds, out, 255 - out)
        return _rescale(out, (0, 255), self.value_range, dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "addition_factor": self.addition_factor,
            "threshold_factor": self.threshold_factor,
            "value_range": self.value_range,
            "seed": self.seed,
        }


class AutoContrast(_ImageLayer):
    """Stretches each image channel to the full ``value_range`` (its minimum to the low end,
    its maximum to the high end; a flat channel is left as it was).

    >>> import retrograd as rg
    >>> rg.keras.layers.AutoContrast()(rg.constant([[[[10.0], [20.0]]]])).numpy().ravel().tolist()
    [0.0, 255.0]
    """

    def __init__(self, value_range: Any = (0, 255), **kwargs: Any) -> None:
        super().__init__(None, **kwargs)
        self.value_range = _value_range(value_range)

    def _transform(self, images, training):
        original = images
        dtype = self.compute_dtype
        x = kcore.cast(_rescale(images, self.value_range, (0, 255), dtype), dtype)
        low = knp.min(x, axis=(1, 2), keepdims=True)
        high = knp.max(x, axis=(1, 2), keepdims=True)
        scale = 255.0 / (high - low)
        out = knp.clip(x * scale + (-low * scale), 0.0, 255.0)
        out = _rescale(out, (0, 255), self.value_range, dtype)
        return knp.where(knp.isnan(out), kcore.cast(original, out.dtype), out)

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range}


class RandomPosterization(_RandomLayer):
    """Keeps a random number of bits (``factor``: 1 to 8) of each 8-bit colour value.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomPosterization((2, 2), seed=1)
    >>> layer(rg.constant([[[[200.0]]]])).numpy().ravel().tolist()
    [192.0]
    """

    _FACTOR_BOUNDS = (1, 8)

    def __init__(
        self,
        factor: Any,
        value_range: Any = (0, 255),
        data_format: Any = None,
        seed: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = _value_range(value_range)
        self._seeded(seed)

    def _transform(self, images, training):
        if not training:
            return images
        batch = _batch(images)
        low, high = self.factor
        if low != high:
            factor = keras_random.randint((batch,), low, high, "uint8", self.generator)
        else:
            factor = knp.ones((batch,), dtype="uint8") * int(low)
        shift = knp.reshape(8 - factor, (-1, 1, 1, 1))
        dtype = self.compute_dtype
        x = kcore.cast(_rescale(images, self.value_range, (0, 255), dtype), "uint8")
        x = numpy_logic.bitwise_left_shift(numpy_logic.bitwise_right_shift(x, shift), shift)
        return _rescale(kcore.cast(x, dtype), (0, 255), self.value_range, dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "value_range": self.value_range,
            "data_format": self.data_format,
            "seed": self.seed,
        }
