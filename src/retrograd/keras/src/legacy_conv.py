"""``tf.keras.backend``'s convolutions, pooling and paddings (Keras 2's backend, kept by
TF 2.21), computed with ``keras.ops``' convolutions.

>>> import retrograd as rg
>>> rg.keras.backend.conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 1])).numpy().ravel().tolist()
[4.0, 4.0, 4.0, 4.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import convert_to_tensor
from retrograd.keras.src.layers.conv import data_format_of
from retrograd.keras.src.ops import nn_layers
from retrograd.ops import array_ops, conv_ops, pad_ops

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv2d_transpose",
    "depthwise_conv2d",
    "separable_conv2d",
    "pool2d",
    "pool3d",
    "temporal_padding",
    "spatial_2d_padding",
    "spatial_3d_padding",
]


def _conv(x, kernel, strides, padding, data_format, dilation_rate, what):
    fmt = data_format_of(data_format, what)
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding: {padding}")
    return nn_layers.conv(x, kernel, strides, padding, fmt, dilation_rate)


def conv1d(x: Any, kernel: Any, strides: int = 1, padding: str = "valid",
           data_format: Any = None, dilation_rate: int = 1) -> Any:  # fmt: skip
    """A 1-D convolution (``padding`` 'valid', 'same' or 'causal').

    >>> import retrograd as rg
    >>> rg.keras.backend.conv1d(rg.ones([1, 4, 1]), rg.ones([2, 1, 1])).shape.as_list()
    [1, 3, 1]
    """
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (int(kernel.shape[0]) - 1), 0))
        padding = "valid"
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv1d")


def conv2d(x: Any, kernel: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Any = None, dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A 2-D convolution.

    >>> import retrograd as rg
    >>> rg.keras.backend.conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 1])).shape.as_list()
    [1, 2, 2, 1]
    """
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv2d")


def conv3d(x: Any, kernel: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: Any = None, dilation_rate: Any = (1, 1, 1)) -> Any:  # fmt: skip
    """A 3-D convolution.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.conv3d(rg.ones([1, 2, 2, 2, 1]), rg.ones([2, 2, 2, 1, 1])).numpy().ravel().tolist()
    [8.0]
    """
    return _conv(x, kernel, strides, padding, data_format, dilation_rate, "conv3d")


def conv2d_transpose(x: Any, kernel: Any, output_shape: Any, strides: Any = (1, 1),
                     padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """The transposed 2-D convolution to ``output_shape`` (kernel ``(h, w, out, in)``).

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.conv2d_transpose(rg.ones([1, 2, 2, 1]), rg.ones([2, 2, 1, 1]), (1, 4, 4, 1),
    ...                    strides=(2, 2)).shape.as_list()
    [1, 4, 4, 1]
    """
    fmt = data_format_of(data_format, "conv2d_transpose")
    x = convert_to_tensor(x)
    if fmt == "channels_first":
        x = array_ops.transpose(x, [0, 2, 3, 1])
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (int(x.shape[0]), *output_shape[1:])
    out = conv_ops.conv2d_transpose(
        x,
        kernel,
        list(output_shape),
        [1, *strides, 1],
        padding=padding.upper(),
        dilations=[1, *dilation_rate, 1],
    )
    return array_ops.transpose(out, [0, 3, 1, 2]) if fmt == "channels_first" else out


def depthwise_conv2d(x: Any, depthwise_kernel: Any, strides: Any = (1, 1),
                     padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A depthwise 2-D convolution.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.depthwise_conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1])).shape.as_list()
    [1, 2, 2, 2]
    """
    fmt = data_format_of(data_format, "depthwise_conv2d")
    return nn_layers.depthwise_conv(x, depthwise_kernel, strides, padding, fmt, dilation_rate)


def separable_conv2d(x: Any, depthwise_kernel: Any, pointwise_kernel: Any,
                     strides: Any = (1, 1), padding: str = "valid", data_format: Any = None,
                     dilation_rate: Any = (1, 1)) -> Any:  # fmt: skip
    """A depthwise 2-D convolution, then a pointwise one.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.separable_conv2d(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]),
    ...                    rg.ones([1, 1, 2, 4])).shape.as_list()
    [1, 2, 2, 4]
    """
    fmt = data_format_of(data_format, "separable_conv2d")
    return nn_layers.separable_conv(
        x, depthwise_kernel, pointwise_kernel, strides, padding, fmt, dilation_rate
    )


def _pool(x, pool_size, strides, padding, data_format, pool_mode, what):
    fmt = data_format_of(data_format, what)
    if pool_mode == "max":
        return nn_layers.max_pool(x, pool_size, strides, padding, fmt)
    if pool_mode == "avg":
        return nn_layers.average_pool(x, pool_size, strides, padding, fmt)
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


def pool2d(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Any = None, pool_mode: str = "max") -> Any:  # fmt: skip
    """2-D max or average pooling (``pool_mode`` 'max' or 'avg').

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.keras.backend.pool2d(x, (2, 2), (2, 2))[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, "pool2d")


def pool3d(x: Any, pool_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: Any = None, pool_mode: str = "max") -> Any:  # fmt: skip
    """3-D max or average pooling.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.keras.backend.pool3d(x, (2, 2, 2), pool_mode='avg').numpy().ravel().tolist()
    [3.5]
    """
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, "pool3d")


def temporal_padding(x: Any, padding: Any = (1, 1)) -> Any:
    """Zeros before and after the steps of ``[batch, steps, features]``.

    >>> import retrograd as rg
    >>> rg.keras.backend.temporal_padding(rg.ones([1, 2, 1])).numpy().ravel().tolist()
    [0.0, 1.0, 1.0, 0.0]
    """
    if len(padding) != 2:
        raise ValueError(
            f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}"
        )
    return pad_ops.pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_2d_padding(x: Any, padding: Any = ((1, 1), (1, 1)), data_format: Any = None):
    """Zeros around the rows and columns of images.

    >>> import retrograd as rg
    >>> rg.keras.backend.spatial_2d_padding(rg.ones([1, 1, 1, 1])).shape.as_list()
    [1, 3, 3, 1]
    """
    if len(padding) != 2 or any(len(p) != 2 for p in padding):
        raise ValueError(
            "Expected `padding` to be a tuple of 2 tuples of 2 integers. Received: "
            f"padding={padding}"
        )
    spatial = [list(p) for p in padding]
    if data_format_of(data_format, "spatial_2d_padding") == "channels_first":
        return pad_ops.pad(x, [[0, 0], [0, 0], *spatial])
    return pad_ops.pad(x, [[0, 0], *spatial, [0, 0]])


def spatial_3d_padding(x: Any, padding: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None):
    """Zeros around the three spatial axes of volumes.

    >>> import retrograd as rg
    >>> rg.keras.backend.spatial_3d_padding(rg.ones([1, 1, 1, 1, 1])).shape.as_list()
    [1, 3, 3, 3, 1]
    """
    if len(padding) != 3 or any(len(p) != 2 for p in padding):
        raise ValueError(
            "Expected `padding` to be a tuple of 3 tuples of 2 integers. Received: "
            f"padding={padding}"
        )
    spatial = [list(p) for p in padding]
    if data_format_of(data_format, "spatial_3d_padding") == "channels_first":
        return pad_ops.pad(x, [[0, 0], [0, 0], *spatial])
    return pad_ops.pad(x, [[0, 0], *spatial, [0, 0]])
