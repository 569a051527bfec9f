"""Keras' regularisation layers besides Dropout: ActivityRegularization, GaussianNoise,
GaussianDropout, AlphaDropout and the spatial dropouts (whole channels dropped), each
drawing Keras' numbers from its seed while training and the identity otherwise.

>>> import retrograd as rg
>>> noise = rg.keras.layers.GaussianNoise(0.1, seed=1)
>>> noise(rg.ones([2, 2])).numpy().tolist()  # not training: unchanged
[[1.0, 1.0], [1.0, 1.0]]
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.keras.src import random as keras_random
from retrograd.keras.src import regularizers
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.keras.src.layers.core import Dropout
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "ActivityRegularization",
    "GaussianNoise",
    "GaussianDropout",
    "AlphaDropout",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
]


def _check_rate(rate: Any) -> float:
    if not 0 <= rate <= 1:
        raise ValueError(
            "Invalid value received for argument `rate`. Expected a float value between 0 "
            f"and 1. Received: rate={rate}"
        )
    return rate


class ActivityRegularization(Layer):
    """The identity, adding ``l1 * sum(|x|) + l2 * sum(x**2)`` of its outputs (per sample)
    to the model's losses.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.ActivityRegularization(l1=0.5)
    >>> _ = layer(rg.constant([[1.0, -3.0]]))
    >>> [float(v) for v in layer.losses]
    [2.0]
    """

    supports_masking = True

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}


class GaussianNoise(Layer):
    """Adds zero-mean normal noise of ``stddev`` while training.

    >>> import retrograd as rg
    >>> y = rg.keras.layers.GaussianNoise(1.0, seed=3)(rg.zeros([1000]), training=True)
    >>> 0.9 < float(rg.math.reduce_std(y)) < 1.1
    True
    """

    supports_masking = True

    def __init__(self, stddev: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not 0 <= stddev <= 1:
            raise ValueError(
                "Invalid value received for argument `stddev`. Expected a float value between "
                f"0 and 1. Received: stddev={stddev}"
            )
        self.stddev, self.seed = stddev, seed
        if stddev > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            noise = keras_random.normal(
                kcore.shape(inputs), 0.0, self.stddev, inputs.dtype.name, self.seed_generator
            )
            return inputs + noise
        return inputs

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """Multiplies by normal noise of mean 1 and deviation ``sqrt(rate / (1 - rate))``
    while training.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.GaussianDropout(0.5, seed=1)
    >>> layer(rg.ones([2])).numpy().tolist()
    [1.0, 1.0]
    """

    supports_masking = True

    def __init__(self, rate: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate, self.seed = _check_rate(rate), seed
        if rate > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            noise = keras_random.normal(
                kcore.shape(inputs), 1.0, stddev, inputs.dtype.name, self.seed_generator
            )
            return inputs * noise
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class AlphaDropout(Layer):
    """Dropout that keeps a SELU network's mean and variance: dropped values are set to
    SELU's negative saturation, then everything is scaled and shifted back.

    >>> import retrograd as rg
    >>> y = rg.keras.layers.AlphaDropout(0.2, seed=1)(rg.zeros([2000]), training=True)
    >>> abs(float(rg.reduce_mean(y))) < 0.1
    True
    """

    supports_masking = True

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if not (training and self.rate > 0):
            return inputs
        alpha_p = -1.6732632423543772 * 1.0507009873554805
        shape = kcore.shape(inputs) if self.noise_shape is None else self.noise_shape
        draws = keras_random.uniform(shape, seed=self.seed_generator)
        kept = kcore.cast(knp.greater_equal(draws, self.rate), inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p**2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class _SpatialDropout(Dropout):
    def __init__(self, rate: float, seed: int | None = None, name=None, dtype=None) -> None:
        super().__init__(_check_rate(rate), seed=seed, name=name, dtype=dtype)
        self.data_format = "channels_last"

    def _noise_shape(self, inputs: Any) -> tuple:
        shape = list(kcore.shape(inputs))
        channel = -1 if self.data_format == "channels_last" else 1
        keep = {0, channel % len(shape)}
        return tuple(d if i in keep else 1 for i, d in enumerate(shape))

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return keras_random.dropout(
                inputs, self.rate, self._noise_shape(inputs), self.seed_generator
            )
        return inputs

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype}


class SpatialDropout1D(_SpatialDropout):
    """Drops whole feature channels of ``[batch, steps, channels]`` while training.

    >>> import retrograd as rg
    >>> y = rg.keras.layers.SpatialDropout1D(0.5, seed=2)(rg.ones([1, 3, 4]), training=True)
    >>> all(len(set(y.numpy()[0, :, c].tolist())) == 1 for c in range(4))
    True
    """


class SpatialDropout2D(_SpatialDropout):
    """Drops whole feature maps of images while training.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.SpatialDropout2D(0.5, seed=1)
    >>> layer(rg.ones([1, 2, 2, 3])).shape.as_list()
    [1, 2, 2, 3]
    """

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None) -> None:
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = data_format_of(data_format, type(self).__name__)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class SpatialDropout3D(SpatialDropout2D):
    """Drops whole feature volumes of ``[batch, d, h, w, channels]`` while training.

    >>> import retrograd as rg
    >>> rg.keras.layers.SpatialDropout3D(0.3)(rg.ones([1, 2, 2, 2, 3])).shape.as_list()
    [1, 2, 2, 2, 3]
    """
