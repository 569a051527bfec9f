"""Keras' convolution and pooling layers: Conv1D, Conv2D (grouped too), MaxPooling2D,
AveragePooling2D, GlobalAveragePooling2D, GlobalMaxPooling2D; channels last by default,
``data_format='channels_first'`` computed by moving the channels last and back (as Keras'
TensorFlow backend does on a CPU).

>>> import numpy as np, retrograd as rg
>>> conv = rg.keras.layers.Conv2D(1, 2, kernel_initializer="ones", use_bias=False)
>>> conv(np.ones((1, 3, 3, 1))).shape
TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

from typing import Any

from retrograd.core.dimensions import dimension_value
from retrograd.core.shapes import plain_dims
from retrograd.keras.src import (
    activations,
    backend,
    constraints,
    initializers,
    regularizers,
    tf_ops,
)
from retrograd.keras.src.layers.arguments import given_arguments, int_tuple, positive_int
from retrograd.keras.src.layers.base import Layer, add_kernel_and_bias
from retrograd.keras.src.serialization import config_value as serialize

__all__ = [
    "Conv1D",
    "Conv2D",
    "MaxPooling2D",
    "AveragePooling2D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
]


def _tuple(value: Any, n: int, what: str) -> tuple[int, ...]:
    return int_tuple(value, n, what)


def data_format_of(value: Any, where: str) -> str:
    """'channels_last' or 'channels_first' (None: ``backend.image_data_format()``)."""
    value = backend.image_data_format() if value is None else str(value).lower()
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            f"{where}: The `data_format` argument must be one of {{'channels_first', "
            f"'channels_last'}}. Received: data_format={value}"
        )
    return value


def to_channels_last(x: Any, data_format: str) -> Any:
    """``[batch, channels, *spatial]`` → ``[batch, *spatial, channels]`` for channels_first."""
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return tf_ops.transpose(x, [0, *range(2, rank), 1])


def from_channels_last(x: Any, data_format: str) -> Any:
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return tf_ops.transpose(x, [0, rank - 1, *range(1, rank - 1)])


def _padding(padding: str, allowed: tuple[str, ...]) -> str:
    padding = padding.lower()
    if padding not in allowed:
        raise ValueError(f"Invalid padding {padding!r}: expected one of {allowed}")
    return padding


class _Conv(Layer):
    rank = 2

    @property
    def input_rank(self) -> tuple[int, None]:
        return (self.rank + 2, None)  # Keras: InputSpec(min_ndim=rank + 2)

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
        name = type(self).__name__
        self.data_format = data_format_of(data_format, name)
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise ValueError(f"{name}: groups must be a positive integer, got {groups!r}")
        filters = positive_int(filters, "filters")
        if filters % groups:
            raise ValueError(
                f"The number of filters must be evenly divisible by the number of groups. "
                f"Received: groups={groups}, filters={filters}."
            )
        self.groups = groups
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
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        channels = input_shape[-1 if self.data_format == "channels_last" else 1]
        if channels is None or channels % self.groups:
            raise ValueError(
                f"{type(self).__name__}: the number of input channels ({channels}) must be "
                f"known and divisible by groups={self.groups}"
            )
        kernel_shape = (*self.kernel_size, channels // self.groups, self.filters)
        add_kernel_and_bias(self, kernel_shape, self.filters)

    def _convolve(self, inputs, kernel):
        raise NotImplementedError(f"{type(self).__name__}._convolve")

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        if self.groups == 1:
            x = self._convolve(x, self.kernel)
        else:  # each group of input channels makes its own group of filters
            per_in = dimension_value(x.shape[-1]) // self.groups
            per_out = self.filters // self.groups
            x = tf_ops.concat(
                [
                    self._convolve(
                        x[..., g * per_in : (g + 1) * per_in],
                        self.kernel[..., g * per_out : (g + 1) * per_out],
                    )
                    for g in range(self.groups)
                ],
                axis=-1,
            )
        if self.bias is not None:
            x = x + self.bias
        return from_channels_last(self.activation(x), self.data_format)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "groups": self.groups,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": serialize(self.kernel_initializer),
            "bias_initializer": serialize(self.bias_initializer),
            "kernel_regularizer": serialize(self.kernel_regularizer),
            "bias_regularizer": serialize(self.bias_regularizer),
            "activity_regularizer": serialize(self.activity_regularizer),
            "kernel_constraint": serialize(self.kernel_constraint),
            "bias_constraint": serialize(self.bias_constraint),
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

    def _convolve(self, inputs, kernel):
        padding = self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            batch, _, channels = plain_dims(inputs.shape)
            zeros = tf_ops.zeros([batch, left, channels], dtype=inputs.dtype)
            inputs = tf_ops.concat([zeros, inputs], axis=1)
            padding = "valid"
        return tf_ops.conv1d(
            inputs,
            kernel,
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

    def __init__(
        self,
        filters: Any,
        kernel_size: Any,
        strides: Any = (1, 1),
        padding: Any = "valid",
        data_format: Any = None,
        dilation_rate: Any = (1, 1),
        groups: Any = 1,
        activation: Any = None,
        use_bias: Any = True,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))

    def _convolve(self, inputs, kernel):
        return tf_ops.conv2d(
            inputs,
            kernel,
            strides=[1, *self.strides, 1],
            padding=self.padding.upper(),
            dilations=[1, *self.dilation_rate, 1],
        )


class _Pooling2D(Layer):
    input_rank = (4, 4)  # Keras: InputSpec(ndim=4)

    def __init__(
        self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, name=None, **kw
    ):
        super().__init__(name=name, **kw)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.pool_size = _tuple(pool_size, 2, "pool_size")
        self.strides = self.pool_size if strides is None else _tuple(strides, 2, "strides")
        self.padding = _padding(padding, ("valid", "same"))

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
        }

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        x = self._pool(x, [1, *self.pool_size, 1], [1, *self.strides, 1], self.padding.upper())
        return from_channels_last(x, self.data_format)


class MaxPooling2D(_Pooling2D):
    """The maximum of each ``pool_size`` window (2 x 2 by default).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.MaxPooling2D()(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """

    _pool = staticmethod(tf_ops.max_pool2d)


class AveragePooling2D(_Pooling2D):
    """Keras 3 requires ``pool_size`` here (MaxPooling2D defaults it to (2, 2)).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.AveragePooling2D(2)(x)[0, :, :, 0].numpy().tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    """

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)

    _pool = staticmethod(tf_ops.avg_pool2d)


class GlobalAveragePooling2D(Layer):
    """The mean over height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.GlobalAveragePooling2D()(x).numpy().tolist()
    [[7.5]]
    """

    input_rank = (4, 4)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.keepdims = keepdims

    def _axes(self):
        return [1, 2] if self.data_format == "channels_last" else [2, 3]

    def call(self, inputs):
        return tf_ops.reduce_mean(inputs, axis=self._axes(), keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalMaxPooling2D(GlobalAveragePooling2D):
    """The maximum over height and width.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.layers.GlobalMaxPooling2D()(x).numpy().tolist()
    [[15.0]]
    """

    def call(self, inputs):
        return tf_ops.reduce_max(inputs, axis=self._axes(), keepdims=self.keepdims)
