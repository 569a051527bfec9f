"""Keras' image preprocessing and augmentation layers on images (a batch or one image, or a
dict with ``images`` and ``labels``): Resizing and CenterCrop, and the random ones —
RandomFlip, RandomCrop, RandomContrast, RandomBrightness (the geometric ones are in
``image_augmentation``) — drawing Keras' numbers from their seed generators while training (the
default when called directly; ``predict`` and ``training=False`` leave images alone).

>>> import numpy as np, retrograd as rg
>>> rg.keras.layers.Resizing(2, 3)(np.ones((1, 4, 4, 3), "float32")).shape
TensorShape([1, 2, 3, 3])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops.image_resize import RESIZE_INTERPOLATIONS, resize

__all__ = [
    "Resizing",
    "CenterCrop",
    "RandomFlip",
    "RandomCrop",
    "RandomContrast",
    "RandomBrightness",
]


class _ImageLayer(Layer):
    """The base: dict inputs, batched or single images, Keras' factor ranges."""

    _FACTOR_BOUNDS = (-1.0, 1.0)

    def __init__(self, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)

    def _set_factor(self, factor: Any) -> None:
        low, high = self._FACTOR_BOUNDS
        message = (
            f"The `factor` argument should be a number (or a list of two numbers) in the "
            f"range [{low}, {high}]. Received: factor={factor}"
        )
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > high or factor[1] < low:
                raise ValueError(message)
            self.factor = tuple(sorted(factor))
        elif isinstance(factor, (int, float)):
            if factor < low or factor > high:
                raise ValueError(message)
            factor = abs(factor)
            self.factor = (max(-factor, low), factor)
        else:
            raise ValueError(message)

    def _axes(self) -> tuple[int, int]:
        return (-3, -2) if self.data_format == "channels_last" else (-2, -1)

    def _transform(self, images: Any, training: bool) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define _transform")

    def call(self, inputs, training=True):
        training = True if training is None else training
        if isinstance(inputs, dict):
            unknown = set(inputs) - {"images", "labels"}
            if unknown:
                raise ValueError(
                    f"{type(self).__name__}: retrograd transforms 'images' (and passes "
                    f"'labels'); it cannot transform {sorted(unknown)}"
                )
            return {**inputs, "images": self._transform(inputs["images"], training)}
        return self._transform(inputs, training)


class Resizing(_ImageLayer):
    """Images resized to ``(height, width)`` (``keras.ops.image.resize``).

    >>> import retrograd as rg
    >>> rg.keras.layers.Resizing(3, 3, interpolation='nearest')(rg.ones([4, 4, 1])).shape
    TensorShape([3, 3, 1])
    """

    def __init__(
        self,
        height: int,
        width: int,
        interpolation: str = "bilinear",
        crop_to_aspect_ratio: bool = False,
        pad_to_aspect_ratio: bool = False,
        fill_mode: str = "constant",
        fill_value: float = 0.0,
        antialias: bool = False,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        if interpolation not in RESIZE_INTERPOLATIONS:
            raise ValueError(
                f"Invalid value for argument `interpolation`. Expected of one "
                f"{RESIZE_INTERPOLATIONS}. Received: interpolation={interpolation}"
            )
        self.height, self.width, self.interpolation = height, width, interpolation
        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio = (
            crop_to_aspect_ratio,
            pad_to_aspect_ratio,
        )
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, bool(antialias)

    def _transform(self, images, training):
        images = kcore.convert_to_tensor(images)
        resized = resize(
            images,
            (self.height, self.width),
            self.interpolation,
            self.antialias,
            self.crop_to_aspect_ratio,
            self.pad_to_aspect_ratio,
            self.fill_mode,
            self.fill_value,
            self.data_format,
        )
        if resized.dtype == images.dtype:
            return resized
        if images.dtype.is_integer:
            low, high = (
                np.iinfo(images.dtype.as_numpy_dtype).min,
                np.iinfo(images.dtype.as_numpy_dtype).max,
            )
            resized = knp.clip(knp.round(resized), low, high)
        return kcore.cast(resized, images.dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "height": self.height,
            "width": self.width,
            "interpolation": self.interpolation,
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "antialias": self.antialias,
            "data_format": self.data_format,
        }


class CenterCrop(_ImageLayer):
    """The central ``(height, width)`` box (images smaller than it are cropped to its
    aspect ratio and resized, Keras' ``smart_resize``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [4, 4, 1])
    >>> rg.keras.layers.CenterCrop(2, 2)(x)[:, :, 0].numpy().tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """

    def __init__(self, height: int, width: int, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(data_format, **kwargs)
        self.height, self.width = height, width

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        h_axis, w_axis = self._axes()
        height, width = x.shape[h_axis], x.shape[w_axis]
        dh, dw = height - self.height, width - self.width
        if dh >= 0 and dw >= 0:
            index = [slice(None)] * len(x.shape)
            index[h_axis] = slice(dh // 2, dh // 2 + self.height)
            index[w_axis] = slice(dw // 2, dw // 2 + self.width)
            return x[tuple(index)]
        return resize(
            x, (self.height, self.width), crop_to_aspect_ratio=True, data_format=self.data_format
        )

    def get_config(self):
        return {
            **super().get_config(),
            "height": self.height,
            "width": self.width,
            "data_format": self.data_format,
        }


class _RandomLayer(_ImageLayer):
    def _seeded(self, seed: Any) -> None:
        self.seed = seed
        self.generator = keras_random.SeedGenerator(seed)

    def _batch_shape(self, images: Any) -> tuple[list, int, int, int]:
        shape = list(kcore.shape(images))
        if len(shape) not in (3, 4):
            raise ValueError(
                f"Expected the input image to be rank 3 or 4. Received inputs.shape={shape}"
            )
        h_axis, w_axis = self._axes()
        return shape, (shape[0] if len(shape) == 4 else 1), shape[h_axis], shape[w_axis]


class RandomFlip(_RandomLayer):
    """Flips each image left-right and/or up-down with probability 1/2.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomFlip("horizontal", seed=1)
    >>> layer(rg.ones([2, 3, 3, 1]), training=False).shape
    TensorShape([2, 3, 3, 1])
    """

    def __init__(
        self,
        mode: str = "horizontal_and_vertical",
        seed: Any = None,
        data_format: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(
                f"RandomFlip layer {self.name} received an unknown mode argument {mode}"
            )
        self._seeded(seed)
        self.mode = mode

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        shape = kcore.shape(x)
        flips = knp.less_equal(
            keras_random.uniform(
                (1, 1, 1) if len(shape) == 3 else (shape[0], 1, 1, 1), seed=self.generator
            ),
            0.5,
        )
        single = len(shape) == 3
        out = knp.expand_dims(x, 0) if single else x
        h_axis, w_axis = self._axes()
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            out = knp.where(flips, knp.flip(out, axis=w_axis), out)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            out = knp.where(flips, knp.flip(out, axis=h_axis), out)
        return knp.squeeze(out, 0) if single else out

    def get_config(self):
        return {
            **super().get_config(),
            "mode": self.mode,
            "seed": self.seed,
            "data_format": self.data_format,
        }


class RandomCrop(_RandomLayer):
    """A random ``(height, width)`` box of each batch while training (one offset for the
    batch, as Keras draws it); images pass unchanged otherwise.

    >>> import retrograd as rg
    >>> rg.keras.layers.RandomCrop(2, 2, seed=3)(rg.ones([1, 4, 4, 1])).shape
    TensorShape([1, 2, 2, 1])
    """

    def __init__(
        self,
        height: int,
        width: int,
        seed: Any = None,
        data_format: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data_format, name=name, **kwargs)
        self.height, self.width = height, width
        self.seed = seed if seed is not None else keras_random.make_default_seed()
        self.generator = keras_random.SeedGenerator(seed)

    def _transform(self, images, training):
        if not training:
            return images
        x = kcore.cast(images, self.compute_dtype)
        _, _, height, width = self._batch_shape(x)
        if height > self.height and width > self.width:
            top = int(
                keras_random.uniform((), 0, float(height - self.height + 1), seed=self.generator)
            )
            left = int(
                keras_random.uniform((), 0, float(width - self.width + 1), seed=self.generator)
            )
        else:
            crop_h = max(min(height, int(float(width * self.height) / self.width)), 1)
            crop_w = max(min(width, int(float(height * self.width) / self.height)), 1)
            top, left = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
        h_axis, w_axis = self._axes()
        index = [slice(None)] * len(x.shape)
        index[h_axis] = slice(top, top + self.height)
        index[w_axis] = slice(left, left + self.width)
        x = x[tuple(index)]
        if x.shape[h_axis] != self.height or x.shape[w_axis] != self.width:
            x = kcore.cast(
                resize(x, (self.height, self.width), data_format=self.data_format),
                self.compute_dtype,
            )
        return x

    def get_config(self):
        return {
            **super().get_config(),
            "height": self.height,
            "width": self.width,
            "seed": self.seed,
            "data_format": self.data_format,
        }


class RandomContrast(_RandomLayer):
    """Scales each image's deviations from its mean by a random factor in ``[1 - lower,
    1 + upper]``, clipped to ``value_range``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomContrast(0.5, seed=1)
    >>> float(rg.reduce_max(layer(rg.ones([1, 2, 2, 3]) * 10.0)))
    10.0
    """

    _FACTOR_BOUNDS = (0.0, 1.0)

    def __init__(
        self, factor: Any, value_range: Any = (0, 255), seed: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(None, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._seeded(seed)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        shape, batch, _, _ = self._batch_shape(x)
        factor_shape = (1, 1, 1) if len(shape) == 3 else (batch, 1, 1, 1)
        factor = keras_random.uniform(
            factor_shape,
            1.0 - self.factor[0],
            1.0 + self.factor[1],
            dtype=self.compute_dtype,
            seed=self.generator,
        )
        h_axis, w_axis = self._axes()
        mean = knp.mean(knp.mean(x, axis=h_axis, keepdims=True), axis=w_axis, keepdims=True)
        out = (x - mean) * factor + mean
        return knp.clip(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "value_range": self.value_range,
            "seed": self.seed,
        }


class RandomBrightness(_RandomLayer):
    """Adds a random ``factor`` fraction of ``value_range``'s span to each image, clipped
    to the range.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RandomBrightness(0.2, value_range=(0.0, 1.0), seed=5)
    >>> bool(rg.reduce_all(layer(rg.ones([2, 2, 2, 3]) * 0.5) <= 1.0))
    True
    """

    def __init__(
        self, factor: Any, value_range: Any = (0, 255), seed: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(None, **kwargs)
        self._set_factor(factor)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(
                "The `value_range` argument should be a list of two numbers. Received: "
                f"value_range={value_range}"
            )
        self.value_range = sorted(value_range)
        self._seeded(seed)

    def _transform(self, images, training):
        x = kcore.cast(images, self.compute_dtype)
        if not training:
            return x
        shape, batch, _, _ = self._batch_shape(x)
        delta_shape = (1, 1, 1) if len(shape) == 3 else [batch, 1, 1, 1]
        delta = keras_random.uniform(
            delta_shape, self.factor[0], self.factor[1], seed=self.generator
        )
        delta = delta * (self.value_range[1] - self.value_range[0])
        return knp.clip(x + kcore.cast(delta, x.dtype), self.value_range[0], self.value_range[1])

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "value_range": self.value_range,
            "seed": self.seed,
        }
