"""``keras.ops.image``: colour spaces, cropping and padding, TensorFlow's projective
transform (``affine_transform``, ``ImageProjectiveTransformV3``'s fill modes and
interpolations), ``map_coordinates``, Gaussian blur, patches; ``resize`` is in
``image_resize``. Images are ``[batch,] height, width, channels`` (or channels first).

>>> import numpy as np
>>> rgb_to_grayscale(np.ones((1, 2, 2, 3), "float32")).shape
TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

import itertools
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
    gather_ops,
    join_ops,
    linalg_ops,
    math_ops,
    pad_ops,
    rearrange_ops,
    reduction_ops,
    rounding_ops,
)

__all__ = [
    "affine_transform",
    "crop_images",
    "extract_patches",
    "gaussian_blur",
    "hsv_to_rgb",
    "map_coordinates",
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
    >>> rgb_to_hsv(np.array([[[0.0, 1.0, 0.0]]], "float32")).numpy().round(4).tolist()
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
    >>> hsv_to_rgb(np.array([[[1 / 3, 1.0, 1.0]]], "float32")).numpy().round(4).tolist()
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


def _map_tf(coordinate: Any, size: int, fill_mode: str) -> Any:
    """TensorFlow's ImageProjectiveTransform mapping of an input coordinate."""
    if fill_mode == "constant" or size <= 1 and fill_mode != "nearest":
        return coordinate if fill_mode == "constant" else array_ops.zeros_like(coordinate)
    last = float(size - 1)
    if fill_mode == "reflect":
        period = 2.0 * size
        low = coordinate
        low = array_ops.where(
            low < period,
            period * math_ops.cast(math_ops.cast(-low / period, "int32"), low.dtype) + low,
            low,
        )
        low = array_ops.where(low < -size, low + period, -low - 1.0)
        high = coordinate - period * math_ops.cast(
            math_ops.cast(coordinate / period, "int32"), coordinate.dtype
        )
        high = array_ops.where(high >= size, period - high - 1.0, high)
        coordinate = array_ops.where(
            coordinate < 0, low, array_ops.where(coordinate > last, high, coordinate)
        )
    elif fill_mode == "wrap":
        span = float(size - 1)
        low = coordinate + size * (
            math_ops.cast(math_ops.cast(-coordinate / span, "int32"), coordinate.dtype) + 1.0
        )
        high = coordinate - size * math_ops.cast(
            math_ops.cast(coordinate / span, "int32"), coordinate.dtype
        )
        coordinate = array_ops.where(
            coordinate < 0, low, array_ops.where(coordinate > last, high, coordinate)
        )
    return math_ops.minimum(math_ops.maximum(coordinate, 0.0), last)


def _round_away(x: Any) -> Any:
    """``std::round``: halves away from zero (TensorFlow's nearest sampling)."""
    return math_ops.sign(x) * rounding_ops.floor(math_ops.abs(x) + 0.5)


def affine_transform(
    images: Any,
    transform: Any,
    interpolation: str = "bilinear",
    fill_mode: str = "constant",
    fill_value: Any = 0,
    data_format: Any = None,
) -> Any:
    """Images sampled at ``(a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k`` with ``k = c0 x
    + c1 y + 1`` for each output pixel, ``transform`` = [a0, a1, a2, b0, b1, b2, c0, c1]
    per image ('nearest' or 'bilinear'; fill 'constant', 'nearest', 'wrap', 'reflect').

    >>> import numpy as np
    >>> image = np.arange(9, dtype="float32").reshape(3, 3, 1)
    >>> shift = np.array([1, 0, 1, 0, 1, 0, 0, 0], "float32")  # x + 1
    >>> affine_transform(image, shift)[:, :, 0].numpy().tolist()[0]
    [1.0, 2.0, 0.0]
    """
    if any_symbolic(images, transform):
        return symbolic_call(
            affine_transform, images, transform, interpolation, fill_mode, fill_value, data_format
        )
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(
            "Invalid value for argument `interpolation`. Expected of one ('nearest', "
            f"'bilinear'). Received: interpolation={interpolation}"
        )
    if fill_mode not in ("constant", "nearest", "wrap", "reflect"):
        raise ValueError(
            "Invalid value for argument `fill_mode`. Expected of one ('constant', 'nearest', "
            f"'wrap', 'reflect'). Received: fill_mode={fill_mode}"
        )
    x = tensors.convert(images)
    rank = _rank_check(x)
    t = math_ops.cast(tensors.convert(transform), "float32")
    if t.shape.rank not in (1, 2):
        raise ValueError(
            "Invalid transform rank: expected rank 1 (single transform) or rank 2 (batch of "
            f"transforms). Received input with shape: transform.shape={tuple(t.shape.as_list())}"
        )
    fmt = _format(data_format)
    x = _last(x, fmt)
    if rank == 3:
        x = array_ops.expand_dims(x, 0)
    if t.shape.rank == 1:
        t = array_ops.expand_dims(t, 0)
    batch, height, width, _ = x.shape.as_list()
    if t.shape.as_list()[0] == 1 and batch > 1:
        t = rearrange_ops.tile(t, [batch, 1])
    ys, xs = np.meshgrid(
        np.arange(height, dtype=np.float32), np.arange(width, dtype=np.float32), indexing="ij"
    )
    gx, gy = tensors.convert(xs), tensors.convert(ys)
    c = [t[:, k][:, None, None] for k in range(8)]
    projection = c[6] * gx + c[7] * gy + 1.0
    safe = array_ops.where(
        comparison_ops.equal(projection, 0.0), array_ops.ones_like(projection), projection
    )
    in_x = _map_tf((c[0] * gx + c[1] * gy + c[2]) / safe, width, fill_mode)
    in_y = _map_tf((c[3] * gx + c[4] * gy + c[5]) / safe, height, fill_mode)
    values = math_ops.cast(x, "float32")
    fill = float(fill_value)

    def read(yi: Any, xi: Any) -> Any:
        inside = (yi >= 0) & (yi < height) & (xi >= 0) & (xi < width)
        index = (
            np.arange(batch, dtype=np.int32)[:, None, None] * (height * width)
            + math_ops.cast(math_ops.minimum(math_ops.maximum(yi, 0.0), height - 1.0), "int32")
            * width
            + math_ops.cast(math_ops.minimum(math_ops.maximum(xi, 0.0), width - 1.0), "int32")
        )
        flat = array_ops.reshape(values, [batch * height * width, -1])
        picked = gather_ops.gather(flat, index)
        return array_ops.where(inside[..., None], picked, array_ops.zeros_like(picked) + fill)

    if interpolation == "nearest":
        out = read(_round_away(in_y), _round_away(in_x))
    else:
        y0, x0 = rounding_ops.floor(in_y), rounding_ops.floor(in_x)
        y1, x1 = y0 + 1.0, x0 + 1.0
        top = (x1 - in_x)[..., None] * read(y0, x0) + (in_x - x0)[..., None] * read(y0, x1)
        bottom = (x1 - in_x)[..., None] * read(y1, x0) + (in_x - x0)[..., None] * read(y1, x1)
        out = (y1 - in_y)[..., None] * top + (in_y - y0)[..., None] * bottom
    out = array_ops.where(
        comparison_ops.equal(projection, 0.0)[..., None], array_ops.zeros_like(out) + fill, out
    )
    out = math_ops.cast(out, x.dtype)
    if rank == 3:
        out = array_ops.squeeze(out, [0])
    return _back(out, fmt)


def map_coordinates(
    inputs: Any, coordinates: Any, order: int, fill_mode: str = "constant", fill_value: Any = 0
) -> Any:
    """``inputs`` sampled at ``coordinates`` (one array per axis of ``inputs``), by nearest
    (``order=0``) or linear (``order=1``) interpolation, as SciPy's ``map_coordinates``.

    >>> import numpy as np
    >>> map_coordinates(np.arange(4.0), np.array([[0.5, 2.25]]), order=1).numpy().tolist()
    [0.5, 2.25]
    """
    if any_symbolic(inputs, coordinates):
        return symbolic_call(map_coordinates, inputs, coordinates, order, fill_mode, fill_value)
    x = tensors.convert(inputs)
    coords = tensors.convert(coordinates)
    if coords.shape.as_list()[0] != x.shape.rank:
        raise ValueError(
            "First dim of `coordinates` must be the same as the rank of `inputs`. Received "
            f"inputs with shape: {tuple(x.shape.as_list())} and coordinate leading dim of "
            f"{coords.shape.as_list()[0]}"
        )
    if coords.shape.rank < 2:
        raise ValueError(
            "Invalid coordinates rank: expected at least rank 2. Received input with shape: "
            f"{tuple(coords.shape.as_list())}"
        )
    if fill_mode not in ("constant", "nearest", "wrap", "mirror", "reflect"):
        raise ValueError(
            "Invalid value for argument `fill_mode`. Expected one of {'constant', 'nearest', "
            f"'wrap', 'mirror', 'reflect'}}. Received: fill_mode={fill_mode}"
        )
    if order not in (0, 1):
        raise ValueError(f"map_coordinates: `order` must be 0 or 1. Received: order={order}")
    dtype = coords.dtype if coords.dtype.is_floating else "float32"
    per_axis = []
    for k, size in enumerate(x.shape.as_list()):
        c = coords[k]
        if order == 0:
            nodes = [(rounding_ops.round(c) if c.dtype.is_floating else c, 1.0)]
        else:
            lower = rounding_ops.floor(c)
            upper_weight = c - lower
            nodes = [(lower, 1 - upper_weight), (lower + 1, upper_weight)]
        valid_nodes = []
        for index, weight in nodes:
            index = math_ops.cast(index, dtype)
            valid = None
            if fill_mode == "constant":
                valid = (index >= 0) & (index < size)
                index = math_ops.minimum(math_ops.maximum(index, 0.0), size - 1.0)
            elif fill_mode == "nearest":
                index = math_ops.minimum(math_ops.maximum(index, 0.0), size - 1.0)
            elif fill_mode in ("mirror", "reflect"):
                index = math_ops.abs(index)
                modded = index - 2.0 * size * rounding_ops.floor(index / (2.0 * size))
                under = modded < size
                index = array_ops.where(under, modded, 2.0 * size - modded)
                if fill_mode == "reflect":
                    index = array_ops.where(under, index, index - 1.0)
            else:
                index = index - size * rounding_ops.floor(index / size)
            valid_nodes.append((math_ops.cast(index, "int32"), valid, weight))
        per_axis.append(valid_nodes)
    total = None
    for items in itertools.product(*per_axis):
        indices = join_ops.stack([i for i, _, _ in items], axis=-1)
        picked = math_ops.cast(gather_ops.gather_nd(x, indices), dtype)
        if fill_mode == "constant":
            ok = items[0][1]
            for _, v, _ in items[1:]:
                ok = ok & v
            picked = array_ops.where(ok, picked, array_ops.zeros_like(picked) + float(fill_value))
        weight = items[0][2]
        for _, _, w in items[1:]:
            weight = weight * w
        term = weight * picked
        total = term if total is None else total + term
    if x.dtype.is_integer:
        total = rounding_ops.round(total)
    return math_ops.cast(total, x.dtype)


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
