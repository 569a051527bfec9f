"""``keras.ops.image.resize`` with TensorFlow's resampling: half-pixel nearest, bilinear
and Keys bicubic (TensorFlow's 1024-entry coefficient table, out-of-image taps dropped
and the rest renormalised), area averaging, and the kernel resampling of
``scale_and_translate`` (Lanczos, and antialiased bilinear/bicubic). Each axis is one
weight matrix built in float32 from the sizes; the image is contracted with it (so the
resize is differentiable in the image).

>>> import numpy as np
>>> image = np.arange(4, dtype="float32").reshape(1, 2, 2, 1)
>>> resize(image, (4, 4))[0, :, :, 0].numpy().tolist()[0]
[0.0, 0.25, 0.75, 1.0]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import array_ops, einsum_ops, gather_ops, math_ops, pad_ops

__all__ = ["resize", "axis_weights", "RESIZE_INTERPOLATIONS"]

RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")
_TABLE = 1024


def _keys_table(a: float = -0.5) -> np.ndarray:
    x = np.arange(_TABLE + 1, dtype=np.float64) / _TABLE
    table = np.empty((_TABLE + 1, 2), np.float32)
    table[:, 0] = (((a + 2) * x - (a + 3)) * x * x + 1).astype(np.float32)
    x1 = x + 1.0
    table[:, 1] = (((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a).astype(np.float32)
    return table


def _nearest(in_size: int, out_size: int) -> np.ndarray:
    scale = np.float32(in_size) / np.float32(out_size)
    source = np.floor((np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale)
    index = np.minimum(source.astype(np.int64), in_size - 1)
    weights = np.zeros((out_size, in_size), np.float32)
    weights[np.arange(out_size), index] = 1.0
    return weights


def _bilinear(in_size: int, out_size: int) -> np.ndarray:
    scale = np.float32(in_size) / np.float32(out_size)
    source = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    floor = np.floor(source)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(source), in_size - 1).astype(np.int64)
    lerp = (source - floor).astype(np.float32)
    weights = np.zeros((out_size, in_size), np.float32)
    rows = np.arange(out_size)
    np.add.at(weights, (rows, lower), np.float32(1) - lerp)
    np.add.at(weights, (rows, upper), lerp)
    return weights


def _bicubic(in_size: int, out_size: int) -> np.ndarray:
    table = _keys_table()
    scale = np.float32(in_size) / np.float32(out_size)
    weights = np.zeros((out_size, in_size), np.float32)
    for out in range(out_size):
        location = (np.float32(out) + np.float32(0.5)) * scale - np.float32(0.5)
        base = int(math.floor(location))
        offset = int(np.rint(np.float32(location - base) * _TABLE))
        taps = [
            table[offset, 1],
            table[offset, 0],
            table[_TABLE - offset, 0],
            table[_TABLE - offset, 1],
        ]
        kept = [(base - 1 + k, w) for k, w in enumerate(taps) if 0 <= base - 1 + k < in_size]
        total = np.float32(sum(w for _, w in kept))
        for index, w in kept:
            weights[out, index] += (
                w / total if abs(total) >= 1000 * np.finfo(np.float32).tiny else w
            )
    return weights


def _area(in_size: int, out_size: int) -> np.ndarray:
    scale = in_size / out_size
    weights = np.zeros((out_size, in_size), np.float64)
    for out in range(out_size):
        start, end = out * scale, (out + 1) * scale
        for index in range(int(math.floor(start)), min(int(math.ceil(end)), in_size)):
            weights[out, index] = (min(end, index + 1) - max(start, index)) / scale
    return weights.astype(np.float32)


def _kernel(name: str):
    if name == "triangle":
        return lambda x: np.maximum(0.0, 1.0 - np.abs(x)), 1.0
    if name == "keys":

        def keys(x):
            x = np.abs(x)
            inner = ((1.5 * x - 2.5) * x) * x + 1.0
            outer = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
            return np.where(x < 1.0, inner, np.where(x < 2.0, outer, 0.0))

        return keys, 2.0
    radius = 3.0 if name == "lanczos3" else 5.0

    def lanczos(x):
        x = np.abs(x)
        return np.where(x < radius, np.sinc(x) * np.sinc(x / radius), 0.0)

    return lanczos, radius


def _scale_and_translate(in_size: int, out_size: int, kernel: str, antialias: bool):
    """TensorFlow's ScaleAndTranslate weights (no translation): each output sample's
    kernel taps over the input, stretched when downsampling with ``antialias``."""
    function, radius = _kernel(kernel)
    scale = out_size / in_size
    inverse = 1.0 / scale
    stretch = max(inverse, 1.0) if antialias else 1.0
    span = radius * stretch
    weights = np.zeros((out_size, in_size), np.float32)
    for out in range(out_size):
        sample = (out + 0.5) * inverse
        first = max(int(math.floor(sample - span - 0.5)) + 1, 0)
        last = min(int(math.floor(sample + span - 0.5)) + 1, in_size)
        if last <= first:
            continue
        index = np.arange(first, last)
        taps = np.float32(function((index + 0.5 - sample) / stretch))
        total = taps.sum(dtype=np.float32)
        if abs(total) >= 1000 * np.finfo(np.float32).tiny:
            taps = taps / total
        weights[out, first:last] = taps
    return weights


def axis_weights(in_size: int, out_size: int, interpolation: str, antialias: bool) -> np.ndarray:
    """The ``[out_size, in_size]`` resampling matrix of one axis."""
    if interpolation == "nearest":
        return _nearest(in_size, out_size)
    if interpolation == "area":
        return _area(in_size, out_size)
    if interpolation in ("lanczos3", "lanczos5"):
        return _scale_and_translate(in_size, out_size, interpolation, antialias)
    if antialias:  # TensorFlow resamples through scale_and_translate then
        kernel = "triangle" if interpolation == "bilinear" else "keys"
        return _scale_and_translate(in_size, out_size, kernel, True)
    return (
        _bilinear(in_size, out_size) if interpolation == "bilinear" else _bicubic(in_size, out_size)
    )


def _aspect_box(height: int, width: int, size: tuple, grow: bool) -> tuple[int, int, int, int]:
    target_h, target_w = size
    h = int(np.float32(width * target_h) / np.float32(target_w))
    w = int(np.float32(height * target_w) / np.float32(target_h))
    if grow:
        h, w = max(height, h), max(width, w)
        return h, w, int(np.float32(h - height) / 2), int(np.float32(w - width) / 2)
    h, w = max(min(height, h), 1), max(min(width, w), 1)
    return h, w, int(np.float32(height - h) / 2), int(np.float32(width - w) / 2)


def resize(images: Any, size: Any, interpolation: str = "bilinear", antialias: bool = False,
           crop_to_aspect_ratio: bool = False, pad_to_aspect_ratio: bool = False,
           fill_mode: str = "constant", fill_value: float = 0.0,
           data_format: Any = None) -> Any:  # fmt: skip
    """Images resized to ``size`` = (height, width) as TensorFlow's ``tf.image.resize``
    does; ``crop_to_aspect_ratio``/``pad_to_aspect_ratio`` first crop (centred) or pad
    (with ``fill_value``) to the target's aspect ratio.

    >>> import numpy as np
    >>> resize(np.ones((2, 4, 4, 3), "float32"), (2, 3), interpolation="bicubic").shape
    TensorShape([2, 2, 3, 3])
    """
    if any_symbolic(images):
        return symbolic_call(resize, images, size, interpolation, antialias,
                             crop_to_aspect_ratio, pad_to_aspect_ratio, fill_mode, fill_value,
                             data_format)  # fmt: skip
    if interpolation not in RESIZE_INTERPOLATIONS:
        raise ValueError(
            f"Invalid value for argument `interpolation`. Expected of one "
            f"{RESIZE_INTERPOLATIONS}. Received: interpolation={interpolation}"
        )
    if fill_mode != "constant":
        raise ValueError(
            "Invalid value for argument `fill_mode`. Only `'constant'` is supported. "
            f"Received: fill_mode={fill_mode}"
        )
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError(
            "Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be `True`."
        )
    if len(size) != 2:
        raise ValueError(
            f"Argument `size` must be a tuple of two elements (height, width). Received: "
            f"size={size}"
        )
    fmt = backend.image_data_format() if data_format is None else data_format
    x = tensors.convert(images)
    rank = x.shape.rank
    if rank not in (3, 4):
        raise ValueError(
            "Invalid images rank: expected rank 3 (single image) or rank 4 (batch of "
            f"images). Received input with shape: images.shape={tuple(x.shape.as_list())}"
        )
    if fmt == "channels_first":
        x = array_ops.transpose(x, (0, 2, 3, 1) if rank == 4 else (1, 2, 0))
    height, width = x.shape.as_list()[-3:-1]
    if crop_to_aspect_ratio:
        h, w, top, left = _aspect_box(height, width, size, grow=False)
        x = x[..., top : top + h, left : left + w, :]
    elif pad_to_aspect_ratio:
        h, w, top, left = _aspect_box(height, width, size, grow=True)
        pads = [[0, 0]] * (rank - 3) + [[top, h - height - top], [left, w - width - left], [0, 0]]
        x = pad_ops.pad(x, pads, constant_values=fill_value)
    height, width = x.shape.as_list()[-3:-1]
    if interpolation == "nearest":  # picks pixels: any dtype, kept
        rows = np.argmax(_nearest(height, size[0]), axis=1)
        cols = np.argmax(_nearest(width, size[1]), axis=1)
        out = gather_ops.gather(gather_ops.gather(x, rows, axis=rank - 3), cols, axis=rank - 2)
    else:  # TensorFlow resamples in float32 and returns float32
        work = math_ops.cast(x, "float32")
        wh = tensors.convert(axis_weights(height, size[0], interpolation, antialias), "float32")
        ww = tensors.convert(axis_weights(width, size[1], interpolation, antialias), "float32")
        spec = "bhwc,oh,pw->bopc" if rank == 4 else "hwc,oh,pw->opc"
        out = einsum_ops.einsum(spec, work, wh, ww)
    if fmt == "channels_first":
        out = array_ops.transpose(out, (0, 3, 1, 2) if rank == 4 else (2, 0, 1))
    return out
