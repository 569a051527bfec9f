"""TensorFlow 1's convolution and pooling layers (``tf.layers.conv2d``, ``Conv2D``,
``max_pooling2d``, ...): the kernel (``[*kernel_size, in, filters]``; for transposed
convolutions ``[*kernel_size, filters, in]``) and bias are ``get_variable`` variables of the
layer's scope; ``padding`` is ``"valid"`` or ``"same"`` and ``data_format``
``"channels_last"`` or ``"channels_first"``, as in TensorFlow.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     x = tf1.placeholder(rg.float32, [None, 8, 8, 3])
...     y = max_pooling2d(conv2d(x, 4, 3, padding='same'), 2, 2)
...     print([v.name for v in tf1.trainable_variables()], y.shape.as_list())
['conv2d/kernel:0', 'conv2d/bias:0'] [None, 4, 4, 4]
"""

from __future__ import annotations

from typing import Any

from retrograd.compat.initializers import zeros_initializer
from retrograd.compat.tf1_layers import InputSpec, Layer, _activation
from retrograd.core.shapes import TensorShape
from retrograd.ops import conv_ops, nn_layer_ops, pool_ops

__all__ = [
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "average_pooling1d",
    "average_pooling2d",
    "average_pooling3d",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "max_pooling1d",
    "max_pooling2d",
    "max_pooling3d",
]

_ZEROS = zeros_initializer()


def _tuple(value: Any, rank: int, what: str) -> tuple[int, ...]:
    values = (value,) * rank if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != rank:
        raise ValueError(
            f"The `{what}` argument must be a tuple of {rank} integers. Received: {value}"
        )
    return values


def _padding(padding: str) -> str:
    if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
        raise ValueError(
            f'The `padding` argument must be one of "valid", "same". Received: {padding}'
        )
    return padding.upper()


def _format(data_format: str | None, rank: int) -> str:
    if data_format in (None, "channels_last"):
        return {1: "NWC", 2: "NHWC", 3: "NDHWC"}[rank]
    if data_format == "channels_first":
        return {1: "NCW", 2: "NCHW", 3: "NCDHW"}[rank]
    raise ValueError(
        f'The `data_format` argument must be one of "channels_first", "channels_last". '
        f"Received: {data_format}"
    )


class _Conv(Layer):
    """A ``rank``-D convolution layer (1 or 2)."""

    def __init__(
        self, rank, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
        dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
        bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None,
        activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
        name=None, **kwargs,
    ) -> None:  # fmt: skip
        super().__init__(trainable, name, activity_regularizer=activity_regularizer, **kwargs)
        self.rank, self.filters = rank, int(filters)
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        self.padding, self.data_format = _padding(padding), data_format or "channels_last"
        self._format = _format(self.data_format, rank)
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(ndim=rank + 2)
        self.kernel = self.bias = None

    def _channels(self, input_shape: TensorShape) -> int:
        axis = 1 if self.data_format == "channels_first" else -1
        channels = input_shape.as_list()[axis]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        return channels

    def _kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, channels, self.filters]

    def build(self, input_shape: TensorShape) -> None:
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(
            "kernel", self._kernel_shape(channels), None, self.kernel_initializer,
            self.kernel_regularizer, True, self.kernel_constraint,
        )  # fmt: skip
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.filters], None, self.bias_initializer, self.bias_regularizer,
                True, self.bias_constraint,
            )  # fmt: skip
        self.built = True

    def _convolve(self, inputs: Any) -> Any:
        if self.rank == 1:
            return conv_ops.conv1d(
                inputs, self.kernel, list(self.strides), self.padding, self._format,
                list(self.dilation_rate),
            )  # fmt: skip
        return conv_ops.conv2d(
            inputs, self.kernel, list(self.strides), self.padding, self._format,
            list(self.dilation_rate),
        )  # fmt: skip

    def call(self, inputs: Any) -> Any:
        outputs = self._convolve(inputs)
        if self.use_bias:
            first = self.data_format == "channels_first"
            outputs = nn_layer_ops.bias_add(outputs, self.bias, "NCHW" if first else "NHWC")
        return _activation(self.activation, outputs)


class Conv1D(_Conv):
    """1-D convolution over ``[batch, steps, channels]`` inputs.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> layer = Conv1D(1, 2, kernel_initializer=tf1.ones_initializer())
    >>> layer(rg.ones([1, 3, 1])).numpy().tolist()
    [[[2.0], [2.0]]]
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs) -> None:  # fmt: skip
        super().__init__(
            1, filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
            use_bias, kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs,
        )  # fmt: skip


class Conv2D(_Conv):
    """2-D convolution over ``[batch, height, width, channels]`` inputs.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> layer = Conv2D(1, 2, kernel_initializer=tf1.ones_initializer())
    >>> layer(rg.ones([1, 2, 2, 1])).numpy().tolist()
    [[[[4.0]]]]
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), activation=None,
                 use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs) -> None:  # fmt: skip
        super().__init__(
            2, filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
            use_bias, kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs,
        )  # fmt: skip


def _out_length(size: Any, kernel: int, stride: int, padding: str) -> Any:
    """A transposed convolution's output length (Keras' deconv_output_length)."""
    if size is None:
        return None
    if padding == "VALID":
        return size * stride + max(kernel - stride, 0)
    return size * stride


class Conv2DTranspose(Conv2D):
    """The transpose of ``Conv2D`` (its gradient with respect to the input): kernel
    ``[kh, kw, filters, in]``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> layer = Conv2DTranspose(1, 2, strides=2, kernel_initializer=tf1.ones_initializer())
    >>> layer(rg.ones([1, 1, 1, 1])).shape.as_list()
    [1, 2, 2, 1]
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs) -> None:  # fmt: skip
        super().__init__(
            filters, kernel_size, strides, padding, data_format, (1, 1), activation, use_bias,
            kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs,
        )  # fmt: skip

    def _kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, self.filters, channels]

    def _convolve(self, inputs: Any) -> Any:
        first = self.data_format == "channels_first"
        h_axis, w_axis = (2, 3) if first else (1, 2)
        dims = inputs.shape.as_list()
        sizes = [
            _out_length(dims[a], k, s, self.padding)
            for a, k, s in zip((h_axis, w_axis), self.kernel_size, self.strides)
        ]
        if None in sizes:
            raise ValueError("Conv2DTranspose: the inputs' height and width must be known")
        batch = dims[0]  # None in a graph: the inputs' batch when it runs
        out = [batch, self.filters, *sizes] if first else [batch, *sizes, self.filters]
        return conv_ops.conv2d_transpose(
            inputs, self.kernel, out, list(self.strides), self.padding, self._format
        )


class _Pooling(Layer):
    def __init__(self, rank, kind, pool_size, strides, padding="valid",
                 data_format="channels_last", name=None, **kwargs) -> None:  # fmt: skip
        super().__init__(name=name, **kwargs)
        if strides is None:
            raise ValueError("The `strides` argument must be given to a pooling layer")
        self.rank, self.kind = rank, kind
        self.pool_size = _tuple(pool_size, rank, "pool_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding, self.data_format = _padding(padding), data_format or "channels_last"
        self._format = _format(self.data_format, rank)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs: Any) -> Any:
        pool = pool_ops.max_pool if self.kind == "max" else pool_ops.avg_pool
        return pool(inputs, list(self.pool_size), list(self.strides), self.padding, self._format)


class MaxPooling1D(_Pooling):
    """Maximum pooling over 1-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> MaxPooling1D(2, 2)(rg.constant([[[1.0], [3.0]]])).numpy().tolist()
    [[[3.0]]]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(1, "max", pool_size, strides, padding, data_format, name, **kwargs)


class MaxPooling2D(_Pooling):
    """Maximum pooling over 2-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> MaxPooling2D(2, 2)(rg.ones([1, 4, 4, 1])).shape.as_list()
    [1, 2, 2, 1]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(2, "max", pool_size, strides, padding, data_format, name, **kwargs)


class MaxPooling3D(_Pooling):
    """Maximum pooling over 3-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> MaxPooling3D(2, 2)(rg.ones([1, 2, 2, 2, 1])).shape.as_list()
    [1, 1, 1, 1, 1]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(3, "max", pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling1D(_Pooling):
    """Average pooling over 1-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> AveragePooling1D(2, 2)(rg.constant([[[1.0], [3.0]]])).numpy().tolist()
    [[[2.0]]]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(1, "avg", pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling2D(_Pooling):
    """Average pooling over 2-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> AveragePooling2D(2, 2)(rg.ones([1, 4, 4, 1])).shape.as_list()
    [1, 2, 2, 1]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(2, "avg", pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling3D(_Pooling):
    """Average pooling over 3-D windows of ``pool_size``, moved by ``strides``.

    >>> import retrograd as rg
    >>> AveragePooling3D(2, 2)(rg.ones([1, 2, 2, 2, 1])).shape.as_list()
    [1, 1, 1, 1, 1]
    """

    def __init__(
        self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs
    ) -> None:
        super().__init__(3, "avg", pool_size, strides, padding, data_format, name, **kwargs)


def max_pooling1d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``MaxPooling1D`` applied once.

    >>> import retrograd as rg
    >>> max_pooling1d(rg.constant([[[1.0], [3.0]]]), 2, 2).numpy().tolist()
    [[[3.0]]]
    """
    return MaxPooling1D(pool_size, strides, padding, data_format, name)(inputs)


def max_pooling2d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``MaxPooling2D`` applied once.

    >>> import retrograd as rg
    >>> max_pooling2d(rg.ones([1, 4, 4, 1]), 2, 2, padding='same').shape.as_list()
    [1, 2, 2, 1]
    """
    return MaxPooling2D(pool_size, strides, padding, data_format, name)(inputs)


def max_pooling3d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``MaxPooling3D`` applied once.

    >>> import retrograd as rg
    >>> max_pooling3d(rg.ones([1, 2, 2, 2, 1]), 2, 2).shape.as_list()
    [1, 1, 1, 1, 1]
    """
    return MaxPooling3D(pool_size, strides, padding, data_format, name)(inputs)


def average_pooling1d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``AveragePooling1D`` applied once.

    >>> import retrograd as rg
    >>> average_pooling1d(rg.constant([[[1.0], [3.0]]]), 2, 2).numpy().tolist()
    [[[2.0]]]
    """
    return AveragePooling1D(pool_size, strides, padding, data_format, name)(inputs)


def average_pooling2d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``AveragePooling2D`` applied once.

    >>> import retrograd as rg
    >>> average_pooling2d(rg.ones([1, 4, 4, 1]), 2, 2).shape.as_list()
    [1, 2, 2, 1]
    """
    return AveragePooling2D(pool_size, strides, padding, data_format, name)(inputs)


def average_pooling3d(
    inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None
):
    """``AveragePooling3D`` applied once.

    >>> import retrograd as rg
    >>> average_pooling3d(rg.ones([1, 2, 2, 2, 1]), 2, 2).shape.as_list()
    [1, 1, 1, 1, 1]
    """
    return AveragePooling3D(pool_size, strides, padding, data_format, name)(inputs)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
           dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None,
           activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
           trainable=True, name=None, reuse=None):  # fmt: skip
    """``Conv1D`` applied once (``reuse`` with a ``name`` shares its variables).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> conv1d(rg.ones([1, 3, 1]), 1, 2).shape.as_list()
    [1, 2, 1]
    """
    return Conv1D(
        filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, bias_constraint, trainable, name, _reuse=reuse,
    )(inputs)  # fmt: skip


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):  # fmt: skip
    """``Conv2D`` applied once (``reuse`` with a ``name`` shares its variables).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> conv2d(rg.ones([1, 3, 3, 1]), 2, 2).shape.as_list()
    [1, 2, 2, 2]
    """
    return Conv2D(
        filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, bias_constraint, trainable, name, _reuse=reuse,
    )(inputs)  # fmt: skip


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):  # fmt: skip
    """``Conv2DTranspose`` applied once.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> conv2d_transpose(rg.ones([1, 2, 2, 1]), 1, 2, strides=2, padding='same').shape.as_list()
    [1, 4, 4, 1]
    """
    return Conv2DTranspose(
        filters, kernel_size, strides, padding, data_format, activation, use_bias,
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, bias_constraint, trainable, name, _reuse=reuse,
    )(inputs)  # fmt: skip
