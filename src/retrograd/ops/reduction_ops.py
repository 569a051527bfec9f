"""Reductions (sum, mean, max, min, prod, any, all), argmax/argmin, and cumulative sums
and products.

A reduction's gradient broadcasts the upstream gradient back over the reduced axes.

>>> import retrograd as rg
>>> x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
>>> rg.reduce_sum(x, axis=1).numpy().tolist(), rg.reduce_max(x, keepdims=True).shape
([3.0, 7.0], TensorShape([1, 1]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, TensorLike
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, math_ops
from retrograd.ops.define import BOOL, NUMERIC, REAL, tensor_arg
from retrograd.ops.index_args import static_int


def normalize_axes(op_type: str, axis: Any, ndim: int) -> tuple[int, ...] | None:
    """``axis`` (None, int, list or int tensor) as sorted non-negative axes; None means all."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        from retrograd.ops.index_args import build_time_value

        if not axis.dtype.is_integer:
            raise InvalidArgumentError(
                f"{op_type}: `axis` must be an int32 or int64 tensor, got {axis.dtype.name}"
            )
        axis = np.asarray(build_time_value(op_type, axis, "axis")).tolist()
    if isinstance(axis, (int, np.integer)) or not isinstance(axis, (list, tuple, range)):
        axis = [axis]
    axes = []
    for a in axis:
        if isinstance(a, (str, bytes)):  # (TensorFlow: a string tensor, refused by the op)
            raise InvalidArgumentError(f"{op_type}: `axis` must be int32 or int64, got {a!r}")
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{op_type}: `axis` must be an int or a list of ints, got {a!r}")
        a = int(a)
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"{op_type}: Invalid reduction dimension {a} for input with {ndim} dimensions"
            )
        axes.append(a % ndim)
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{op_type}: axis {list(axis)} repeats a dimension")
    return tuple(sorted(axes))


def _reduced(shape: tuple, axes: tuple[int, ...] | None) -> tuple[int, ...]:
    return tuple(range(len(shape))) if axes is None else axes


def _count(shape: tuple, axes: tuple[int, ...] | None) -> int:
    return int(np.prod([shape[a] for a in _reduced(shape, axes)], dtype=np.int64))


def _int_mean(x, axis, keepdims):
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    n = _count(x.shape, axis) or 1
    return np.where(total < 0, -(-total // n), total // n).astype(x.dtype)  # truncates toward 0


def _mean_kernel(x, axis, keepdims):
    if x.dtype.kind in "iu":
        return _int_mean(x, axis, keepdims)
    if _count(x.shape, axis) == 0:  # 0 / 0: NaN, without NumPy's "mean of empty slice" warning
        return np.sum(x, axis=axis, keepdims=keepdims) / x.dtype.type(0)
    return np.mean(x, axis=axis, keepdims=keepdims).astype(x.dtype, copy=False)


def _extremum_kernel(np_reduce, empty_value):
    def kernel(x, axis, keepdims):
        if x.size == 0:  # TensorFlow gives the identity (-inf for max) rather than failing
            info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
            initial = -np.inf if empty_value == "min" else np.inf
            if x.dtype.kind != "f":
                initial = info.min if empty_value == "min" else info.max
            return np_reduce(x, axis=axis, keepdims=keepdims, initial=initial)
        return np_reduce(x, axis=axis, keepdims=keepdims)

    return kernel


def _sum_kernel(x, axis, keepdims):
    if isinstance(x, (np.ndarray, np.generic)):  # (the ufunc method: fewer steps than np.sum)
        return np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    return np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)  # (CuPy has no add.reduce)


_Sum = define_op("Sum", _sum_kernel)
_Mean = define_op("Mean", _mean_kernel, quiet=True)
_Max = define_op("Max", _extremum_kernel(np.max, "min"))
_Min = define_op("Min", _extremum_kernel(np.min, "max"))
_Prod = define_op(
    "Prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
)


def _reduce(op, kinds, input_tensor, axis, keepdims, name):
    from retrograd.ops import run_time_args

    x = tensor_arg(op.type, input_tensor, kinds, "input_tensor")
    if run_time_args.is_run_time(axis) or (axis is None and x._value.shape is None):
        return run_time_args.reduce(op.type, x, axis, keepdims, name)  # (read when it runs)
    axes = normalize_axes(op.type, axis, x._value.ndim)
    return execute(op, (x,), {"axis": axes, "keepdims": bool(keepdims)}, name)


def reduce_sum(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Sum over ``axis`` (all axes when None).

    >>> import retrograd as rg
    >>> x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> rg.reduce_sum(x).numpy().tolist(), rg.reduce_sum(x, axis=0).numpy().tolist()
    (10.0, [4.0, 6.0])
    """
    return _reduce(_Sum, NUMERIC, input_tensor, axis, keepdims, name)


def reduce_mean(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Mean over ``axis``; integer means truncate toward zero, as in TensorFlow.

    >>> import retrograd as rg
    >>> x = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> rg.reduce_mean(x).numpy().tolist(), rg.reduce_mean(x, 1, keepdims=True).numpy().tolist()
    (2.5, [[1.5], [3.5]])
    """
    return _reduce(_Mean, NUMERIC, input_tensor, axis, keepdims, name)


def reduce_max(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Maximum over ``axis``; ties share the gradient equally.

    >>> import retrograd as rg
    >>> rg.reduce_max([[1, 5], [7, 2]], axis=1).numpy().tolist()
    [5, 7]
    """
    return _reduce(_Max, REAL, input_tensor, axis, keepdims, name)


def reduce_min(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Minimum over ``axis``; ties share the gradient equally.

    >>> import retrograd as rg
    >>> rg.reduce_min([[1, 5], [7, 2]], axis=1).numpy().tolist()
    [1, 2]
    """
    return _reduce(_Min, REAL, input_tensor, axis, keepdims, name)


def reduce_prod(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Product over ``axis``.

    >>> import retrograd as rg
    >>> rg.reduce_prod([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy().tolist()
    [3.0, 8.0]
    """
    return _reduce(_Prod, NUMERIC, input_tensor, axis, keepdims, name)


def _kept_shape(reduced_shape: tuple, reduced: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """The shape of a reduction's output with its ``reduced`` axes kept as size 1."""
    kept = iter(reduced_shape)
    return tuple(1 if i in reduced else next(kept) for i in range(ndim))


def _keep_dims(t: Tensor, op) -> Tensor:
    """An output or upstream gradient of reduction ``op`` with its reduced axes back, as 1."""
    if op.get_attr("keepdims") or t._value.shape == ():
        return t  # (a scalar broadcasts to any shape as it is)
    ndim = op.inputs[0]._value.ndim
    reduced = _reduced(tuple(range(ndim)), op.get_attr("axis"))
    if t._value.shape is not None and None not in t._value.shape:
        return array_ops.reshape(t, _kept_shape(t._value.shape, reduced, ndim))
    for axis in reduced:  # unknown dimensions: insert the axes one by one
        t = array_ops.expand_dims(t, axis)
    return t


def _spread(grad: Tensor, op) -> Tensor:
    """The upstream gradient of a reduction broadcast back over the input's shape."""
    return broadcast.broadcast_like(_keep_dims(grad, op), op.inputs[0])


@op_gradient("Sum")
def _sum_grad(op, grad):
    return _spread(grad, op)


@op_gradient("Mean")
def _mean_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    if x._value.size is not None:
        count = _count(tuple(x._value.shape), op.get_attr("axis"))
        return _spread(grad, op) / max(count, 1)
    # Sizes known only when the graph runs: the count is size(x) / size(y).
    count = math_ops.cast(array_ops.size(x), grad.dtype) / math_ops.cast(
        array_ops.size(y), grad.dtype
    )
    return _spread(grad, op) / math_ops.maximum(count, 1)


def _extremum_grad(op, grad):
    x = op.inputs[0]
    y = _keep_dims(op.outputs[0], op)
    chosen = math_ops.cast(comparison_ops.equal(x, y), grad.dtype)
    count = reduce_sum(chosen, op.get_attr("axis"), keepdims=True)
    return chosen / count * _keep_dims(grad, op)


op_gradient("Max")(_extremum_grad)
op_gradient("Min")(_extremum_grad)


@op_gradient("Prod")
def _prod_grad(op, grad):
    # d prod / d x_i = product of all the other elements: exclusive cumulative products from
    # the left and from the right, over the reduced axes moved to the front and flattened.
    x = op.inputs[0]
    shape = plain_dims(x.shape)
    reduced = _reduced(shape, op.get_attr("axis"))
    kept = tuple(i for i in range(len(shape)) if i not in reduced)
    perm = reduced + kept
    moved = array_ops.transpose(x, perm)
    flat = array_ops.reshape(moved, (_count(shape, reduced), -1))
    left = cumprod(flat, axis=0, exclusive=True)
    right = cumprod(flat, axis=0, exclusive=True, reverse=True)
    others = array_ops.reshape(left * right, plain_dims(moved.shape))
    others = array_ops.transpose(others, tuple(np.argsort(perm)))
    return _spread(grad, op) * math_ops.conj(others)


# --- cumulative sums and products ------------------------------------------------------


def _cumulative(np_cum, identity):
    def kernel(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = np_cum(x, axis=axis, dtype=x.dtype)
        if exclusive:  # shift by one along axis, starting from the identity
            head = np.full_like(np.take(out, [0], axis=axis), identity)
            out = np.concatenate([head, np.delete(out, -1, axis=axis)], axis=axis)
        return np.flip(out, axis) if reverse else out

    return kernel


_Cumsum = define_op("Cumsum", _cumulative(np.cumsum, 0))
_Cumprod = define_op("Cumprod", _cumulative(np.cumprod, 1))


def _cumulate(op, x, axis, exclusive, reverse, name):
    from retrograd.ops import run_time_args

    x = tensor_arg(op.type, x, NUMERIC)
    if x._value.ndim == 0:
        raise InvalidArgumentError(f"{op.type}: input must have rank >= 1, got a scalar")
    if op.type == "Cumsum" and run_time_args.is_run_time(axis):  # (read when the graph runs)
        return run_time_args.cumsum(x, axis, bool(exclusive), bool(reverse), name)
    (axis,) = normalize_axes(op.type, axis, x._value.ndim)
    attrs = {"axis": axis, "exclusive": bool(exclusive), "reverse": bool(reverse)}
    return execute(op, (x,), attrs, name)


def cumsum(
    x: TensorLike,
    axis: int = 0,
    exclusive: bool = False,
    reverse: bool = False,
    name: str | None = None,
) -> Tensor:
    """Cumulative sum along ``axis``; ``exclusive`` starts from 0, ``reverse`` from the end.

    >>> import retrograd as rg
    >>> rg.cumsum([1, 2, 3], exclusive=True).numpy().tolist()
    [0, 1, 3]
    """
    return _cumulate(_Cumsum, x, axis, exclusive, reverse, name)


def cumprod(
    x: TensorLike,
    axis: int = 0,
    exclusive: bool = False,
    reverse: bool = False,
    name: str | None = None,
) -> Tensor:
    """Cumulative product along ``axis``; ``exclusive`` starts from 1.

    >>> import retrograd as rg
    >>> rg.math.cumprod([1.0, 2.0, 3.0]).numpy().tolist()
    [1.0, 2.0, 6.0]
    >>> rg.math.cumprod([1.0, 2.0, 3.0], exclusive=True, reverse=True).numpy().tolist()
    [6.0, 3.0, 1.0]
    """
    return _cumulate(_Cumprod, x, axis, exclusive, reverse, name)


def _cum_attrs(op):
    return op.get_attr("axis"), op.get_attr("exclusive"), op.get_attr("reverse")


@op_gradient("Cumsum")
def _cumsum_grad(op, grad):
    axis, exclusive, reverse = _cum_attrs(op)
    return cumsum(grad, axis, exclusive=exclusive, reverse=not reverse)


@op_gradient("Cumprod")
def _cumprod_grad(op, grad):
    axis, exclusive, reverse = _cum_attrs(op)
    x, prod = math_ops.conj(op.inputs[0]), math_ops.conj(op.outputs[0])
    return _cumprod_vjp(x, prod, grad, (axis, exclusive, reverse), 0)


# Rows with more zeros than this get the exact gradient but not its exact derivative there.
_CUMPROD_ZERO_DEPTH = 16


def _cumprod_vjp(x, prod, grad, attrs, depth):
    """d/dx_i of sum(grad * cumprod(x)): grad_k times y_k without x_i, summed over k.

    Before the first zero (in the direction of accumulation) that is y_k / x_i; at the first
    zero, the products with that zero replaced by 1; after it, x_z (0) times the same
    gradient with x_z replaced by 1, which is 0 with the right derivative in x_z, so the
    rule's own gradient is right too. (TensorFlow divides everywhere: NaN or 0 at zeros.)
    """
    axis, exclusive, reverse = attrs

    def back(v):
        return cumsum(v, axis, exclusive=exclusive, reverse=not reverse)

    is_zero = comparison_ops.equal(x, array_ops.zeros_like(x))
    eager = isinstance(is_zero._value, np.ndarray)
    if eager and not is_zero._value.any():
        return back(prod * grad) / x
    zeros_so_far = cumsum(math_ops.cast(is_zero, dtypes.int32), axis, reverse=reverse)
    before = comparison_ops.equal(zeros_so_far, 0)
    first_zero = comparison_ops.logical_and(is_zero, comparison_ops.equal(zeros_so_far, 1))
    ones, zeros = array_ops.ones_like(x), array_ops.zeros_like(x)
    summed = back(prod * grad) / array_ops.where(before, x, ones)
    patched = array_ops.where(first_zero, ones, x)
    patched_prod = cumprod(patched, axis, exclusive, reverse)
    at_zero = back(patched_prod * grad)
    if (eager or depth == 0) and depth < _CUMPROD_ZERO_DEPTH:
        x_z = reduce_sum(array_ops.where(first_zero, x, zeros), axis, keepdims=True)
        later = x_z * _cumprod_vjp(patched, patched_prod, grad, attrs, depth + 1)
    else:
        later = zeros
    return array_ops.where(before, summed, array_ops.where(first_zero, at_zero, later))


# --- logical reductions ----------------------------------------------------------------

_Any = define_op("Any", lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims))
_All = define_op("All", lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims))


def reduce_any(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Logical OR of a bool tensor over ``axis`` (False over no elements).

    >>> import retrograd as rg
    >>> rg.reduce_any([[True, False], [False, False]], axis=1).numpy().tolist()
    [True, False]
    """
    return _reduce(_Any, BOOL, input_tensor, axis, keepdims, name)


def reduce_all(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """Logical AND of a bool tensor over ``axis`` (True over no elements).

    >>> import retrograd as rg
    >>> rg.reduce_all([[True, False], [True, True]], axis=1).numpy().tolist()
    [False, True]
    """
    return _reduce(_All, BOOL, input_tensor, axis, keepdims, name)


# --- argmax and argmin -------------------------------------------------------------------

ARG_OUTPUT_TYPES = ("int16", "int32", "int64")


def _arg_extremum(np_arg, nan_as):
    def kernel(x, axis, output_type):
        if x.dtype.kind == "f":  # NaN never wins, as in TensorFlow
            x = np.where(np.isnan(x), nan_as, x)
        return np_arg(x, axis=axis).astype(output_type.as_numpy_dtype)

    return kernel


_ArgMax = define_op("ArgMax", _arg_extremum(np.argmax, -np.inf))
_ArgMin = define_op("ArgMin", _arg_extremum(np.argmin, np.inf))


def _arg_reduce(op, input, axis, output_type, name):
    from retrograd.ops import run_time_args

    x = tensor_arg(op.type, input, "b" + REAL, "input")
    if isinstance(axis, (list, tuple)):
        raise TypeError(f"{op.type}: axis must be an int or a scalar integer tensor, got {axis!r}")
    out = as_dtype(output_type)
    if out.name not in ARG_OUTPUT_TYPES:
        raise TypeError(f"{op.type}: output_type must be one of {ARG_OUTPUT_TYPES}, got {out.name}")
    if run_time_args.is_run_time(axis):  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_args.arg_reduce(op.type, x, axis, out, name)
    axis = 0 if axis is None else static_int(op.type, axis, "axis")
    shape = tuple(x._value.shape)
    if not -len(shape) <= axis < len(shape):
        raise InvalidArgumentError(
            f"{op.type}: Expected dimension in the range [{-len(shape)}, {len(shape)}), but "
            f"got {axis}"
        )
    axis %= len(shape)
    if shape[axis] == 0:
        raise InvalidArgumentError(
            f"{op.type}: Reduction axis {axis} is empty in shape {list(shape)}"
        )
    return execute(op, (x,), {"axis": axis, "output_type": out}, name)


def argmax(
    input: TensorLike,
    axis: AxisLike | None = None,
    output_type: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """The index of the largest entry along ``axis`` (0 when None); the first one on ties.

    >>> import retrograd as rg
    >>> rg.argmax([[1, 3], [4, 2]]).numpy().tolist(), int(rg.argmax([1, 3, 3]))
    ([1, 0], 1)
    """
    return _arg_reduce(_ArgMax, input, axis, output_type, name)


def argmin(
    input: TensorLike,
    axis: AxisLike | None = None,
    output_type: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """The index of the smallest entry along ``axis`` (0 when None); the first one on ties.

    >>> import retrograd as rg
    >>> rg.argmin([[3, 1, 2], [0, 5, 4]], axis=1).numpy().tolist()
    [1, 0]
    """
    return _arg_reduce(_ArgMin, input, axis, output_type, name)


for _op_type in ("Any", "All", "ArgMax", "ArgMin"):
    no_gradient(_op_type)
