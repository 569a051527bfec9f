"""``keras.ops.image``: colour spaces, cropping and padding, Gaussian blur, patches;
``resize`` is in ``image_resize``, the projective transform and ``map_coordinates`` in
``image_transform``. Images are ``[batch,] height, width, channels`` (or channels first).

>>> import numpy as np
>>> rgb_to_grayscale(np.ones((1, 2, 2, 3), "float32")).shape
TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import convolution, tensors
from retrograd.keras.src.ops.image_resize import resize
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    join_ops,
    linalg_ops,
    math_ops,
    pad_ops,
    reduction_ops,
    rounding_ops,
)

__all__ = [
    "crop_images",
    "extract_patches",
    "gaussian_blur",
    "hsv_to_rgb",
    "pad_images",
    "resize",
    "rgb_to_grayscale",
    "rgb_to_hsv",
]


def _format(data_format: Any) -> str:
    return backend.image_data_format() if data_format is None else data_format


def _rank_check(x: Any) -> int:
    rank = x.shape.rank
    if rank not in (3, 4):
        raise ValueError(
            "Invalid images rank: expected rank 3 (single image) or rank 4 (batch of "
            f"images). Received input with shape: images.shape={tuple(x.shape.as_list())}"
        )
    return rank


def _last(x: Any, fmt: str) -> Any:
    if fmt == "channels_first":
        return array_ops.transpose(x, (0, 2, 3, 1) if x.shape.rank == 4 else (1, 2, 0))
    return x


def _back(x: Any, fmt: str) -> Any:
    if fmt == "channels_first":
        return array_ops.transpose(x, (0, 3, 1, 2) if x.shape.rank == 4 else (2, 0, 1))
    return x


def rgb_to_grayscale(images: Any, data_format: Any = None) -> Any:
    """Luma ``0.2989 R + 0.587 G + 0.114 B`` (one channel; a grey image unchanged).

    >>> import numpy as np
    >>> float(rgb_to_grayscale(np.array([[[1.0, 0.0, 0.0]]], "float32"))[0, 0, 0])
    0.2989000082015991
    """
    if any_symbolic(images):
        return symbolic_call(rgb_to_grayscale, images, data_format)
    x = tensors.convert(images)
    _rank_check(x)
    axis = -1 if _format(data_format) == "channels_last" else -3
    channels = x.shape.as_list()[axis]
    if channels not in (1, 3):
        raise ValueError(
            "Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received input with "
            f"shape: images.shape={tuple(x.shape.as_list())}"
        )
    if channels == 1:
        return array_ops.identity(x)
    work = math_ops.cast(x, result_type(x.dtype.name, float))
    weights = tensors.convert([0.2989, 0.587, 0.114], work.dtype)
    grey = linalg_ops.tensordot(work, weights, [[x.shape.rank + axis], [0]])
    return math_ops.cast(array_ops.expand_dims(grey, axis), x.dtype)


def _float_images(images: Any, data_format: Any) -> tuple[Any, str]:
    x = tensors.convert(images)
    _rank_check(x)
    if not x.dtype.is_floating:
        raise ValueError(
            f"Invalid images dtype: expected float dtype. Received: images.dtype={x.dtype.name}"
        )
    fmt = _format(data_format)
    return _last(x, fmt), fmt


def rgb_to_hsv(images: Any, data_format: Any = None) -> Any:
    """RGB in [0, 1] to hue, saturation, value (TensorFlow's formulas).

    >>> import numpy as np
    >>> rgb_to_hsv(np.array([[[0.0, 1.0, 0.0]]], "float32")).numpy().astype(float).round(4).tolist()
    [[[0.3333, 1.0, 1.0]]]
    """
    if any_symbolic(images):
        return symbolic_call(rgb_to_hsv, images, data_format)
    x, fmt = _float_images(images, data_format)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = reduction_ops.reduce_max(x, axis=-1)
    spread = v - reduction_ops.reduce_min(x, axis=-1)
    zero = array_ops.zeros_like(v)
    s = array_ops.where(v > 0, spread / array_ops.where(v > 0, v, zero + 1), zero)
    norm = 1.0 / (6.0 * array_ops.where(spread > 0, spread, zero + 1))
    h = array_ops.where(
        comparison_ops.equal(r, v),
        norm * (g - b),
        array_ops.where(
            comparison_ops.equal(g, v), norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0
        ),
    )
    h = array_ops.where(spread > 0, h, zero)
    h = array_ops.where(h < 0, h + 1.0, h)
    return _back(join_ops.stack([h, s, v], axis=-1), fmt)


def hsv_to_rgb(images: Any, data_format: Any = None) -> Any:
    """Hue, saturation, value to RGB (TensorFlow's formulas).

    >>> import numpy as np
    >>> rgb = hsv_to_rgb(np.array([[[1 / 3, 1.0, 1.0]]], "float32"))
    >>> rgb.numpy().astype(float).round(4).tolist()
    [[[0.0, 1.0, 0.0]]]
    """
    if any_symbolic(images):
        return symbolic_call(hsv_to_rgb, images, data_format)
    x, fmt = _float_images(images, data_format)
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    c = s * v
    m = v - c
    dh = h * 6.0
    sector = math_ops.cast(rounding_ops.floor(dh), "int32")
    remainder = dh - 2.0 * rounding_ops.floor(dh / 2.0)
    mid = c * (1.0 - math_ops.abs(remainder - 1.0))
    zero = array_ops.zeros_like(c)
    table = {
        0: (c, mid, zero),
        1: (mid, c, zero),
        2: (zero, c, mid),
        3: (zero, mid, c),
        4: (mid, zero, c),
        5: (c, zero, mid),
    }
    channels = []
    for k in range(3):
        value = zero
        for index, parts in table.items():
            value = array_ops.where(comparison_ops.equal(sector, index), parts[k], value)
        channels.append(value + m)
    return _back(join_ops.stack(channels, axis=-1), fmt)


def _sizes(images: Any, data_format: Any) -> tuple[Any, str, int, int, int]:
    x = tensors.convert(images)
    rank = _rank_check(x)
    fmt = _format(data_format)
    shape = x.shape.as_list()
    height, width = (shape[-3], shape[-2]) if fmt == "channels_last" else (shape[-2], shape[-1])
    return x, fmt, rank, height, width


def _two_of_three(names: tuple, values: tuple) -> None:
    if sum(v is None for v in values) != 1:
        raise ValueError(
            f"Exactly two of {names[0]}, {names[1]} and {names[2]} must be given (the third "
            f"follows). Received: {dict(zip(names, values))}"
        )


def pad_images(
    images: Any,
    top_padding: Any = None,
    left_padding: Any = None,
    bottom_padding: Any = None,
    right_padding: Any = None,
    target_height: Any = None,
    target_width: Any = None,
    data_format: Any = None,
) -> Any:
    """Zeros around images: two of (top, bottom, target height) and of (left, right,
    target width).

    >>> import numpy as np
    >>> pad_images(np.ones((2, 2, 1), "float32"), 1, 0, target_height=4, target_width=3).shape
    TensorShape([4, 3, 1])
    """
    if any_symbolic(images):
        return symbolic_call(
            pad_images,
            images,
            top_padding,
            left_padding,
            bottom_padding,
            right_padding,
            target_height,
            target_width,
            data_format,
        )
    x, fmt, rank, height, width = _sizes(images, data_format)
    _two_of_three(
        ("top_padding", "bottom_padding", "target_height"),
        (top_padding, bottom_padding, target_height),
    )
    _two_of_three(
        ("left_padding", "right_padding", "target_width"),
        (left_padding, right_padding, target_width),
    )
    top = target_height - bottom_padding - height if top_padding is None else top_padding
    bottom = target_height - top - height if bottom_padding is None else bottom_padding
    left = target_width - right_padding - width if left_padding is None else left_padding
    right = target_width - left - width if right_padding is None else right_padding
    for name, value in (
        ("top_padding", top),
        ("left_padding", left),
        ("right_padding", right),
        ("bottom_padding", bottom),
    ):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    pads = [[top, bottom], [left, right]]
    pads = pads + [[0, 0]] if fmt == "channels_last" else [[0, 0]] + pads
    if rank == 4:
        pads = [[0, 0]] + pads
    return pad_ops.pad(x, pads)


def crop_images(
    images: Any,
    top_cropping: Any = None,
    left_cropping: Any = None,
    bottom_cropping: Any = None,
    right_cropping: Any = None,
    target_height: Any = None,
    target_width: Any = None,
    data_format: Any = None,
) -> Any:
    """A box of images: two of (top, bottom, target height) and of (left, right, target
    width).

    >>> import numpy as np
    >>> crop_images(np.ones((5, 5, 1), "float32"), 1, 2, target_height=2, target_width=3).shape
    TensorShape([2, 3, 1])
    """
    if any_symbolic(images):
        return symbolic_call(
            crop_images,
            images,
            top_cropping,
            left_cropping,
            bottom_cropping,
            right_cropping,
            target_height,
            target_width,
            data_format,
        )
    x, fmt, rank, height, width = _sizes(images, data_format)
    _two_of_three(
        ("top_cropping", "bottom_cropping", "target_height"),
        (top_cropping, bottom_cropping, target_height),
    )
    _two_of_three(
        ("left_cropping", "right_cropping", "target_width"),
        (left_cropping, right_cropping, target_width),
    )
    top = height - target_height - bottom_cropping if top_cropping is None else top_cropping
    th = height - bottom_cropping - top if target_height is None else target_height
    left = width - target_width - right_cropping if left_cropping is None else left_cropping
    tw = width - right_cropping - left if target_width is None else target_width
    for name, value in (
        ("top_cropping", top),
        ("target_height", th),
        ("left_cropping", left),
        ("target_width", tw),
    ):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    rows, cols = slice(top, top + th), slice(left, left + tw)
    spatial = (rows, cols, slice(None)) if fmt == "channels_last" else (slice(None), rows, cols)
    return x[((slice(None),) if rank == 4 else ()) + spatial]


def gaussian_blur(
    images: Any, kernel_size: Any = (3, 3), sigma: Any = (1.0, 1.0), data_format: Any = None
) -> Any:
    """Each channel convolved ('same') with a normalised Gaussian of ``sigma``.

    >>> import numpy as np
    >>> float(gaussian_blur(np.ones((1, 5, 5, 1), "float32"))[0, 2, 2, 0])
    1.0
    """
    if any_symbolic(images):
        return symbolic_call(gaussian_blur, images, kernel_size, sigma, data_format)
    x = tensors.convert(images)
    rank = _rank_check(x)
    dtype = x.dtype.as_numpy_dtype
    fmt = data_format or "channels_last"
    x = array_ops.expand_dims(x, 0) if rank == 3 else x
    x = _last(x, fmt)

    def kernel1d(size: Any, s: Any) -> np.ndarray:
        grid = np.arange(size, dtype=dtype) - dtype((size - 1) / 2)
        k = np.exp(dtype(-0.5) * (grid / dtype(s)) ** 2)
        return k / k.sum(dtype=dtype)

    size = [int(v) for v in kernel_size]
    k2 = np.tensordot(kernel1d(size[1], sigma[1]), kernel1d(size[0], sigma[0]), axes=0)
    channels = x.shape.as_list()[-1]
    k = np.tile(k2.reshape(size[0], size[1], 1, 1), [1, 1, channels, 1]).astype(dtype)
    out = convolution.depthwise_nd(x, tensors.convert(k), (1, 1), "same", (1, 1))
    out = _back(out, fmt)
    return array_ops.squeeze(out, [0]) if rank == 3 else out


def extract_patches(
    images: Any,
    size: Any,
    strides: Any = None,
    dilation_rate: Any = 1,
    padding: str = "valid",
    data_format: Any = None,
) -> Any:
    """Each ``size`` patch (by ``strides``, ``dilation_rate``) flattened into the channel
    axis: ``[batch, rows, cols, size_h * size_w * channels]``.

    >>> import numpy as np
    >>> extract_patches(np.ones((1, 4, 4, 3), "float32"), 2).shape
    TensorShape([1, 2, 2, 12])
    """
    if any_symbolic(images):
        return symbolic_call(
            extract_patches, images, size, strides, dilation_rate, padding, data_format
        )
    x = tensors.convert(images)
    rank = _rank_check(x)
    fmt = _format(data_format)
    size = (size, size) if isinstance(size, int) else tuple(size)
    strides = (
        size
        if strides is None
        else ((strides, strides) if isinstance(strides, int) else tuple(strides))
    )
    dilation = (dilation_rate,) * 2 if isinstance(dilation_rate, int) else tuple(dilation_rate)
    x = _last(array_ops.expand_dims(x, 0) if rank == 3 else x, fmt)
    taps = convolution.windows(x, size, strides, dilation, padding.lower())
    shape = taps.shape.as_list()
    out = array_ops.reshape(taps, [shape[0], shape[1], shape[2], shape[3] * shape[4]])
    out = _back(out, fmt)
    return array_ops.squeeze(out, [0]) if rank == 3 else out
