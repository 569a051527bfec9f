"""Layers that rearrange their inputs: Permute, RepeatVector, UpSampling2D (nearest),
ZeroPadding2D, and the 1-D pooling layers.

>>> import retrograd as rg
>>> rg.keras.layers.RepeatVector(2)(rg.constant([[1.0, 2.0]])).numpy().tolist()
[[[1.0, 2.0], [1.0, 2.0]]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import tf_ops
from retrograd.keras.src.layers.arguments import int_tuple, positive_int
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import data_format_of, from_channels_last, to_channels_last
from retrograd.keras.src.ops.image_resize import RESIZE_INTERPOLATIONS, resize

__all__ = [
    "Permute",
    "RepeatVector",
    "UpSampling2D",
    "ZeroPadding2D",
    "MaxPooling1D",
    "AveragePooling1D",
    "GlobalAveragePooling1D",
    "GlobalMaxPooling1D",
]


class Permute(Layer):
    """Permutes the non-batch axes (``dims`` counts from 1).

    >>> import retrograd as rg
    >>> rg.keras.layers.Permute((2, 1))(rg.zeros([4, 2, 3])).shape.as_list()
    [4, 3, 2]
    """

    def __init__(self, dims: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Permute: dims must be a permutation of 1..n, got {self.dims}")

    def call(self, inputs):
        return tf_ops.transpose(inputs, (0, *self.dims))

    def get_config(self):
        return {**super().get_config(), "dims": self.dims}


class RepeatVector(Layer):
    """``[batch, features]`` to ``[batch, n, features]``.

    >>> import retrograd as rg
    >>> rg.keras.layers.RepeatVector(3)(rg.constant([[1.0, 2.0]])).numpy().tolist()
    [[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]]
    """

    input_rank = (2, 2)

    def __init__(self, n: int, **kwargs: Any):
        super().__init__(**kwargs)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"Expected an integer value for `n`, got {type(n).__name__}.")
        self.n = positive_int(n, "n")

    def call(self, inputs):
        return tf_ops.tile(tf_ops.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}


def _bilinear_axis(size: int, factor: int) -> tuple:
    """TensorFlow's half-pixel bilinear resize along one axis: for each output position, the
    two input positions it mixes and the weight of the second (float32, as its kernel)."""
    scale = np.float32(size) / np.float32(size * factor)
    source = (np.arange(size * factor, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(
        0.5
    )
    floor = np.floor(source)
    lower = np.maximum(floor, 0).astype(np.int32)
    upper = np.minimum(np.ceil(source), size - 1).astype(np.int32)
    return lower, upper, (source - floor).astype(np.float32)


class UpSampling2D(Layer):
    """Repeats rows and columns ``size`` times (``interpolation='nearest'``) or resamples
    (``'bilinear'``, ``'bicubic'``, ``'lanczos3'`` ... as TensorFlow's resize).

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 2.0, 3.0, 4.0], [1, 2, 2, 1])
    >>> rg.keras.layers.UpSampling2D()(x)[0, :, :, 0].numpy().tolist()
    [[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0], [3.0, 3.0, 4.0, 4.0]]
    """

    input_rank = (4, 4)

    def __init__(self, size: Any = (2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        if interpolation not in ("nearest", *RESIZE_INTERPOLATIONS):
            raise ValueError(
                f"UpSampling2D: `interpolation` must be one of {RESIZE_INTERPOLATIONS}. "
                f"Received: interpolation={interpolation!r}"
            )
        self.size = int_tuple(size, 2, "size")
        self.data_format = data_format_of(data_format, "UpSampling2D")
        self.interpolation = interpolation

    def call(self, inputs):
        inputs = to_channels_last(inputs, self.data_format)
        b, h, w, c = inputs.shape.as_list()
        rh, rw = self.size
        if self.interpolation == "bilinear":
            return from_channels_last(self._bilinear(inputs, h, w, rh, rw), self.data_format)
        if self.interpolation != "nearest":  # TensorFlow's resize with that method
            resized = resize(inputs, (h * rh, w * rw), interpolation=self.interpolation,
                             data_format="channels_last")  # fmt: skip
            return from_channels_last(resized, self.data_format)
        x = tf_ops.tile(tf_ops.reshape(inputs, [b, h, 1, w, 1, c]), [1, 1, rh, 1, rw, 1])
        return from_channels_last(tf_ops.reshape(x, [b, h * rh, w * rw, c]), self.data_format)

    @staticmethod
    def _bilinear(x, h, w, rh, rw):
        """Columns mixed first, then rows, in TensorFlow's order of operations."""
        top_i, bottom_i, y_lerp = _bilinear_axis(h, rh)
        left_i, right_i, x_lerp = _bilinear_axis(w, rw)
        top, bottom = tf_ops.gather(x, top_i, axis=1), tf_ops.gather(x, bottom_i, axis=1)
        x_lerp = tf_ops.constant(x_lerp.reshape(1, 1, -1, 1))

        def mix(rows):
            left, right = tf_ops.gather(rows, left_i, axis=2), tf_ops.gather(rows, right_i, axis=2)
            return left + (right - left) * x_lerp

        top, bottom = mix(top), mix(bottom)
        return top + (bottom - top) * tf_ops.constant(y_lerp.reshape(1, -1, 1, 1))

    def get_config(self):
        return {
            **super().get_config(),
            "size": self.size,
            "data_format": self.data_format,
            "interpolation": self.interpolation,
        }


class ZeroPadding2D(Layer):
    """Pads height and width with zeros: ``padding`` is an int, two ints, or two pairs.

    >>> import retrograd as rg
    >>> x = rg.ones([1, 1, 1, 1])
    >>> rg.keras.layers.ZeroPadding2D(1)(x)[0, :, :, 0].numpy().tolist()
    [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """

    input_rank = (4, 4)

    def __init__(self, padding: Any = (1, 1), data_format=None, **kwargs: Any):
        super().__init__(**kwargs)
        if not isinstance(padding, (list, tuple)):
            padding = (padding, padding)
        if len(padding) != 2:
            raise ValueError(
                f"`padding` should be an int, a tuple of 2 ints or a tuple of 2 tuples of 2 "
                f"ints. Received: padding={padding!r}"
            )
        self.padding = tuple(
            int_tuple(p, 2, "padding", minimum=0)
            if isinstance(p, (list, tuple))
            else (positive_int(p, "padding", 0),) * 2
            for p in padding
        )
        self.data_format = data_format_of(data_format, "ZeroPadding2D")

    def call(self, inputs):
        spatial = [list(self.padding[0]), list(self.padding[1])]
        if self.data_format == "channels_first":
            return tf_ops.pad(inputs, [[0, 0], [0, 0], *spatial])
        return tf_ops.pad(inputs, [[0, 0], *spatial, [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class _Pooling1D(Layer):
    input_rank = (3, 3)

    def __init__(
        self, pool_size=2, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(name=name, **kwargs)
        self.pool_size = int_tuple(pool_size, 1, "pool_size")[0]
        self.strides = self.pool_size if strides is None else int_tuple(strides, 1, "strides")[0]
        self.padding = padding.upper()
        if self.padding not in ("VALID", "SAME"):
            raise ValueError(f"Invalid padding {padding!r}: expected 'valid' or 'same'")
        self.data_format = data_format_of(data_format, type(self).__name__)

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        x = self._pool(x, self.pool_size, self.strides, self.padding)
        return from_channels_last(x, self.data_format)

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "strides": self.strides,
            "padding": self.padding.lower(),
            "data_format": self.data_format,
        }


class MaxPooling1D(_Pooling1D):
    """The maximum of each ``pool_size`` window (2 by default) along the steps.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> rg.keras.layers.MaxPooling1D()(x)[0, :, 0].numpy().tolist()
    [3.0, 7.0]
    """

    _pool = staticmethod(tf_ops.max_pool1d)


class AveragePooling1D(_Pooling1D):
    """Keras 3 requires ``pool_size`` here (MaxPooling1D defaults it to 2).

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> rg.keras.layers.AveragePooling1D(2)(x)[0, :, 0].numpy().tolist()
    [2.0, 6.0]
    """

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)

    _pool = staticmethod(tf_ops.avg_pool1d)


class GlobalAveragePooling1D(Layer):
    """The mean over the steps axis.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> rg.keras.layers.GlobalAveragePooling1D()(x).numpy().tolist()
    [[4.0]]
    """

    input_rank = (3, 3)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.keepdims = keepdims

    def _axis(self) -> int:
        return 1 if self.data_format == "channels_last" else 2

    supports_masking = True

    def call(self, inputs, mask=None):
        axis = self._axis()
        if mask is None:
            return tf_ops.reduce_mean(inputs, axis=axis, keepdims=self.keepdims)
        # Keras: the mean over the steps the mask keeps
        keep = tf_ops.expand_dims(tf_ops.cast(mask, "bool"), 3 - axis)
        total = tf_ops.reduce_sum(
            tf_ops.where(keep, inputs, tf_ops.zeros_like(inputs)), axis=axis, keepdims=self.keepdims
        )
        count = tf_ops.reduce_sum(
            tf_ops.cast(keep, inputs.dtype), axis=axis, keepdims=self.keepdims
        )
        return total / count

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalMaxPooling1D(GlobalAveragePooling1D):
    """The maximum over the steps axis.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> rg.keras.layers.GlobalMaxPooling1D()(x).numpy().tolist()
    [[7.0]]
    """

    def call(self, inputs, mask=None):
        return tf_ops.reduce_max(inputs, axis=self._axis(), keepdims=self.keepdims)
