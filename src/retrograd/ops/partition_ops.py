"""Splitting, merging and repeating tensors by index: ``unique`` (and ``unique_with_counts``),
``dynamic_partition`` and ``dynamic_stitch``, ``reverse_sequence``, ``repeat``,
``parallel_stack``, and shape helpers (``shape_n``, ``broadcast_dynamic_shape``,
``broadcast_static_shape``). Gradients are TensorFlow's (``dynamic_stitch`` gives every
duplicate index the gradient, as TensorFlow does).

>>> import retrograd as rg
>>> y, idx = rg.unique([1, 1, 2, 4, 4])
>>> y.numpy().tolist(), idx.numpy().tolist()
([1, 2, 4], [0, 0, 1, 2, 2])
>>> [t.numpy().tolist() for t in rg.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 1], 2)]
[[10, 30], [20, 40]]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.backends import namespace_of, on_device_of, to_host
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import TensorShape, broadcast_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, gather_ops, join_ops
from retrograd.ops.define import ANY, INTEGER, tensor_arg
from retrograd.ops.index_args import static_int

__all__ = [
    "broadcast_dynamic_shape", "broadcast_static_shape", "dynamic_partition", "dynamic_stitch",
    "parallel_stack", "repeat", "reverse_sequence", "shape_n", "unique", "unique_with_counts",
]  # fmt: skip


class Unique(NamedTuple):
    """What ``unique`` returns: the distinct values ``y`` and, per input, its index in ``y``."""

    y: Tensor
    idx: Tensor


class UniqueWithCounts(NamedTuple):
    """``unique``'s result and how often each distinct value occurs (``count``)."""

    y: Tensor
    idx: Tensor
    count: Tensor


def _unique_kernel(x, out_idx):
    values, first, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    order = np.argsort(first, kind="stable")  # TensorFlow keeps the order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    index_type = np.dtype(out_idx.as_numpy_dtype)
    return (
        values[order],
        rank[inverse.reshape(-1)].astype(index_type),
        counts[order].astype(index_type),
    )


def _unique_meta(metas, out_idx):
    index_type = np.dtype(out_idx.as_numpy_dtype)
    return [((None,), metas[0].dtype), (metas[0].shape, index_type), ((None,), index_type)]


_UniqueWithCounts = define_op(
    "UniqueWithCounts", _unique_kernel, multi_output=True, shape_fn=_unique_meta
)
no_gradient("UniqueWithCounts")  # (TensorFlow has no gradient for unique)


def _unique(x: TensorLike, out_idx: DTypeLike, name: str | None) -> tuple:
    t = tensor_arg("Unique", x, ANY, "x")
    if t.shape.rank != 1:
        raise InvalidArgumentError(f"Unique: x must be a vector, got shape {t.shape}")
    index_type = dtypes.as_dtype(out_idx)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Unique: out_idx must be int32 or int64, got {index_type.name}")
    return execute(_UniqueWithCounts, (t,), {"out_idx": index_type}, name)


def unique(x: TensorLike, out_idx: DTypeLike = dtypes.int32, name: str | None = None) -> Unique:
    """The distinct values of the vector ``x`` in order of first appearance, and for each
    element of ``x`` the index of its value.

    >>> import retrograd as rg
    >>> rg.unique([3, 1, 3]).idx.numpy().tolist()
    [0, 1, 0]
    """
    y, idx, _ = _unique(x, out_idx, name)
    return Unique(y, idx)


def unique_with_counts(
    x: TensorLike, out_idx: DTypeLike = dtypes.int32, name: str | None = None
) -> UniqueWithCounts:
    """``unique``, and how often each distinct value occurs.

    >>> import retrograd as rg
    >>> rg.unique_with_counts([3, 1, 3]).count.numpy().tolist()
    [2, 1]
    """
    return UniqueWithCounts(*_unique(x, out_idx, name))


def _partition_kernel(data, partitions, num_partitions):
    if partitions.size and (partitions.min() < 0 or partitions.max() >= num_partitions):
        bad = int(partitions[(partitions < 0) | (partitions >= num_partitions)].flat[0])
        raise InvalidArgumentError(
            f"DynamicPartition: partitions {bad} is not in [0, {num_partitions})"
        )
    rows = data.reshape(partitions.size, *data.shape[partitions.ndim :])
    flat = partitions.reshape(-1)
    return tuple(rows[flat == k] for k in range(num_partitions))


def _partition_meta(metas, num_partitions):
    data, parts = metas
    rest = None if data.shape is None or parts.shape is None else data.shape[len(parts.shape) :]
    shape = None if rest is None else (None, *rest)
    return [(shape, data.dtype)] * num_partitions


_DynamicPartition = define_op(
    "DynamicPartition", _partition_kernel, multi_output=True, shape_fn=_partition_meta
)


@op_gradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
    data, partitions = op.inputs
    n = op.get_attr("num_partitions")
    positions = array_ops.reshape(
        _range_like(partitions), array_ops.shape(partitions, out_type=dtypes.int32)
    )
    pieces = dynamic_partition(positions, partitions, n)
    stitched = dynamic_stitch(pieces, list(grads))
    return array_ops.reshape(stitched, array_ops.shape(data)), None


def _range_like(t: Tensor) -> Tensor:
    from retrograd.ops import creation_ops

    return creation_ops.range(array_ops.size(t, out_type=dtypes.int32))


def dynamic_partition(
    data: TensorLike, partitions: TensorLike, num_partitions: int, name: str | None = None
) -> list[Tensor]:
    """``num_partitions`` tensors: partition ``k`` holds the slices of ``data`` whose entry in
    ``partitions`` (an int32 tensor over ``data``'s leading dimensions) is ``k``, in order.

    >>> import retrograd as rg
    >>> [t.numpy().tolist() for t in rg.dynamic_partition([[1, 2], [3, 4]], [1, 0], 2)]
    [[[3, 4]], [[1, 2]]]
    """
    d = tensor_arg("DynamicPartition", data, ANY, "data")
    p = tensor_arg("DynamicPartition", partitions, INTEGER, "partitions")
    n = static_int("DynamicPartition", num_partitions, "num_partitions")
    if n < 1:
        raise ValueError(f"DynamicPartition: num_partitions must be >= 1, got {n}")
    known = p.shape.rank is not None and d.shape.rank is not None
    if known and not d.shape[: p.shape.rank].is_compatible_with(p.shape):
        raise InvalidArgumentError(
            f"DynamicPartition: data.shape must start with partitions.shape, got data "
            f"shape {d.shape} and partitions shape {p.shape}"
        )
    return list(execute(_DynamicPartition, (d, p), {"num_partitions": n}, name))


def _stitch_kernel(*values, count):
    indices, data = values[:count], values[count:]
    size = 1 + max((int(np.max(i)) for i in indices if np.size(i)), default=-1)
    if any(np.size(i) and np.min(i) < 0 for i in indices):
        raise InvalidArgumentError("DynamicStitch: indices must be >= 0")
    rest = np.shape(data[0])[np.ndim(indices[0]) :]
    out = namespace_of(data[0]).zeros((size, *rest), dtype=data[0].dtype)
    for i, d in zip(indices, data):  # later values win for the same index, as in TensorFlow
        out[np.reshape(i, -1)] = np.reshape(d, (-1, *rest))
    return out


def _stitch_meta(metas, count):
    indices, data = metas[:count], metas[count:]
    first_i, first_d = indices[0], data[0]
    if first_i.shape is None or first_d.shape is None:
        return [(None, first_d.dtype)]
    return [((None, *first_d.shape[len(first_i.shape) :]), first_d.dtype)]


_DynamicStitch = define_op("DynamicStitch", _stitch_kernel, shape_fn=_stitch_meta)


@op_gradient("DynamicStitch")
def _dynamic_stitch_grad(op, grad):
    count = op.get_attr("count")
    indices = op.inputs[:count]
    return [None] * count + [gather_ops.gather(grad, i) for i in indices]


def dynamic_stitch(indices: list, data: list, name: str | None = None) -> Tensor:
    """One tensor from pieces: ``out[indices[i][j]] = data[i][j]`` (later pieces win where
    indices repeat), as long as the largest index.

    >>> import retrograd as rg
    >>> rg.dynamic_stitch([[0, 2], [1, 3]], [[10, 30], [20, 40]]).numpy().tolist()
    [10, 20, 30, 40]
    """
    if len(indices) != len(data) or not indices:
        raise ValueError(
            f"DynamicStitch: indices and data must be lists of the same length, got "
            f"{len(indices)} and {len(data)}"
        )
    index_tensors = [tensor_arg("DynamicStitch", i, INTEGER, "indices") for i in indices]
    data_tensors = [convert_to_tensor(d) for d in data]
    dtype = data_tensors[0].dtype
    data_tensors = [convert_to_tensor(d, dtype=dtype) for d in data_tensors]
    return execute(_DynamicStitch, (*index_tensors, *data_tensors), {"count": len(indices)}, name)


def _reverse_sequence_kernel(x, lengths, seq_axis, batch_axis):
    out = x.copy()
    for b, n in enumerate(np.reshape(lengths, -1)):
        n = int(n)
        if n < 0 or n > x.shape[seq_axis]:
            raise InvalidArgumentError(
                f"ReverseSequence: seq_lens[{b}] = {n} is not in [0, {x.shape[seq_axis]}]"
            )
        index: list[Any] = [slice(None)] * x.ndim
        index[batch_axis], index[seq_axis] = b, slice(0, n)
        source = list(index)
        source[seq_axis] = slice(n - 1, None, -1) if n else slice(0, 0)
        out[tuple(index)] = x[tuple(source)]
    return out


_ReverseSequence = define_op(
    "ReverseSequence",
    _reverse_sequence_kernel,
    shape_fn=lambda metas, **_: [(metas[0].shape, metas[0].dtype)],
)


@op_gradient("ReverseSequence")
def _reverse_sequence_grad(op, grad):
    lengths = op.inputs[1]
    seq_axis, batch_axis = op.get_attr("seq_axis"), op.get_attr("batch_axis")
    return reverse_sequence(grad, lengths, seq_axis, batch_axis), None


def reverse_sequence(
    input: TensorLike,
    seq_lengths: TensorLike,
    seq_axis: int | None = None,
    batch_axis: int | None = None,
    name: str | None = None,
) -> Tensor:
    """For each ``b`` along ``batch_axis``, the first ``seq_lengths[b]`` entries along
    ``seq_axis`` reversed (the rest kept).

    >>> import retrograd as rg
    >>> rg.reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8]], [2, 3], seq_axis=1, batch_axis=0
    ...                     ).numpy().tolist()
    [[2, 1, 3, 4], [7, 6, 5, 8]]
    """
    x = tensor_arg("ReverseSequence", input, ANY, "input")
    lengths = tensor_arg("ReverseSequence", seq_lengths, INTEGER, "seq_lengths")
    rank = x.shape.rank
    seq = static_int("ReverseSequence", 0 if seq_axis is None else seq_axis, "seq_axis")
    batch = static_int("ReverseSequence", 0 if batch_axis is None else batch_axis, "batch_axis")
    if rank is not None:
        seq, batch = seq % rank, batch % rank
        if seq == batch:
            raise InvalidArgumentError("ReverseSequence: seq_axis and batch_axis must differ")
    attrs = {"seq_axis": seq, "batch_axis": batch}
    return execute(_ReverseSequence, (x, lengths), attrs, name)


def _repeat_counts(repeats, size):
    """The count of each entry, on the host (it sizes the output)."""
    counts = np.broadcast_to(np.reshape(to_host(repeats), -1), (int(size),))
    if counts.size and counts.min() < 0:
        raise InvalidArgumentError("Repeat: repeats must be >= 0")
    return counts


def _repeat_kernel(x, repeats, axis):
    counts = _repeat_counts(repeats, x.shape[axis])
    if type(x) is not np.ndarray:  # (other libraries take host counts as a list)
        counts = counts.tolist()
    return np.repeat(x, counts, axis=axis)


def _repeat_meta(metas, axis):
    x = metas[0]
    shape = None if x.shape is None else (*x.shape[:axis], None, *x.shape[axis + 1 :])
    return [(shape, x.dtype)]


_Repeat = define_op("Repeat", _repeat_kernel, shape_fn=_repeat_meta)


def _repeat_grad_kernel(grad, repeats, like, axis):
    counts = _repeat_counts(repeats, like.shape[axis])
    xp = namespace_of(grad)
    owners = on_device_of(np.repeat(np.arange(counts.size), counts), grad)
    out = xp.zeros(like.shape, dtype=grad.dtype)
    xp.add.at(np.moveaxis(out, axis, 0), owners, np.moveaxis(grad, axis, 0))
    return out


_RepeatGrad = define_op(
    "RepeatGrad",
    _repeat_grad_kernel,
    shape_fn=lambda metas, axis: [(metas[2].shape, metas[0].dtype)],
)


@op_gradient("Repeat")
def _repeat_grad(op, grad):
    x, repeats = op.inputs
    return execute(_RepeatGrad, (grad, repeats, x), {"axis": op.get_attr("axis")}), None


@op_gradient("RepeatGrad")
def _repeat_grad_grad(op, grad):
    return execute(_Repeat, (grad, op.inputs[1]), {"axis": op.get_attr("axis")}), None, None


def repeat(
    input: TensorLike, repeats: TensorLike, axis: int | None = None, name: str | None = None
) -> Tensor:
    """Each slice of ``input`` along ``axis`` repeated ``repeats`` times (one count, or one per
    slice); with ``axis`` None, the flattened input's elements. The gradient sums each
    slice's copies (a dense tensor, as TensorFlow's).

    >>> import retrograd as rg
    >>> rg.repeat([[1, 2], [3, 4]], [1, 2], axis=0).numpy().tolist()
    [[1, 2], [3, 4], [3, 4]]
    """
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = array_ops.reshape(x, [-1]), 0
    rank = x.shape.rank
    axis = static_int("Repeat", axis, "axis")
    if rank is not None:
        if not -rank <= axis < rank:
            raise InvalidArgumentError(f"Repeat: axis {axis} is out of range for rank {rank}")
        axis %= rank
    counts = tensor_arg("Repeat", repeats, INTEGER, "repeats")
    if counts.shape.rank not in (None, 0, 1):
        raise ValueError(f"Repeat: repeats must be a scalar or a vector, got shape {counts.shape}")
    return execute(_Repeat, (x, counts), {"axis": axis}, name)


def parallel_stack(values: list, name: str = "parallel_stack") -> Tensor:
    """``stack(values)`` built for graphs, where its inputs' shapes must be fully known (as in
    TensorFlow, which refuses it eagerly: RuntimeError).

    >>> import retrograd as rg
    >>> with rg.Graph().as_default():
    ...     print(rg.parallel_stack([rg.constant([1, 2]), rg.constant([3, 4])]).shape)
    (2, 2)
    """
    if context.graph is None:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    tensors = [convert_to_tensor(v) for v in values]
    for t in tensors:
        if not t.shape.is_fully_defined():
            raise ValueError(f"parallel_stack: the shape of {t!r} is not fully defined")
    return join_ops.stack(tensors, name=name)


def shape_n(
    input: list, out_type: DTypeLike = dtypes.int32, name: str | None = None
) -> list[Tensor]:
    """The shape of each tensor of ``input``.

    >>> import retrograd as rg
    >>> [s.numpy().tolist() for s in rg.shape_n([rg.zeros([2, 3]), rg.zeros([4])])]
    [[2, 3], [4]]
    """
    return [array_ops.shape(t, out_type=out_type) for t in input]


def broadcast_static_shape(shape_x: TensorShape, shape_y: TensorShape) -> TensorShape:
    """The shape two static shapes broadcast to (unknown dimensions stay unknown where they
    decide); ValueError when they are incompatible.

    >>> import retrograd as rg
    >>> rg.broadcast_static_shape(rg.TensorShape([2, 1]), rg.TensorShape([3]))
    TensorShape([2, 3])
    """
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    dims = []
    for a, b in zip([1] * (y.rank - x.rank) + x.as_list(), [1] * (x.rank - y.rank) + y.as_list()):
        if a == 1:
            dims.append(b)
        elif b == 1 or a == b:
            dims.append(a)
        elif a is None or b is None:
            dims.append(a if b is None else b)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting. {x} and {y}")
    return TensorShape(dims)


def _broadcast_args_kernel(x, y):
    return np.array(broadcast_dims([tuple(x.tolist()), tuple(y.tolist())], "BroadcastArgs"),
                    dtype=x.dtype)  # fmt: skip


_BroadcastArgs = define_op(
    "BroadcastArgs",
    _broadcast_args_kernel,
    shape_fn=lambda metas: [((None,), metas[0].dtype)],
)
no_gradient("BroadcastArgs")


def broadcast_dynamic_shape(shape_x: TensorLike, shape_y: TensorLike) -> Tensor:
    """The shape (a vector) two shape vectors broadcast to, computed when the op runs.

    >>> import retrograd as rg
    >>> rg.broadcast_dynamic_shape([2, 1], [3]).numpy().tolist()
    [2, 3]
    """
    x = tensor_arg("BroadcastArgs", shape_x, INTEGER, "shape_x")
    y = tensor_arg("BroadcastArgs", shape_y, INTEGER, "shape_y")
    return execute(_BroadcastArgs, (x, convert_to_tensor(y, dtype=x.dtype)), None)
