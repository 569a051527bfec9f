"""Checking and normalising ``tensor[...]`` keys before they become a StridedSlice.

TensorFlow's rule: ints, slices (with steps), ``...`` and ``None`` (newaxis), and scalar
integer tensors. Anything else — lists, arrays, bools, float tensors — is refused with the
kind of error TensorFlow gives, rather than silently doing NumPy's advanced indexing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.dimensions import Dimension
from retrograd.core.errors import InvalidArgumentError

_VALID = (
    "Only integers, slices (`:`), ellipsis (`...`), retrograd.newaxis (`None`) and scalar "
    "int32/int64 tensors are valid indices"
)


def _as_int(value: Any, key: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{_VALID}, got {key!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, Dimension):  # (TensorFlow 1 shapes' items; unknown: ValueError)
        return value._as_tensor()
    if getattr(value, "ndim", None) == 0 and hasattr(value, "__index__"):
        try:
            return value.__index__()
        except TypeError:
            pass
    raise TypeError(f"{_VALID}, got {value!r}")


def _as_slice_part(value: Any, key: Any) -> int | None:
    return None if value is None else _as_int(value, key)


def normalize_index(key: Any, shape: tuple[int, ...]) -> tuple:
    """``key`` as a tuple of ints, slices, ``None`` and at most one ``Ellipsis``.

    Raises TypeError for keys TensorFlow refuses, InvalidArgumentError for an int out of
    range of its dimension or more indices than dimensions.
    """
    items = key if isinstance(key, tuple) else (key,)
    out: list[Any] = []
    for item in items:
        if item is None or item is Ellipsis:
            out.append(item)
        elif isinstance(item, slice):
            out.append(slice(*(_as_slice_part(p, key) for p in (item.start, item.stop, item.step))))
            if out[-1].step == 0:
                raise InvalidArgumentError("StridedSlice: slice step cannot be zero")
        else:
            out.append(_as_int(item, key))
    if out.count(Ellipsis) > 1:
        raise InvalidArgumentError("StridedSlice: an index can only have a single ellipsis ('...')")
    _check_bounds(out, shape)
    return tuple(out)


def _check_bounds(items: list, shape: tuple[int, ...]) -> None:
    consuming = [i for i in items if i is not None and i is not Ellipsis]
    if len(consuming) > len(shape):
        raise InvalidArgumentError(
            f"StridedSlice: index {tuple(items)} has {len(consuming)} indices for a tensor of rank "
            f"{len(shape)}"
        )
    # Dimensions are consumed left to right before the ellipsis, right to left after it.
    if Ellipsis in items:
        cut = items.index(Ellipsis)
        before, after = items[:cut], items[cut + 1 :]
    else:
        before, after = items, []
    dim = 0
    for item in before:
        if item is not None:
            _check_int(item, dim, shape)
            dim += 1
    dim = len(shape) - 1
    for item in reversed(after):
        if item is not None:
            _check_int(item, dim, shape)
            dim -= 1


def _check_int(item: Any, dim: int, shape: tuple[int, ...]) -> None:
    known = shape[dim] is not None  # an unknown dimension is checked when the graph runs
    if isinstance(item, int) and known and not -shape[dim] <= item < shape[dim]:
        raise InvalidArgumentError(
            f"StridedSlice: slice index {item} of dimension {dim} out of bounds (size {shape[dim]})"
        )
