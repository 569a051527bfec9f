"""Keras' depthwise (DepthwiseConv1D/2D) and separable (SeparableConv1D/2D) convolution
layers, computed with ``keras.ops`` (their weights named as Keras names them).

>>> import numpy as np, retrograd as rg
>>> layer = rg.keras.layers.DepthwiseConv2D(2, depthwise_initializer="ones")
>>> layer(np.ones((1, 3, 3, 2), "float32")).shape
TensorShape([1, 2, 2, 2])
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import activations, constraints, initializers, regularizers
from retrograd.keras.src.layers.arguments import given_arguments
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import _padding, _tuple, data_format_of
from retrograd.keras.src.layers.conv_more import add_bias, channels_of
from retrograd.keras.src.ops import nn_layers
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D"]


class _DepthwiseConv(Layer):
    rank = 2

    def __init__(
        self,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        depth_multiplier: int = 1,
        data_format: str | None = None,
        dilation_rate: Any = 1,
        activation: Any = None,
        use_bias: bool = True,
        depthwise_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        depthwise_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        depthwise_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if depth_multiplier is not None and depth_multiplier <= 0:
            raise ValueError(
                "Invalid value for argument `depth_multiplier`. Expected a strictly positive "
                f"value. Received depth_multiplier={depth_multiplier}."
            )
        self.depth_multiplier = depth_multiplier
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        allowed = ("valid", "same", "causal") if self.rank == 1 else ("valid", "same")
        self.padding = _padding(padding, allowed)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        channels = channels_of(self, input_shape)
        self.kernel = self.add_weight(
            shape=(*self.kernel_size, channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
            name="kernel",
        )
        self._add_bias(channels * self.depth_multiplier)

    def _add_bias(self, size: int) -> None:
        self.bias = (
            self.add_weight(
                shape=(size,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
            if self.use_bias
            else None
        )

    def _causal(self, inputs: Any) -> tuple[Any, str]:
        """Inputs padded at the start for ``padding='causal'`` (then convolved 'valid')."""
        if self.padding != "causal":
            return inputs, self.padding
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        time_axis = 1 if self.data_format == "channels_last" else 2
        pads = [[0, 0]] * inputs.shape.rank
        pads[time_axis] = [left, 0]
        return knp.pad(inputs, pads), "valid"

    def call(self, inputs):
        inputs, padding = self._causal(inputs)
        outputs = nn_layers.depthwise_conv(
            inputs, self.kernel, self.strides, padding, self.data_format, self.dilation_rate
        )
        return add_bias(self, outputs, int(self.kernel.shape[-2]) * self.depth_multiplier)

    def get_config(self):
        return {
            **super().get_config(),
            "depth_multiplier": self.depth_multiplier,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "depthwise_initializer": serialize(self.depthwise_initializer),
            "bias_initializer": serialize(self.bias_initializer),
            "depthwise_regularizer": serialize(self.depthwise_regularizer),
            "bias_regularizer": serialize(self.bias_regularizer),
            "activity_regularizer": serialize(self.activity_regularizer),
            "depthwise_constraint": serialize(self.depthwise_constraint),
            "bias_constraint": serialize(self.bias_constraint),
        }


class DepthwiseConv1D(_DepthwiseConv):
    """Each input channel convolved with its own ``depth_multiplier`` filters.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.DepthwiseConv1D(2, depth_multiplier=2)
    >>> layer(rg.ones([1, 5, 3])).shape.as_list(), layer.kernel.shape.as_list()
    ([1, 4, 6], [2, 3, 2])
    """

    rank = 1


class DepthwiseConv2D(_DepthwiseConv):
    """The 2-D depthwise convolution (MobileNet's).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.DepthwiseConv2D(3, padding='same', depthwise_initializer='ones')
    >>> layer(rg.ones([1, 3, 3, 2]))[0, 1, 1].numpy().tolist()
    [9.0, 9.0]
    """

    rank = 2

    def __init__(
        self,
        kernel_size: Any,
        strides: Any = (1, 1),
        padding: Any = "valid",
        depth_multiplier: Any = 1,
        data_format: Any = None,
        dilation_rate: Any = (1, 1),
        activation: Any = None,
        use_bias: Any = True,
        depthwise_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        depthwise_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        depthwise_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))


class _SeparableConv(_DepthwiseConv):
    rank = 2

    def __init__(
        self,
        filters: int,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        data_format: str | None = None,
        dilation_rate: Any = 1,
        depth_multiplier: int = 1,
        activation: Any = None,
        use_bias: bool = True,
        depthwise_initializer: Any = "glorot_uniform",
        pointwise_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        depthwise_regularizer: Any = None,
        pointwise_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        depthwise_constraint: Any = None,
        pointwise_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            kernel_size,
            strides,
            padding,
            depth_multiplier,
            data_format,
            dilation_rate,
            activation,
            use_bias,
            depthwise_initializer,
            bias_initializer,
            depthwise_regularizer,
            bias_regularizer,
            activity_regularizer,
            depthwise_constraint,
            bias_constraint,
            **kwargs,
        )
        self.filters = filters
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        channels = channels_of(self, input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=(*self.kernel_size, channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
            name="depthwise_kernel",
        )
        self.pointwise_kernel = self.add_weight(
            shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer,
            regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint,
            name="pointwise_kernel",
        )
        self._add_bias(self.filters)

    def call(self, inputs):
        inputs, padding = self._causal(inputs)
        outputs = nn_layers.separable_conv(
            inputs,
            self.depthwise_kernel,
            self.pointwise_kernel,
            self.strides,
            padding,
            self.data_format,
            self.dilation_rate,
        )
        return add_bias(self, outputs, self.filters)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "pointwise_initializer": serialize(self.pointwise_initializer),
            "pointwise_regularizer": serialize(self.pointwise_regularizer),
            "pointwise_constraint": serialize(self.pointwise_constraint),
        }


class SeparableConv1D(_SeparableConv):
    """A depthwise 1-D convolution, then a pointwise one mixing the channels.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.SeparableConv1D(4, 3)
    >>> layer(rg.ones([2, 6, 3])).shape.as_list(), [w.name for w in layer.weights]
    ([2, 4, 4], ['depthwise_kernel', 'pointwise_kernel', 'bias'])
    """

    rank = 1


class SeparableConv2D(_SeparableConv):
    """The 2-D separable convolution (Xception's).

    >>> import retrograd as rg
    >>> rg.keras.layers.SeparableConv2D(8, 3, padding='same')(rg.ones([1, 5, 5, 3])).shape
    TensorShape([1, 5, 5, 8])
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
        depth_multiplier: Any = 1,
        activation: Any = None,
        use_bias: Any = True,
        depthwise_initializer: Any = "glorot_uniform",
        pointwise_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        depthwise_regularizer: Any = None,
        pointwise_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        depthwise_constraint: Any = None,
        pointwise_constraint: Any = None,
        bias_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))
