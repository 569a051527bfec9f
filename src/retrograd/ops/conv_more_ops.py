"""The rest of tf.nn's convolutions and windows, built on conv1d/conv2d/conv3d, pooling and
space-to-batch: ``convolution``, ``conv_transpose``, ``conv1d_transpose``, ``atrous_conv2d``
(and its transpose), ``depthwise_conv2d`` (one conv2d with a block-diagonal filter) and its
two backprops, ``separable_conv2d``, ``with_space_to_batch``, ``pool``, ``dilation2d`` and
``erosion2d`` (grey-scale morphology: the maximum of shifted slices) and
``max_pool_with_argmax``. Their gradients are those of the ops they are made of.

>>> import retrograd as tf
>>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2])
>>> tf.nn.depthwise_conv2d(x, tf.ones([1, 1, 2, 1]), [1, 1, 1, 1], "VALID")[0, 0].numpy().tolist()
[[0.0, 1.0], [2.0, 3.0]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, window
from retrograd.ops.conv3d_ops import conv3d, conv3d_transpose
from retrograd.ops.conv_ops import conv1d, conv2d, conv2d_transpose
from retrograd.ops.scopes import op_scope

__all__ = [
    "atrous_conv2d", "atrous_conv2d_transpose", "conv1d_transpose", "conv_transpose",
    "convolution", "depthwise_conv2d", "depthwise_conv2d_backprop_filter",
    "depthwise_conv2d_backprop_input", "dilation2d", "erosion2d", "max_pool_with_argmax",
    "pool", "separable_conv2d", "with_space_to_batch",
]  # fmt: skip


def convolution(
    input: TensorLike,
    filters: TensorLike,
    strides: int | Sequence[int] | None = None,
    padding: str | Sequence[Sequence[int]] = "VALID",
    data_format: str | None = None,
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """conv1d, conv2d or conv3d, by the rank of ``filters`` (N spatial dimensions + 2).

    >>> import retrograd as tf
    >>> tf.nn.convolution(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1])).shape
    TensorShape([1, 2, 2, 1])
    """
    w = convert_to_tensor(filters)
    n = w._value.ndim - 2
    strides = 1 if strides is None else strides
    if n == 1:
        return conv1d(input, w, strides, padding, data_format or "NWC", dilations, name)
    if n == 2:
        return conv2d(input, w, strides, padding, data_format or "NHWC", dilations, name)
    if n == 3:
        return conv3d(input, w, strides, padding, data_format or "NDHWC", dilations, name)
    raise ValueError(f"`filters` must be 3-D, 4-D or 5-D (1 to 3 spatial dimensions), got {n + 2}")


def conv1d_transpose(
    input: TensorLike,
    filters: TensorLike,
    output_shape: ShapeLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]] = "SAME",
    data_format: str | None = "NWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The transpose of conv1d (a height-1 conv2d_transpose); ``filters`` [width,
    output_channels, in_channels].

    >>> import retrograd as tf
    >>> tf.nn.conv1d_transpose(tf.ones([1, 2, 1]), tf.ones([3, 1, 1]), [1, 4, 1], 2).numpy(
    ...     ).ravel().tolist()
    [1.0, 1.0, 2.0, 1.0]
    """
    first = window.channels_first("Conv1DBackpropInput", data_format, 1)
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    sizes = list(broadcast.static_shape(output_shape, "conv1d_transpose"))
    axis = -2 if first else -3
    (s,) = window.spatial("conv1d_transpose", "strides", strides, 1, first)
    (d,) = window.spatial("conv1d_transpose", "dilations", dilations or 1, 1, first)
    sizes.insert(len(sizes) + axis + 1, 1)
    y = conv2d_transpose(array_ops.expand_dims(x, axis), array_ops.expand_dims(w, 0), sizes,
                         (1, s), padding, "NCHW" if first else "NHWC", (1, d), name)  # fmt: skip
    return array_ops.squeeze(y, [axis])


def conv_transpose(
    input: TensorLike,
    filters: TensorLike,
    output_shape: ShapeLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]] = "SAME",
    data_format: str | None = None,
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """conv1d_transpose, conv2d_transpose or conv3d_transpose, by ``output_shape``'s rank.

    >>> import retrograd as tf
    >>> tf.nn.conv_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2).shape
    TensorShape([1, 4, 4, 1])
    """
    n = len(broadcast.static_shape(output_shape, "conv_transpose")) - 2
    args = (input, filters, output_shape, strides, padding)
    if n == 1:
        return conv1d_transpose(*args, data_format or "NWC", dilations, name)
    if n == 2:
        return conv2d_transpose(*args, data_format or "NHWC", dilations, name)
    if n == 3:
        return conv3d_transpose(*args, data_format or "NDHWC", dilations, name)
    raise ValueError(f"output_shape must be of length 3, 4 or 5 but was {n + 2}.")


def atrous_conv2d(
    value: object,
    filters: TensorLike,
    rate: int,
    padding: str | Sequence[Sequence[int]],
    name: str | None = None,
) -> Tensor:
    """conv2d with the filter's taps ``rate`` apart (dilated), stride 1.

    >>> import retrograd as tf
    >>> tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), 2, "VALID").shape
    TensorShape([1, 3, 3, 1])
    """
    return conv2d(value, filters, 1, padding, "NHWC", rate, name)


def atrous_conv2d_transpose(
    value: object,
    filters: TensorLike,
    output_shape: ShapeLike,
    rate: int,
    padding: str | Sequence[Sequence[int]],
    name: str | None = None,
) -> Tensor:
    """The transpose of atrous_conv2d.

    >>> import retrograd as tf
    >>> tf.nn.atrous_conv2d_transpose(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), [1, 5, 5, 1],
    ...                               2, "VALID").shape
    TensorShape([1, 5, 5, 1])
    """
    return conv2d_transpose(value, filters, output_shape, 1, padding, "NHWC", rate, name)


def _block_diagonal(w: Tensor) -> Tensor:
    """[h, w, C, M] depthwise filters as a conv2d filter [h, w, C, C * M] (zeros off block)."""
    from retrograd.ops.einsum_ops import einsum
    from retrograd.ops.matrix_diag_ops import eye

    h, wd, c, m = plain_dims(w.shape)
    full = einsum("hwcm,cd->hwcdm", w, eye(c, dtype=w.dtype))
    return array_ops.reshape(full, [h, wd, c, c * m])


def depthwise_conv2d(
    input: TensorLike,
    filter: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = None,
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """Each input channel convolved with its own ``filter`` [h, w, in_channels, multiplier]
    slices; output channel c * multiplier + m.

    >>> import retrograd as tf
    >>> tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 3]), [1, 1, 1, 1],
    ...                        "VALID").shape
    TensorShape([1, 2, 2, 6])
    """
    with op_scope(name or "depthwise"):
        w = convert_to_tensor(filter)
        if w._value.ndim != 4:
            raise ValueError(f"filter must be 4-D, got shape {list(w.shape)}")
        return conv2d(input, _block_diagonal(w), strides, padding, data_format or "NHWC",
                      dilations)  # fmt: skip


def depthwise_conv2d_backprop_input(
    input_sizes: ShapeLike,
    filter: TensorLike,
    out_backprop: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = (1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The gradient of depthwise_conv2d for its input, of shape ``input_sizes``.

    >>> import retrograd as tf
    >>> tf.nn.depthwise_conv2d_backprop_input([1, 3, 3, 1], tf.ones([2, 2, 1, 1]),
    ...     tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], "VALID")[0, :, :, 0].numpy().tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    w = _block_diagonal(convert_to_tensor(filter))
    return conv2d_transpose(out_backprop, w, input_sizes, strides, padding, data_format,
                            dilations, name)  # fmt: skip


def depthwise_conv2d_backprop_filter(
    input: TensorLike,
    filter_sizes: ShapeLike,
    out_backprop: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = (1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The gradient of depthwise_conv2d for its filter, of shape ``filter_sizes``.

    >>> import retrograd as tf
    >>> tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 3, 3, 1]), [2, 2, 1, 1],
    ...     tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], "VALID")[:, :, 0, 0].numpy().tolist()
    [[4.0, 4.0], [4.0, 4.0]]
    """
    from retrograd.ops import conv_ops
    from retrograd.ops.einsum_ops import einsum
    from retrograd.ops.matrix_diag_ops import eye

    op_type = "DepthwiseConv2dNativeBackpropFilter"
    x = convert_to_tensor(input)
    dy = convert_to_tensor(out_backprop, x.dtype)
    first = window.channels_first(op_type, data_format, 2)
    if first:
        x, dy = array_ops.transpose(x, (0, 2, 3, 1)), array_ops.transpose(dy, (0, 2, 3, 1))
    kh, kw, c, m = broadcast.static_shape(filter_sizes, op_type)
    attrs, _ = conv_ops._window_attrs(op_type, plain_dims(x.shape)[1:3], (kh, kw), strides, padding,
                                      dilations, first)  # fmt: skip
    full = conv_ops._backprop_filter(x, (kh, kw, c, c * m), dy, attrs, name)  # the dense filter's
    blocks = array_ops.reshape(full, [kh, kw, c, c, m])
    return einsum("hwcdm,cd->hwcm", blocks, eye(c, dtype=x.dtype))


def separable_conv2d(
    input: TensorLike,
    depthwise_filter: TensorLike,
    pointwise_filter: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = None,
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """depthwise_conv2d, then a 1x1 conv2d with ``pointwise_filter`` [1, 1, C * M, out].

    >>> import retrograd as tf
    >>> tf.nn.separable_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 1]),
    ...                        tf.ones([1, 1, 2, 4]), [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 4])
    """
    with op_scope(name or "separable_conv2d"):
        depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                     dilations)  # fmt: skip
        return conv2d(depthwise, pointwise_filter, 1, "VALID", data_format or "NHWC")


def with_space_to_batch(
    input: TensorLike,
    dilation_rate: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    op: Callable,
    filter_shape: ShapeLike | None = None,
    spatial_dims: Sequence[int] | None = None,
    data_format: str | None = None,
) -> Tensor:
    """``op(converted, num_spatial_dims, padding)`` applied after space_to_batch_nd with
    blocks of ``dilation_rate`` (and batch_to_space_nd after), which makes an op on
    neighbouring positions act on positions ``dilation_rate`` apart. Channels-last only.

    >>> import retrograd as tf
    >>> pool = lambda x, n, p: tf.nn.max_pool(x, 2, 1, p)
    >>> tf.nn.with_space_to_batch(tf.ones([1, 4, 4, 1]), [2, 2], "VALID", pool).shape
    TensorShape([1, 2, 2, 1])
    """
    from retrograd.ops.space_batch_ops import (
        batch_to_space,
        required_space_to_batch_paddings,
        space_to_batch_nd,
    )

    x = convert_to_tensor(input)
    rate = [int(r) for r in np.ravel(dilation_rate)]
    n = len(rate)
    if data_format is not None and data_format.startswith("NC"):
        raise ValueError("with_space_to_batch: channels-first data formats are not supported")
    if spatial_dims is not None and list(spatial_dims) != list(range(1, n + 1)):
        raise ValueError("with_space_to_batch: spatial_dims must be 1..N (channels last)")
    if all(r == 1 for r in rate):
        return op(x, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        extra = [(int(k) - 1) * r for k, r in zip(np.ravel(filter_shape)[:n], rate)]
        base = [[e // 2, e - e // 2] for e in extra]
    elif padding == "VALID":
        base = [[0, 0]] * n
    else:
        raise ValueError(f"Invalid padding method {padding!r}")
    paddings, crops = required_space_to_batch_paddings(plain_dims(x.shape)[1 : n + 1], rate, base)
    converted = space_to_batch_nd(x, rate, paddings)
    return batch_to_space(op(converted, n, "VALID"), rate, crops)


def pool(
    input: TensorLike,
    window_shape: int | Sequence[int],
    pooling_type: str,
    strides: int | Sequence[int] | None = None,
    padding: str | Sequence[Sequence[int]] = "VALID",
    data_format: str | None = None,
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """Max or average pooling (``pooling_type`` "MAX" or "AVG") over N-D windows, possibly
    dilated (then with stride 1, through with_space_to_batch).

    >>> import retrograd as tf
    >>> tf.nn.pool(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), [2, 2], "MAX", strides=[2, 2]
    ...            )[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    from retrograd.ops.pool_ops import avg_pool, max_pool

    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"Invalid pooling_type: {pooling_type}")
    pooling = max_pool if pooling_type == "MAX" else avg_pool
    window_shape = [int(k) for k in np.ravel(window_shape)]
    n = len(window_shape)
    strides = [1] * n if strides is None else [int(s) for s in np.ravel(strides)]
    dilations = [1] * n if dilations is None else [int(d) for d in np.ravel(dilations)]
    if any(d != 1 for d in dilations):
        if padding == "SAME":
            raise ValueError(
                "pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. "
                f"Received: padding={padding} and dilation_rate={np.array(dilations)}"
            )
        if any(s != 1 for s in strides):
            raise ValueError("strides > window_shape not supported due to inconsistency "
                             "between CPU and GPU implementations")  # fmt: skip
        return with_space_to_batch(
            input, dilations, padding,
            lambda x, _, p: pooling(x, window_shape, 1, p, data_format),
            filter_shape=window_shape,
        )  # fmt: skip
    return pooling(input, window_shape, strides, padding, data_format, name)


def dilation2d(
    input: TensorLike,
    filters: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """Grey-scale dilation: the maximum over each window of input + ``filters`` [h, w, C]
    (taps ``dilations`` apart; NHWC).

    >>> import retrograd as tf
    >>> tf.nn.dilation2d(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), tf.zeros([2, 2, 1]),
    ...                  [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]).numpy().ravel().tolist()
    [3.0]
    """
    from retrograd.ops.pad_ops import pad
    from retrograd.ops.reduction_ops import reduce_max

    if data_format not in ("NHWC", None):
        raise ValueError(f"Data formats other than NHWC are not yet supported, got {data_format}")
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    x_shape, (kh, kw, _) = plain_dims(x.shape), plain_dims(w.shape)
    strides = window.spatial("Dilation2D", "strides", strides, 2, False)
    rates = window.spatial("Dilation2D", "dilations", dilations or 1, 2, False)
    pads, outs = window.resolve_padding("Dilation2D", padding, x_shape[1:3], (kh, kw), strides,
                                        rates, False)  # fmt: skip
    lowest = float(np.finfo(x.dtype.as_numpy_dtype).min)
    xp = pad(x, [[0, 0], *pads, [0, 0]], constant_values=lowest)
    taps = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * rates[0], j * rates[1]
            sliced = xp[:, r0 : r0 + (outs[0] - 1) * strides[0] + 1 : strides[0],
                        c0 : c0 + (outs[1] - 1) * strides[1] + 1 : strides[1], :]  # fmt: skip
            taps.append(sliced + w[i, j])
    with op_scope(name or "dilation2d"):
        return reduce_max(array_ops.stack(taps, 0), 0)


def erosion2d(
    value: object,
    filters: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """Grey-scale erosion: the minimum over each window of value - the reflected ``filters``.

    >>> import retrograd as tf
    >>> tf.nn.erosion2d(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), tf.zeros([2, 2, 1]),
    ...                 [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]).numpy().ravel().tolist()
    [0.0]
    """
    from retrograd.ops.rearrange_ops import reverse

    flipped = reverse(convert_to_tensor(filters), [0, 1])
    negated = dilation2d(-convert_to_tensor(value), flipped, strides, padding, data_format,
                         dilations, name)  # fmt: skip
    return 0.0 - negated  # (0 - v, not -v: no negative zeros)


def _argmax_kernel(x, ksize, strides, explicit_paddings, include_batch_in_index, dtype):
    n, h, w, c = x.shape
    xp = window.pad(x, explicit_paddings, np.finfo(x.dtype).min if x.dtype.kind == "f" else 0)
    outs = window.out_sizes(xp.shape[1:3], ksize, strides)
    view = window.windows(xp, ksize, strides, (1, 1), outs)  # (n, oh, ow, c, kh, kw)
    flat = view.reshape(*view.shape[:4], -1)
    best = np.argmax(flat, axis=-1)
    (top, _), (left, _) = explicit_paddings
    rows = np.arange(outs[0])[None, :, None, None] * strides[0] + best // ksize[1] - top
    cols = np.arange(outs[1])[None, None, :, None] * strides[1] + best % ksize[1] - left
    index = (rows * w + cols) * c + np.arange(c)
    if include_batch_in_index:
        index = index + np.arange(n)[:, None, None, None] * (h * w * c)
    return index.astype(dtype.as_numpy_dtype)


_MaxPoolArgmax = define_op("MaxPoolArgmax", _argmax_kernel)
no_gradient("MaxPoolArgmax")


def max_pool_with_argmax(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    output_dtype: DTypeLike = dtypes.int64,
    include_batch_in_index: bool = False,
    name: str | None = None,
) -> tuple:
    """max_pool (NHWC) and where each maximum was, as a flat index ((y * width + x) *
    channels + c, plus b * height * width * channels with ``include_batch_in_index``).

    >>> import retrograd as tf
    >>> out, at = tf.nn.max_pool_with_argmax(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), 2, 2,
    ...                                      "VALID")
    >>> out.numpy().ravel().tolist(), at.numpy().ravel().tolist()
    ([3.0], [3])
    """
    from retrograd.ops.pool_ops import max_pool

    if data_format != "NHWC":
        raise ValueError(f"Data formats other than 'NHWC' are not yet supported, got {data_format}")
    x = convert_to_tensor(input)
    ksize_ = window.spatial("MaxPoolWithArgmax", "ksize", ksize, 2, False)
    strides_ = window.spatial("MaxPoolWithArgmax", "strides", strides, 2, False)
    pads, _ = window.resolve_padding("MaxPoolWithArgmax", padding, plain_dims(x.shape)[1:3], ksize_,
                                     strides_, (1, 1), False)  # fmt: skip
    values = max_pool(x, ksize_, strides_, padding, "NHWC", name)
    attrs = {"ksize": ksize_, "strides": strides_, "explicit_paddings": pads,
             "include_batch_in_index": bool(include_batch_in_index),
             "dtype": dtypes.as_dtype(output_dtype)}  # fmt: skip
    return values, execute(_MaxPoolArgmax, (x,), attrs, None)
