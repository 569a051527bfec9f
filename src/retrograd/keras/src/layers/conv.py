"""Keras' convolution and pooling layers (channels last): Conv1D, Conv2D, MaxPooling2D,
AveragePooling2D, GlobalAveragePooling2D.

>>> import numpy as np, retrograd as rg
>>> conv = rg.keras.layers.Conv2D(1, 2, kernel_initializer="ones", use_bias=False)
>>> conv(np.ones((1, 3, 3, 1))).shape
TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import activations, initializers, regularizers, tf_ops
from retrograd.keras.src.layers.base import Layer, add_kernel_and_bias

__all__ = [
    "Conv1D",
    "Conv2D",
    "MaxPooling2D",
    "AveragePooling2D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
]


def _tuple(value: Any, n: int, what: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError(f"The `{what}` argument must be a tuple of {n} integers, got {value}")
    return value


def _padding(padding: str, allowed: tuple[str, ...]) -> str:
    padding = padding.lower()
    if padding not in allowed:
        raise ValueError(f"Invalid padding {padding!r}: expected one of {allowed}")
    return padding


class _Conv(Layer):
    rank = 2

    def __init__(
        self,
        filters: int,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        data_format: str | None = None,
        dilation_rate: Any = 1,
        groups: int = 1,
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__}: only channels_last is supported")
        if groups != 1:
            raise NotImplementedError(f"{type(self).__name__}: groups > 1 is not supported")
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        allowed = ("valid", "same", "causal") if self.rank == 1 else ("valid", "same")
        self.padding = _padding(padding, allowed)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def build(self, input_shape):
        channels = input_shape[-1]
        add_kernel_and_bias(self, (*self.kernel_size, channels, self.filters), self.filters)

    def _convolve(self, inputs):
        raise NotImplementedError

    def call(self, inputs):
        x = self._convolve(inputs)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
        }


class Conv1D(_Conv):
    """1-D convolution over ``[batch, steps, channels]``; ``padding='causal'`` pads the
    start only.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> conv = rg.keras.layers.Conv1D(1, 2, kernel_initializer='ones', bias_initializer='zeros')
    >>> conv(x)[0, :, 0].numpy().tolist()
    [4.0, 8.0, 12.0]
    """

    rank = 1

    def _convolve(self, inputs):
        padding = self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            zeros = tf_ops.zeros([inputs.shape[0], left, inputs.shape[2]], dtype=inputs.dtype)
            inputs = tf_ops.concat([zeros, inputs], axis=1)
            padding = "valid"
        return tf_ops.conv1d(
            inputs,
            self.kernel,
            self.strides[0],
            padding.upper(),
            dilations=self.dilation_rate[0],
        )


class Conv2D(_Conv):
    """2-D convolution over ``[batch, height, width, channels]``.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> conv = rg.keras.layers.Conv2D(1, 3, kernel_initializer='ones')
    >>> conv(x)[0, :, :, 0].numpy().tolist()
    [[45.0, 54.0], [81.0, 90.0]]
    """

    rank = 2

    def _convolve(self, inputs):
        return tf_ops.conv2d(
            inputs,
            self.kernel,
            strides=[1, *self.strides, 1],
            padding=self.padding.upper(),
            dilations=[1, *self.dilation_rate, 1],
        )


class _Pooling2D(Layer):
    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kw):
        super().__init__(**kw)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__}: only channels_last is supported")
        self.pool_size = _tuple(pool_size, 2, "pool_size")
        self.strides = self.pool_size if strides is None else _tuple(strides, 2, "strides")
        self.padding = _padding(padding, ("valid", "same"))

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "strides": self.strides,
            "padding": self.padding,
        }


class MaxPooling2D(_Pooling2D):
    """The maximum of each ``pool_size`` window (2 x 2 by default).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.MaxPooling2D()(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """

    def call(self, inputs):
        return tf_ops.max_pool2d(
            inputs, [1, *self.pool_size, 1], [1, *self.strides, 1], self.padding.upper()
        )


class AveragePooling2D(_Pooling2D):
    """Keras 3 requires ``pool_size`` here (MaxPooling2D defaults it to (2, 2)).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.AveragePooling2D(2)(x)[0, :, :, 0].numpy().tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    """

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)

    def call(self, inputs):
        return tf_ops.avg_pool2d(
            inputs, [1, *self.pool_size, 1], [1, *self.strides, 1], self.padding.upper()
        )


class GlobalAveragePooling2D(Layer):
    """The mean over height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.GlobalAveragePooling2D()(x).numpy().tolist()
    [[7.5]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.keepdims = keepdims

    def call(self, inputs):
        return tf_ops.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)


class GlobalMaxPooling2D(GlobalAveragePooling2D):
    """The maximum over height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.GlobalMaxPooling2D()(x).numpy().tolist()
    [[15.0]]
    """

    def call(self, inputs):
        return tf_ops.reduce_max(inputs, axis=[1, 2], keepdims=self.keepdims)
