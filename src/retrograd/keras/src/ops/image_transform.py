"""``keras.ops.image``'s sampling: TensorFlow's projective transform (``affine_transform``:
``ImageProjectiveTransformV3``'s fill modes and interpolations) and ``map_coordinates``
(SciPy's, as Keras computes it), both gathers of the image (differentiable in it).

>>> import numpy as np
>>> affine_transform(np.ones((2, 2, 1), "float32"), np.eye(3).ravel()[:8]).shape
TensorShape([2, 2, 1])
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.image import _back, _format, _last, _rank_check
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    gather_ops,
    join_ops,
    math_ops,
    rearrange_ops,
    rounding_ops,
)

__all__ = ["affine_transform", "map_coordinates"]


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
