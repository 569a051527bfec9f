"""Gathering: gather (along an axis, with batch dimensions), gather_nd, boolean_mask, and
unsorted_segment_sum — the scatter-add that gathers differentiate into, so that duplicate
indices accumulate their gradients.

>>> import retrograd as rg
>>> x = rg.constant([10.0, 20.0, 30.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.gather(x, [2, 0, 2])
>>> g = tape.gradient(y, x)  # an IndexedSlices, as in TensorFlow
>>> y.numpy().tolist(), rg.convert_to_tensor(g).numpy().tolist()
([30.0, 10.0, 30.0], [1.0, 0.0, 2.0])
"""

from __future__ import annotations

import math

import numpy as np

from retrograd.core.annotations import AxisLike, TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, math_ops, scatter_ops
from retrograd.ops.define import ANY, BOOL, NUMERIC, beside, tensor_arg
from retrograd.ops.index_args import (
    bad_row_error,
    check_bad_indices_policy,
    check_in_range,
    index_tensor,
    out_of_bounds_rows,
    static_int,
)

GATHER_INDEX_DTYPES = ("int16", "int32", "int64")

# --- gather along an axis -----------------------------------------------------------------


def _gather_kernel(params, indices, axis, batch_dims):
    check_in_range("GatherV2", indices, params.shape[axis])
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    shape = params.shape
    batch, outer, inner = shape[:batch_dims], shape[batch_dims:axis], shape[axis + 1 :]
    index_shape = indices.shape[batch_dims:]
    nb, no = math.prod(batch), math.prod(outer)
    p = params.reshape((nb, no, shape[axis], *inner))
    i = indices.reshape(nb, 1, math.prod(index_shape))
    xp = namespace_of(params)
    out = p[xp.arange(nb)[:, None, None], xp.arange(no)[None, :, None], i]
    return out.reshape(batch + outer + index_shape + inner)


_GatherV2 = define_op("GatherV2", _gather_kernel)


def gather(
    params: TensorLike,
    indices: TensorLike,
    validate_indices: bool | None = None,
    axis: AxisLike | None = None,
    batch_dims: int = 0,
    name: str | None = None,
) -> Tensor:
    """Slices of ``params`` along ``axis`` at ``indices``; the first ``batch_dims`` dimensions
    of both are batch dimensions. Out-of-range indices raise (``validate_indices`` is
    ignored, as in TensorFlow).

    >>> import retrograd as rg
    >>> rg.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], axis=1, batch_dims=1).numpy().tolist()
    [[3, 1], [5, 5]]
    """
    p = tensor_arg("GatherV2", params, ANY, "params")
    i = index_tensor("GatherV2", indices, "indices", GATHER_INDEX_DTYPES)
    prank, irank = p._value.ndim, i._value.ndim
    if prank == 0:
        raise InvalidArgumentError("GatherV2: params must be at least 1 dimensional")
    b = static_int("GatherV2", batch_dims, "batch_dims")
    if not -irank <= b <= irank:
        raise InvalidArgumentError(
            f"GatherV2: Expected batch_dims in the range [{-irank}, {irank}], but got {b}"
        )
    if b < 0:
        b += irank
    axis = b if axis is None else static_int("GatherV2", axis, "axis")
    if not -prank <= axis < prank:
        raise InvalidArgumentError(
            f"GatherV2: axis {axis} is out of range for params of rank {prank}"
        )
    axis %= prank
    if b > axis:
        raise InvalidArgumentError(
            f"GatherV2: batch_dims ({b}) must be less than or equal to axis ({axis})"
        )
    _check_batch_shapes("GatherV2", p, i, b)
    return execute(_GatherV2, (p, i), {"axis": axis, "batch_dims": b}, name)


def _check_batch_shapes(op_type: str, params: Tensor, indices: Tensor, batch_dims: int) -> None:
    for d in range(batch_dims):
        if params._value.shape[d] != indices._value.shape[d]:
            raise InvalidArgumentError(
                f"{op_type}: params.shape[{d}]: {params._value.shape[d]} should be equal to "
                f"indices.shape[{d}]: {indices._value.shape[d]}"
            )


def _permute(x: Tensor, perm: tuple[int, ...]) -> Tensor:
    return x if perm == tuple(range(len(perm))) else array_ops.transpose(x, perm)


@op_gradient("GatherV2")
def _gather_grad(op, grad):
    # Scatter-add the upstream slices back: grad is batch + outer + index_shape + inner;
    # bring the index dimensions to the front, flatten them with the batch, and sum the
    # slices into segments (batch entry b, index j -> segment b * n + j).
    params, indices = op.inputs
    axis, b = op.get_attr("axis"), op.get_attr("batch_dims")
    if not params.shape.is_fully_defined():  # in a graph, known only when it runs
        return _gather_grad_at_run_time(params, indices, grad, axis, b), None
    shape = plain_dims(params.shape)
    batch, outer, n, inner = shape[:b], shape[b:axis], shape[axis], shape[axis + 1 :]
    index_shape = plain_dims(indices.shape)[b:]
    nb, lo, li = math.prod(batch), len(outer), len(index_shape)
    # In a graph the number of indices may be known only when it runs (boolean_mask): the
    # reshapes below then leave that one dimension to be inferred (-1).
    ni = -1 if None in index_shape else math.prod(index_shape)
    flat = -1 if ni == -1 else nb * ni
    perm = (
        *range(b),
        *range(b + lo, b + lo + li),
        *range(b, b + lo),
        *range(b + lo + li, grad.ndim),
    )
    values = array_ops.reshape(_permute(grad, perm), (flat, *outer, *inner))
    ids = array_ops.reshape(indices, (nb, ni))
    if b:
        offsets = beside(np.arange(nb, dtype=np.int64)[:, None] * n, grad)
        ids = math_ops.cast(ids, "int64") + offsets
    ids = array_ops.reshape(ids, (flat,))
    summed = array_ops.reshape(
        unsorted_segment_sum(values, ids, nb * n), (*batch, n, *outer, *inner)
    )
    back = (*range(b), *range(b + 1, b + 1 + lo), b, *range(b + 1 + lo, len(shape)))
    return _permute(summed, back), None


def sparse_gather_grad(op, grad):
    """``GatherV2``'s gradient as TensorFlow gives it to a caller: along axis 0 (no batch
    dimensions, params' shape known), an ``IndexedSlices`` with one upstream slice per index;
    otherwise the dense gradient. The backward walk uses it where the result may reach the
    caller as it is (``GradientTape.gradient``, ``gradients``); rules always get the dense one.
    """
    params, indices = op.inputs
    if op.get_attr("axis") or op.get_attr("batch_dims") or not params.shape.is_fully_defined():
        return _gather_grad(op, grad)
    from retrograd.ops.indexed_slices import gather_slices

    shape = plain_dims(params.shape)
    index_shape = plain_dims(indices.shape)
    count = -1 if None in index_shape else math.prod(index_shape)
    values = array_ops.reshape(grad, (count, *shape[1:]))
    return gather_slices(values, array_ops.reshape(indices, (-1,)), shape), None


_GatherV2.sparse_gradient = sparse_gather_grad


def _gather_grad_at_run_time(params, indices, grad, axis: int, b: int):
    """The gather gradient when params' shape is known only when the graph runs: the
    gathered axis brought to the front, the upstream slices added at the indices
    (ScatterNdLike), and the axes put back."""

    if b:
        raise InvalidArgumentError(
            "GatherV2 gradient: batch_dims needs params' shape known while the graph is built"
        )
    rank, li = params._value.ndim, indices._value.ndim
    to_front = (axis, *range(axis), *range(axis + 1, rank))
    upstream = _permute(grad, (*range(axis, axis + li), *range(axis), *range(axis + li, grad.ndim)))
    like = _permute(params, to_front)
    summed = scatter_ops.scatter_nd_like(array_ops.expand_dims(indices, -1), upstream, like)
    return _permute(summed, tuple(int(i) for i in np.argsort(to_front)))


# --- unsorted_segment_sum ----------------------------------------------------------------


def _unsorted_segment_sum_kernel(data, segment_ids, num_segments):
    bad = segment_ids >= num_segments
    if bad.any():
        flat = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(
            f"UnsortedSegmentSum: segment_ids[{flat}] = {segment_ids.reshape(-1)[flat]} is out "
            f"of range [0, {num_segments})"
        )
    tail = data.shape[segment_ids.ndim :]
    out = namespace_of(data).zeros((num_segments, *tail), dtype=data.dtype)
    keep = segment_ids >= 0  # negative ids are dropped, as in TensorFlow
    if keep.all():
        namespace_of(out).add.at(out, segment_ids.reshape(-1), data.reshape((-1, *tail)))
    else:
        namespace_of(out).add.at(out, segment_ids[keep], data[keep])
    return out


_UnsortedSegmentSum = define_op("UnsortedSegmentSum", _unsorted_segment_sum_kernel)


def unsorted_segment_sum(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """Sums the slices of ``data`` into ``num_segments`` segments named by ``segment_ids``
    (whose shape is a prefix of ``data``'s); negative ids are dropped.

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_sum([1.0, 2.0, 3.0, 4.0], [0, 2, 0, -1], 3).numpy().tolist()
    [4.0, 0.0, 2.0]
    """
    d = tensor_arg("UnsortedSegmentSum", data, NUMERIC, "data")
    ids = index_tensor("UnsortedSegmentSum", segment_ids, "segment_ids", GATHER_INDEX_DTYPES)
    n = static_int("UnsortedSegmentSum", num_segments, "num_segments")
    if n < 0:
        raise InvalidArgumentError(
            f"UnsortedSegmentSum: num_segments must not be negative, got {n}"
        )
    ids_shape, data_shape = ids._value.shape, d._value.shape
    if data_shape[: len(ids_shape)] != ids_shape:
        raise InvalidArgumentError(
            f"UnsortedSegmentSum: data.shape = {list(data_shape)} does not start with "
            f"segment_ids.shape = {list(ids_shape)}"
        )
    return execute(_UnsortedSegmentSum, (d, ids), {"num_segments": n}, name)


@op_gradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    # Each slice of data receives the gradient of its segment; dropped (negative) ids none.
    data, ids = op.inputs
    gathered = gather(grad, math_ops.maximum(ids, 0))
    keep = array_ops.reshape(ids >= 0, (*plain_dims(ids.shape), *(1,) * (data.ndim - ids.ndim)))
    return array_ops.where(keep, gathered, array_ops.zeros_like(gathered)), None


# --- gather_nd ---------------------------------------------------------------------------


def _gather_nd_kernel(params, indices, bad_indices_policy):
    depth, lead = indices.shape[-1], indices.shape[:-1]
    rows = indices.reshape(math.prod(lead), depth)
    tail = params.shape[depth:]
    if depth == 0:
        return np.broadcast_to(params, lead + tail)
    bad = out_of_bounds_rows(rows, params.shape)
    if bad.any():
        if bad_indices_policy != "IGNORE":
            raise bad_row_error("GatherNd", indices, bad, params.shape, "param shape")
        rows = np.where(bad[:, None], 0, rows)
    out = params[tuple(rows.T)]
    if bad.any():
        out[bad] = 0  # IGNORE: an out-of-range index gathers zeros
    return out.reshape(lead + tail)


_GatherNd = define_op("GatherNd", _gather_nd_kernel)


def gather_nd(
    params: TensorLike,
    indices: TensorLike,
    batch_dims: int = 0,
    name: str | None = None,
    bad_indices_policy: str = "",
) -> Tensor:
    """Slices of ``params`` at the index vectors in the last dimension of ``indices``.

    >>> import retrograd as rg
    >>> rg.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]]).numpy().tolist()
    [3, 2]
    """
    p = tensor_arg("GatherNd", params, ANY, "params")
    i = index_tensor("GatherNd", indices, "indices", GATHER_INDEX_DTYPES)
    check_bad_indices_policy("GatherNd", bad_indices_policy)
    b = static_int("GatherNd", batch_dims, "batch_dims")
    irank, prank = i._value.ndim, p._value.ndim
    if irank < 1:
        raise InvalidArgumentError("GatherNd: indices must be at least a vector")
    if not 0 <= b < irank or b > prank:
        raise InvalidArgumentError(
            f"GatherNd: batch_dims must be in [0, {min(irank - 1, prank)}], got {b}"
        )
    depth = i._value.shape[-1]
    if depth > prank - b:
        raise InvalidArgumentError(
            f"GatherNd: index innermost dimension length must be <= params rank; saw: {depth} "
            f"vs. {prank - b}"
        )
    _check_batch_shapes("GatherNd", p, i, b)
    if b:
        i = _with_batch_coordinates(i, b)
    return execute(_GatherNd, (p, i), {"bad_indices_policy": bad_indices_policy}, name)


def _with_batch_coordinates(indices: Tensor, batch_dims: int) -> Tensor:
    """Index vectors of gather_nd with batch dimensions, made absolute by prepending the
    coordinates of their batch entry."""
    shape = indices._value.shape
    batch, middle = shape[:batch_dims], shape[batch_dims:-1]
    grid = np.moveaxis(np.indices(batch, dtype=indices._value.dtype), 0, -1)
    grid = grid.reshape((*batch, *(1,) * len(middle), batch_dims))
    grid = np.broadcast_to(grid, (*batch, *middle, batch_dims))
    coords = beside(np.ascontiguousarray(grid), indices)
    return array_ops.concat([coords, indices], axis=-1)


@op_gradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    if not params.shape.is_fully_defined():  # in a graph, known only when it runs
        return scatter_ops.scatter_nd_like(indices, grad, params), None
    policy = op.get_attr("bad_indices_policy")
    return scatter_ops.scatter_nd(indices, grad, params.shape, bad_indices_policy=policy), None


# --- boolean_mask ------------------------------------------------------------------------


def boolean_mask(
    tensor: TensorLike, mask: TensorLike, axis: AxisLike | None = None, name: str = "boolean_mask"
) -> Tensor:
    """The entries of ``tensor`` where the boolean ``mask`` is True; ``mask`` covers the
    dimensions ``axis ... axis + mask.ndim - 1``, which become one. A gather underneath.

    >>> import retrograd as rg
    >>> rg.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True]).numpy().tolist()
    [[1, 2], [5, 6]]
    """
    t = tensor_arg("boolean_mask", tensor, ANY, "tensor")
    m = tensor_arg("boolean_mask", mask, BOOL, "mask")
    shape, mshape = tuple(t._value.shape), tuple(m._value.shape)
    if not mshape:
        raise ValueError("boolean_mask: mask cannot be scalar")
    axis = 0 if axis is None else static_int("boolean_mask", axis, "axis")
    if not -len(shape) <= axis < len(shape):
        raise ValueError(
            f"boolean_mask: axis {axis} is out of range for a tensor of rank {len(shape)}"
        )
    axis %= len(shape)
    if shape[axis : axis + len(mshape)] != mshape:
        raise ValueError(
            f"boolean_mask: mask of shape {mshape} does not match dimensions {axis} to "
            f"{axis + len(mshape) - 1} of tensor shape {shape}"
        )
    n = math.prod(mshape)
    flat = array_ops.reshape(t, (*shape[:axis], n, *shape[axis + len(mshape) :]))
    chosen = array_ops.reshape(array_ops.where(array_ops.reshape(m, (n,))), (-1,))
    return gather(flat, chosen, axis=axis)
