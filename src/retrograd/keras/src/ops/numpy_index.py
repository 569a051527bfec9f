"""``keras.ops`` indexing, ordering and counting (``keras.ops.numpy``): ``take``,
``take_along_axis``, ``sort``/``argsort``/``argpartition``, ``nonzero``, ``searchsorted``,
``digitize``, ``bincount``, ``histogram``, ``unravel_index``, and quantiles (``quantile``,
``percentile``, ``median`` and their NaN-ignoring forms).

Gathers and sorts are differentiable in the values they select; indices and counts are not.

>>> from retrograd.keras import ops
>>> ops.take([10, 20, 30], [2, -1]).numpy().tolist(), ops.median([3.0, 1.0, 2.0]).numpy()
([30, 30], np.float32(2.0))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    broadcast,
    comparison_ops,
    gather_ops,
    join_ops,
    math_ops,
    reduction_ops,
    sort_ops,
)

__all__ = [
    "take",
    "take_along_axis",
    "sort",
    "argsort",
    "argpartition",
    "nonzero",
    "searchsorted",
    "digitize",
    "bincount",
    "histogram",
    "unravel_index",
    "quantile",
    "percentile",
    "median",
    "nanquantile",
    "nanpercentile",
    "nanmedian",
]


def take(x: Any, indices: Any, axis: Any = None) -> Any:
    """The elements (or slices along ``axis``) of ``x`` at ``indices`` (negative indices
    count from the end; ``x`` is flattened when ``axis`` is None).

    >>> take([[1, 2], [3, 4]], [1], axis=1).numpy().tolist()
    [[2], [4]]
    """
    if any_symbolic(x, indices):
        return symbolic_call(take, x, indices, axis)
    t = tensors.convert(x)
    if axis is None:
        t, axis = array_ops.reshape(t, [-1]), 0
    axis = int(axis) % t.shape.rank
    i = tensors.convert(indices)
    if not i.dtype.is_integer:
        i = math_ops.cast(i, "int32")
    length = tensors.convert(t.shape.as_list()[axis], i.dtype)
    i = array_ops.where(comparison_ops.less(i, tensors.convert(0, i.dtype)), i + length, i)
    return gather_ops.gather(t, i, axis=axis)


def take_along_axis(x: Any, indices: Any, axis: Any = None) -> Any:
    """The elements of ``x`` at ``indices`` along ``axis`` (shapes broadcast elsewhere).

    >>> take_along_axis([[10, 20], [30, 40]], [[1], [0]], axis=1).numpy().tolist()
    [[20], [30]]
    """
    if any_symbolic(x, indices):
        return symbolic_call(take_along_axis, x, indices, axis)
    t = tensors.convert(x)
    i = tensors.convert(indices)
    if not i.dtype.is_integer:
        i = math_ops.cast(i, "int64")
    if axis is None:
        if i.shape.rank != 1:
            raise ValueError(
                f"`indices` must be 1D if axis=None. Received: indices.shape={tuple(i.shape)}"
            )
        return take_along_axis(array_ops.reshape(t, [-1]), i, 0)
    rank = t.shape.rank
    if not -rank <= axis < rank:
        raise ValueError(f"Invalid axis: {axis} for input rank: {rank}")
    axis = axis % rank
    x_shape, i_shape = t.shape.as_list(), i.shape.as_list()
    if len(i_shape) != rank:
        raise ValueError(
            "`x` and `indices` must have the same number of dimensions, but receive shape "
            f"{tuple(x_shape)} and {tuple(i_shape)}."
        )
    batch = [max(a, b) for k, (a, b) in enumerate(zip(x_shape, i_shape)) if k != axis]
    x_target = batch[:axis] + [x_shape[axis]] + batch[axis:]
    i_target = batch[:axis] + [i_shape[axis]] + batch[axis:]
    t = broadcast.broadcast_to(t, x_target)
    i = broadcast.broadcast_to(i, i_target)
    length = tensors.convert(x_shape[axis], i.dtype)
    i = array_ops.where(comparison_ops.less(i, tensors.convert(0, i.dtype)), i + length, i)
    perm = [k for k in range(rank) if k != axis] + [axis]
    inverse = list(np.argsort(perm))
    moved = array_ops.transpose(t, perm)
    moved_i = array_ops.transpose(i, perm)
    picked = gather_ops.gather(moved, moved_i, axis=rank - 1, batch_dims=rank - 1)
    return array_ops.transpose(picked, inverse)


def sort(x: Any, axis: int = -1) -> Any:
    """``x`` sorted ascending along ``axis``.

    >>> sort([3, 1, 2]).numpy().tolist()
    [1, 2, 3]
    """
    if any_symbolic(x):
        return symbolic_call(sort, x, axis)
    t = tensors.convert(x)
    if axis is None:
        t, axis = array_ops.reshape(t, [-1]), 0
    return sort_ops.sort(t, axis=axis)


def argsort(x: Any, axis: int = -1) -> Any:
    """The indices that sort ``x`` along ``axis`` (stable).

    >>> argsort([3, 1, 2]).numpy().tolist()
    [1, 2, 0]
    """
    if any_symbolic(x):
        return symbolic_call(argsort, x, axis)
    t = tensors.convert(x)
    if axis is None:
        t, axis = array_ops.reshape(t, [-1]), 0
    if t.shape.rank == 0:
        return tensors.convert(0, "int32")
    return sort_ops.argsort(t, axis=axis, stable=True)


def argpartition(x: Any, kth: int, axis: int = -1) -> Any:
    """Indices putting the ``kth`` smallest element in its sorted place along ``axis``: the
    ``kth + 1`` smallest first (ascending), then the others.

    >>> argpartition([3, 4, 2, 1], 1).numpy().tolist()[:2]
    [3, 2]
    """
    if any_symbolic(x):
        return symbolic_call(argpartition, x, kth, axis)
    from retrograd.keras.src.ops import numpy_shape

    t = numpy_shape.swapaxes(tensors.convert(x, "int32"), axis, -1)
    n = t.shape.as_list()[-1]
    order = sort_ops.argsort(t, axis=-1, stable=True)
    low = order[..., : kth + 1]
    rest = sort_ops.argsort(array_ops.zeros_like(t) - t, axis=-1, stable=True)
    chosen = reduction_ops.reduce_any(
        comparison_ops.equal(array_ops.expand_dims(rest, -1), array_ops.expand_dims(low, -2)), -1
    )
    keep = array_ops.reshape(rest, [-1, n])
    flat_chosen = array_ops.reshape(chosen, [-1, n])
    rows = [
        gather_ops.boolean_mask(keep[r], comparison_ops.logical_not(flat_chosen[r]))
        for r in range(keep.shape.as_list()[0])
    ]
    high = array_ops.reshape(join_ops.stack(rows), low.shape.as_list()[:-1] + [n - kth - 1])
    return numpy_shape.swapaxes(join_ops.concat([low, high], -1), -1, axis)


def nonzero(x: Any) -> Any:
    """The indices of the nonzero elements, one int32 tensor per axis.

    >>> [t.numpy().tolist() for t in nonzero([[0, 1], [2, 0]])]
    [[0, 1], [1, 0]]
    """
    if any_symbolic(x):
        return symbolic_call(nonzero, x)
    t = tensors.convert(x)
    found = array_ops.where(math_ops.cast(t, "bool"))
    return tuple(math_ops.cast(found[:, k], "int32") for k in range(t.shape.rank))


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left") -> Any:
    """Where each of ``values`` would be inserted into the 1-D ``sorted_sequence`` to keep
    it sorted (before equal elements with 'left', after them with 'right').

    >>> searchsorted([1, 3, 5], [3, 4], side="left").numpy().tolist()
    [1, 2]
    """
    if any_symbolic(sorted_sequence, values):
        return symbolic_call(searchsorted, sorted_sequence, values, side)
    seq, v = tensors.convert(sorted_sequence), tensors.convert(values)
    if seq.shape.rank != 1:
        raise ValueError(
            "`searchsorted` only supports 1-D sorted sequences. You can use "
            "`keras.ops.vectorized_map` to extend it to N-D sequences. Received: "
            f"sorted_sequence.shape={tuple(seq.shape.as_list())}"
        )
    if side not in ("left", "right"):
        raise ValueError(f"`side` must be 'left' or 'right'. Received: side={side}")
    dtype = result_type(seq.dtype.name, v.dtype.name)
    seq, v = math_ops.cast(seq, dtype), math_ops.cast(v, dtype)
    before = comparison_ops.less if side == "left" else comparison_ops.less_equal
    hits = before(seq, array_ops.expand_dims(v, -1))
    return reduction_ops.reduce_sum(math_ops.cast(hits, "int32"), -1)


def digitize(x: Any, bins: Any) -> Any:
    """The index of the bin each element falls in (``bins`` increasing: ``bins[i-1] <= x <
    bins[i]``).

    >>> digitize([0.5, 1.5, 3.0], [1.0, 2.0]).numpy().tolist()
    [0, 1, 2]
    """
    if any_symbolic(x):
        return symbolic_call(digitize, x, bins)
    t = tensors.convert(x)
    edges = [float(b) for b in (bins.numpy().tolist() if tensors.is_tensor(bins) else bins)]
    work = "float64" if t.dtype.name in ("float64", "int64", "uint32") else "float32"
    below = comparison_ops.less_equal(
        tensors.convert(edges, work), array_ops.expand_dims(math_ops.cast(t, work), -1)
    )
    return reduction_ops.reduce_sum(math_ops.cast(below, "int32"), -1)


def bincount(x: Any, weights: Any = None, minlength: int = 0, sparse: bool = False) -> Any:
    """How many times each value ``0..max(x)`` occurs in the 1-D (or each row of the 2-D)
    non-negative integer ``x``, or the sums of ``weights`` at them.

    >>> bincount([0, 1, 1, 3]).numpy().tolist()
    [1, 2, 0, 1]
    """
    if any_symbolic(x, weights):
        return symbolic_call(bincount, x, weights, minlength, sparse)
    if sparse:
        raise ValueError("bincount: sparse outputs are not supported by retrograd")
    t = tensors.convert(x)
    dtype = "int32"
    if t.dtype.name not in ("int32", "int64"):
        t = math_ops.cast(t, "int32")
    length = max(
        int(reduction_ops.reduce_max(t).numpy()) + 1 if t.shape.num_elements() else 0,
        int(minlength),
    )
    hits = math_ops.cast(
        comparison_ops.equal(
            array_ops.expand_dims(t, -1), tensors.convert(np.arange(length), t.dtype)
        ),
        "int32",
    )
    if weights is None:
        return reduction_ops.reduce_sum(hits, -2)
    w = tensors.convert(weights)
    dtype = result_type(tensors.convert(x).dtype.name, w.dtype.name)
    w = math_ops.cast(w, dtype)
    return reduction_ops.reduce_sum(math_ops.cast(hits, dtype) * array_ops.expand_dims(w, -1), -2)


def histogram(x: Any, bins: int = 10, range: Any = None) -> Any:  # noqa: A002
    """The counts of the 1-D ``x`` in ``bins`` equal bins over ``range`` (its min and max
    by default), and the bin edges.

    >>> counts, edges = histogram([0.0, 1.0, 1.0, 2.0], bins=2)
    >>> counts.numpy().tolist(), edges.numpy().tolist()
    ([1.0, 3.0], [0.0, 1.0, 2.0])
    """
    if any_symbolic(x):
        return symbolic_call(histogram, x, bins, range)
    t = tensors.convert(x)
    if t.shape.rank != 1:
        raise ValueError(
            f"Input tensor must be 1-dimensional. Received: input.shape={tuple(t.shape.as_list())}"
        )
    low, high = (
        (reduction_ops.reduce_min(t), reduction_ops.reduce_max(t))
        if range is None
        else (tensors.convert(range[0], t.dtype), tensors.convert(range[1], t.dtype))
    )
    from retrograd.keras.src.ops import numpy_create

    edges = numpy_create.linspace(low, high, bins + 1, dtype=t.dtype.name)
    width = (high - low) / tensors.convert(bins, t.dtype)
    index = math_ops.cast(math_ops.floordiv(t - low, width), "int32")
    index = math_ops.minimum(index, tensors.convert(bins - 1, "int32"))
    inside = comparison_ops.logical_and(
        comparison_ops.greater_equal(t, low), comparison_ops.less_equal(t, high)
    )
    hits = comparison_ops.logical_and(
        comparison_ops.equal(
            array_ops.expand_dims(index, -1), tensors.convert(np.arange(bins), "int32")
        ),
        array_ops.expand_dims(inside, -1),
    )
    return reduction_ops.reduce_sum(math_ops.cast(hits, t.dtype), 0), edges


def unravel_index(indices: Any, shape: Any) -> Any:
    """The coordinates in an array of ``shape`` of the flat ``indices``, one tensor per axis.

    >>> [t.numpy().tolist() for t in unravel_index([5], (2, 3))]
    [[1], [2]]
    """
    if any_symbolic(indices):
        return symbolic_call(unravel_index, indices, shape)
    if None in tuple(shape):
        raise ValueError(f"`shape` argument cannot contain `None`. Received: shape={shape}")
    i = tensors.convert(indices)
    coords = []
    for dim in reversed(tuple(shape)):
        size_ = tensors.convert(int(dim), i.dtype)
        coords.append(math_ops.floormod(i, size_))
        i = math_ops.floordiv(i, size_)
    return tuple(reversed(coords))


def _axes_of(axis: Any, rank: int) -> list[int]:
    if axis is None:
        return list(range(rank))
    return sorted({int(a) % rank for a in ([axis] if isinstance(axis, int) else axis)})


def _quantile(t: Any, q: Any, axis: Any, method: str, keepdims: bool) -> Any:
    """Keras' quantiles: the reduced axes moved last and flattened, sorted, and the values
    at each quantile's position picked (or interpolated); ``q``'s axis first."""
    shape, rank = t.shape.as_list(), t.shape.rank
    axes = _axes_of(axis, rank)
    others = [a for a in range(rank) if a not in axes]
    kept = [shape[a] for a in others]
    rows = array_ops.reshape(array_ops.transpose(t, others + axes), kept + [-1])
    ordered = sort_ops.sort(rows, axis=-1)
    n = rows.shape.as_list()[-1]
    qs = np.asarray(q.numpy() if tensors.is_tensor(q) else q, dtype=np.float64)
    exact = (n - 1) * qs.reshape(-1)

    def at(index: np.ndarray) -> Any:
        where_ = tensors.convert(np.clip(index, 0, n - 1).astype(np.int32))
        return gather_ops.gather(ordered, where_, axis=-1)

    if method == "lower":
        picks = at(np.floor(exact))
    elif method == "higher":
        picks = at(np.ceil(exact))
    elif method == "nearest":
        picks = at(np.rint(exact))
    elif method == "midpoint":
        picks = (at(np.floor(exact)) + at(np.ceil(exact))) * tensors.convert(0.5, t.dtype)
    elif method == "linear":
        above = np.clip(np.ceil(exact), 0, n - 1)
        below = np.maximum(above - 1, 0)
        above = np.minimum(below + 1, n - 1)
        fraction = tensors.convert((above - exact).astype(t.dtype.as_numpy_dtype))
        picks = at(above) * (1 - fraction) + at(below) * fraction
    else:
        raise ValueError(
            "`method` must be one of 'linear', 'lower', 'higher', 'midpoint' or 'nearest'. "
            f"Received: method={method}"
        )
    if t.dtype.is_floating:
        has_nan = reduction_ops.reduce_any(comparison_ops.is_nan(rows), -1, keepdims=True)
        picks = array_ops.where(has_nan, tensors.full_like(picks, np.nan), picks)
    if keepdims:
        target = [1 if a in axes else d for a, d in enumerate(shape)]
        picks = array_ops.reshape(picks, target + [len(exact)])
    if qs.ndim == 0:
        return array_ops.squeeze(picks, [picks.shape.rank - 1])
    last = picks.shape.rank - 1
    return array_ops.transpose(picks, [last] + list(range(last)))


def quantile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False):
    """The ``q``-th quantiles (``q`` in [0, 1], a number or a 1-D tensor, whose axis comes
    first in the result) over ``axis``; ``method`` is 'linear', 'lower', 'higher',
    'midpoint' or 'nearest'.

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.5).numpy()
    np.float32(2.5)
    """
    if any_symbolic(x, q):
        return symbolic_call(quantile, x, q, axis, method, keepdims)
    t = tensors.convert(x)
    t = math_ops.cast(t, result_type(t.dtype.name, float))
    return _quantile(t, q, axis, method, keepdims)


def percentile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False):
    """The ``q``-th percentiles (``q`` in [0, 100]) over ``axis`` (see ``quantile``).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50).numpy()
    np.float32(2.5)
    """
    if any_symbolic(x, q):
        return symbolic_call(percentile, x, q, axis, method, keepdims)
    qs = np.asarray(q.numpy() if tensors.is_tensor(q) else q, dtype=np.float64) / 100.0
    return quantile(x, qs, axis, method, keepdims)


def median(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The median over ``axis``.

    >>> median([[1.0, 5.0], [2.0, 3.0]], axis=1).numpy().tolist()
    [3.0, 2.5]
    """
    if any_symbolic(x):
        return symbolic_call(median, x, axis, keepdims)
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanquantile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False):
    """The ``q``-th quantiles over ``axis`` of the elements that are not NaN.

    >>> nanquantile([1.0, float("nan"), 3.0], 0.5).numpy()
    np.float32(2.0)
    """
    if any_symbolic(x, q):
        return symbolic_call(nanquantile, x, q, axis, method, keepdims)
    t = tensors.convert(x)
    work = t if t.dtype.is_floating else math_ops.cast(t, backend.floatx())
    rank = work.shape.rank
    axes = (
        list(range(rank))
        if axis is None
        else sorted({a % rank for a in ([axis] if isinstance(axis, int) else axis)})
    )
    others = [a for a in range(rank) if a not in axes]
    moved = array_ops.transpose(work, others + axes)
    kept = [work.shape.as_list()[a] for a in others]
    rows = array_ops.reshape(moved, [-1, int(np.prod([work.shape.as_list()[a] for a in axes]))])
    results = []
    for r in range(rows.shape.as_list()[0]):
        row = rows[r]
        valid = gather_ops.boolean_mask(row, comparison_ops.logical_not(comparison_ops.is_nan(row)))
        if valid.shape.as_list()[0]:
            results.append(
                math_ops.cast(
                    quantile(valid, q, method=method),
                    t.dtype if t.dtype.is_floating else work.dtype,
                )
            )
        else:
            qs = np.asarray(q, dtype=np.float64)
            results.append(tensors.convert(np.full(qs.shape, np.nan), work.dtype))
    out = join_ops.stack(results)
    qs = np.asarray(q.numpy() if tensors.is_tensor(q) else q)
    if qs.ndim:
        out = array_ops.transpose(out, [1, 0])
        out = array_ops.reshape(out, [qs.shape[0]] + kept)
    else:
        out = array_ops.reshape(out, kept)
    if keepdims:
        offset = qs.ndim
        for a in sorted(axes):
            out = array_ops.expand_dims(out, a + offset)
    return out


def nanpercentile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False):
    """The ``q``-th percentiles over ``axis`` of the elements that are not NaN.

    >>> nanpercentile([1.0, float("nan"), 3.0], 50).numpy()
    np.float32(2.0)
    """
    if any_symbolic(x, q):
        return symbolic_call(nanpercentile, x, q, axis, method, keepdims)
    qs = np.asarray(q.numpy() if tensors.is_tensor(q) else q, dtype=np.float64) / 100.0
    return nanquantile(x, qs, axis, method, keepdims)


def nanmedian(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The median over ``axis`` of the elements that are not NaN.

    >>> nanmedian([1.0, float("nan"), 3.0]).numpy()
    np.float32(2.0)
    """
    if any_symbolic(x):
        return symbolic_call(nanmedian, x, axis, keepdims)
    if axis in ((), []):
        return tensors.convert(x)
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)
