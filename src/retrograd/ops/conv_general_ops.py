"""TensorFlow's general convolution entry points: ``tf.conv`` (N-D, with batch dimensions
and groups), ``tf.conv2d_backprop_filter_v2``/``input_v2`` (the two gradients of conv2d,
given the shape-giving tensor) and ``tf.extract_volume_patches`` (3-D windows flattened
into the channel dimension: a conv3d with one-hot filters, so it differentiates).

>>> import retrograd as tf
>>> tf.extract_volume_patches(tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1]), [1, 2, 2, 2, 1],
...                           [1, 1, 1, 1, 1], "VALID").numpy().ravel().tolist()
[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, window
from retrograd.ops.conv3d_ops import conv3d
from retrograd.ops.conv_ops import conv1d, conv2d, conv2d_transpose

__all__ = ["conv", "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2",
           "extract_volume_patches"]  # fmt: skip


def conv(
    input: TensorLike,
    filter: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    explicit_paddings: Sequence[int] = (),
    data_format: str | None = "CHANNELS_LAST",
    dilations: int | Sequence[int] | None = (),
    batch_dims: int = 1,
    groups: int = 1,
    name: str | None = None,
) -> Tensor:
    """An N-D convolution (N from ``filter``'s rank) after ``batch_dims`` batch dimensions,
    channels last (``CHANNELS_LAST``) or first; ``groups`` splits the channels into
    independent convolutions.

    >>> import retrograd as tf
    >>> tf.conv(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 1, 4]), [1, 1, 1, 1], "VALID",
    ...         groups=2).shape
    TensorShape([1, 2, 2, 4])
    """
    x, w = convert_to_tensor(input), convert_to_tensor(filter)
    n = w.ndim - 2
    first = data_format in ("CHANNELS_FIRST", "NCHW", "NCW", "NCDHW")
    if first:
        x = array_ops.transpose(x, [*range(batch_dims), *range(batch_dims + 1, x.ndim), batch_dims])
    batch = list(x.shape[:batch_dims])
    x = array_ops.reshape(x, [math.prod(batch), *x.shape[batch_dims:]])
    strides = list(np.ravel(strides)) if np.size(strides) else 1
    if isinstance(strides, list) and len(strides) == n + 2 and first:
        strides = [strides[0], *strides[2:], strides[1]]
    dilations = list(np.ravel(dilations)) if np.size(dilations) else None
    if isinstance(padding, str) and padding == "EXPLICIT":
        padding = [list(p) for p in np.reshape(explicit_paddings, (-1, 2))]
    op = {1: conv1d, 2: conv2d, 3: conv3d}.get(n)
    if op is None:
        raise ValueError(f"filter must have 3 to 5 dimensions, got {n + 2}")
    channels, per_group = int(x.shape[-1]), int(w.shape[-2])
    if channels != per_group * groups:
        raise InvalidArgumentError(
            f"Depth of input ({channels}) is not a multiple of input depth of filter "
            f"({per_group}) and groups ({groups})"
        )
    out_per_group = int(w.shape[-1]) // groups
    pieces = [
        op(x[..., g * per_group : (g + 1) * per_group],
           w[..., g * out_per_group : (g + 1) * out_per_group], strides, padding,
           dilations=dilations)
        for g in range(groups)
    ]  # fmt: skip
    y = pieces[0] if groups == 1 else array_ops.concat(pieces, -1)
    y = array_ops.reshape(y, [*batch, *y.shape[1:]])
    if first:
        y = array_ops.transpose(y, [*range(batch_dims), y.ndim - 1, *range(batch_dims, y.ndim - 1)])
    return array_ops.identity(y, name=name) if name else y


def conv2d_backprop_filter_v2(
    input: TensorLike,
    filter: TensorLike,
    out_backprop: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    use_cudnn_on_gpu: bool = True,
    explicit_paddings: Sequence[int] = (),
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = (1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The gradient of conv2d for its filter, of ``filter``'s shape.

    >>> import retrograd as tf
    >>> tf.conv2d_backprop_filter_v2(tf.ones([1, 3, 3, 1]), tf.zeros([2, 2, 1, 1]),
    ...     tf.ones([1, 2, 2, 1]), 1, "VALID")[:, :, 0, 0].numpy().tolist()
    [[4.0, 4.0], [4.0, 4.0]]
    """
    from retrograd.ops import conv_ops

    x = convert_to_tensor(input)
    dy = convert_to_tensor(out_backprop, x.dtype)
    first = window.channels_first("Conv2DBackpropFilter", data_format, 2)
    if first:
        x, dy = array_ops.transpose(x, (0, 2, 3, 1)), array_ops.transpose(dy, (0, 2, 3, 1))
    if isinstance(padding, str) and padding == "EXPLICIT":
        padding = [list(p) for p in np.reshape(explicit_paddings, (-1, 2))]
    sizes = tuple(int(d) for d in convert_to_tensor(filter).shape)
    attrs, _ = conv_ops._window_attrs("Conv2DBackpropFilter", tuple(x.shape[1:3]), sizes[:2],
                                      strides, padding, dilations, first)  # fmt: skip
    return conv_ops._backprop_filter(x, sizes, dy, attrs, name)


def conv2d_backprop_input_v2(
    input: TensorLike,
    filter: TensorLike,
    out_backprop: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    use_cudnn_on_gpu: bool = True,
    explicit_paddings: Sequence[int] = (),
    data_format: str | None = "NHWC",
    dilations: int | Sequence[int] | None = (1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The gradient of conv2d for its input, of ``input``'s shape.

    >>> import retrograd as tf
    >>> tf.conv2d_backprop_input_v2(tf.zeros([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]),
    ...     tf.ones([1, 2, 2, 1]), 1, "VALID")[0, :, :, 0].numpy().tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    if isinstance(padding, str) and padding == "EXPLICIT":
        padding = [list(p) for p in np.reshape(explicit_paddings, (-1, 2))]
    shape = [int(d) for d in convert_to_tensor(input).shape]
    return conv2d_transpose(out_backprop, filter, shape, strides, padding, data_format,
                            dilations, name)  # fmt: skip


def extract_volume_patches(
    input: TensorLike,
    ksizes: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str,
    name: str | None = None,
) -> Tensor:
    """Each ``ksizes`` window of a [batch, depth, height, width, channels] tensor, flattened
    (depth, height, width, channel order) into the last dimension.

    >>> import retrograd as tf
    >>> tf.extract_volume_patches(tf.ones([1, 3, 3, 3, 2]), [1, 2, 2, 2, 1], [1, 1, 1, 1, 1],
    ...                           "SAME").shape
    TensorShape([1, 3, 3, 3, 16])
    """
    from retrograd.ops.matrix_diag_ops import eye

    x = convert_to_tensor(input)
    ksize = window.spatial("ExtractVolumePatches", "ksizes", ksizes, 3, False)
    c = int(x.shape[-1])
    taps = math.prod(ksize) * c
    one_hot = array_ops.reshape(eye(taps, dtype=x.dtype), [*ksize, c, taps])
    return conv3d(x, one_hot, strides, padding, name=name)
