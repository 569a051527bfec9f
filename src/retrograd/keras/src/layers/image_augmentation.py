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
from retrograd.keras.src.ops.image_transform import affine_transform

__all__ = ["RandomRotation", "RandomTranslation", "RandomZoom"]


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
