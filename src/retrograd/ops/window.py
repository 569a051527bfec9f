"""Sliding windows over the spatial axes of channels-last tensors, shared by convolution and
pooling: argument normalisation (strides, ksize, dilations, padding), TensorFlow's output
sizes and SAME padding split, and the NumPy helpers the kernels are built from.

Tensors are laid out ``(batch, *spatial, channels)``; a window over ``n`` spatial axes
with kernel size ``k``, stride ``s`` and dilation ``d`` covers ``(k - 1) * d + 1`` input
positions. SAME padding gives ``ceil(size / s)`` outputs and puts the odd padding element
after the input, as TensorFlow does:

>>> from retrograd.ops.window import resolve_padding
>>> resolve_padding("Conv2D", "SAME", (5, 6), (3, 3), (2, 2), (1, 1), False)
(((1, 1), (0, 1)), (3, 3))
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError, UnimplementedError
from retrograd.core.tensor import Tensor

_FORMATS = {
    1: ("NWC", "NCW"),
    2: ("NHWC", "NCHW"),
    3: ("NDHWC", "NCDHW"),
}


def channels_first(op_type: str, data_format: Any, n: int) -> bool:
    """Whether ``data_format`` puts channels before the ``n`` spatial axes (``NCHW``)."""
    last, first = _FORMATS[n]
    if data_format is None or data_format == last:
        return False
    if data_format == first:
        return True
    raise ValueError(
        f"{op_type}: data_format must be {last!r} or {first!r} for {n} spatial dimension(s), "
        f"got {data_format!r}"
    )


def _ints(op_type: str, arg: str, value: Any) -> list[int]:
    """Ints only (as TensorFlow: "Expected int for argument 'strides' not '3'")."""
    if isinstance(value, Tensor) and value._value.dtype.kind in "iu":
        value = value._value.tolist()
    values = [value] if not isinstance(value, (list, tuple)) else list(value)
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(
                f"{op_type}: Expected int for argument '{arg}' not {v!r} (`{arg}` must be an "
                f"int or a list of ints, got {value!r})"
            )
    return [int(v) for v in values]


def spatial(op_type: str, arg: str, value: Any, n: int, first: bool) -> tuple[int, ...]:
    """``strides``/``ksize``/``dilations`` as ``n`` positive spatial ints.

    Accepts one int, ``n`` ints, or ``n + 2`` ints in the data format's order whose batch
    and channel entries are 1 (TensorFlow does not slide over those).
    """
    values = _ints(op_type, arg, value)
    if len(values) == 1:
        values = values * n
    elif len(values) == n + 2:
        outer = (values[0], values[1]) if first else (values[0], values[-1])
        if outer != (1, 1):
            raise UnimplementedError(
                f"{op_type}: `{arg}` {values} would slide over the batch or channel dimension; "
                f"only spatial {arg} are supported (use 1 there)"
            )
        values = values[2:] if first else values[1:-1]
    elif len(values) != n:
        raise ValueError(
            f"{op_type}: `{arg}` must have 1, {n} or {n + 2} elements, got {len(values)}: {values}"
        )
    if min(values) < 1:
        raise InvalidArgumentError(f"{op_type}: `{arg}` must be positive, got {values}")
    return tuple(values)


def effective_size(ksize: tuple[int, ...], dilations: tuple[int, ...]) -> tuple[int, ...]:
    """How many input positions a dilated window spans along each spatial axis."""
    return tuple((k - 1) * d + 1 for k, d in zip(ksize, dilations))


def _explicit_pads(op_type: str, padding: Any, n: int, first: bool) -> tuple:
    try:
        pairs = [tuple(int(p) for p in pair) for pair in padding]
    except (TypeError, ValueError):
        pairs = []
    if len(pairs) != n + 2 or any(len(p) != 2 for p in pairs):
        raise ValueError(
            f"{op_type}: explicit padding must be {n + 2} [before, after] pairs, got {padding!r}"
        )
    outer = pairs[:2] if first else [pairs[0], pairs[-1]]
    if any(p != (0, 0) for p in outer) or min(min(p) for p in pairs) < 0:
        raise InvalidArgumentError(
            f"{op_type}: explicit padding must be non-negative and zero for the batch and "
            f"channel dimensions, got {pairs}"
        )
    return tuple(pairs[2:] if first else pairs[1:-1])


def resolve_padding(
    op_type: str,
    padding: Any,
    sizes: tuple[int, ...],
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    first: bool,
) -> tuple[tuple, tuple[int, ...]]:
    """The (before, after) padding of each spatial axis and the output sizes.

    ``padding`` is ``"SAME"``, ``"VALID"`` or explicit pairs for every dimension.
    """
    n = len(sizes)
    spans = effective_size(ksize, dilations)
    if padding == "SAME":
        outs = tuple(-(-size // s) for size, s in zip(sizes, strides))
        totals = (
            max((o - 1) * s + k - size, 0) for o, s, k, size in zip(outs, strides, spans, sizes)
        )
        return tuple((t // 2, t - t // 2) for t in totals), outs
    if padding == "VALID":
        pads = ((0, 0),) * n
    elif isinstance(padding, str):
        raise ValueError(
            f"{op_type}: padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}"
        )
    else:
        pads = _explicit_pads(op_type, padding, n, first)
    outs = []
    for size, (lo, hi), k, s in zip(sizes, pads, spans, strides):
        room = size + lo + hi - k + 1
        if room < 0:
            raise InvalidArgumentError(
                f"{op_type}: computed output size would be negative: {room} (input size {size}, "
                f"padding {(lo, hi)}, window span {k})"
            )
        outs.append(-(-room // s))
    return pads, tuple(outs)


# --- NumPy helpers for the kernels ----------------------------------------------------------


def pad(x: Any, pads: tuple, value: Any = 0) -> Any:
    """``x`` padded on its spatial axes (batch and channels untouched)."""
    if not any(lo or hi for lo, hi in pads):
        return x
    return np.pad(x, ((0, 0), *pads, (0, 0)), constant_values=value)


def crop(xp: Any, pads: tuple) -> Any:
    """Undoes :func:`pad`."""
    return xp[(slice(None), *(slice(lo, xp.shape[i + 1] - hi) for i, (lo, hi) in enumerate(pads)))]


def windows(xp: Any, ksize: tuple, strides: tuple, dilations: tuple, outs: tuple) -> Any:
    """A view of shape ``(batch, *outs, channels, *ksize)``: every window of padded ``xp``."""
    n = len(ksize)
    spans = effective_size(ksize, dilations)
    view = np.lib.stride_tricks.sliding_window_view(xp, spans, axis=tuple(range(1, n + 1)))
    index = (
        slice(None),
        *(slice(0, (o - 1) * s + 1, s) for o, s in zip(outs, strides)),
        slice(None),
        *(slice(None, None, d) for d in dilations),
    )
    return view[index]


def patches(xp: Any, ksize: tuple, strides: tuple, dilations: tuple, outs: tuple) -> Any:
    """im2col: a new array ``(batch, *outs, *ksize, channels)`` holding every window of ``xp``
    (channels last, so the copy reads memory in order and one matmul can contract it)."""
    view = windows(xp, ksize, strides, dilations, outs)
    return np.moveaxis(view, len(outs) + 1, -1).copy()  # (C order: every library's copy)


def offsets(ksize: tuple) -> list[tuple[int, ...]]:
    """Every position inside a window, in row-major order."""
    return list(itertools.product(*(range(k) for k in ksize)))


def window_slots(offset: tuple, strides: tuple, dilations: tuple, outs: tuple) -> tuple:
    """The index into a padded input of the elements at ``offset`` of every window."""
    return (
        slice(None),
        *(
            slice(o * d, o * d + (n - 1) * s + 1, s)
            for o, d, s, n in zip(offset, dilations, strides, outs)
        ),
        slice(None),
    )


def out_sizes(padded: tuple, spans: tuple, strides: tuple) -> tuple[int, ...]:
    """How many windows fit along each axis of a padded input (0 where none fits)."""
    return tuple(max(-(-(size - k + 1) // s), 0) for size, k, s in zip(padded, spans, strides))


def out_shape(x_shape: tuple | None, ksize: tuple, strides: tuple, dilations: tuple, pads, depth):
    """The output shape of a sliding-window op for a graph (None for what is unknown):
    ``(batch, *windows per axis, depth)``; ``depth`` None keeps the input's channels."""
    if x_shape is None:
        return None
    spans = effective_size(ksize, dilations)
    outs = (
        None if size is None else max(-(-(size + lo + hi - k + 1) // s), 0)
        for size, (lo, hi), k, s in zip(x_shape[1:-1], pads, spans, strides)
    )
    return (x_shape[0], *outs, x_shape[-1] if depth is None else depth)
