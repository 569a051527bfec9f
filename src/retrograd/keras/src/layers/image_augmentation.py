"""Keras' geometric augmentation layers: RandomRotation, RandomTranslation and RandomZoom,
each drawing Keras' numbers from its seed generator while training and applying the
affine transform (about the image centre, Keras' matrices) with ``affine_transform``.

>>> import retrograd as rg
>>> layer = rg.keras.layers.RandomRotation(0.25, seed=1)
>>> layer(rg.ones([1, 3, 3, 1]), training=False).numpy().ravel().tolist()
[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.image_preprocessing import _RandomLayer
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops.image_resize import resize
from retrograd.keras.src.ops.image_transform import affine_transform

__all__ = [
    "RandomRotation",
    "RandomTranslation",
    "RandomZoom",
    "RandomShear",
    "RandomHeight",
    "RandomWidth",
]


class _AffineLayer(_RandomLayer):
    _FILL_MODES = ("reflect", "wrap", "constant", "nearest")

    def _affine_options(self, fill_mode: str, interpolation: str, fill_value: float) -> None:
        if fill_mode not in self._FILL_MODES:
            raise ValueError(
                f"Unknown `fill_mode` {fill_mode}. Expected of one {self._FILL_MODES}."
            )
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(
                f"Unknown `interpolation` {interpolation}. Expected of one ('nearest', 'bilinear')."
            )
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _matrix(
        self, batch: int, height: int, width: int, angle=None, tx=None, ty=None, zx=None, zy=None
    ) -> Any:
        """Keras' affine matrix about the image centre (rotation, translation, zoom)."""
        zeros, ones = knp.zeros([batch]), knp.ones([batch])
        angle = zeros if angle is None else angle * (math.pi / 180.0)
        tx, ty = (zeros if tx is None else tx), (zeros if ty is None else ty)
        cx, cy = 0.5 * (float(width) - 1), 0.5 * (float(height) - 1)
        cos, sin = knp.cos(angle), knp.sin(angle)
        sx, sy = (ones if zx is None else zx), (ones if zy is None else zy)
        a0, a1 = sx * cos, sx * -sin
        b0, b1 = sy * sin, sy * cos
        a2 = tx + cx - cx * a0 - cy * a1
        b2 = ty + cy - cx * b0 - cy * b1
        rows = [a0, a1, a2, b0, b1, b2, zeros, zeros]
        return knp.stack(rows, axis=1)

    def _apply(self, x: Any, matrix: Any) -> Any:
        if len(x.shape) == 3:
            matrix = knp.squeeze(matrix, 0)
        return affine_transform(
            x, matrix, self.interpolation, self.fill_mode, self.fill_value, self.data_format
        )

    def _config(self) -> dict:
        return {
            "fill_mode": self.fill_mode,
            "interpolation": self.interpolation,
            "seed": self.seed,
            "fill_value": self.fill_value,
            "data_format": self.data_format,
        }


class RandomRotation(_AffineLayer):
    """Rotates each image by a random angle of ``factor`` turns (a fraction of 360°,
    ``(low, high)`` or ``±factor``) about its centre.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomRotation(0.1, seed=2)
    >>> layer(rg.ones([2, 4, 4, 1])).shape
    TensorShape([2, 4, 4, 1])
    """

    def __init__(
        self,
        factor: Any,
        fill_mode: str = "reflect",
        interpolation: str = "bilinear",
        seed: Any = None,
        fill_value: float = 0.0,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self._set_factor(factor)
        self._seeded(seed)
        self._affine_options(fill_mode, interpolation, fill_value)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        _, batch, height, width = self._batch_shape(x)
        angle = keras_random.uniform(
            (batch,), self.factor[0] * 360.0, self.factor[1] * 360.0, seed=self.generator
        )
        return self._apply(x, self._matrix(batch, height, width, angle=angle))

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, **self._config()}


def _factor_pair(factor: Any, name: str) -> tuple[float, float]:
    def check(value: float) -> None:
        if value > 1.0 or value < -1.0:
            raise ValueError(
                f"The `{name}` argument should be a number (or a list of two numbers) in the "
                f"range [-1.0, 1.0]. Received: {name}={factor}"
            )

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(
                f"The `{name}` argument should be a number (or a list of two numbers) in the "
                f"range [-1.0, 1.0]. Received: {name}={factor}"
            )
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        check(factor)
        return -abs(factor), abs(factor)
    raise ValueError(f"`{name}` must be a number or a pair of numbers. Received: {factor}")


class RandomTranslation(_AffineLayer):
    """Shifts each image by random fractions of its height and width.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomTranslation(0.2, 0.2, seed=1)
    >>> layer(rg.ones([1, 5, 5, 2])).shape
    TensorShape([1, 5, 5, 2])
    """

    def __init__(
        self,
        height_factor: Any,
        width_factor: Any,
        fill_mode: str = "reflect",
        interpolation: str = "bilinear",
        seed: Any = None,
        fill_value: float = 0.0,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _factor_pair(height_factor, "height_factor")
        self.width_lower, self.width_upper = _factor_pair(width_factor, "width_factor")
        self._seeded(seed)
        self._affine_options(fill_mode, interpolation, fill_value)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        _, batch, height, width = self._batch_shape(x)
        dy = (
            keras_random.uniform(
                [batch, 1], self.height_lower, self.height_upper, seed=self.generator
            )
            * height
        )
        dx = (
            keras_random.uniform(
                [batch, 1], self.width_lower, self.width_upper, seed=self.generator
            )
            * width
        )
        zeros, ones = knp.zeros((batch, 1)), knp.ones((batch, 1))
        matrix = knp.concatenate([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], axis=1)
        return self._apply(x, matrix)

    def get_config(self):
        return {
            **super().get_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
            **self._config(),
        }


class RandomZoom(_AffineLayer):
    """Zooms each image by random factors (``height_factor`` and ``width_factor``: negative
    zooms in, positive out; the width follows the height when not given).

    >>> import retrograd as rg
    >>> rg.keras.layers.RandomZoom(0.3, seed=4)(rg.ones([2, 6, 6, 1])).shape
    TensorShape([2, 6, 6, 1])
    """

    def __init__(
        self,
        height_factor: Any,
        width_factor: Any = None,
        fill_mode: str = "reflect",
        interpolation: str = "bilinear",
        seed: Any = None,
        fill_value: float = 0.0,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _factor_pair(height_factor, "height_factor")
        if width_factor is not None:
            self.width_lower, self.width_upper = _factor_pair(width_factor, "width_factor")
        self._seeded(seed)
        self._affine_options(fill_mode, interpolation, fill_value)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        _, batch, height, width = self._batch_shape(x)
        zy = keras_random.uniform(
            (batch, 1), 1.0 + self.height_lower, 1.0 + self.height_upper, seed=self.generator
        )
        zx = zy
        if self.width_factor is not None:
            zx = keras_random.uniform(
                (batch, 1), 1.0 + self.width_lower, 1.0 + self.width_upper, seed=self.generator
            )
        zeros = knp.zeros((batch, 1))
        x_offset = (float(width) - 1.0) / 2.0 * (1.0 - zx)
        y_offset = (float(height) - 1.0) / 2.0 * (1.0 - zy)
        matrix = knp.concatenate(
            [zx, zeros, x_offset, zeros, zy, y_offset, knp.zeros((batch, 2))], axis=1
        )
        return self._apply(x, matrix)

    def get_config(self):
        return {
            **super().get_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
            **self._config(),
        }


class RandomShear(_AffineLayer):
    """Shears each image by random ``x_factor``/``y_factor`` amounts (of either sign).

    >>> import retrograd as rg
    >>> rg.keras.layers.RandomShear(0.2, 0.2, seed=3)(rg.ones([2, 4, 4, 1])).shape
    TensorShape([2, 4, 4, 1])
    """

    def __init__(
        self,
        x_factor: Any = 0.0,
        y_factor: Any = 0.0,
        interpolation: str = "bilinear",
        fill_mode: str = "reflect",
        fill_value: float = 0.0,
        data_format: Any = None,
        seed: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        self.x_factor = _shear_pair(x_factor, "x_factor")
        self.y_factor = _shear_pair(y_factor, "y_factor")
        self._seeded(seed)
        self._affine_options(fill_mode, interpolation, fill_value)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        _, batch, _, _ = self._batch_shape(x)
        dtype = self.compute_dtype
        invert = keras_random.uniform([batch, 1], 0, 1, dtype, self.generator)
        invert = knp.where(invert > 0.5, -knp.ones_like(invert), knp.ones_like(invert))
        sy = keras_random.uniform(
            [batch, 1], self.y_factor[0], self.y_factor[1], dtype, self.generator
        )
        sx = keras_random.uniform(
            [batch, 1], self.x_factor[0], self.x_factor[1], dtype, self.generator
        )
        shear = knp.concatenate([sx, sy], axis=1) * invert
        ones, zeros = knp.ones((batch,)), knp.zeros((batch,))
        matrix = knp.stack(
            [ones, shear[:, 0], zeros, shear[:, 1], ones, zeros, zeros, zeros], axis=1
        )
        return self._apply(x, matrix)

    def get_config(self):
        return {
            **super().get_config(),
            "x_factor": self.x_factor,
            "y_factor": self.y_factor,
            **self._config(),
        }


def _shear_pair(factor: Any, name: str) -> tuple:
    message = (
        f"The `{name}` argument should be a number (or a list of two numbers) in the range "
        f"[0, 1.0]. Received: {name}={factor}"
    )
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or not all(0.0 <= f <= 1.0 for f in factor):
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and 0.0 <= factor <= 1.0:
        return (-abs(factor), abs(factor))
    raise ValueError(message)


class _RandomSize(_RandomLayer):
    """RandomHeight/RandomWidth (Keras 2 layers TF 2.21 keeps): one random factor per call
    resizes the height (or width) of the whole batch."""

    axis = -3

    def __init__(
        self, factor: Any, interpolation: str = "bilinear", seed: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(None, **kwargs)
        self.factor = factor
        self.lower, self.upper = factor if isinstance(factor, (tuple, list)) else (-factor, factor)
        if self.upper < self.lower:
            raise ValueError(
                "`factor` argument cannot have an upper bound lesser than the lower bound. "
                f"Received: factor={factor}"
            )
        if self.lower < -1.0 or self.upper < -1.0:
            raise ValueError(
                f"`factor` argument must have values larger than -1. Received: factor={factor}"
            )
        self.interpolation = interpolation
        self.seed = seed
        self.seed_generator = self.generator = keras_random.SeedGenerator(seed)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        shape = list(kcore.shape(x))
        scale = keras_random.uniform([], 1.0 + self.lower, 1.0 + self.upper, seed=self.generator)
        size = [shape[-3], shape[-2]]
        size[self.axis + 3] = int(float(scale) * float(shape[self.axis]))
        return kcore.cast(
            resize(x, size, interpolation=self.interpolation, data_format="channels_last"),
            self.compute_dtype,
        )

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "interpolation": self.interpolation,
            "seed": self.seed,
        }


class RandomHeight(_RandomSize):
    """Resizes the batch's height by a random factor in ``[1 + lower, 1 + upper]``.

    >>> import retrograd as rg
    >>> rg.keras.layers.RandomHeight((0.5, 0.5), seed=1)(rg.ones([1, 4, 3, 1])).shape
    TensorShape([1, 6, 3, 1])
    """

    axis = -3


class RandomWidth(_RandomSize):
    """Resizes the batch's width by a random factor in ``[1 + lower, 1 + upper]``.

    >>> import retrograd as rg
    >>> rg.keras.layers.RandomWidth((-0.5, -0.5), seed=1)(rg.ones([1, 4, 4, 1])).shape
    TensorShape([1, 4, 2, 1])
    """

    axis = -2
