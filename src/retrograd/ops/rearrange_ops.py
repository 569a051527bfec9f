"""Rearranging values: tile (repeat the whole tensor along each axis), reverse and roll.

>>> import retrograd as rg
>>> x = rg.constant([[1, 2], [3, 4]])
>>> rg.tile(x, [1, 2]).numpy().tolist(), rg.roll(x, 1, axis=1).numpy().tolist()
([[1, 2, 1, 2], [3, 4, 3, 4]], [[2, 1], [4, 3]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import AxisLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, reduction_ops
from retrograd.ops.define import ANY, tensor_arg
from retrograd.ops.index_args import static_ints


def _tile_shape(metas: list, multiples: tuple) -> list:
    """The output's shape without running the kernel (a graph built with a large tile does
    not allocate it)."""
    shape = metas[0].shape
    if shape is None:
        return [(None, metas[0].dtype)]
    return [(tuple(None if d is None else d * m for d, m in zip(shape, multiples)), metas[0].dtype)]


_Tile = define_op("Tile", lambda x, multiples: np.tile(x, multiples), shape_fn=_tile_shape)
_ReverseV2 = define_op("ReverseV2", lambda x, axis: np.flip(x, axis))
_Roll = define_op("Roll", lambda x, shift, axis: np.roll(x, shift, axis))


def tile(input: TensorLike, multiples: TensorLike, name: str | None = None) -> Tensor:
    """``input`` repeated ``multiples[d]`` times along each dimension d.

    >>> import retrograd as rg
    >>> rg.tile([[1, 2]], [2, 2]).numpy().tolist()
    [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    from retrograd.ops import dynamic_shape_ops

    x = tensor_arg("Tile", input, ANY, "input")
    static, dynamic, known = dynamic_shape_ops.shape_input(multiples, "Tile", "multiples")
    if static is None:  # known only when the graph runs
        return dynamic_shape_ops.tile(x, dynamic, known, name)
    m = static_ints("Tile", static, "multiples")
    if len(m) != x._value.ndim:
        raise InvalidArgumentError(
            f"Tile: Expected multiples argument to be a vector of length {x._value.ndim} but "
            f"got length {len(m)}"
        )
    for d, times in enumerate(m):
        if times < 0:
            raise InvalidArgumentError(f"Tile: Expected multiples[{d}] >= 0, but got {times}")
    return execute(_Tile, (x,), {"multiples": m}, name)


@op_gradient("Tile")
def _tile_grad(op, grad):
    # The output along dimension d is multiples[d] copies of size shape[d]: split each
    # dimension into (copy, position) and sum over the copies.
    m = op.get_attr("multiples")
    shape = plain_dims(op.inputs[0].shape)
    if not shape:
        return grad
    split = array_ops.reshape(grad, tuple(v for pair in zip(m, shape) for v in pair))
    return reduction_ops.reduce_sum(split, axis=tuple(range(0, 2 * len(shape), 2)))


def _distinct_axes(op_type: str, axis: Any, ndim: int) -> tuple[int, ...]:
    if isinstance(axis, (int, np.integer)) or (isinstance(axis, Tensor) and axis.ndim == 0):
        raise InvalidArgumentError(
            f"{op_type}: axis must be a 1-D list of dimensions, got {axis!r}"
        )
    axes = []
    for i, a in enumerate(static_ints(op_type, axis, "axis")):
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"{op_type}: 'axis'[{i}] = {a} is out of valid range [{-ndim}, {ndim})"
            )
        if a % ndim in axes:
            raise InvalidArgumentError(f"{op_type}: axis {a % ndim} specified more than once")
        axes.append(a % ndim)
    return tuple(axes)


def reverse(tensor: TensorLike, axis: AxisLike, name: str | None = None) -> Tensor:
    """``tensor`` with the order of entries reversed along each dimension in ``axis`` (a list).

    >>> import retrograd as rg
    >>> rg.reverse([[1, 2], [3, 4]], [1]).numpy().tolist()
    [[2, 1], [4, 3]]
    """
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("ReverseV2", tensor, ANY, "tensor")
    if run_time_args.is_run_time(axis):  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_rearrange.reverse(x, axis, name)
    axes = _distinct_axes("ReverseV2", axis, x._value.ndim)
    return execute(_ReverseV2, (x,), {"axis": axes}, name)


@op_gradient("ReverseV2")
def _reverse_grad(op, grad):
    return execute(_ReverseV2, (grad,), {"axis": op.get_attr("axis")})


def roll(input: TensorLike, shift: TensorLike, axis: AxisLike, name: str | None = None) -> Tensor:
    """Shifts entries by ``shift`` positions along ``axis`` (ints or equal-length lists),
    wrapping around; shifts of a repeated axis add up.

    >>> import retrograd as rg
    >>> rg.roll([1, 2, 3, 4], shift=1, axis=0).numpy().tolist()
    [4, 1, 2, 3]
    """
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("Roll", input, ANY, "input")
    shape = x._value.shape
    if not shape:
        raise InvalidArgumentError("Roll: input must be 1-D or higher")
    if run_time_args.is_run_time(shift) or run_time_args.is_run_time(axis):
        return run_time_rearrange.roll(x, shift, axis, name)  # (read when the graph runs)
    shifts, axes = static_ints("Roll", shift, "shift"), static_ints("Roll", axis, "axis")
    if len(shifts) != len(axes):
        raise InvalidArgumentError(
            f"Roll: shift and axis must have the same size, got {len(shifts)} and {len(axes)}"
        )
    total: dict[int, int] = {}
    for s, a in zip(shifts, axes):
        if not -len(shape) <= a < len(shape):
            raise InvalidArgumentError(f"Roll: axis {a} is out of range for rank {len(shape)}")
        total[a % len(shape)] = total.get(a % len(shape), 0) + s
    attrs = {"shift": tuple(total.values()), "axis": tuple(total)}
    return execute(_Roll, (x,), attrs, name)


@op_gradient("Roll")
def _roll_grad(op, grad):
    attrs = {"shift": tuple(-s for s in op.get_attr("shift")), "axis": op.get_attr("axis")}
    return execute(_Roll, (grad,), attrs)
