"""``keras.ops`` neural-network functions, continued (``keras.ops.nn``): the
cross-entropies, ``psnr``, and block rearrangements (``space_to_depth``/``depth_to_space``,
``unfold``/``fold``).

>>> import numpy as np
>>> from retrograd.keras import ops
>>> round(float(ops.binary_crossentropy([1.0], [0.5])[0]), 4)
0.6931
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.ops import convolution, tensors
from retrograd.keras.src.ops.nn_layers import _format, _from_last, _to_last
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import array_ops, math_ops, nn_losses, pad_ops, reduction_ops

__all__ = [
    "unfold",
    "fold",
    "binary_crossentropy",
    "categorical_crossentropy",
    "sparse_categorical_crossentropy",
    "psnr",
    "space_to_depth",
    "depth_to_space",
]


def _same_shapes(target: Any, output: Any, rank_only: bool = False) -> None:
    if target.shape.rank != output.shape.rank:
        raise ValueError(
            "Arguments `target` and `output` must have the same rank (ndim). Received: "
            f"target.shape={tuple(target.shape.as_list())}, "
            f"output.shape={tuple(output.shape.as_list())}"
        )
    if not rank_only and target.shape.as_list() != output.shape.as_list():
        raise ValueError(
            "Arguments `target` and `output` must have the same shape. Received: "
            f"target.shape={tuple(target.shape.as_list())}, "
            f"output.shape={tuple(output.shape.as_list())}"
        )


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """The elementwise binary cross-entropy (``output`` probabilities clipped to
    ``[epsilon, 1 - epsilon]`` unless ``from_logits``).

    >>> round(float(binary_crossentropy([1.0], [0.5])[0]), 4)
    0.6931
    """
    if any_symbolic(target, output):
        return symbolic_call(binary_crossentropy, target, output, from_logits)
    y, p = tensors.convert(target), tensors.convert(output)
    y = math_ops.cast(y, p.dtype)
    _same_shapes(y, p)
    if from_logits:
        return nn_losses.sigmoid_cross_entropy_with_logits(labels=y, logits=p)
    eps = backend.epsilon()
    p = math_ops.maximum(math_ops.minimum(p, 1.0 - eps), eps)
    return -(y * math_ops.log(p) + (1 - y) * math_ops.log(1 - p))


def categorical_crossentropy(
    target: Any, output: Any, from_logits: bool = False, axis: int = -1
) -> Any:
    """The cross-entropy of one-hot (or soft) ``target`` and the distributions ``output``
    along ``axis`` (renormalised and clipped unless ``from_logits``).

    >>> round(float(categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])[0]), 4)
    0.6931
    """
    if any_symbolic(target, output):
        return symbolic_call(categorical_crossentropy, target, output, from_logits, axis)
    y, p = tensors.convert(target), tensors.convert(output)
    y = math_ops.cast(y, p.dtype)
    if y.shape.rank < 1:
        raise ValueError(
            "Arguments `target` and `output` must be at least rank 1. Received: "
            f"target.shape={tuple(y.shape.as_list())}, output.shape={tuple(p.shape.as_list())}"
        )
    _same_shapes(y, p)
    if from_logits:
        return nn_losses.softmax_cross_entropy_with_logits(labels=y, logits=p, axis=axis)
    p = p / reduction_ops.reduce_sum(p, axis, keepdims=True)
    eps = backend.epsilon()
    p = math_ops.maximum(math_ops.minimum(p, 1.0 - eps), eps)
    return -reduction_ops.reduce_sum(y * math_ops.log(p), axis)


def sparse_categorical_crossentropy(
    target: Any, output: Any, from_logits: bool = False, axis: int = -1
) -> Any:
    """The cross-entropy of integer labels ``target`` and the distributions ``output``.

    >>> round(float(sparse_categorical_crossentropy([1], [[0.5, 0.5]])[0]), 4)
    0.6931
    """
    if any_symbolic(target, output):
        return symbolic_call(sparse_categorical_crossentropy, target, output, from_logits, axis)
    p = tensors.convert(output)
    if axis != -1 and axis != p.shape.rank - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    y = math_ops.cast(tensors.convert(target), "int64")
    if y.shape.rank == p.shape.rank and y.shape.as_list()[-1] == 1:
        y = array_ops.squeeze(y, [y.shape.rank - 1])
    if y.shape.rank != p.shape.rank - 1:
        raise ValueError(
            "Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
            f"target.shape={tuple(y.shape.as_list())}, output.shape={tuple(p.shape.as_list())}"
        )
    if not from_logits:
        eps = backend.epsilon()
        p = math_ops.log(math_ops.maximum(math_ops.minimum(p, 1.0 - eps), eps))
    return nn_losses.sparse_softmax_cross_entropy_with_logits(labels=y, logits=p)


def psnr(x1: Any, x2: Any, max_val: Any) -> Any:
    """The peak signal-to-noise ratio (dB) of two images of values up to ``max_val``.

    >>> round(float(psnr([0.0, 1.0], [0.0, 0.9], 1.0)), 3)
    23.01
    """
    if any_symbolic(x1, x2):
        return symbolic_call(psnr, x1, x2, max_val)
    a, b = tensors.convert(x1), tensors.convert(x2)
    if a.shape.as_list() != b.shape.as_list():
        raise ValueError(
            f"Input shapes {tuple(a.shape.as_list())} and {tuple(b.shape.as_list())} must "
            "match for PSNR calculation. "
        )
    peak = tensors.convert(max_val, b.dtype)
    mse = reduction_ops.reduce_mean(math_ops.square(a - b))
    ten = math_ops.log(tensors.convert(10.0, b.dtype))
    return 20 * math_ops.log(peak) / ten - 10 * math_ops.log(mse) / ten


def space_to_depth(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    """Each ``block_size x block_size`` block of pixels moved into the channels.

    >>> space_to_depth(np.ones((1, 4, 4, 1), "float32"), 2).shape
    TensorShape([1, 2, 2, 4])
    """
    if any_symbolic(x):
        return symbolic_call(space_to_depth, x, block_size, data_format)
    fmt = _format(data_format)
    t = _to_last(tensors.convert(x), fmt)
    n, h, w, c = t.shape.as_list()
    b = int(block_size)
    t = array_ops.reshape(t, [n, h // b, b, w // b, b, c])
    t = array_ops.transpose(t, [0, 1, 3, 2, 4, 5])
    return _from_last(array_ops.reshape(t, [n, h // b, w // b, b * b * c]), fmt)


def depth_to_space(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    """The channels moved into ``block_size x block_size`` blocks of pixels.

    >>> depth_to_space(np.ones((1, 2, 2, 4), "float32"), 2).shape
    TensorShape([1, 4, 4, 1])
    """
    if any_symbolic(x):
        return symbolic_call(depth_to_space, x, block_size, data_format)
    fmt = _format(data_format)
    t = _to_last(tensors.convert(x), fmt)
    n, h, w, c = t.shape.as_list()
    b = int(block_size)
    t = array_ops.reshape(t, [n, h, w, b, b, c // (b * b)])
    t = array_ops.transpose(t, [0, 1, 3, 2, 4, 5])
    return _from_last(array_ops.reshape(t, [n, h * b, w * b, c // (b * b)]), fmt)


def _pair(value: Any) -> tuple[int, int]:
    return (int(value), int(value)) if isinstance(value, (int, np.integer)) else tuple(value)


def unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    """The sliding ``kernel_size`` blocks of a ``(N, C, H, W)`` image as columns:
    ``(N, C * kh * kw, blocks)`` (PyTorch's ``unfold``, im2col).

    >>> unfold(np.arange(9, dtype="float32").reshape(1, 1, 3, 3), 2).numpy()[0, :, 0].tolist()
    [0.0, 1.0, 3.0, 4.0]
    """
    if any_symbolic(x):
        return symbolic_call(unfold, x, kernel_size, dilation, padding, stride)
    k, d, p, s = (_pair(v) for v in (kernel_size, dilation, padding, stride))
    t = tensors.convert(x)
    n, c = t.shape.as_list()[:2]
    t = array_ops.transpose(t, [0, 2, 3, 1])
    if any(p):
        t = pad_ops.pad(t, [[0, 0], [p[0], p[0]], [p[1], p[1]], [0, 0]])
    blocks = convolution.windows(t, k, s, d, "valid")  # (N, nH, nW, kh * kw, C)
    rows, cols = blocks.shape.as_list()[1:3]
    blocks = array_ops.transpose(blocks, [0, 4, 3, 1, 2])
    return array_ops.reshape(blocks, [n, c * k[0] * k[1], rows * cols])


def fold(
    x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Any:
    """The inverse arrangement of ``unfold`` (col2im): the columns ``(N, C * kh * kw,
    blocks)`` summed back into a ``(N, C, *output_size)`` image.

    >>> fold(np.ones((1, 4, 4), "float32"), 3, 2).numpy()[0, 0].tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    if any_symbolic(x):
        return symbolic_call(fold, x, output_size, kernel_size, dilation, padding, stride)
    k, o, d, p, s = (_pair(v) for v in (kernel_size, output_size, dilation, padding, stride))
    t = tensors.convert(x)
    n, depth = t.shape.as_list()[:2]
    channels = depth // (k[0] * k[1])
    rows = (o[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    cols = (o[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    t = array_ops.reshape(t, [n, channels, k[0], k[1], rows, cols])
    height, width = o[0] + 2 * p[0], o[1] + 2 * p[1]
    total = None
    for i in range(k[0]):
        for j in range(k[1]):
            piece = convolution.place(t[:, :, i, j], 2, i * d[0], s[0], height)
            piece = convolution.place(piece, 3, j * d[1], s[1], width)
            total = piece if total is None else total + piece
    return total[:, :, p[0] : p[0] + o[0], p[1] : p[1] + o[1]]
