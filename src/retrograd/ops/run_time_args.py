"""Arguments TensorFlow reads when the graph runs, fed from placeholders or computed by the
graph: here reduction and scan axes (``reduce_*``, ``argmax``/``argmin``, ``cumsum``) and the
helpers; ``transpose``'s perm, ``pad``'s paddings, ``split``'s sizes, ``expand_dims``' axis,
``one_hot``'s depth and ``roll``'s shift are in :mod:`retrograd.ops.run_time_rearrange`.

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

from retrograd.core.backends import to_host
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OP_DEFS, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, math_ops, reduction_ops

__all__ = [
    "is_run_time",
    "int_tensor",
    "rank_of",
    "same_rank_meta",
    "unknown_dims",
    "reduce",
    "arg_reduce",
    "cumsum",
]


def is_run_time(value: Any) -> bool:
    """Whether ``value`` is a tensor whose value is known only when the graph runs, or a
    (nested) list holding one (``[[0, 0], [n, 0]]``)."""
    from retrograd.ops.dynamic_shape_ops import known_value

    if isinstance(value, (list, tuple)):
        return any(is_run_time(v) for v in value)
    return isinstance(value, Tensor) and known_value(value) is None


def int_tensor(op_type: str, value: Any, arg: str, ranks: tuple[int, ...]) -> Tensor:
    """``value`` (a tensor, or a list holding tensors: stacked) checked as TensorFlow's op
    checks it: int32 or int64, of one of ``ranks``."""
    if not isinstance(value, Tensor):
        value = convert_to_tensor(value, dtype_hint="int32")
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


def rank_of(x: Tensor) -> int | None:
    return None if x._value.shape is None else len(x._value.shape)


def unknown_dims(rank: int | None) -> tuple | None:
    return None if rank is None else (None,) * rank


def same_rank_meta(metas, **attrs):
    """Shape function: the first input's rank, every dimension unknown."""
    shape = metas[0].shape
    return [(None if shape is None else (None,) * len(shape), metas[0].dtype)]


# --- reductions -------------------------------------------------------------------------


def _axes(op_type: str, axes: np.ndarray, ndim: int) -> tuple[int, ...]:
    """Run-time reduction axes as sorted non-negative axes (an axis named twice, even as -1
    and rank - 1, is an error, as in TensorFlow)."""
    seen: list[int] = []
    for a in np.reshape(axes, -1).tolist():
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"{op_type}: Invalid reduction dimension {a} for input with {ndim} dimensions"
            )
        if a % ndim in seen:
            raise InvalidArgumentError(
                f"{op_type}: Invalid reduction arguments: Axes contains duplicate dimension: "
                f"{a % ndim}"
            )
        seen.append(a % ndim)
    return tuple(sorted(seen))


def _reduced_meta(metas, keepdims, all_axes):
    x, axes = metas
    rank = None if x.shape is None else len(x.shape)
    if all_axes and not keepdims:
        return [((), x.dtype)]
    if keepdims:
        return [(unknown_dims(rank), x.dtype)]
    scalar_axis = axes.shape == ()  # one axis: one dimension less; several: unknown rank
    return [(unknown_dims(None if rank is None or not scalar_axis else rank - 1), x.dtype)]


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
    axis = int_tensor(op_type, axis, "axis", (0, 1))
    attrs = {"keepdims": bool(keepdims), "all_axes": all_axes}
    return execute(_REDUCTIONS[op_type], (x, axis), attrs, name)


def _kept_shape_kernel(shape, axes):
    kept = np.array(to_host(shape), dtype=np.int32)
    kept[list(_axes("Reduction", to_host(axes), len(kept)))] = 1
    return kept


# The shape of a reduction's output with its reduced axes kept as 1 (TF's reduced_shape).
_KeptShape = define_op(
    "ReducedShape",
    _kept_shape_kernel,
    shape_fn=lambda metas: [(metas[0].shape, np.dtype(np.int32))],
    host_inputs=(0, 1),  # (a shape and axes: steer Python, read on the host)
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


@op_gradient("DynamicSum")
def _dynamic_sum_grad(op, grad):
    return _spread(op, grad), None


@op_gradient("DynamicMean")
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


op_gradient("DynamicMax")(_dynamic_extremum_grad)
op_gradient("DynamicMin")(_dynamic_extremum_grad)


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


@op_gradient("DynamicProd")
def _dynamic_prod_grad(op, grad):
    # As the static rule: the product of all the other elements, from exclusive cumulative
    # products over the reduced axes moved to the front and flattened.
    x, axes = op.inputs
    perm = execute(_ReducedFirst, (array_ops.shape(x), axes))
    from retrograd.ops import run_time_rearrange as rearrange

    moved = rearrange.transpose(x, perm, False, None)
    count = array_ops.size(x) // math_ops.maximum(array_ops.size(op.outputs[0]), 1)
    flat = array_ops.reshape(moved, array_ops.stack([count, -1]))
    left = reduction_ops.cumprod(flat, axis=0, exclusive=True)
    right = reduction_ops.cumprod(flat, axis=0, exclusive=True, reverse=True)
    others = array_ops.reshape(left * right, array_ops.shape(moved))
    others = rearrange.transpose(others, rearrange.invert_permutation(perm), False, None)
    return _spread(op, grad) * math_ops.conj(others), None


no_gradient("DynamicAll")
no_gradient("DynamicAny")


# --- argmax/argmin and cumsum along a run-time axis -------------------------------------


def _one_axis(op_type: str, axis: Any, ndim: int) -> int:
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"{op_type}: Expected dimension in the range [{-ndim}, {ndim}), but got {axis}"
        )
    return axis % ndim


def _arg_kernel(op_type: str):
    kernel = OP_DEFS[op_type].kernel

    def run(x, axis, output_type):
        axis = _one_axis(op_type, axis, x.ndim)
        if x.shape[axis] == 0:
            raise InvalidArgumentError(
                f"{op_type}: Reduction axis {axis} is empty in shape {list(x.shape)}"
            )
        return kernel(x, axis=axis, output_type=output_type)

    return run


def _arg_meta(metas, output_type):
    rank = metas[0].shape
    return [(unknown_dims(None if rank is None else len(rank) - 1), output_type.as_numpy_dtype)]


_ARG_REDUCTIONS = {
    t: define_op("Dynamic" + t, _arg_kernel(t), shape_fn=_arg_meta) for t in ("ArgMax", "ArgMin")
}
no_gradient("DynamicArgMax")
no_gradient("DynamicArgMin")


def arg_reduce(op_type: str, x: Tensor, axis: Any, output_type: Any, name: str | None) -> Tensor:
    """``argmax``/``argmin`` (``op_type``) of ``x`` along the run-time scalar ``axis``."""
    axis = int_tensor(op_type, axis, "axis", (0,))
    return execute(_ARG_REDUCTIONS[op_type], (x, axis), {"output_type": output_type}, name)


def _cumsum_kernel(x, axis, exclusive, reverse):
    axis = _one_axis("Cumsum", axis, x.ndim)
    return OP_DEFS["Cumsum"].kernel(x, axis=axis, exclusive=exclusive, reverse=reverse)


_DynamicCumsum = define_op(
    "DynamicCumsum", _cumsum_kernel, shape_fn=lambda metas, **_: [(metas[0].shape, metas[0].dtype)]
)


def cumsum(x: Tensor, axis: Any, exclusive: bool, reverse: bool, name: str | None) -> Tensor:
    """The cumulative sum of ``x`` along the run-time scalar ``axis``."""
    axis = int_tensor("Cumsum", axis, "axis", (0,))
    attrs = {"exclusive": exclusive, "reverse": reverse}
    return execute(_DynamicCumsum, (x, axis), attrs, name)


@op_gradient("DynamicCumsum")
def _dynamic_cumsum_grad(op, grad):
    attrs = {"exclusive": op.get_attr("exclusive"), "reverse": not op.get_attr("reverse")}
    return execute(_DynamicCumsum, (grad, op.inputs[1]), attrs), None
