"""Keras' other convolution layers: Conv3D and the transposed convolutions Conv1DTranspose,
Conv2DTranspose and Conv3DTranspose, computed with ``keras.ops`` (their weights named as
Keras names them; the depthwise and separable ones are in conv_depthwise).

>>> import numpy as np, retrograd as rg
>>> layer = rg.keras.layers.Conv2DTranspose(1, 2, strides=2, kernel_initializer="ones")
>>> layer(np.ones((1, 2, 2, 1), "float32")).shape
TensorShape([1, 4, 4, 1])
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import activations, constraints, initializers, regularizers
from retrograd.keras.src.layers.arguments import given_arguments
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import _Conv, _padding, _tuple, data_format_of
from retrograd.keras.src.ops import nn_layers
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = [
    "Conv3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
]


def add_bias(layer: Any, outputs: Any, size: int) -> Any:
    """``outputs`` plus the layer's bias (on the channel axis of its data format), then the
    activation."""
    if layer.bias is not None:
        rank = outputs.shape.rank
        shape = [1] * rank
        shape[-1 if layer.data_format == "channels_last" else 1] = size
        outputs = outputs + knp.reshape(layer.bias, shape)
    return layer.activation(outputs)


def channels_of(layer: Any, input_shape: Any) -> int:
    channels = input_shape[-1 if layer.data_format == "channels_last" else 1]
    if channels is None:
        raise ValueError(
            f"{type(layer).__name__}: the channel dimension of the inputs should be defined. "
            f"Received input_shape={tuple(input_shape)}"
        )
    return int(channels)


class Conv3D(_Conv):
    """3-D convolution over ``[batch, depth, height, width, channels]``.

    >>> import retrograd as rg
    >>> conv = rg.keras.layers.Conv3D(2, 2, kernel_initializer='ones')
    >>> conv(rg.ones([1, 3, 3, 3, 1])).shape.as_list()
    [1, 2, 2, 2, 2]
    """

    rank = 3

    def __init__(
        self,
        filters: Any,
        kernel_size: Any,
        strides: Any = (1, 1, 1),
        padding: Any = "valid",
        data_format: Any = None,
        dilation_rate: Any = (1, 1, 1),
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
        return nn_layers.conv(
            inputs, kernel, self.strides, self.padding, "channels_last", self.dilation_rate
        )


class _ConvTranspose(Layer):
    rank = 2

    def __init__(
        self,
        filters: int,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        output_padding: Any = None,
        data_format: str | None = None,
        dilation_rate: Any = 1,
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
        if filters is not None and filters <= 0:
            raise ValueError(
                "Invalid value for argument `filters`. Expected a strictly positive value. "
                f"Received filters={filters}."
            )
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        self.padding = _padding(padding, ("valid", "same"))
        self.output_padding = (
            None if output_padding is None else _tuple(output_padding, self.rank, "output_padding")
        )
        if self.output_padding is not None:
            for i, (op, s) in enumerate(zip(self.output_padding, self.strides)):
                if op >= s:
                    raise ValueError(
                        "`output_padding` must be strictly less than `strides` for all "
                        f"dimensions. At dimension {i}, `output_padding` is {op} but "
                        f"`strides` is {s}. Received: output_padding={self.output_padding}, "
                        f"strides={self.strides}"
                    )
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                f"Received: strides={self.strides} and dilation_rate={self.dilation_rate}"
            )
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        channels = channels_of(self, input_shape)
        self.kernel = self.add_weight(
            shape=(*self.kernel_size, self.filters, channels),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.bias = (
            self.add_weight(
                shape=(self.filters,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
            if self.use_bias
            else None
        )

    def call(self, inputs):
        outputs = nn_layers.conv_transpose(
            inputs,
            self.kernel,
            self.strides,
            self.padding,
            self.output_padding,
            self.data_format,
            self.dilation_rate,
        )
        return add_bias(self, outputs, self.filters)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "output_padding": self.output_padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
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


class Conv1DTranspose(_ConvTranspose):
    """The transposed 1-D convolution (kernel ``(k, filters, in_channels)``).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.Conv1DTranspose(1, 3, kernel_initializer='ones')
    >>> layer(rg.ones([1, 2, 1]))[0, :, 0].numpy().tolist()
    [1.0, 2.0, 2.0, 1.0]
    """

    rank = 1


class Conv2DTranspose(_ConvTranspose):
    """The transposed 2-D convolution ("deconvolution"), upsampling by ``strides``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.Conv2DTranspose(3, 3, strides=2, padding='same')
    >>> layer(rg.ones([1, 4, 4, 2])).shape.as_list()
    [1, 8, 8, 3]
    """

    rank = 2

    def __init__(
        self,
        filters: Any,
        kernel_size: Any,
        strides: Any = (1, 1),
        padding: Any = "valid",
        output_padding: Any = None,
        data_format: Any = None,
        dilation_rate: Any = (1, 1),
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


class Conv3DTranspose(_ConvTranspose):
    """The transposed 3-D convolution.

    >>> import retrograd as rg
    >>> rg.keras.layers.Conv3DTranspose(2, 2, strides=2)(rg.ones([1, 2, 2, 2, 1])).shape.as_list()
    [1, 4, 4, 4, 2]
    """

    rank = 3

    def __init__(
        self,
        filters: Any,
        kernel_size: Any,
        strides: Any = (1, 1, 1),
        padding: Any = "valid",
        data_format: Any = None,
        output_padding: Any = None,
        dilation_rate: Any = (1, 1, 1),
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
