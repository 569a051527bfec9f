"""Segment reductions: ``unsorted_segment_max/min`` (ops, with TensorFlow's gradient: the
upstream gradient shared equally among the slices that attain the extreme),
``unsorted_segment_mean/sqrt_n`` and the sorted ``segment_sum/mean/max/min`` (built from
them, so differentiable through their parts).

Empty segments hold the dtype's lowest (max) or highest (min) value in the unsorted ops and
zero in the sorted ones, as in TensorFlow; negative ids drop their slice.

>>> import retrograd as rg
>>> rg.math.segment_max([1.0, 5.0, 2.0, 3.0], [0, 0, 2, 2]).numpy().tolist()
[5.0, 0.0, 3.0]
>>> rg.math.unsorted_segment_mean([1.0, 5.0, 2.0], [1, 1, -1], 2).numpy().tolist()
[0.0, 3.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import namespace_of, to_host
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, comparison_ops, gather_ops, math_ops
from retrograd.ops.define import REAL, tensor_arg
from retrograd.ops.gather_ops import GATHER_INDEX_DTYPES
from retrograd.ops.index_args import build_time_value, index_tensor, static_int

__all__ = [
    "unsorted_segment_max",
    "unsorted_segment_min",
    "unsorted_segment_mean",
    "unsorted_segment_sqrt_n",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
    "segment_prod",
    "unsorted_segment_prod",
]


def _extreme_kernel(reduce: Any, op_type: str):
    def kernel(data, segment_ids, num_segments):
        bad = segment_ids >= num_segments
        if bad.any():
            flat = int(np.flatnonzero(bad)[0])
            raise InvalidArgumentError(
                f"{op_type}: segment_ids[{flat}] = {segment_ids.reshape(-1)[flat]} is out of "
                f"range [0, {num_segments})"
            )
        info = np.finfo(data.dtype) if data.dtype.kind == "f" else np.iinfo(data.dtype)
        start = info.min if reduce is np.maximum else info.max
        tail = data.shape[segment_ids.ndim :]
        out = namespace_of(data).full((num_segments, *tail), start, dtype=data.dtype)
        keep = segment_ids >= 0
        getattr(namespace_of(out), reduce.__name__).at(out, segment_ids[keep], data[keep])
        return out

    return kernel


_UnsortedSegmentMax = define_op(
    "UnsortedSegmentMax", _extreme_kernel(np.maximum, "UnsortedSegmentMax")
)
_UnsortedSegmentMin = define_op(
    "UnsortedSegmentMin", _extreme_kernel(np.minimum, "UnsortedSegmentMin")
)


def _prod_kernel(data, segment_ids, num_segments):
    bad = segment_ids >= num_segments
    if bad.any():
        flat = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(
            f"UnsortedSegmentProd: segment_ids[{flat}] = {segment_ids.reshape(-1)[flat]} is out "
            f"of range [0, {num_segments})"
        )
    out = namespace_of(data).ones((num_segments, *data.shape[segment_ids.ndim :]), data.dtype)
    keep = segment_ids >= 0
    namespace_of(out).multiply.at(out, segment_ids[keep], data[keep])  # (CuPy lacks it)
    return out


_UnsortedSegmentProd = define_op("UnsortedSegmentProd", _prod_kernel)


def _segment_args(op_type: str, data: Any, segment_ids: Any, num_segments: Any):
    d = tensor_arg(op_type, data, REAL, "data")
    ids = index_tensor(op_type, segment_ids, "segment_ids", GATHER_INDEX_DTYPES)
    n = static_int(op_type, num_segments, "num_segments")
    if n < 0:
        raise InvalidArgumentError(f"{op_type}: num_segments must not be negative, got {n}")
    if d._value.shape[: ids._value.ndim] != ids._value.shape:
        raise InvalidArgumentError(
            f"{op_type}: data.shape = {list(d._value.shape)} does not start with "
            f"segment_ids.shape = {list(ids._value.shape)}"
        )
    return d, ids, n


def unsorted_segment_max(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """The largest slice of ``data`` in each of ``num_segments`` segments.

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_max([1.0, 2.0, 3.0], [1, 0, 1], 3).numpy().tolist()
    [2.0, 3.0, -3.4028234663852886e+38]
    """
    d, ids, n = _segment_args("UnsortedSegmentMax", data, segment_ids, num_segments)
    return execute(_UnsortedSegmentMax, (d, ids), {"num_segments": n}, name)


def unsorted_segment_min(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """The smallest slice of ``data`` in each of ``num_segments`` segments.

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_min([1.0, 2.0, 3.0], [1, 0, 1], 3).numpy().tolist()
    [2.0, 1.0, 3.4028234663852886e+38]
    """
    d, ids, n = _segment_args("UnsortedSegmentMin", data, segment_ids, num_segments)
    return execute(_UnsortedSegmentMin, (d, ids), {"num_segments": n}, name)


def _extreme_grad(op, grad):
    """The gradient goes to the slices equal to their segment's extreme, split evenly among
    ties; dropped slices get none."""
    data, ids = op.inputs
    n = op.get_attr("num_segments")
    safe_ids = math_ops.maximum(ids, 0)
    keep = array_ops.reshape(ids >= 0, (*plain_dims(ids.shape), *(1,) * (data.ndim - ids.ndim)))
    chosen = comparison_ops.logical_and(
        comparison_ops.equal(data, gather_ops.gather(op.outputs[0], safe_ids)), keep
    )
    weight = math_ops.cast(chosen, grad.dtype)
    count = gather_ops.unsorted_segment_sum(weight, ids, n)
    share = grad / math_ops.maximum(count, array_ops.ones_like(count))
    return weight * gather_ops.gather(share, safe_ids), None


def unsorted_segment_prod(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """The product of the slices of ``data`` in each of ``num_segments`` segments (1 for
    empty ones; negative ids drop their slice).

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_prod([1.0, 2.0, 3.0], [0, -1, 2], 4).numpy().tolist()
    [1.0, 1.0, 3.0, 1.0]
    """
    d, ids, n = _segment_args("UnsortedSegmentProd", data, segment_ids, num_segments)
    return execute(_UnsortedSegmentProd, (d, ids), {"num_segments": n}, name)


@op_gradient("UnsortedSegmentProd")
def _prod_grad(op, grad):
    # TensorFlow's: the product divided by each entry, except in segments with zeros (one
    # zero: only it receives the product of the others; more: none receives anything).
    data, ids = op.inputs
    n = op.get_attr("num_segments")
    is_zero = comparison_ops.equal(data, 0)
    zeros = gather_ops.unsorted_segment_sum(math_ops.cast(is_zero, grad.dtype), ids, n)
    grad = array_ops.where(zeros > 1, array_ops.zeros_like(grad), grad)
    non_zero = array_ops.where(is_zero, array_ops.ones_like(data), data)
    non_zero_prod = unsorted_segment_prod(non_zero, ids, n)
    safe_ids = math_ops.maximum(ids, 0)
    keep = math_ops.cast(ids >= 0, grad.dtype)
    keep = array_ops.reshape(keep, (*ids.shape, *(1,) * (data.ndim - ids.ndim)))
    divided = gather_ops.gather(op.outputs[0], safe_ids) / non_zero
    partial = array_ops.where(is_zero, gather_ops.gather(non_zero_prod, safe_ids), divided)
    return gather_ops.gather(grad, safe_ids) * keep * partial, None


op_gradient("UnsortedSegmentMax")(_extreme_grad)
op_gradient("UnsortedSegmentMin")(_extreme_grad)


def _counts(data: Tensor, ids: Tensor, n: int) -> Tensor:
    """How many slices each segment has, shaped to broadcast against the sums."""
    ones = array_ops.ones(ids.shape, data.dtype)
    count = gather_ops.unsorted_segment_sum(ones, ids, n)
    return array_ops.reshape(count, (n, *(1,) * (data.ndim - ids.ndim)))


def unsorted_segment_mean(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """The mean slice of each segment (zero for empty segments).

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_mean([1.0, 2.0, 3.0], [1, 0, 1], 3).numpy().tolist()
    [2.0, 2.0, 0.0]
    """
    d, ids, n = _segment_args("UnsortedSegmentMean", data, segment_ids, num_segments)
    total = gather_ops.unsorted_segment_sum(d, ids, n)
    count = _counts(d, ids, n)
    return total / math_ops.maximum(count, array_ops.ones_like(count))


def unsorted_segment_sqrt_n(
    data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike, name: str | None = None
) -> Tensor:
    """Each segment's sum divided by the square root of its size (zero for empty ones).

    >>> import retrograd as rg
    >>> rg.math.unsorted_segment_sqrt_n([3.0, 1.0, 3.0], [1, 0, 1], 2).numpy().tolist()
    [1.0, 4.242640972137451]
    """
    d, ids, n = _segment_args("UnsortedSegmentSqrtN", data, segment_ids, num_segments)
    total = gather_ops.unsorted_segment_sum(d, ids, n)
    count = _counts(d, ids, n)
    return total / math_ops.sqrt(math_ops.maximum(count, array_ops.ones_like(count)))


def _sorted_ids(op_type: str, data: Any, segment_ids: Any) -> tuple[Tensor, Tensor, int]:
    ids = index_tensor(op_type, segment_ids, "segment_ids", GATHER_INDEX_DTYPES)
    try:  # the number of segments (the output's size) comes from the ids' values
        values = to_host(build_time_value(op_type, ids, "segment_ids"))
    except ValueError:
        raise ValueError(
            f"{op_type}: argument `segment_ids` must be known while the graph is built (the "
            f"number of segments comes from its values); use unsorted_segment_* with "
            f"num_segments for ids known only when the graph runs"
        ) from None
    if values.ndim != 1:
        raise InvalidArgumentError(f"{op_type}: segment_ids should be a vector, got {values.shape}")
    if values.size and (values[0] < 0 or np.any(np.diff(values) < 0)):
        raise InvalidArgumentError(f"{op_type}: segment ids are not increasing")
    d = tensor_arg(op_type, data, REAL, "data")
    if d._value.shape[:1] != values.shape:
        raise InvalidArgumentError(
            f"{op_type}: segment_ids should be the same size as dimension 0 of data, got "
            f"{values.shape[0]} and {d._value.shape[:1]}"
        )
    return d, ids, int(values[-1]) + 1 if values.size else 0


def segment_sum(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Tensor:
    """Sums consecutive slices with the same id (ids sorted, starting at 0 or above).

    >>> import retrograd as rg
    >>> rg.math.segment_sum([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]).numpy().tolist()
    [3.0, 7.0]
    """
    d, ids, n = _sorted_ids("SegmentSum", data, segment_ids)
    return gather_ops.unsorted_segment_sum(d, ids, n, name)


def segment_mean(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Tensor:
    """The mean of the slices of each segment (ids sorted).

    >>> import retrograd as rg
    >>> rg.math.segment_mean([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]).numpy().tolist()
    [1.5, 3.5]
    """
    d, ids, n = _sorted_ids("SegmentMean", data, segment_ids)
    return unsorted_segment_mean(d, ids, n, name)


def _sorted_extreme(op_type: str, unsorted: Any, data: Any, segment_ids: Any, name) -> Tensor:
    d, ids, n = _sorted_ids(op_type, data, segment_ids)
    extreme = unsorted(d, ids, n, name)
    present = _counts(d, ids, n) > 0
    return array_ops.where(present, extreme, array_ops.zeros_like(extreme))


def segment_max(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Tensor:
    """The largest slice of each segment (ids sorted; empty segments are zero).

    >>> import retrograd as rg
    >>> rg.math.segment_max([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]).numpy().tolist()
    [2.0, 4.0]
    """
    return _sorted_extreme("SegmentMax", unsorted_segment_max, data, segment_ids, name)


def segment_min(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Tensor:
    """The smallest slice of each segment (ids sorted; empty segments are zero).

    >>> import retrograd as rg
    >>> rg.math.segment_min([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]).numpy().tolist()
    [1.0, 3.0]
    """
    return _sorted_extreme("SegmentMin", unsorted_segment_min, data, segment_ids, name)


def segment_prod(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Tensor:
    """The product of the slices of each segment (ids sorted; empty segments are 1).

    >>> import retrograd as rg
    >>> rg.math.segment_prod([1.0, 2.0, 3.0], [0, 0, 2]).numpy().tolist()
    [2.0, 1.0, 3.0]
    """
    d, ids, n = _sorted_ids("SegmentProd", data, segment_ids)
    return unsorted_segment_prod(d, ids, n, name)
