"""Keras' 3-D pooling layers (MaxPooling3D, AveragePooling3D, their global forms) and the
adaptive poolings (AdaptiveAveragePooling1D/2D/3D, AdaptiveMaxPooling1D/2D/3D), which pool
into a fixed number of bins per spatial axis.

>>> import retrograd as rg
>>> rg.keras.layers.MaxPooling3D()(rg.ones([1, 4, 4, 4, 2])).shape.as_list()
[1, 2, 2, 2, 2]
"""

from __future__ import annotations

from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import _padding, _tuple, data_format_of
from retrograd.keras.src.ops import nn_layers
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "MaxPooling3D",
    "AveragePooling3D",
    "GlobalAveragePooling3D",
    "GlobalMaxPooling3D",
    "AdaptiveAveragePooling1D",
    "AdaptiveAveragePooling2D",
    "AdaptiveAveragePooling3D",
    "AdaptiveMaxPooling1D",
    "AdaptiveMaxPooling2D",
    "AdaptiveMaxPooling3D",
]


class _Pooling3D(Layer):
    _pool = staticmethod(nn_layers.max_pool)

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _tuple(pool_size, 3, "pool_size")
        self.strides = self.pool_size if strides is None else _tuple(strides, 3, "strides")
        self.padding = _padding(padding, ("valid", "same"))
        self.data_format = data_format_of(data_format, type(self).__name__)

    def call(self, inputs):
        return self._pool(inputs, self.pool_size, self.strides, self.padding, self.data_format)

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
        }


class MaxPooling3D(_Pooling3D):
    """The maximum of each ``pool_size`` window over depth, height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.layers.MaxPooling3D()(x).numpy().ravel().tolist()
    [7.0]
    """

    def __init__(
        self,
        pool_size=(2, 2, 2),
        strides=None,
        padding="valid",
        data_format=None,
        name=None,
        **kwargs,
    ):
        super().__init__(pool_size, strides, padding, data_format, name=name, **kwargs)


class AveragePooling3D(_Pooling3D):
    """The mean of each ``pool_size`` window (Keras 3 requires ``pool_size``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.layers.AveragePooling3D(2)(x).numpy().ravel().tolist()
    [3.5]
    """

    _pool = staticmethod(nn_layers.average_pool)

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(pool_size, strides, padding, data_format, name=name, **kwargs)


class GlobalAveragePooling3D(Layer):
    """The mean over depth, height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.layers.GlobalAveragePooling3D()(x).numpy().tolist()
    [[3.5]]
    """

    _reduce = staticmethod(knp.mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.keepdims = keepdims

    def call(self, inputs):
        axes = (1, 2, 3) if self.data_format == "channels_last" else (2, 3, 4)
        return self._reduce(inputs, axis=axes, keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalMaxPooling3D(GlobalAveragePooling3D):
    """The maximum over depth, height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.layers.GlobalMaxPooling3D(keepdims=True)(x).shape.as_list()
    [1, 1, 1, 1, 1]
    """

    _reduce = staticmethod(knp.max)


class _Adaptive(Layer):
    rank = 1
    _pool = staticmethod(nn_layers.adaptive_average_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = _tuple(output_size, self.rank, "output_size")
        self.data_format = data_format_of(data_format, type(self).__name__)

    def call(self, inputs):
        return self._pool(inputs, self.output_size, self.data_format)

    def get_config(self):
        return {
            **super().get_config(),
            "output_size": self.output_size,
            "data_format": self.data_format,
        }


class AdaptiveAveragePooling1D(_Adaptive):
    """Means over ``output_size`` bins of the steps (bin ``i`` of ``L`` steps covers
    ``floor(i L / n)`` to ``ceil((i + 1) L / n)``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(6.0), [1, 6, 1])
    >>> rg.keras.layers.AdaptiveAveragePooling1D(3)(x).numpy().ravel().tolist()
    [0.5, 2.5, 4.5]
    """


class AdaptiveAveragePooling2D(_Adaptive):
    """Means over ``output_size`` bins of height and width.

    >>> import retrograd as rg
    >>> rg.keras.layers.AdaptiveAveragePooling2D((2, 3))(rg.ones([1, 5, 7, 2])).shape.as_list()
    [1, 2, 3, 2]
    """

    rank = 2


class AdaptiveAveragePooling3D(_Adaptive):
    """Means over ``output_size`` bins of depth, height and width.

    >>> import retrograd as rg
    >>> rg.keras.layers.AdaptiveAveragePooling3D(2)(rg.ones([1, 3, 4, 5, 1])).shape.as_list()
    [1, 2, 2, 2, 1]
    """

    rank = 3


class AdaptiveMaxPooling1D(_Adaptive):
    """Maxima over ``output_size`` bins of the steps.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(6.0), [1, 6, 1])
    >>> rg.keras.layers.AdaptiveMaxPooling1D(2)(x).numpy().ravel().tolist()
    [2.0, 5.0]
    """

    _pool = staticmethod(nn_layers.adaptive_max_pool)


class AdaptiveMaxPooling2D(AdaptiveMaxPooling1D):
    """Maxima over ``output_size`` bins of height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.AdaptiveMaxPooling2D(2)(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """

    rank = 2


class AdaptiveMaxPooling3D(AdaptiveMaxPooling1D):
    """Maxima over ``output_size`` bins of depth, height and width.

    >>> import retrograd as rg
    >>> rg.keras.layers.AdaptiveMaxPooling3D(1)(rg.ones([1, 3, 3, 3, 2])).shape.as_list()
    [1, 1, 1, 1, 2]
    """

    rank = 3
