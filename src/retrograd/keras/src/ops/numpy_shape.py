"""``keras.ops`` functions that rearrange tensors (``keras.ops.numpy``): reshaping,
transposing, joining and splitting, tiling and repeating, flipping and rolling, padding.
Every one is differentiable (they are built from TensorFlow's rearranging ops).

>>> from retrograd.keras import ops
>>> ops.concatenate([ops.ones((1, 2)), ops.zeros((1, 2))]).shape
TensorShape([2, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    broadcast,
    gather_ops,
    join_ops,
    pad_ops,
    rearrange_ops,
)

__all__ = [
    "reshape",
    "ravel",
    "transpose",
    "swapaxes",
    "moveaxis",
    "expand_dims",
    "squeeze",
    "concatenate",
    "append",
    "stack",
    "hstack",
    "vstack",
    "dstack",
    "split",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "tile",
    "repeat",
    "flip",
    "fliplr",
    "flipud",
    "roll",
    "rot90",
    "broadcast_to",
    "pad",
]


def _rank(t: Any) -> int:
    return t.shape.rank


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"axis {axis} is out of bounds for a tensor of rank {rank}")
    return axis % rank


def reshape(x: Any, newshape: Any) -> Any:
    """``x`` with shape ``newshape`` (one entry may be -1).

    >>> reshape([1, 2, 3, 4], (2, -1)).numpy().tolist()
    [[1, 2], [3, 4]]
    """
    if any_symbolic(x):
        return symbolic_call(reshape, x, newshape)
    shape = [newshape] if isinstance(newshape, (int, np.integer)) else list(newshape)
    return array_ops.reshape(tensors.convert(x), [-1 if d is None else int(d) for d in shape])


def ravel(x: Any) -> Any:
    """``x`` flattened to one dimension.

    >>> ravel([[1, 2], [3, 4]]).numpy().tolist()
    [1, 2, 3, 4]
    """
    if any_symbolic(x):
        return symbolic_call(ravel, x)
    return array_ops.reshape(tensors.convert(x), [-1])


def transpose(x: Any, axes: Any = None) -> Any:
    """``x`` with its axes permuted (reversed by default).

    >>> transpose([[1, 2]]).numpy().tolist()
    [[1], [2]]
    """
    if any_symbolic(x):
        return symbolic_call(transpose, x, axes)
    t = tensors.convert(x)
    perm = list(range(_rank(t)))[::-1] if axes is None else [int(a) for a in axes]
    return array_ops.transpose(t, perm)


def swapaxes(x: Any, axis1: int, axis2: int) -> Any:
    """``x`` with two axes exchanged.

    >>> swapaxes([[1, 2]], 0, 1).shape
    TensorShape([2, 1])
    """
    if any_symbolic(x):
        return symbolic_call(swapaxes, x, axis1, axis2)
    t = tensors.convert(x)
    perm = list(range(_rank(t)))
    a, b = _axis(axis1, len(perm)), _axis(axis2, len(perm))
    perm[a], perm[b] = perm[b], perm[a]
    return array_ops.transpose(t, perm)


def moveaxis(x: Any, source: Any, destination: Any) -> Any:
    """``x`` with the axes ``source`` moved to positions ``destination``.

    >>> moveaxis(_zeros((2, 3, 4)), 0, -1).shape
    TensorShape([3, 4, 2])
    """
    if any_symbolic(x):
        return symbolic_call(moveaxis, x, source, destination)
    t = tensors.convert(x)
    rank = _rank(t)
    sources = [source] if isinstance(source, int) else list(source)
    targets = [destination] if isinstance(destination, int) else list(destination)
    if len(sources) != len(targets):
        raise ValueError(
            "Inconsistent number of `source` and `destination`. Received: "
            f"source={source}, destination={destination}"
        )
    sources = [_axis(a, rank) for a in sources]
    targets = [_axis(a, rank) for a in targets]
    perm = [a for a in range(rank) if a not in sources]
    for target, src in sorted(zip(targets, sources)):
        perm.insert(target, src)
    return array_ops.transpose(t, perm)


def _zeros(shape: Any) -> Any:
    """Float32 zeros of ``shape`` (the examples' inputs)."""
    return array_ops.zeros(list(shape))


def expand_dims(x: Any, axis: Any) -> Any:
    """``x`` with new axes of size 1 at the positions ``axis`` (an int or a tuple).

    >>> expand_dims([1, 2], 0).shape
    TensorShape([1, 2])
    """
    if any_symbolic(x):
        return symbolic_call(expand_dims, x, axis)
    t = tensors.convert(x)
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    rank = _rank(t) + len(axes)
    for a in sorted(_axis(int(a), rank) for a in axes):
        t = array_ops.expand_dims(t, a)
    return t


def squeeze(x: Any, axis: Any = None) -> Any:
    """``x`` without its axes of size 1 (only ``axis`` when given).

    >>> squeeze(_zeros((1, 2, 1))).shape
    TensorShape([2])
    """
    if any_symbolic(x):
        return symbolic_call(squeeze, x, axis)
    t = tensors.convert(x)
    if axis is None:
        return array_ops.squeeze(t)
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    shape = t.shape.as_list()
    for a in axes:
        if shape[a] != 1:
            raise ValueError(f"Cannot squeeze axis={a}, because the dimension is not 1.")
    return array_ops.squeeze(t, sorted(_axis(int(a), len(shape)) for a in axes))


def _common(xs: Any) -> list[Any]:
    converted = [tensors.convert(x) for x in xs]
    dtype = result_type(*(t.dtype.name for t in converted))
    return [tensors.convert(t, dtype) for t in converted]


def concatenate(xs: Any, axis: int = 0) -> Any:
    """The tensors ``xs`` joined along ``axis``.

    >>> concatenate([[1], [2, 3]]).numpy().tolist()
    [1, 2, 3]
    """
    if any_symbolic(xs):
        return symbolic_call(concatenate, xs, axis)
    return join_ops.concat(_common(xs), axis)


def append(x1: Any, x2: Any, axis: Any = None) -> Any:
    """``x2`` appended to ``x1`` along ``axis`` (both flattened when ``axis`` is None).

    >>> append([1, 2], [[3]]).numpy().tolist()
    [1, 2, 3]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(append, x1, x2, axis)
    a, b = _common([x1, x2])
    if axis is None:
        return join_ops.concat([array_ops.reshape(a, [-1]), array_ops.reshape(b, [-1])], 0)
    return join_ops.concat([a, b], axis)


def stack(x: Any, axis: int = 0) -> Any:
    """The tensors ``x`` stacked along a new axis.

    >>> stack([[1, 2], [3, 4]], axis=1).numpy().tolist()
    [[1, 3], [2, 4]]
    """
    if any_symbolic(x):
        return symbolic_call(stack, x, axis)
    return join_ops.stack(_common(x), axis)


def _at_least(t: Any, rank: int) -> Any:
    shape = t.shape.as_list()
    if len(shape) >= rank:
        return t
    if rank == 3 and len(shape) == 2:
        return array_ops.expand_dims(t, 2)
    if rank == 3 and len(shape) == 1:
        return array_ops.reshape(t, [1, -1, 1])
    return array_ops.reshape(t, [1] * (rank - len(shape)) + shape)


def hstack(xs: Any) -> Any:
    """Joined along the second axis (the first for 1-D tensors).

    >>> hstack([[1], [2]]).numpy().tolist()
    [1, 2]
    """
    if any_symbolic(xs):
        return symbolic_call(hstack, xs)
    ts = _common(xs)
    return join_ops.concat(ts, 0 if _rank(ts[0]) == 1 else 1)


def vstack(xs: Any) -> Any:
    """Joined along the first axis (as Keras' TensorFlow backend does, 1-D tensors are
    joined end to end).

    >>> vstack([[[1, 2]], [[3, 4]]]).numpy().tolist()
    [[1, 2], [3, 4]]
    """
    if any_symbolic(xs):
        return symbolic_call(vstack, xs)
    return join_ops.concat(_common(xs), 0)


def dstack(xs: Any) -> Any:
    """Joined along the third axis.

    >>> dstack([[1, 2], [3, 4]]).shape
    TensorShape([1, 2, 2])
    """
    if any_symbolic(xs):
        return symbolic_call(dstack, xs)
    return join_ops.concat([_at_least(t, 3) for t in _common(xs)], 2)


def _split_sizes(length: int, sections: Any, even: bool) -> list[int]:
    if isinstance(sections, (int, np.integer)):
        count = int(sections)
        if even:
            if length % count:
                raise ValueError(
                    f"array split does not result in an equal division: {length} into {count}"
                )
            return [length // count] * count
        base, extra = divmod(length, count)
        return [base + 1] * extra + [base] * (count - extra)
    bounds = [0, *(min(max(int(i), 0), length) for i in sections), length]
    return [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]


def _split(x: Any, sections: Any, axis: int, even: bool) -> list[Any]:
    t = tensors.convert(x)
    axis = _axis(axis, _rank(t))
    sizes = _split_sizes(t.shape.as_list()[axis], sections, even)
    return list(join_ops.split(t, sizes, axis))


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    """``x`` cut into equal sections, or at the given indices, along ``axis``.

    >>> [t.numpy().tolist() for t in split([1, 2, 3, 4], 2)]
    [[1, 2], [3, 4]]
    """
    if any_symbolic(x):
        return symbolic_call(split, x, indices_or_sections, axis)
    return _split(x, indices_or_sections, axis, True)


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    """``x`` cut into nearly equal sections (the first ones one longer).

    >>> [t.numpy().tolist() for t in array_split([1, 2, 3], 2)]
    [[1, 2], [3]]
    """
    if any_symbolic(x):
        return symbolic_call(array_split, x, indices_or_sections, axis)
    return _split(x, indices_or_sections, axis, False)


def hsplit(x: Any, indices_or_sections: Any) -> Any:
    """Split along the second axis (the first for 1-D tensors).

    >>> [t.shape for t in hsplit(_zeros((2, 4)), 2)]
    [TensorShape([2, 2]), TensorShape([2, 2])]
    """
    if any_symbolic(x):
        return symbolic_call(hsplit, x, indices_or_sections)
    t = tensors.convert(x)
    return _split(t, indices_or_sections, 0 if _rank(t) == 1 else 1, True)


def vsplit(x: Any, indices_or_sections: Any) -> Any:
    """Split along the first axis.

    >>> [t.shape for t in vsplit(_zeros((4, 2)), 2)]
    [TensorShape([2, 2]), TensorShape([2, 2])]
    """
    if any_symbolic(x):
        return symbolic_call(vsplit, x, indices_or_sections)
    return _split(x, indices_or_sections, 0, True)


def dsplit(x: Any, indices_or_sections: Any) -> Any:
    """Split along the third axis.

    >>> [t.shape for t in dsplit(_zeros((1, 1, 4)), 2)]
    [TensorShape([1, 1, 2]), TensorShape([1, 1, 2])]
    """
    if any_symbolic(x):
        return symbolic_call(dsplit, x, indices_or_sections)
    return _split(x, indices_or_sections, 2, True)


def tile(x: Any, repeats: Any) -> Any:
    """``x`` repeated ``repeats`` times along each axis (NumPy's rule for mismatched
    lengths).

    >>> tile([1, 2], 2).numpy().tolist()
    [1, 2, 1, 2]
    """
    if any_symbolic(x):
        return symbolic_call(tile, x, repeats)
    t = tensors.convert(x)
    reps = [int(repeats)] if isinstance(repeats, (int, np.integer)) else [int(r) for r in repeats]
    rank = _rank(t)
    if len(reps) < rank:
        reps = [1] * (rank - len(reps)) + reps
    elif len(reps) > rank:
        t = array_ops.reshape(t, [1] * (len(reps) - rank) + t.shape.as_list())
    return rearrange_ops.tile(t, reps)


def repeat(x: Any, repeats: Any, axis: Any = None) -> Any:
    """Each element (or slice along ``axis``) repeated ``repeats`` times.

    >>> repeat([1, 2], 2).numpy().tolist()
    [1, 1, 2, 2]
    """
    if any_symbolic(x):
        return symbolic_call(repeat, x, repeats, axis)
    t = tensors.convert(x)
    if axis is None:
        t, axis = array_ops.reshape(t, [-1]), 0
    axis = _axis(int(axis), _rank(t))
    length = t.shape.as_list()[axis]
    counts = np.broadcast_to(np.asarray(tensors.convert(repeats).numpy(), np.int64), (length,))
    indices = np.repeat(np.arange(length, dtype=np.int32), counts)
    return gather_ops.gather(t, tensors.convert(indices), axis=axis)


def flip(x: Any, axis: Any = None) -> Any:
    """``x`` reversed along ``axis`` (all axes by default).

    >>> flip([1, 2, 3]).numpy().tolist()
    [3, 2, 1]
    """
    if any_symbolic(x):
        return symbolic_call(flip, x, axis)
    t = tensors.convert(x)
    axes = (
        list(range(_rank(t)))
        if axis is None
        else ([axis] if isinstance(axis, (int, np.integer)) else list(axis))
    )
    return rearrange_ops.reverse(t, [int(a) for a in axes])


def fliplr(x: Any) -> Any:
    """``x`` reversed along its second axis.

    >>> fliplr([[1, 2]]).numpy().tolist()
    [[2, 1]]
    """
    if any_symbolic(x):
        return symbolic_call(fliplr, x)
    return flip(x, 1)


def flipud(x: Any) -> Any:
    """``x`` reversed along its first axis.

    >>> flipud([[1], [2]]).numpy().tolist()
    [[2], [1]]
    """
    if any_symbolic(x):
        return symbolic_call(flipud, x)
    return flip(x, 0)


def roll(x: Any, shift: Any, axis: Any = None) -> Any:
    """``x`` shifted cyclically by ``shift`` along ``axis`` (the flattened tensor by
    default).

    >>> roll([1, 2, 3], 1).numpy().tolist()
    [3, 1, 2]
    """
    if any_symbolic(x):
        return symbolic_call(roll, x, shift, axis)
    t = tensors.convert(x)
    if axis is None:
        flat = rearrange_ops.roll(array_ops.reshape(t, [-1]), shift, 0)
        return array_ops.reshape(flat, array_ops.shape(t))
    return rearrange_ops.roll(t, shift, axis)


def rot90(array: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    """``array`` rotated by 90 degrees ``k`` times in the plane of ``axes``.

    >>> rot90([[1, 2], [3, 4]]).numpy().tolist()
    [[2, 4], [1, 3]]
    """
    if any_symbolic(array):
        return symbolic_call(rot90, array, k, axes)
    t = tensors.convert(array)
    rank = _rank(t)
    if rank < 2:
        raise ValueError(
            f"Input array must have at least 2 dimensions. Received: array.ndim={rank}"
        )
    if len(axes) != 2 or _axis(axes[0], rank) == _axis(axes[1], rank):
        raise ValueError(f"Invalid axes: {axes}. Axes must be a tuple of two different dimensions.")
    a, b = _axis(axes[0], rank), _axis(axes[1], rank)
    k = int(k) % 4
    if k == 0:
        return t
    if k == 2:
        return rearrange_ops.reverse(t, [a, b])
    perm = list(range(rank))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 1:
        return array_ops.transpose(rearrange_ops.reverse(t, [b]), perm)
    return rearrange_ops.reverse(array_ops.transpose(t, perm), [b])


def broadcast_to(x: Any, shape: Any) -> Any:
    """``x`` broadcast to ``shape``.

    >>> broadcast_to([1, 2], (2, 2)).numpy().tolist()
    [[1, 2], [1, 2]]
    """
    if any_symbolic(x):
        return symbolic_call(broadcast_to, x, shape)
    return broadcast.broadcast_to(tensors.convert(x), [int(d) for d in shape])


_PAD_MODES = {"constant": "CONSTANT", "reflect": "REFLECT", "symmetric": "SYMMETRIC"}


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = None) -> Any:
    """``x`` padded by ``pad_width`` (``(before, after)`` per axis, or one pair for all);
    ``mode`` is 'constant', 'reflect' or 'symmetric'.

    >>> pad([1, 2], (1, 2)).numpy().tolist()
    [0, 1, 2, 0, 0]
    """
    if any_symbolic(x):
        return symbolic_call(pad, x, pad_width, mode, constant_values)
    t = tensors.convert(x)
    widths = np.asarray(pad_width, dtype=np.int64)
    widths = np.broadcast_to(widths.reshape(-1, 2) if widths.size == 2 else widths, (_rank(t), 2))
    if mode not in _PAD_MODES:
        raise ValueError(
            "`mode` must be one of ['constant', 'edge', 'linear_ramp', 'maximum', 'mean', "
            f"'median', 'minimum', 'reflect', 'symmetric', 'wrap', 'empty', 'circular']. "
            f"Received: mode={mode}"
        )
    if constant_values is not None and mode != "constant":
        raise ValueError(
            "Argument `constant_values` can only be provided when `mode == 'constant'`. "
            f"Received: mode={mode}"
        )
    value = 0 if constant_values is None else constant_values
    return pad_ops.pad(t, widths.tolist(), _PAD_MODES[mode], constant_values=value)
