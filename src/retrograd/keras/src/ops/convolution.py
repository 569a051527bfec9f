"""Convolutions of any spatial rank for ``keras.ops`` (channels last): ``conv_nd``,
``depthwise_nd`` and ``conv_transpose_nd``. One- and two-dimensional plain convolutions use
TensorFlow's ``Conv2D`` ops; the others (three dimensions, groups, depthwise filters,
transposes with dilation or output padding) are built from slices: each filter tap reads a
strided window of the padded input (``windows``), and a transpose places each tap's
contribution back (``place``). Every step is a differentiable op, so gradients of any order
follow.

>>> import retrograd as rg
>>> from retrograd.keras.src.ops import convolution
>>> convolution.conv_nd(rg.ones([1, 4, 4, 4, 1]), rg.ones([2, 2, 2, 1, 1]), 1, "valid", 1).shape
TensorShape([1, 3, 3, 3, 1])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.ops import array_ops, conv_ops, einsum_ops, join_ops, linalg_ops, pad_ops

__all__ = ["spatial_tuple", "conv_nd", "depthwise_nd", "conv_transpose_nd", "transpose_length"]


def spatial_tuple(value: Any, n: int, what: str) -> tuple[int, ...]:
    """``value`` (an int or ``n`` ints) as ``n`` ints."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"`{what}` must have {n} elements, got {value}")
    return value


def _same_pads(sizes: tuple, ksize: tuple, strides: tuple, dilation: tuple) -> list[list[int]]:
    pads = []
    for size, k, s, d in zip(sizes, ksize, strides, dilation):
        span = (k - 1) * d + 1
        out = -(-size // s)
        total = max((out - 1) * s + span - size, 0)
        pads.append([total // 2, total - total // 2])
    return pads


def _pad_spatial(x: Any, pads: list[list[int]]) -> Any:
    if not any(a or b for a, b in pads):
        return x
    return pad_ops.pad(x, [[0, 0], *pads, [0, 0]])


def windows(x: Any, ksize: tuple, strides: tuple, dilation: tuple, padding: str) -> Any:
    """The input window each output position sees, per filter tap: ``(N, *out, taps, C)``."""
    sizes = tuple(x.shape.as_list()[1:-1])
    pads = (
        _same_pads(sizes, ksize, strides, dilation)
        if padding == "same"
        else [[0, 0] for _ in sizes]
    )
    x = _pad_spatial(x, pads)
    padded = x.shape.as_list()[1:-1]
    outs = [
        (p - ((k - 1) * d + 1)) // s + 1 for p, k, s, d in zip(padded, ksize, strides, dilation)
    ]
    if min(outs) <= 0:
        raise ValueError(
            "The convolution operation resulted in an empty output. Input spatial shape "
            f"{sizes}, kernel {ksize}, strides {strides}, dilation {dilation}, padding {padding}"
        )
    taps = []
    for offset in np.ndindex(*ksize):
        index = (slice(None),) + tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s)
            for o, d, s, n in zip(offset, dilation, strides, outs)
        )
        taps.append(x[index + (slice(None),)])
    return join_ops.stack(taps, axis=-2)


def conv_nd(x: Any, w: Any, strides: Any, padding: str, dilation: Any, groups: int = 1) -> Any:
    """A convolution of ``x`` (``(N, *spatial, C)``) with ``w`` (``(*k, C // groups, F)``)."""
    n = x.shape.rank - 2
    ksize = tuple(w.shape.as_list()[:n])
    strides = spatial_tuple(strides, n, "strides")
    dilation = spatial_tuple(dilation, n, "dilation_rate")
    in_channels, per_group = x.shape.as_list()[-1], w.shape.as_list()[-2]
    if in_channels % per_group:
        raise ValueError(
            f"The number of input channels ({in_channels}) must be a multiple of the kernel's "
            f"input channels ({per_group})"
        )
    groups = in_channels // per_group
    tf_padding = padding.upper()
    if groups == 1 and n == 2:
        return conv_ops.conv2d(x, w, strides, tf_padding, dilations=dilation)
    if groups == 1 and n == 1:
        return conv_ops.conv1d(x, w, strides[0], tf_padding, dilations=dilation[0])
    patches = windows(x, ksize, strides, dilation, padding)
    taps = int(math.prod(ksize))
    filters = w.shape.as_list()[-1]
    if groups == 1:
        flat = array_ops.reshape(patches, patches.shape.as_list()[:-2] + [taps * in_channels])
        return linalg_ops.tensordot(flat, array_ops.reshape(w, [taps * in_channels, filters]), 1)
    shape = patches.shape.as_list()[:-1] + [groups, per_group]
    grouped = array_ops.reshape(patches, shape)  # (N, *out, taps, G, c)
    kernel = array_ops.reshape(w, [taps, per_group, groups, filters // groups])
    out = einsum_ops.einsum("...tgc,tcgf->...gf", grouped, kernel)
    return array_ops.reshape(out, out.shape.as_list()[:-2] + [filters])


def depthwise_nd(x: Any, w: Any, strides: Any, padding: str, dilation: Any) -> Any:
    """A depthwise convolution: ``w`` is ``(*k, C, M)``; output channel ``c * M + m``."""
    n = x.shape.rank - 2
    ksize = tuple(w.shape.as_list()[:n])
    strides = spatial_tuple(strides, n, "strides")
    dilation = spatial_tuple(dilation, n, "dilation_rate")
    patches = windows(x, ksize, strides, dilation, padding)
    taps = int(math.prod(ksize))
    channels, multiplier = w.shape.as_list()[-2:]
    kernel = array_ops.reshape(w, [taps, channels, multiplier])
    out = einsum_ops.einsum("...tc,tcm->...cm", patches, kernel)
    return array_ops.reshape(out, out.shape.as_list()[:-2] + [channels * multiplier])


def transpose_length(
    length: int, kernel: int, padding: str, output_padding: Any, stride: int, dilation: int
) -> int:
    """Keras' output length of a transposed convolution."""
    span = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return length * stride + max(span - stride, 0)
        return length * stride
    pad = span // 2 if padding == "same" else 0
    return (length - 1) * stride + span - 2 * pad + output_padding


def place(t: Any, axis: int, start: int, stride: int, total: int) -> Any:
    """``t`` spread along ``axis`` with ``stride - 1`` zeros between its entries, after
    ``start`` zeros, padded with zeros to ``total`` entries."""
    shape = t.shape.as_list()
    count = shape[axis]
    if stride > 1:
        zeros = array_ops.zeros_like(t)
        t = join_ops.stack([t] + [zeros] * (stride - 1), axis=axis + 1)
        shape_spread = shape[:axis] + [count * stride] + shape[axis + 1 :]
        t = array_ops.reshape(t, shape_spread)
        keep = [slice(None)] * len(shape)
        keep[axis] = slice(0, (count - 1) * stride + 1)
        t = t[tuple(keep)]
    used = (count - 1) * stride + 1
    pads = [[0, 0] for _ in shape]
    pads[axis] = [start, total - start - used]
    return pad_ops.pad(t, pads)


def conv_transpose_nd(
    y: Any,
    w: Any,
    strides: Any,
    padding: str,
    output_padding: Any,
    dilation: Any,
) -> Any:
    """The transpose (gradient with respect to the input) of a convolution: ``y`` is
    ``(N, *spatial, C_in)``, ``w`` is ``(*k, C_out, C_in)``."""
    n = y.shape.rank - 2
    ksize = tuple(w.shape.as_list()[:n])
    strides = spatial_tuple(strides, n, "strides")
    dilation = spatial_tuple(dilation, n, "dilation_rate")
    pads_out = (
        [None] * n
        if output_padding is None
        else list(spatial_tuple(output_padding, n, "output_padding"))
    )
    sizes_in = y.shape.as_list()[1:-1]
    sizes = [
        transpose_length(length, k, padding, p, s, d)
        for length, k, p, s, d in zip(sizes_in, ksize, pads_out, strides, dilation)
    ]
    batch = y.shape.as_list()[0]
    filters, channels = w.shape.as_list()[-2:]
    if n == 2 and dilation == (1, 1) and output_padding is None:
        return conv_ops.conv2d_transpose(y, w, [batch, *sizes, filters], strides, padding.upper())
    pads = []
    for size, k, s, d, count in zip(sizes, ksize, strides, dilation, sizes_in):
        span = (k - 1) * d + 1
        total = max((count - 1) * s + span - size, 0) if padding == "same" else 0
        pads.append(total // 2)
    padded = [
        max(size + pad, (count - 1) * s + (k - 1) * d + 1)
        for size, pad, count, s, k, d in zip(sizes, pads, sizes_in, strides, ksize, dilation)
    ]
    total = None
    for offset in np.ndindex(*ksize):
        contribution = linalg_ops.tensordot(y, array_ops.transpose(w[offset], [1, 0]), 1)
        for axis, (o, d, s, p) in enumerate(zip(offset, dilation, strides, padded)):
            contribution = place(contribution, axis + 1, o * d, s, p)
        total = contribution if total is None else total + contribution
    crop = (slice(None),) + tuple(slice(p, p + size) for p, size in zip(pads, sizes))
    return total[crop + (slice(None),)]
