"""Finding positions: ``searchsorted`` (where values go in sorted rows), the fixed-width
histograms, ``unravel_index`` (flat indices to coordinates) and ``math.bincount``. Their
results are integers: no gradients.

>>> import retrograd as rg
>>> rg.searchsorted([1.0, 2.0, 3.0], [2.5, 0.0]).numpy().tolist()
[2, 0]
>>> rg.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5).numpy().tolist()
[2, 1, 1, 0, 2]
"""

from __future__ import annotations

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops.define import INTEGER, REAL, tensor_arg
from retrograd.ops.index_args import static_int

__all__ = [
    "bincount", "histogram_fixed_width", "histogram_fixed_width_bins", "searchsorted",
    "unravel_index",
]  # fmt: skip


def _searchsorted_kernel(sorted_sequence, values, side, out_type):
    rows = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    queries = values.reshape(rows.shape[0], -1)
    found = np.stack([np.searchsorted(r, q, side=side) for r, q in zip(rows, queries)])
    return found.reshape(values.shape).astype(out_type.as_numpy_dtype)


_SearchSorted = define_op(
    "SearchSorted",
    _searchsorted_kernel,
    shape_fn=lambda metas, side, out_type: [(metas[1].shape, np.dtype(out_type.as_numpy_dtype))],
)
no_gradient("SearchSorted")


def searchsorted(
    sorted_sequence: TensorLike,
    values: TensorLike,
    side: str = "left",
    out_type: DTypeLike = dtypes.int32,
    name: str | None = None,
) -> Tensor:
    """For each row of ``values``, the positions where its values would go in the matching
    (innermost, ascending) row of ``sorted_sequence``: before equal entries (``"left"``)
    or after them (``"right"``).

    >>> import retrograd as rg
    >>> rg.searchsorted([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], [[2.5, 1.0], [4.0, 7.0]]
    ...                 ).numpy().tolist()
    [[2, 0], [1, 3]]
    """
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `{side}`.")
    sequence = tensor_arg("SearchSorted", sorted_sequence, REAL, "sorted_sequence")
    queries = convert_to_tensor(values, dtype=sequence.dtype)
    index_type = dtypes.as_dtype(out_type)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"SearchSorted: out_type must be int32 or int64, got {index_type.name}")
    ranks = sequence.shape.rank, queries.shape.rank
    if None not in ranks and (ranks[0] != ranks[1] or sequence.shape[:-1] != queries.shape[:-1]):
        raise InvalidArgumentError(
            f"SearchSorted: sorted_sequence and values must have the same leading dimensions, "
            f"got shapes {sequence.shape} and {queries.shape}"
        )
    attrs = {"side": side, "out_type": index_type}
    return execute(_SearchSorted, (sequence, queries), attrs, name)


def _bins_kernel(values, value_range, nbins, dtype):
    low, high = value_range[0], value_range[1]
    scaled = (values - low) / (high - low) * nbins
    bins = np.clip(np.floor(scaled), 0, nbins - 1)
    return np.where(np.isnan(scaled), 0, bins).astype(dtype.as_numpy_dtype)


_HistogramBins = define_op(
    "HistogramFixedWidthBins",
    _bins_kernel,
    shape_fn=lambda metas, nbins, dtype: [(metas[0].shape, np.dtype(dtype.as_numpy_dtype))],
)
no_gradient("HistogramFixedWidthBins")


def _histogram_kernel(values, value_range, nbins, dtype):
    bins = _bins_kernel(values, value_range, nbins, dtypes.int64).reshape(-1)
    return np.bincount(bins, minlength=nbins).astype(dtype.as_numpy_dtype)


_HistogramFixedWidth = define_op(
    "HistogramFixedWidth",
    _histogram_kernel,
    shape_fn=lambda metas, nbins, dtype: [((nbins,), np.dtype(dtype.as_numpy_dtype))],
)
no_gradient("HistogramFixedWidth")


def _histogram_args(values, value_range, nbins, dtype, who):
    v = tensor_arg(who, values, REAL, "values")
    r = convert_to_tensor(value_range, dtype=v.dtype)
    if r.shape.rank is not None and r.shape.as_list() != [2]:
        raise ValueError(f"{who}: value_range must be [min, max], got shape {r.shape}")
    count = static_int(who, nbins, "nbins")
    if count <= 0:
        raise InvalidArgumentError(f"{who}: nbins should be a positive number, but got '{count}'")
    index_type = dtypes.as_dtype(dtype)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{who}: dtype must be int32 or int64, got {index_type.name}")
    return (v, r), {"nbins": count, "dtype": index_type}


def histogram_fixed_width(
    values: TensorLike,
    value_range: TensorLike,
    nbins: int = 100,
    dtype: DTypeLike = dtypes.int32,
    name: str | None = None,
) -> Tensor:
    """How many ``values`` fall in each of ``nbins`` equal bins over ``value_range``
    (values below it count in the first bin, above it in the last).

    >>> import retrograd as rg
    >>> rg.histogram_fixed_width([0.0, 0.2, 0.9], [0.0, 1.0], nbins=2).numpy().tolist()
    [2, 1]
    """
    inputs, attrs = _histogram_args(values, value_range, nbins, dtype, "HistogramFixedWidth")
    return execute(_HistogramFixedWidth, inputs, attrs, name)


def histogram_fixed_width_bins(
    values: TensorLike,
    value_range: TensorLike,
    nbins: int = 100,
    dtype: DTypeLike = dtypes.int32,
    name: str | None = None,
) -> Tensor:
    """The bin of each value in ``histogram_fixed_width``'s bins (same shape as ``values``).

    >>> import retrograd as rg
    >>> rg.histogram_fixed_width_bins([-1.0, 1.5, 15.0], [0.0, 5.0], nbins=5).numpy().tolist()
    [0, 1, 4]
    """
    inputs, attrs = _histogram_args(values, value_range, nbins, dtype, "HistogramFixedWidth")
    return execute(_HistogramBins, inputs, attrs, name)


def _unravel_kernel(indices, dims):
    size = int(np.prod(dims, dtype=np.int64))
    if np.size(indices) and (np.min(indices) < 0 or np.max(indices) >= size):
        raise InvalidArgumentError(
            f"UnravelIndex: index out of bounds for dims {dims.tolist()} (size {size})"
        )
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


def _unravel_meta(metas):
    indices, dims = metas
    n = None if dims.shape is None else dims.shape[0]
    shape = None if indices.shape is None else (n, *indices.shape)
    return [(shape, indices.dtype)]


_UnravelIndex = define_op("UnravelIndex", _unravel_kernel, shape_fn=_unravel_meta)
no_gradient("UnravelIndex")


def unravel_index(indices: TensorLike, dims: TensorLike, name: str | None = None) -> Tensor:
    """The coordinates in an array of shape ``dims`` of flat (row-major) ``indices``: one row
    per dimension.

    >>> import retrograd as rg
    >>> rg.unravel_index([22, 41, 37], [7, 6]).numpy().tolist()
    [[3, 6, 6], [4, 5, 1]]
    """
    i = tensor_arg("UnravelIndex", indices, INTEGER, "indices")
    d = convert_to_tensor(dims, dtype=i.dtype)
    return execute(_UnravelIndex, (i, d), None, name)


def _bincount_kernel(arr, *weights, minlength, maxlength, dtype, axis):
    out_dtype = dtype.as_numpy_dtype
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError("Bincount: Input arr must be non-negative!")
    size = max(int(arr.max()) + 1 if arr.size else 0, int(minlength or 0))
    if maxlength is not None:
        size = min(size, int(maxlength))
    if axis == -1:  # each row on its own
        rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim else arr.reshape(1, 1)
        w = weights[0].reshape(rows.shape) if weights else None
        counted = [
            np.bincount(r[r < size], None if w is None else w[k][r < size], minlength=size)
            for k, r in enumerate(rows)
        ]
        return np.stack(counted).reshape(*arr.shape[:-1], size).astype(out_dtype)
    flat = arr.reshape(-1)
    keep = flat < size
    w = weights[0].reshape(-1)[keep] if weights else None
    return np.bincount(flat[keep], w, minlength=size).astype(out_dtype)


def _bincount_meta(metas, minlength, maxlength, dtype, axis):
    arr = metas[0]
    lead = () if axis != -1 or arr.shape is None else arr.shape[:-1]
    return [((*lead, None), np.dtype(dtype.as_numpy_dtype))]


_Bincount = define_op("DenseBincount", _bincount_kernel, shape_fn=_bincount_meta)
no_gradient("DenseBincount")


def bincount(
    arr: TensorLike,
    weights: TensorLike | None = None,
    minlength: int | None = None,
    maxlength: int | None = None,
    dtype: DTypeLike = dtypes.int32,
    name: str | None = None,
    axis: int | None = None,
    binary_output: bool = False,
) -> Tensor:
    """How often each value ``0 .. max(arr)`` occurs in ``arr`` (or the sum of ``weights``
    there): at least ``minlength`` and at most ``maxlength`` bins; ``axis=-1`` counts each
    row; ``binary_output`` gives 1 where a value occurs.

    >>> import retrograd as rg
    >>> rg.math.bincount([1, 1, 3]).numpy().tolist()
    [0, 2, 0, 1]
    """
    a = convert_to_tensor(arr, dtype_hint=dtypes.int32)
    if a.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Bincount: `arr` must be an int32 or int64 tensor, got {a.dtype.name}")
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    inputs = [a]
    out_dtype = dtypes.as_dtype(dtype)
    if weights is not None:
        w = convert_to_tensor(weights)
        out_dtype = w.dtype
        if not binary_output:
            inputs.append(w)
    attrs = {"minlength": minlength, "maxlength": maxlength, "dtype": out_dtype, "axis": axis}
    counts = execute(_Bincount, inputs, attrs, name)
    if binary_output:
        from retrograd.ops import math_ops

        return math_ops.cast(counts > 0, out_dtype)
    return counts
