"""Ordering: top_k (``TopKV2``) and, built on it as in TensorFlow, sort and argsort.

Orders are stable: equal values keep their index order, so ties go to the lower index
(top_k and a descending sort list the first of equal values first). The gradient of a
top_k or sort reaches exactly the chosen positions. NaN counts as smaller than every
number (TensorFlow leaves orders involving NaN unspecified).

>>> import retrograd as rg
>>> x = rg.constant([1.0, 3.0, 3.0, 2.0])
>>> values, indices = rg.math.top_k(x, 2)
>>> values.numpy().tolist(), indices.numpy().tolist()
([3.0, 3.0], [1, 2])
>>> rg.sort(x, direction="DESCENDING").numpy().tolist(), rg.argsort(x).numpy().tolist()
([3.0, 3.0, 2.0, 1.0], [0, 3, 1, 2])
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.dimensions import dimension_value
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, comparison_ops, creation_ops, math_ops, scatter_ops
from retrograd.ops.define import REAL, beside, tensor_arg
from retrograd.ops.index_args import static_int

DIRECTIONS = ("ASCENDING", "DESCENDING")


class TopKV2(NamedTuple):
    """What ``top_k`` returns: the ``values`` and their ``indices`` in the last dimension."""

    values: Tensor
    indices: Tensor


def _descending_order(x):
    # A stable ascending sort of an order-reversing key: -x for floats (NaN stays NaN and
    # sorts last), ~x for integers (exact, where -x would overflow at the minimum).
    key = -x if x.dtype.kind == "f" else ~x
    return np.argsort(key, axis=-1, kind="stable")


def _top_k_kernel(x, k, sorted, index_type):
    order = _descending_order(x)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(index_type.as_numpy_dtype)


_TopKV2 = define_op("TopKV2", _top_k_kernel, multi_output=True)


def _run_time_top_k_kernel(x, k, sorted, index_type):
    k = int(k)
    if k < 0:
        raise InvalidArgumentError(f"TopKV2: Need k >= 0, got {k}")
    if k > x.shape[-1]:
        raise InvalidArgumentError(
            f"TopKV2: input must have at least k columns. Had {x.shape[-1]}, needed {k}"
        )
    return _top_k_kernel(x, k, sorted, index_type)


def _run_time_top_k_meta(metas, sorted, index_type):
    x = metas[0]
    shape = None if x.shape is None else (*x.shape[:-1], None)
    return [(shape, x.dtype), (shape, np.dtype(index_type.as_numpy_dtype))]


# top_k with a k known only when the graph runs (the last dimension of the outputs unknown).
_DynamicTopKV2 = define_op(
    "DynamicTopKV2", _run_time_top_k_kernel, multi_output=True, shape_fn=_run_time_top_k_meta
)


def top_k(
    input: TensorLike,
    k: TensorLike = 1,
    sorted: bool = True,
    index_type: DTypeLike = "int32",
    name: str | None = None,
) -> TopKV2:
    """The ``k`` largest entries of the last dimension and their indices, largest first
    (always sorted; ties in index order).

    >>> import retrograd as rg
    >>> rg.math.top_k([[1, 5, 2]], k=2).indices.numpy().tolist()
    [[1, 2]]
    """
    from retrograd.ops import run_time_args

    x = tensor_arg("TopKV2", input, REAL, "input")
    index_type = as_dtype(index_type)
    if index_type.name not in ("int16", "int32", "int64"):
        raise TypeError(f"TopKV2: index_type must be int16, int32 or int64, got {index_type.name}")
    shape = x._value.shape
    if not shape:
        raise InvalidArgumentError("TopKV2: input must be >= 1-D, got shape []")
    if run_time_args.is_run_time(k):  # (a graph tensor: TensorFlow reads it when it runs)
        k = run_time_args.int_tensor("TopKV2", k, "k", (0,))
        attrs = {"sorted": bool(sorted), "index_type": index_type}
        return TopKV2(*execute(_DynamicTopKV2, (x, k), attrs, name))
    k = static_int("TopKV2", k, "k")
    if k < 0:
        raise InvalidArgumentError(f"TopKV2: Need k >= 0, got {k}")
    if shape[-1] is not None and k > shape[-1]:  # (else the kernel checks it when it runs)
        raise InvalidArgumentError(
            f"TopKV2: input must have at least k columns. Had {shape[-1]}, needed {k}"
        )
    attrs = {"k": k, "sorted": bool(sorted), "index_type": index_type}
    return TopKV2(*execute(_TopKV2, (x,), attrs, name))


@op_gradient("DynamicTopKV2")
def _run_time_top_k_grad(op, grad, _):
    # As TopKV2's, with shapes read when the graph runs: rows of the last dimension, each
    # row's k upstream values added at the positions they were taken from.

    x, indices = op.inputs[0], op.outputs[1]
    n, k = array_ops.shape(x)[-1], array_ops.shape(indices)[-1]
    rows = array_ops.size(x) // math_ops.maximum(n, 1)
    flat_x = array_ops.reshape(x, array_ops.stack([rows, n]))
    columns = array_ops.reshape(math_ops.cast(indices, "int32"), array_ops.stack([rows, k]))
    row_ids = array_ops.zeros_like(columns) + array_ops.expand_dims(creation_ops.range(rows), 1)
    where = array_ops.stack([row_ids, columns], axis=-1)
    flat_grad = array_ops.reshape(grad, array_ops.stack([rows, k]))
    scattered = scatter_ops.scatter_nd_like(where, flat_grad, flat_x)
    return array_ops.reshape(scattered, array_ops.shape(x)), None


@op_gradient("TopKV2")
def _top_k_grad(op, grad, _):
    # Scatter each row's k upstream values to the positions they were taken from.
    x, indices = op.inputs[0], op.outputs[1]
    shape = plain_dims(x.shape)
    n, k = shape[-1], dimension_value(indices.shape[-1])
    rows = math.prod(shape[:-1])
    offsets = beside(np.arange(rows, dtype=np.int64)[:, None] * n, x)
    flat = array_ops.reshape(math_ops.cast(indices, "int64"), (rows, k)) + offsets
    scattered = scatter_ops.scatter_nd(
        array_ops.reshape(flat, (rows * k, 1)), array_ops.reshape(grad, (rows * k,)), (rows * n,)
    )
    return array_ops.reshape(scattered, shape)


# --- sort and argsort --------------------------------------------------------------------


def _order_along(op_name: str, values: Any, axis: Any, direction: str, want_indices: bool):
    if direction not in DIRECTIONS:
        raise ValueError(
            f"{op_name}: `direction` must be one of {', '.join(DIRECTIONS)}, got {direction!r}"
        )
    x = tensor_arg(op_name, values, REAL, "values")
    ndim = x._value.ndim
    axis = static_int(op_name, axis, "axis")
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"{op_name}: axis {axis} is out of range for values of rank {ndim}"
        )
    axis %= ndim
    perm = list(range(ndim))  # sort the last axis: swap `axis` with it, and back after
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = x if axis == ndim - 1 else array_ops.transpose(x, perm)
    ascending = direction == "ASCENDING"
    if ascending:  # sort an order-reversed copy descending: stable, and exact for ints
        moved = -moved if x.dtype.is_floating else comparison_ops.invert(moved)
    values, indices = top_k(moved, dimension_value(moved.shape[-1]))
    out = indices if want_indices else values
    if ascending and not want_indices:
        out = -out if x.dtype.is_floating else comparison_ops.invert(out)
    return out if axis == ndim - 1 else array_ops.transpose(out, perm)


def sort(
    values: TensorLike, axis: int = -1, direction: str = "ASCENDING", name: str | None = None
) -> Tensor:
    """``values`` sorted along ``axis``; differentiable (gradients follow the values).

    >>> import retrograd as rg
    >>> rg.sort([[3, 1, 2], [1, 3, 2]], axis=0).numpy().tolist()
    [[1, 1, 2], [3, 3, 2]]
    """
    return _order_along("sort", values, axis, direction, want_indices=False)


def argsort(
    values: TensorLike,
    axis: int = -1,
    direction: str = "ASCENDING",
    stable: bool = False,
    name: str | None = None,
) -> Tensor:
    """The int32 indices that sort ``values`` along ``axis`` (the order is always stable).

    >>> import retrograd as rg
    >>> rg.argsort([3.0, 1.0, 2.0]).numpy().tolist()
    [1, 2, 0]
    >>> rg.argsort([3.0, 1.0, 2.0], direction='DESCENDING').numpy().tolist()
    [0, 2, 1]
    """
    return _order_along("argsort", values, axis, direction, want_indices=True)
