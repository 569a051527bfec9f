"""Arguments TensorFlow reads when the graph runs: reduction axes, ``transpose``'s perm,
``one_hot``'s depth, ``pad``'s paddings, ``split``'s sizes and ``expand_dims``' axis, fed
from placeholders or computed by the graph.

Where such an argument is known while the graph is built (a Python value, an eager or
constant tensor, or shape arithmetic on known shapes) the op takes it as an attribute as
before; otherwise it becomes an int tensor input of a ``Dynamic*`` op here, whose kernel
checks it when it runs (with the static op's errors) and whose static output shape keeps
what is known (the rank, where it does not depend on the value). Eagerly every value is
known, so these ops only appear in graphs.

>>> import numpy as np, retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 3])
...     axis = rg.compat.v1.placeholder(rg.int32, [])
...     total = rg.reduce_sum(x, axis=axis)
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(total, {x: np.ones((2, 3)), axis: 1}).tolist()
[3.0, 3.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OP_DEFS, define_op, execute
from retrograd.core.registry import RegisterGradient, no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, math_ops, reduction_ops

__all__ = [
    "is_run_time",
    "reduce",
    "transpose",
    "one_hot",
    "pad",
    "split",
    "expand_dims",
]


def is_run_time(value: Any) -> bool:
    """Whether ``value`` is a tensor whose value is known only when the graph runs."""
    from retrograd.ops.dynamic_shape_ops import known_value

    return isinstance(value, Tensor) and known_value(value) is None


def _int_tensor(op_type: str, value: Tensor, arg: str, ranks: tuple[int, ...]) -> Tensor:
    """``value`` checked as TensorFlow's op checks it: int32 or int64, of one of ``ranks``."""
    if not value.dtype.is_integer:
        raise InvalidArgumentError(
            f"{op_type}: `{arg}` must be an int32 or int64 tensor, got {value.dtype.name}"
        )
    shape = value._value.shape
    if shape is not None and len(shape) not in ranks:
        raise InvalidArgumentError(
            f"{op_type}: `{arg}` must be a tensor of rank {' or '.join(map(str, ranks))}, got "
            f"shape {list(shape)}"
        )
    return value


def _rank(x: Tensor) -> int | None:
    return None if x._value.shape is None else len(x._value.shape)


def _unknown_dims(rank: int | None) -> tuple | None:
    return None if rank is None else (None,) * rank


def _same_rank(metas, **attrs):
    """Shape function: the first input's rank, every dimension unknown."""
    shape = metas[0].shape
    return [(None if shape is None else (None,) * len(shape), metas[0].dtype)]


# --- reductions -------------------------------------------------------------------------


def _axes(op_type: str, axes: np.ndarray, ndim: int) -> tuple[int, ...]:
    """Run-time reduction axes as sorted non-negative axes (repeats reduce once, as in TF)."""
    for a in np.reshape(axes, -1).tolist():
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"{op_type}: Invalid reduction dimension {a} for input with {ndim} dimensions"
            )
    return tuple(sorted({int(a) % ndim for a in np.reshape(axes, -1).tolist()}))


def _reduced_meta(metas, keepdims, all_axes):
    x, axes = metas
    rank = None if x.shape is None else len(x.shape)
    if all_axes and not keepdims:
        return [((), x.dtype)]
    if keepdims:
        return [(_unknown_dims(rank), x.dtype)]
    scalar_axis = axes.shape == ()  # one axis: one dimension less; several: unknown rank
    return [(_unknown_dims(None if rank is None or not scalar_axis else rank - 1), x.dtype)]


def _reduction(op_type: str):
    kernel = OP_DEFS[op_type].kernel

    def run(x, axes, keepdims, all_axes):
        return kernel(x, axis=_axes(op_type, axes, x.ndim), keepdims=keepdims)

    return define_op("Dynamic" + op_type, run, shape_fn=_reduced_meta)


_REDUCTIONS = {t: _reduction(t) for t in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any")}


def reduce(op_type: str, x: Tensor, axis: Any, keepdims: bool, name: str | None) -> Tensor:
    """Reduction ``op_type`` ("Sum", "Mean", ...) of ``x`` over run-time ``axis`` (None: all
    the axes of ``x``, whose rank is known only when the graph runs)."""
    all_axes = axis is None
    if all_axes:
        from retrograd.ops import creation_ops

        axis = creation_ops.range(array_ops.size(array_ops.shape(x)))
    axis = _int_tensor(op_type, axis, "axis", (0, 1))
    attrs = {"keepdims": bool(keepdims), "all_axes": all_axes}
    return execute(_REDUCTIONS[op_type], (x, axis), attrs, name)


def _kept_shape_kernel(shape, axes):
    kept = np.array(shape, dtype=np.int32)
    kept[list(_axes("Reduction", axes, len(kept)))] = 1
    return kept


# The shape of a reduction's output with its reduced axes kept as 1 (TF's reduced_shape).
_KeptShape = define_op(
    "ReducedShape",
    _kept_shape_kernel,
    shape_fn=lambda metas: [(metas[0].shape, np.dtype(np.int32))],
)
no_gradient("ReducedShape")


def _kept(op, t: Tensor) -> Tensor:
    """``t`` (an output or upstream gradient of reduction ``op``) with the reduced axes
    back as size 1, so it broadcasts against the input."""
    x, axes = op.inputs
    if op.get_attr("all_axes"):  # a scalar, or all ones: it broadcasts as it is
        return t
    return array_ops.reshape(t, execute(_KeptShape, (array_ops.shape(x), axes)))


def _spread(op, grad: Tensor) -> Tensor:
    return broadcast.broadcast_like(_kept(op, grad), op.inputs[0])


@RegisterGradient("DynamicSum")
def _dynamic_sum_grad(op, grad):
    return _spread(op, grad), None


@RegisterGradient("DynamicMean")
def _dynamic_mean_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    count = math_ops.cast(array_ops.size(x), grad.dtype) / math_ops.cast(
        array_ops.size(y), grad.dtype
    )
    return _spread(op, grad) / math_ops.maximum(count, 1), None


def _dynamic_extremum_grad(op, grad):
    x, axes = op.inputs
    chosen = math_ops.cast(comparison_ops.equal(x, _kept(op, op.outputs[0])), grad.dtype)
    count = execute(_REDUCTIONS["Sum"], (chosen, axes), {"keepdims": True, "all_axes": False})
    return chosen / count * _kept(op, grad), None


RegisterGradient("DynamicMax")(_dynamic_extremum_grad)
RegisterGradient("DynamicMin")(_dynamic_extremum_grad)


def _reduced_first_kernel(shape, axes):
    reduced = _axes("Prod", axes, len(shape))
    return np.array([*reduced, *(i for i in range(len(shape)) if i not in reduced)], np.int32)


# The permutation moving a reduction's reduced axes to the front (for Prod's gradient).
_ReducedFirst = define_op(
    "ReducedAxesFirst",
    _reduced_first_kernel,
    shape_fn=lambda metas: [(metas[0].shape, np.dtype(np.int32))],
)
no_gradient("ReducedAxesFirst")


@RegisterGradient("DynamicProd")
def _dynamic_prod_grad(op, grad):
    # As the static rule: the product of all the other elements, from exclusive cumulative
    # products over the reduced axes moved to the front and flattened.
    x, axes = op.inputs
    perm = execute(_ReducedFirst, (array_ops.shape(x), axes))
    moved = transpose(x, perm, False, None)
    count = array_ops.size(x) // math_ops.maximum(array_ops.size(op.outputs[0]), 1)
    flat = array_ops.reshape(moved, array_ops.stack([count, -1]))
    left = reduction_ops.cumprod(flat, axis=0, exclusive=True)
    right = reduction_ops.cumprod(flat, axis=0, exclusive=True, reverse=True)
    others = array_ops.reshape(left * right, array_ops.shape(moved))
    others = transpose(others, execute(_InvertPermutation, (perm,)), False, None)
    return _spread(op, grad) * math_ops.conj(others), None


no_gradient("DynamicAll")
no_gradient("DynamicAny")

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
    shape_fn=_same_rank,
)


def _invert_permutation_kernel(perm):
    perm = np.asarray(_permutation(perm, np.size(perm)))
    return np.argsort(perm).astype(np.int32)


_InvertPermutation = define_op(
    "DynamicInvertPermutation",
    _invert_permutation_kernel,
    shape_fn=lambda metas: [(metas[0].shape, np.dtype(np.int32))],
)
no_gradient("DynamicInvertPermutation")


def transpose(x: Tensor, perm: Tensor, conjugate: bool, name: str | None) -> Tensor:
    """``x`` with its axes permuted by the run-time vector ``perm``."""
    perm = _int_tensor("Transpose", perm, "perm", (1,))
    length = perm._value.shape[0] if perm._value.shape is not None else None
    if length is not None and x._value.shape is not None and length != x._value.ndim:
        raise InvalidArgumentError(
            f"Transpose: perm must have {x._value.ndim} entries (the rank of the input), got "
            f"{length}"
        )
    out = execute(_DynamicTranspose, (x, perm), None, name)
    return math_ops.conj(out) if conjugate else out


@RegisterGradient("DynamicTranspose")
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
    depth = _int_tensor("OneHot", depth, "depth", (0,))
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


_DynamicPad = define_op("DynamicPad", _pad_kernel, shape_fn=_same_rank)
_DynamicMirrorPadGrad = define_op(
    "DynamicMirrorPadGrad", _mirror_pad_grad_kernel, shape_fn=_same_rank
)


def pad(x: Tensor, paddings: Tensor, value: Tensor, mode: str, name: str | None) -> Tensor:
    """``x`` padded by the run-time ``paddings`` (rank x 2): with ``value``, or mirrored."""
    paddings = _int_tensor("Pad", paddings, "paddings", (2,))
    shape, rank = paddings._value.shape, _rank(x)
    if shape is not None and rank is not None and shape[0] not in (None, rank):
        raise InvalidArgumentError(
            f"Pad: paddings must be a matrix of shape [{rank}, 2] (the rank of the input), got "
            f"shape {list(shape)}"
        )
    if shape is not None and shape[1] not in (None, 2):
        raise InvalidArgumentError(f"Pad: paddings must have 2 columns, got shape {list(shape)}")
    return execute(_DynamicPad, (x, paddings, value), {"mode": mode}, name)


@RegisterGradient("DynamicPad")
def _dynamic_pad_grad(op, grad):
    x, paddings, _ = op.inputs
    if op.get_attr("mode") != "CONSTANT":
        attrs = {"mode": op.get_attr("mode")}
        return execute(_DynamicMirrorPadGrad, (grad, paddings), attrs), None, None
    from retrograd.ops import dynamic_shape_ops

    begin = paddings[:, 0]
    if _rank(x) is not None:  # (a vector of known length: the slice's rank is known)
        begin = array_ops.reshape(begin, [_rank(x)])
    return dynamic_shape_ops.slice(grad, begin, array_ops.shape(x)), None, None


@RegisterGradient("DynamicMirrorPadGrad")
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
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis))


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
    if isinstance(sizes, Tensor):
        tensor = _int_tensor("SplitV", sizes, "size_splits", (1,))
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


@RegisterGradient("DynamicSplitV")
def _dynamic_split_v_grad(op, *grads):
    return array_ops.concat(list(grads), op.get_attr("axis")), None


@RegisterGradient("DynamicSplit")
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
    axis = _int_tensor("ExpandDims", axis, "axis", (0,))
    return execute(_DynamicExpandDims, (x, axis), None, name)


@RegisterGradient("DynamicExpandDims")
def _dynamic_expand_dims_grad(op, grad):
    return array_ops.reshape_like(grad, op.inputs[0]), None
