"""Joining and splitting: concat, stack, unstack, split (gradients: the inverse op).

>>> import retrograd as rg
>>> parts = rg.split(rg.concat([[1, 2], [3]], axis=0), [1, 2])
>>> [p.numpy().tolist() for p in parts]
[[1], [2, 3]]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, set_stack_op
from retrograd.ops import broadcast
from retrograd.ops.define import ANY, same_dtype_tensors, tensor_arg
from retrograd.ops.index_args import axis_in

__all__ = ["concat", "stack", "unstack", "split"]

# --- joining and splitting ----------------------------------------------------------------

_ConcatV2 = define_op("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis=axis))
_Pack = define_op("Pack", lambda *xs, axis: np.stack(xs, axis=axis))


def _unpack_kernel(x, num, axis):
    if x.shape[axis] != num:  # (a dimension known only when the graph ran)
        raise InvalidArgumentError(
            f"Unpack: input dimension {axis} has size {x.shape[axis]}, but num={num}"
        )
    return tuple(np.moveaxis(x, axis, 0))


_Unpack = define_op("Unpack", _unpack_kernel, multi_output=True)
_SplitV = define_op(
    "SplitV",
    lambda x, size_splits, axis: tuple(
        np.split(x, list(itertools.accumulate(size_splits))[:-1], axis)
    ),
    multi_output=True,
)


def concat(values: Sequence[TensorLike] | Tensor, axis: int, name: str = "concat") -> Tensor:
    """Joins tensors along an existing ``axis`` (a single tensor is one value, as TensorFlow).

    >>> import retrograd as rg
    >>> rg.concat([[[1, 2]], [[3, 4]]], axis=0).numpy().tolist()
    [[1, 2], [3, 4]]"""
    if isinstance(values, Tensor):
        values = [values]
    from retrograd.ops import run_time_args, run_time_rearrange

    tensors = same_dtype_tensors("ConcatV2", list(values))
    ndim = tensors[0]._value.ndim
    if ndim == 0:
        raise InvalidArgumentError("ConcatV2: can not concatenate scalars; use stack")
    if run_time_args.is_run_time(axis):  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_rearrange.concat(tensors, axis, name)
    return execute(_ConcatV2, tensors, {"axis": axis_in("ConcatV2", axis, ndim)}, name)


def _check_same_shapes(tensors: list[Tensor]) -> None:
    """Raises unless the shapes could all be equal (in graphs, unknown dimensions match any
    size): one pass, each shape against the merge of those before it (a pairwise test is
    quadratic in the number of values)."""
    first = tensors[0]._value.shape
    if all(t._value.shape == first for t in tensors):
        return
    merged = tensors[0].shape
    for t in tensors[1:]:
        if not merged.is_compatible_with(t.shape):
            shapes = (t.shape for t in tensors)
            distinct = sorted(
                {str(tuple(s.as_list() if s.rank is not None else [])) for s in shapes}
            )
            raise InvalidArgumentError(
                f"Pack: all values must have the same shape, got {', '.join(distinct)}"
            )
        merged = merged.merge_with(t.shape)


def stack(values: Sequence[TensorLike], axis: int = 0, name: str = "stack") -> Tensor:
    """Joins same-shape tensors along a new ``axis``.

    >>> import retrograd as rg
    >>> rg.stack([[1, 2], [3, 4]], axis=1).numpy().tolist()
    [[1, 3], [2, 4]]"""
    tensors = same_dtype_tensors("Pack", list(values))
    _check_same_shapes(tensors)
    axis = axis_in("Pack", axis, tensors[0]._value.ndim + 1)
    return execute(_Pack, tensors, {"axis": axis}, name)


set_stack_op(stack)


def unstack(
    value: TensorLike, num: int | None = None, axis: int = 0, name: str = "unstack"
) -> list[Tensor]:
    """Splits ``value`` along ``axis`` into a list of tensors of one rank less.

    >>> import retrograd as rg
    >>> [t.numpy().tolist() for t in rg.unstack([[1, 2], [3, 4]], axis=1)]
    [[1, 3], [2, 4]]"""
    x = tensor_arg("Unpack", value, ANY, "value")
    if x._value.ndim == 0:
        raise ValueError("Unpack: can not unstack a scalar tensor")
    axis = axis_in("Unpack", axis, x._value.ndim)
    size = x._value.shape[axis]
    if size is None and num is None:  # (as TensorFlow: the number of outputs must be known)
        raise ValueError(
            f"Unpack: cannot infer argument `num` from shape {x.shape}: dimension {axis} is "
            f"known only when the graph runs; pass num="
        )
    size = num if size is None else size
    if num is not None and num != size:
        raise ValueError(f"Unpack: num={num} does not match dimension {axis} of size {size}")
    if size == 0:
        return []
    return list(execute(_Unpack, (x,), {"num": size, "axis": axis}, name))


def split(
    value: TensorLike,
    num_or_size_splits: TensorLike,
    axis: int = 0,
    num: int | None = None,
    name: str = "split",
) -> list[Tensor]:
    """Splits ``value`` along ``axis`` into equal parts (an int) or parts of given sizes.

    >>> import retrograd as rg
    >>> [t.numpy().tolist() for t in rg.split([1, 2, 3, 4, 5], [2, 3])]
    [[1, 2], [3, 4, 5]]"""
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("SplitV", value, ANY, "value")
    axis = axis_in("SplitV", axis, x._value.ndim)
    size = x._value.shape[axis]
    if run_time_args.is_run_time(num_or_size_splits):  # (sizes read when the graph runs)
        return run_time_rearrange.split(x, num_or_size_splits, axis, name)
    if size is None:  # (a graph dimension known only when it runs)
        sizes = num_or_size_splits
        if not isinstance(sizes, (int, np.integer)):
            sizes = broadcast.static_shape(sizes, "SplitV")
        return run_time_rearrange.split(x, sizes, axis, name)
    if isinstance(num_or_size_splits, (int, np.integer)):
        parts = int(num_or_size_splits)
        if parts <= 0 or size % parts:
            raise InvalidArgumentError(
                f"SplitV: dimension {axis} of size {size} can not be split into {parts} equal parts"
            )
        sizes = [size // parts] * parts
    else:
        sizes = list(broadcast.static_shape(num_or_size_splits, "SplitV"))
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = size - (sum(sizes) + 1)
        if sum(sizes) != size or min(sizes) < 0:
            raise InvalidArgumentError(
                f"SplitV: sizes {sizes} do not add up to dimension {axis} of size {size}"
            )
    return list(execute(_SplitV, (x,), {"size_splits": tuple(sizes), "axis": axis}, name))


@op_gradient("ConcatV2")
def _concat_grad(op, grad):
    axis = op.get_attr("axis")
    sizes = [t._value.shape[axis] for t in op.inputs]
    if None in sizes:  # (sizes known only when the graph runs)
        from retrograd.ops import array_ops

        sizes = stack([array_ops.shape(t)[axis] for t in op.inputs])
    return split(grad, sizes, axis)


@op_gradient("Pack")
def _pack_grad(op, grad):
    return unstack(grad, axis=op.get_attr("axis"))


@op_gradient("Unpack")
def _unpack_grad(op, *grads):
    return stack(list(grads), axis=op.get_attr("axis"))


@op_gradient("SplitV")
def _split_grad(op, *grads):
    return concat(list(grads), op.get_attr("axis"))
