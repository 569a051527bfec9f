"""Scattering: scatter_nd (into zeros, summing duplicates) and tensor_scatter_nd_update,
_add, _sub, _min and _max. Their gradients are gather_nd's (of the gradient, split between
ties for _min and _max as TensorFlow's), and gather_nd's is scatter_nd's.

``indices`` holds index vectors in its last dimension: an ``indices`` of shape
``lead + [depth]`` addresses ``lead`` slices of the output, each of shape ``shape[depth:]``,
so ``updates`` has shape ``lead + shape[depth:]``.

Slicing assignment, which tensors do not allow (``x[1:3] = v``), is written as an update:

>>> import retrograd as rg
>>> x = rg.constant([1.0, 2.0, 3.0, 4.0])
>>> rg.tensor_scatter_nd_update(x, [[1], [2]], [20.0, 30.0]).numpy().tolist()
[1.0, 20.0, 30.0, 4.0]
"""

from __future__ import annotations

import math

import numpy as np

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, gather_ops
from retrograd.ops.define import ANY, NUMERIC, tensor_arg, tensor_pair
from retrograd.ops.index_args import (
    bad_row_error,
    check_bad_indices_policy,
    index_tensor,
    out_of_bounds_rows,
    static_ints,
)

SCATTER_INDEX_DTYPES = ("int32", "int64")


def _positions(op_type, indices, updates, shape, policy):
    """The index rows (n, depth) and update slices (n, ...) to apply, out-of-range rows
    raising, or dropped under the IGNORE policy."""
    depth, lead = indices.shape[-1], indices.shape[:-1]
    n = math.prod(lead)
    rows = indices.reshape(n, depth)
    values = updates.reshape((n, *shape[depth:]))
    bad = out_of_bounds_rows(rows, shape)
    if bad.any():
        if policy != "IGNORE":
            raise bad_row_error(op_type, indices, bad, shape, "shape")
        rows, values = rows[~bad], values[~bad]
    return tuple(rows.T), values


def _add_into(op_type, out, indices, updates, policy):
    index, values = _positions(op_type, indices, updates, out.shape, policy)
    if index:
        namespace_of(out).add.at(out, index, values)
    else:  # index vectors of length 0 address the whole output
        out += values.sum(axis=0, dtype=out.dtype)
    return out


def _scatter_nd_kernel(indices, updates, shape, bad_indices_policy):
    out = np.zeros_like(updates, shape=shape)
    return _add_into("ScatterNd", out, indices, updates, bad_indices_policy)


def _tensor_scatter_add_kernel(tensor, indices, updates, bad_indices_policy):
    return _add_into("TensorScatterAdd", tensor.copy(), indices, updates, bad_indices_policy)


def _tensor_scatter_update_kernel(tensor, indices, updates, bad_indices_policy):
    out = tensor.copy()
    index, values = _positions(
        "TensorScatterUpdate", indices, updates, out.shape, bad_indices_policy
    )
    if index:
        out[index] = values  # with duplicate indices the last update wins
    elif len(values):
        out[...] = values[-1]
    return out


def _combine_kernel(op_type, ufunc):
    def kernel(tensor, indices, updates, bad_indices_policy):
        out = tensor.copy()
        index, values = _positions(op_type, indices, updates, out.shape, bad_indices_policy)
        if index:
            getattr(namespace_of(out), ufunc.__name__).at(out, index, values)
        else:
            for value in values:
                out[...] = ufunc(out, value)
        return out

    return kernel


_ScatterNd = define_op("ScatterNd", _scatter_nd_kernel)
_TensorScatterSub = define_op("TensorScatterSub", _combine_kernel("TensorScatterSub", np.subtract))
_TensorScatterMin = define_op("TensorScatterMin", _combine_kernel("TensorScatterMin", np.minimum))
_TensorScatterMax = define_op("TensorScatterMax", _combine_kernel("TensorScatterMax", np.maximum))
_TensorScatterAdd = define_op("TensorScatterAdd", _tensor_scatter_add_kernel)
_TensorScatterUpdate = define_op("TensorScatterUpdate", _tensor_scatter_update_kernel)


def _check_shapes(op_type: str, indices: Tensor, updates: Tensor, shape: tuple) -> None:
    ishape, ushape = tuple(indices._value.shape), tuple(updates._value.shape)
    if not ishape:
        raise InvalidArgumentError(f"{op_type}: indices must have rank at least one, got a scalar")
    depth = ishape[-1]
    if depth > len(shape):
        raise InvalidArgumentError(
            f"{op_type}: index depth {depth} (the last dimension of indices) exceeds the rank "
            f"of the output shape {list(shape)}"
        )
    expected = ishape[:-1] + tuple(shape[depth:])
    if ushape != expected:
        raise InvalidArgumentError(
            f"{op_type}: updates must have shape {list(expected)} (indices.shape[:-1] + "
            f"shape[{depth}:]) for indices of shape {list(ishape)} into shape {list(shape)}, "
            f"got {list(ushape)}"
        )


def scatter_nd(
    indices: TensorLike,
    updates: TensorLike,
    shape: ShapeLike,
    bad_indices_policy: str = "",
    name: str | None = None,
) -> Tensor:
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (duplicates are summed).

    >>> import retrograd as rg
    >>> rg.scatter_nd([[1], [3], [1]], [1.0, 2.0, 3.0], [5]).numpy().tolist()
    [0.0, 4.0, 0.0, 2.0, 0.0]
    """
    i = index_tensor("ScatterNd", indices, "indices", SCATTER_INDEX_DTYPES)
    u = tensor_arg("ScatterNd", updates, NUMERIC, "updates")
    check_bad_indices_policy("ScatterNd", bad_indices_policy)
    dims = static_ints("ScatterNd", shape, "shape")
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(f"ScatterNd: shape {list(dims)} has a negative dimension")
    _check_shapes("ScatterNd", i, u, dims)
    attrs = {"shape": dims, "bad_indices_policy": bad_indices_policy}
    return execute(_ScatterNd, (i, u), attrs, name)


def _tensor_scatter(op, kinds, tensor, indices, updates, policy, name):
    t, u = tensor_pair(op.type, tensor, updates, kinds)
    i = index_tensor(op.type, indices, "indices", SCATTER_INDEX_DTYPES)
    check_bad_indices_policy(op.type, policy)
    _check_shapes(op.type, i, u, tuple(t._value.shape))
    return execute(op, (t, i, u), {"bad_indices_policy": policy}, name)


def tensor_scatter_nd_update(
    tensor: TensorLike, indices: TensorLike, updates: TensorLike, name: str | None = None
) -> Tensor:
    """A copy of ``tensor`` with the slices at ``indices`` replaced by ``updates``.

    >>> import retrograd as rg
    >>> rg.tensor_scatter_nd_update([1, 2, 3, 4], [[0], [2]], [10, 30]).numpy().tolist()
    [10, 2, 30, 4]
    """
    return _tensor_scatter(_TensorScatterUpdate, ANY, tensor, indices, updates, "", name)


def tensor_scatter_nd_add(
    tensor: TensorLike,
    indices: TensorLike,
    updates: TensorLike,
    bad_indices_policy: str = "",
    name: str | None = None,
) -> Tensor:
    """A copy of ``tensor`` with ``updates`` added at ``indices`` (duplicates are summed).

    >>> import retrograd as rg
    >>> rg.tensor_scatter_nd_add([1.0, 2.0, 3.0], [[1], [1]], [10.0, 5.0]).numpy().tolist()
    [1.0, 17.0, 3.0]
    """
    return _tensor_scatter(
        _TensorScatterAdd, NUMERIC, tensor, indices, updates, bad_indices_policy, name
    )


def tensor_scatter_nd_sub(
    tensor: TensorLike,
    indices: TensorLike,
    updates: TensorLike,
    bad_indices_policy: str = "",
    name: str | None = None,
) -> Tensor:
    """A copy of ``tensor`` with ``updates`` subtracted at ``indices`` (each duplicate too).

    >>> import retrograd as rg
    >>> rg.tensor_scatter_nd_sub([1.0, 2.0, 3.0], [[1], [1]], [10.0, 5.0]).numpy().tolist()
    [1.0, -13.0, 3.0]
    """
    return _tensor_scatter(
        _TensorScatterSub, NUMERIC, tensor, indices, updates, bad_indices_policy, name
    )


def tensor_scatter_nd_min(
    tensor: TensorLike,
    indices: TensorLike,
    updates: TensorLike,
    bad_indices_policy: str = "",
    name: str | None = None,
) -> Tensor:
    """A copy of ``tensor`` whose slices at ``indices`` are the least of theirs and ``updates``.

    >>> import retrograd as rg
    >>> rg.tensor_scatter_nd_min([1.0, 2.0, 3.0], [[0], [2]], [5.0, -1.0]).numpy().tolist()
    [1.0, 2.0, -1.0]
    """
    return _tensor_scatter(
        _TensorScatterMin, NUMERIC, tensor, indices, updates, bad_indices_policy, name
    )


def tensor_scatter_nd_max(
    tensor: TensorLike,
    indices: TensorLike,
    updates: TensorLike,
    bad_indices_policy: str = "",
    name: str | None = None,
) -> Tensor:
    """A copy of ``tensor`` whose slices at ``indices`` are the greatest of theirs and
    ``updates``.

    >>> import retrograd as rg
    >>> rg.tensor_scatter_nd_max([1.0, 2.0, 3.0], [[0], [2]], [5.0, -1.0]).numpy().tolist()
    [5.0, 2.0, 3.0]
    """
    return _tensor_scatter(
        _TensorScatterMax, NUMERIC, tensor, indices, updates, bad_indices_policy, name
    )


def _gathered(op, grad):
    return gather_ops.gather_nd(
        grad, op.inputs[-2], bad_indices_policy=op.get_attr("bad_indices_policy")
    )


@op_gradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return None, _gathered(op, grad)


@op_gradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return grad, None, _gathered(op, grad)


@op_gradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    # As TensorFlow: the replaced slices pass nothing back to `tensor`, and every update
    # (also one overwritten by a later duplicate) receives the gradient at its position.
    _, indices, updates = op.inputs
    policy = op.get_attr("bad_indices_policy")
    cleared = _tensor_scatter(
        _TensorScatterUpdate, ANY, grad, indices, array_ops.zeros_like(updates), policy, None
    )
    return cleared, None, _gathered(op, grad)


@op_gradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return grad, None, -_gathered(op, grad)


@op_gradient("TensorScatterMin")
@op_gradient("TensorScatterMax")
def _tensor_scatter_min_max_grad(op, grad):
    # As TensorFlow's: the gradient goes to every value equal to the result, split evenly.
    from retrograd.ops import comparison_ops, math_ops

    x, indices, y = op.inputs
    output = op.outputs[0]
    x_ind = math_ops.cast(comparison_ops.equal(x, output), grad.dtype)
    y_out = gather_ops.gather_nd(output, indices)
    y_ind = math_ops.cast(comparison_ops.equal(y, y_out), grad.dtype)
    ys_ind = tensor_scatter_nd_add(array_ops.zeros_like(x), indices, y_ind)  # shape may be unknown
    indicators = x_ind + ys_ind
    x_grad = grad * x_ind / indicators
    y_grad = gather_ops.gather_nd(grad / indicators, indices) * y_ind
    return x_grad, None, y_grad


# -- the gradient of gather_nd when params' shape is known only at run time -----------------


def _scatter_nd_like_kernel(indices, updates, like):
    out = namespace_of(updates).zeros(like.shape, dtype=updates.dtype)
    depth = indices.shape[-1]
    flat = indices.reshape(-1, depth)
    namespace_of(out).add.at(out, tuple(flat.T), updates.reshape(len(flat), *out.shape[depth:]))
    return out


_ScatterNdLike = define_op(
    "ScatterNdLike",
    _scatter_nd_like_kernel,
    shape_fn=lambda metas: [(metas[2].shape, metas[1].dtype)],
)


def scatter_nd_like(indices: Tensor, updates: Tensor, like: Tensor) -> Tensor:
    """Zeros shaped like ``like`` with ``updates`` added at ``indices`` (``gather_nd``'s
    gradient where ``like``'s shape is known only when the graph runs)."""
    return execute(_ScatterNdLike, (indices, updates, like), None, None)


@op_gradient("ScatterNdLike")
def _scatter_nd_like_grad(op, grad):
    return None, gather_ops.gather_nd(grad, op.inputs[0]), None
