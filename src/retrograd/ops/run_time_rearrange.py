"""Rearranging ops whose arguments TensorFlow reads when the graph runs: ``transpose``'s
perm, ``pad``'s paddings, ``split``'s sizes, ``expand_dims``' axis, ``one_hot``'s depth and
``roll``'s shift (see :mod:`retrograd.ops.run_time_args` for how and why).

>>> import numpy as np, retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 3])
...     perm = rg.compat.v1.placeholder(rg.int32, [2])
...     y = rg.transpose(x, perm)
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(y, {x: np.ones((2, 3)), perm: [1, 0]}).shape
(3, 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.backends import on_device_of, to_host
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OP_DEFS, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, math_ops
from retrograd.ops.run_time_args import (
    int_tensor,
    is_run_time,
    rank_of,
    same_rank_meta,
)

__all__ = [
    "transpose",
    "invert_permutation",
    "one_hot",
    "pad",
    "split",
    "expand_dims",
    "roll",
    "reverse",
    "concat",
]

# --- transpose --------------------------------------------------------------------------


def _permutation(perm: np.ndarray, ndim: int) -> tuple[int, ...]:
    perm = np.reshape(perm, -1).tolist()
    out_of_range = [p for p in perm if not -ndim <= p < ndim]
    if out_of_range:
        raise InvalidArgumentError(
            f"Transpose: {out_of_range[0]} is out of range [{-ndim}, {ndim}) in perm {perm}"
        )
    if len(perm) != ndim or sorted(p % ndim for p in perm) != list(range(ndim)):
        raise InvalidArgumentError(f"Transpose: perm {perm} is not a permutation of {ndim} axes")
    return tuple(p % ndim for p in perm)


_DynamicTranspose = define_op(
    "DynamicTranspose",
    lambda x, perm: np.transpose(x, _permutation(perm, x.ndim)),
    shape_fn=same_rank_meta,
)


def _invert_permutation_kernel(perm):
    host = np.asarray(_permutation(to_host(perm), np.size(perm)))
    return on_device_of(np.argsort(host).astype(np.int32), perm)


_InvertPermutation = define_op(
    "DynamicInvertPermutation",
    _invert_permutation_kernel,
    shape_fn=lambda metas: [(metas[0].shape, np.dtype(np.int32))],
)
no_gradient("DynamicInvertPermutation")


def invert_permutation(perm: Tensor) -> Tensor:
    """The inverse of the run-time permutation vector ``perm``."""
    return execute(_InvertPermutation, (perm,))


def transpose(x: Tensor, perm: Tensor, conjugate: bool, name: str | None) -> Tensor:
    """``x`` with its axes permuted by the run-time vector ``perm``."""
    perm = int_tensor("Transpose", perm, "perm", (1,))
    length = perm._value.shape[0] if perm._value.shape is not None else None
    if length is not None and x._value.shape is not None and length != x._value.ndim:
        raise InvalidArgumentError(
            f"Transpose: perm must have {x._value.ndim} entries (the rank of the input), got "
            f"{length}"
        )
    out = execute(_DynamicTranspose, (x, perm), None, name)
    return math_ops.conj(out) if conjugate else out


@op_gradient("DynamicTranspose")
def _dynamic_transpose_grad(op, grad):
    x, perm = op.inputs
    return transpose(grad, execute(_InvertPermutation, (perm,)), False, None), None


# --- one_hot ----------------------------------------------------------------------------


def _one_hot_kernel(indices, on_value, off_value, depth, axis):
    depth = int(depth)
    if depth < 0:
        raise InvalidArgumentError(f"OneHot: depth must be non-negative, got: {depth}")
    return OP_DEFS["OneHot"].kernel(indices, on_value, off_value, depth=depth, axis=axis)


def _one_hot_meta(metas, axis):
    indices, on = metas[0], metas[1]
    if indices.shape is None:
        return [(None, on.dtype)]
    dims = list(indices.shape)
    dims.insert(len(dims) if axis == -1 else axis, None)
    return [(tuple(dims), on.dtype)]


_DynamicOneHot = define_op("DynamicOneHot", _one_hot_kernel, shape_fn=_one_hot_meta)
no_gradient("DynamicOneHot")  # (as OneHot: no gradient for any input)


def one_hot(
    indices: Tensor, depth: Tensor, on: Tensor, off: Tensor, axis: int, name: str | None
) -> Tensor:
    """``one_hot`` with a ``depth`` known only when the graph runs (checked arguments)."""
    depth = int_tensor("OneHot", depth, "depth", (0,))
    return execute(_DynamicOneHot, (indices, on, off, depth), {"axis": axis}, name)


# --- pad --------------------------------------------------------------------------------


def _paddings(paddings: np.ndarray, ndim: int) -> tuple:
    if paddings.ndim != 2 or paddings.shape != (ndim, 2):
        raise InvalidArgumentError(
            f"Pad: paddings must be a matrix of shape [{ndim}, 2] (the rank of the input), "
            f"got shape {list(paddings.shape)}"
        )
    if (paddings < 0).any():
        raise InvalidArgumentError(f"Pad: paddings must be non-negative, got {paddings.tolist()}")
    return tuple((int(b), int(a)) for b, a in paddings)


def _pad_kernel(x, paddings, constant_values, mode):
    pads = _paddings(paddings, x.ndim)
    if mode == "CONSTANT":
        return np.pad(x, pads, constant_values=constant_values) if x.ndim else x.copy()
    from retrograd.ops.pad_ops import _check_mirror_sizes

    _check_mirror_sizes(mode, pads, x.shape)
    return np.pad(x, pads, mode=mode.lower()) if x.ndim else x.copy()


def _mirror_pad_grad_kernel(grad, paddings, mode):
    from retrograd.ops.pad_ops import _mirror_pad_grad_kernel as fold

    return fold(grad, _paddings(paddings, grad.ndim), mode)


_DynamicPad = define_op("DynamicPad", _pad_kernel, shape_fn=same_rank_meta)
_DynamicMirrorPadGrad = define_op(
    "DynamicMirrorPadGrad", _mirror_pad_grad_kernel, shape_fn=same_rank_meta
)


def pad(x: Tensor, paddings: Tensor, value: Tensor, mode: str, name: str | None) -> Tensor:
    """``x`` padded by the run-time ``paddings`` (rank x 2): with ``value``, or mirrored."""
    paddings = int_tensor("Pad", paddings, "paddings", (2,))
    shape, rank = paddings._value.shape, rank_of(x)
    if shape is not None and rank is not None and shape[0] not in (None, rank):
        raise InvalidArgumentError(
            f"Pad: paddings must be a matrix of shape [{rank}, 2] (the rank of the input), got "
            f"shape {list(shape)}"
        )
    if shape is not None and shape[1] not in (None, 2):
        raise InvalidArgumentError(f"Pad: paddings must have 2 columns, got shape {list(shape)}")
    return execute(_DynamicPad, (x, paddings, value), {"mode": mode}, name)


@op_gradient("DynamicPad")
def _dynamic_pad_grad(op, grad):
    x, paddings, _ = op.inputs
    if op.get_attr("mode") != "CONSTANT":
        attrs = {"mode": op.get_attr("mode")}
        return execute(_DynamicMirrorPadGrad, (grad, paddings), attrs), None, None
    from retrograd.ops import dynamic_shape_ops

    begin = paddings[:, 0]
    if rank_of(x) is not None:  # (a vector of known length: the slice's rank is known)
        begin = array_ops.reshape(begin, [rank_of(x)])
    return dynamic_shape_ops.slice(grad, begin, array_ops.shape(x)), None, None


@op_gradient("DynamicMirrorPadGrad")
def _dynamic_mirror_pad_grad_grad(op, grad):
    paddings = op.inputs[1]
    value = array_ops.zeros([], grad.dtype)
    return execute(_DynamicPad, (grad, paddings, value), {"mode": op.get_attr("mode")}), None


# --- split and expand_dims --------------------------------------------------------------


def _split_sizes(sizes: list, dim: int, axis: int) -> list:
    sizes = list(sizes)
    if sizes.count(-1) == 1:
        sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
    if sum(sizes) != dim or min(sizes, default=0) < 0:
        raise InvalidArgumentError(
            f"SplitV: sizes {sizes} do not add up to dimension {axis} of size {dim}"
        )
    return sizes


def _split_kernel(x, sizes, axis, num, known):
    sizes = _split_sizes(np.reshape(sizes, -1).tolist(), x.shape[axis], axis)
    return tuple(np.split(x, np.cumsum(sizes)[:-1].tolist(), axis))  # (host offsets: a list)


def _equal_split_kernel(x, axis, num):
    if x.shape[axis] % num:
        raise InvalidArgumentError(
            f"Split: dimension {axis} of size {x.shape[axis]} can not be split into {num} equal "
            f"parts"
        )
    return tuple(np.split(x, num, axis))


def _split_meta(metas, axis, num, known=None):
    x = metas[0]
    if x.shape is None:
        return [(None, x.dtype)] * num
    out = []
    for k in known or (None,) * num:
        dims = list(x.shape)
        dims[axis] = k
        out.append((tuple(dims), x.dtype))
    return out


_DynamicSplitV = define_op("DynamicSplitV", _split_kernel, multi_output=True, shape_fn=_split_meta)
_DynamicSplit = define_op(
    "DynamicSplit", _equal_split_kernel, multi_output=True, shape_fn=_split_meta
)


def split(x: Tensor, sizes: Any, axis: int, name: str | None) -> list[Tensor]:
    """``x`` split along ``axis``: into ``sizes`` equal parts (an int), or into parts of the
    sizes in a vector, where those sizes or the split dimension are known only at run time."""
    if isinstance(sizes, (int, np.integer)):
        num = int(sizes)
        if num <= 0:
            raise InvalidArgumentError(f"Split: num_split must be positive, got {num}")
        return list(execute(_DynamicSplit, (x,), {"axis": axis, "num": num}, name))
    if is_run_time(sizes) and not isinstance(sizes, Tensor):  # a list holding tensors
        known = tuple(None if is_run_time(s) or s == -1 else int(s) for s in sizes)
        tensor = int_tensor("SplitV", sizes, "size_splits", (1,))
    elif isinstance(sizes, Tensor):
        tensor = int_tensor("SplitV", sizes, "size_splits", (1,))
        shape = tensor._value.shape
        if shape is None or shape[0] is None:
            raise ValueError(
                f"SplitV: cannot infer the number of outputs from `size_splits` of shape "
                f"{tensor.shape}: give it a static length"
            )
        known = (None,) * shape[0]
    else:
        known = tuple(None if s == -1 else int(s) for s in sizes)
        tensor = convert_to_tensor(np.array(sizes, np.int32))
    attrs = {"axis": axis, "num": len(known), "known": known}
    return list(execute(_DynamicSplitV, (x, tensor), attrs, name))


@op_gradient("DynamicSplitV")
def _dynamic_split_v_grad(op, *grads):
    return array_ops.concat(list(grads), op.get_attr("axis")), None


@op_gradient("DynamicSplit")
def _dynamic_split_grad(op, *grads):
    return array_ops.concat(list(grads), op.get_attr("axis"))


def _expand_dims_kernel(x, axis):
    axis = int(axis)
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise InvalidArgumentError(f"ExpandDims: axis {axis} is out of range for rank {x.ndim}")
    return np.expand_dims(x, axis)


_DynamicExpandDims = define_op(
    "DynamicExpandDims",
    _expand_dims_kernel,
    shape_fn=lambda metas: [
        (None if metas[0].shape is None else (None,) * (len(metas[0].shape) + 1), metas[0].dtype)
    ],
)


def expand_dims(x: Tensor, axis: Tensor, name: str | None) -> Tensor:
    """``x`` with a size-1 axis inserted at the run-time scalar ``axis``."""
    axis = int_tensor("ExpandDims", axis, "axis", (0,))
    return execute(_DynamicExpandDims, (x, axis), None, name)


@op_gradient("DynamicExpandDims")
def _dynamic_expand_dims_grad(op, grad):
    return array_ops.reshape_like(grad, op.inputs[0]), None


# --- roll -------------------------------------------------------------------------------


def _roll_kernel(x, shift, axis):
    shifts, axes = np.reshape(shift, -1).tolist(), np.reshape(axis, -1).tolist()
    if len(shifts) != len(axes):
        raise InvalidArgumentError(
            f"Roll: shift and axis must have the same size, got {len(shifts)} and {len(axes)}"
        )
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise InvalidArgumentError(f"Roll: axis {a} is out of range for rank {x.ndim}")
    return np.roll(x, shifts, axes)  # (shifts of a repeated axis add up, as in TensorFlow)


_DynamicRoll = define_op(
    "DynamicRoll", _roll_kernel, shape_fn=lambda metas: [(metas[0].shape, metas[0].dtype)]
)


def roll(x: Tensor, shift: Any, axis: Any, name: str | None) -> Tensor:
    """``x`` rolled by ``shift`` along ``axis``, either known only when the graph runs."""
    shift = int_tensor("Roll", shift, "shift", (0, 1))
    axis = int_tensor("Roll", axis, "axis", (0, 1))
    return execute(_DynamicRoll, (x, shift, axis), None, name)


@op_gradient("DynamicRoll")
def _dynamic_roll_grad(op, grad):
    _, shift, axis = op.inputs
    return execute(_DynamicRoll, (grad, -shift, axis)), None, None


# --- reverse and concat along run-time axes ---------------------------------------------


def _reverse_kernel(x, axis):
    axes: list[int] = []
    for i, a in enumerate(np.reshape(axis, -1).tolist()):
        if not -x.ndim <= a < x.ndim:
            raise InvalidArgumentError(
                f"ReverseV2: 'axis'[{i}] = {a} is out of valid range [{-x.ndim}, {x.ndim})"
            )
        if a % x.ndim in axes:
            raise InvalidArgumentError(f"ReverseV2: axis {a % x.ndim} specified more than once")
        axes.append(a % x.ndim)
    return np.flip(x, tuple(axes)) if axes else x


_DynamicReverseV2 = define_op(
    "DynamicReverseV2", _reverse_kernel, shape_fn=lambda metas: [(metas[0].shape, metas[0].dtype)]
)


def reverse(x: Tensor, axis: Any, name: str | None) -> Tensor:
    """``x`` reversed along the dimensions of the run-time vector ``axis``."""
    axis = int_tensor("ReverseV2", axis, "axis", (1,))
    return execute(_DynamicReverseV2, (x, axis), None, name)


@op_gradient("DynamicReverseV2")
def _dynamic_reverse_grad(op, grad):
    return execute(_DynamicReverseV2, (grad, op.inputs[1])), None


def _concat_axis(axis, ndim: int) -> int:
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(f"ConcatV2: axis {axis} is out of range for rank {ndim}")
    return axis % ndim


def _concat_kernel(*inputs):
    values, axis = inputs[:-1], inputs[-1]
    return np.concatenate(values, axis=_concat_axis(axis, values[0].ndim))


def _concat_grad_kernel(grad, axis, *values):
    axis = _concat_axis(axis, grad.ndim)
    return tuple(np.split(grad, np.cumsum([v.shape[axis] for v in values])[:-1], axis))


_DynamicConcatV2 = define_op("DynamicConcatV2", _concat_kernel, shape_fn=same_rank_meta)
# The pieces of a gradient of a concatenation, shaped like the values joined.
_DynamicConcatGrad = define_op(
    "DynamicConcatGrad",
    _concat_grad_kernel,
    multi_output=True,
    shape_fn=lambda metas: [(m.shape, metas[0].dtype) for m in metas[2:]],
)


def concat(values: list, axis: Tensor, name: str | None) -> Tensor:
    """``values`` joined along the run-time scalar ``axis``."""
    axis = int_tensor("ConcatV2", axis, "axis", (0,))
    return execute(_DynamicConcatV2, (*values, axis), None, name)


@op_gradient("DynamicConcatV2")
def _dynamic_concat_grad(op, grad):
    values, axis = op.inputs[:-1], op.inputs[-1]
    return (*execute(_DynamicConcatGrad, (grad, axis, *values)), None)


@op_gradient("DynamicConcatGrad")
def _dynamic_concat_grad_grad(op, *grads):
    axis = op.inputs[1]
    return execute(_DynamicConcatV2, (*grads, axis)), None, *[None] * (len(op.inputs) - 2)
