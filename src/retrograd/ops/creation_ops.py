"""Tensors built from a few numbers: one_hot, range, linspace and meshgrid.

``range`` and ``one_hot`` have no gradient; ``linspace`` and ``meshgrid`` are built from
differentiable ops, so gradients reach ``start``/``stop`` and the grid vectors.

>>> import retrograd as rg
>>> rg.range(1, 10, 3).numpy().tolist(), rg.linspace(0.0, 1.0, 5).numpy().tolist()
([1, 4, 7], [0.0, 0.25, 0.5, 0.75, 1.0])
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, TensorLike
from retrograd.core.backends import current_namespace, namespace_of, to_host
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, math_ops, reduction_ops
from retrograd.ops.define import ANY, beside, tensor_arg, tensor_pair
from retrograd.ops.index_args import index_tensor, static_int

# --- one_hot -----------------------------------------------------------------------------


def _one_hot_kernel(indices, on_value, off_value, depth, axis):
    hot = indices[..., None] == namespace_of(indices).arange(depth)  # out of range: all off

    out = np.where(hot, on_value, off_value)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


_OneHot = define_op("OneHot", _one_hot_kernel)


def _fill_value(value: Any, dtype: Any, arg: str) -> Tensor:
    t = convert_to_tensor(value, dtype_hint=dtype)
    if t._value.ndim != 0:
        raise InvalidArgumentError(
            f"OneHot: {arg} must be a scalar, but got: {list(t._value.shape)}"
        )
    return t


def one_hot(
    indices: TensorLike,
    depth: TensorLike,
    on_value: TensorLike | None = None,
    off_value: TensorLike | None = None,
    axis: AxisLike | None = None,
    dtype: DTypeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """A new dimension of size ``depth`` (at ``axis``, last by default) holding ``on_value``
    at each index and ``off_value`` elsewhere; indices outside [0, depth) give all off.

    The dtype is ``dtype``, else that of ``on_value``/``off_value``, else float32.

    >>> import retrograd as rg
    >>> rg.one_hot([0, 2, 5], 3).numpy().tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    """
    from retrograd.ops import run_time_args, run_time_rearrange

    i = index_tensor("OneHot", indices, "indices", ("uint8", "int8", "int32", "int64"))
    run_time_depth = depth if run_time_args.is_run_time(depth) else None
    depth = 0 if run_time_depth is not None else static_int("OneHot", depth, "depth")
    if depth < 0:
        raise InvalidArgumentError(f"OneHot: depth must be non-negative, got: {depth}")
    target = None if dtype is None else as_dtype(dtype)
    given = {
        arg: _fill_value(v, target, arg)
        for arg, v in (("on_value", on_value), ("off_value", off_value))
        if v is not None
    }
    for arg, t in given.items():
        if target is not None and t.dtype != target:
            raise TypeError(
                f"OneHot: dtype {t.dtype.name} of {arg} does not match dtype parameter "
                f"{target.name}"
            )
    if len(given) == 2 and given["on_value"].dtype != given["off_value"].dtype:
        raise TypeError(
            f"OneHot: dtype {given['on_value'].dtype.name} of on_value does not match dtype "
            f"{given['off_value'].dtype.name} of off_value"
        )
    if target is None:
        target = next(iter(given.values())).dtype if given else dtypes.float32
    np_type = target.as_numpy_dtype
    on = given["on_value"] if "on_value" in given else Tensor(np.dtype(np_type).type(1))
    off = given["off_value"] if "off_value" in given else Tensor(np.dtype(np_type).type(0))
    rank = i._value.ndim
    axis = -1 if axis is None else static_int("OneHot", axis, "axis")
    if axis != -1 and not 0 <= axis <= rank:
        raise InvalidArgumentError(
            f"OneHot: Expected axis to be -1 or between [0, {rank + 1}).  But received: {axis}"
        )
    if run_time_depth is not None:  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_rearrange.one_hot(i, run_time_depth, on, off, axis, name)
    return execute(_OneHot, (i, on, off), {"depth": depth, "axis": axis}, name or "one_hot")


no_gradient("OneHot")

# --- range -------------------------------------------------------------------------------

# The dtypes range accepts, lowest first: without `dtype`, the arguments' highest wins.
_RANGE_DTYPES = ("int32", "int64", "float16", "float32", "float64")


def _range_kernel(start, limit, delta):
    start, limit, delta = (to_host(v)[()] for v in (start, limit, delta))  # (NumPy scalars)
    if delta == 0:
        raise InvalidArgumentError(f"Range: Requires delta != 0: {delta}")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(
            f"Range: Requires start <= limit when delta > 0: {start}/{limit}"
        )
    if delta < 0 and start < limit:
        raise InvalidArgumentError(
            f"Range: Requires start >= limit when delta < 0: {start}/{limit}"
        )
    if start.dtype.kind in "iu":
        span, step = builtins.abs(int(limit) - int(start)), builtins.abs(int(delta))
        size = (span + step - 1) // step
    else:
        size = int(np.ceil(np.abs((limit - start) / delta)))
    return start + current_namespace().arange(size, dtype=start.dtype) * delta


# Start, limit and delta are read on the host; the values are made on the current device.
_Range = define_op("Range", _range_kernel, host_inputs=(0, 1, 2))


def _range_arg(value: Any, target: Any) -> Tensor:
    # Tensors and variables keep their dtype (and are cast below); Python values are
    # converted straight to `dtype`, so 1.5 with an integer dtype is refused.
    if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor"):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype=target)


def range(  # noqa: A001 - TensorFlow's name
    start: TensorLike,
    limit: TensorLike | None = None,
    delta: TensorLike = 1,
    dtype: DTypeLike | None = None,
    name: str = "range",
) -> Tensor:
    """Numbers from ``start`` up to (not including) ``limit`` in steps of ``delta``; with one
    argument, from 0 to it. The dtype is ``dtype``, else the widest of the arguments'.

    >>> import retrograd as rg
    >>> rg.range(5).numpy().tolist(), rg.range(1, 2.5, 0.5).numpy().tolist()
    ([0, 1, 2, 3, 4], [1.0, 1.5, 2.0])
    """
    if limit is None:
        start, limit = 0, start
    target = None if dtype is None else as_dtype(dtype)
    if target is not None and target.name not in _RANGE_DTYPES:
        raise TypeError(f"Range: dtype must be one of {_RANGE_DTYPES}, got {target.name}")
    args = []
    for arg, value in (("start", start), ("limit", limit), ("delta", delta)):
        t = _range_arg(value, target)
        if t.dtype.name not in _RANGE_DTYPES:
            raise TypeError(f"Range: `{arg}` must be one of {_RANGE_DTYPES}, got {t.dtype.name}")
        if t._value.ndim != 0:
            raise InvalidArgumentError(
                f"Range: {arg} must be a scalar, not shape {list(t._value.shape)}"
            )
        args.append(t)
    if target is None:
        target = max((t.dtype for t in args), key=lambda d: _RANGE_DTYPES.index(d.name))
        # Python numbers become the widest dtype directly (a constant, not a Cast: a graph
        # knows its value while it is built).
        values = (start, limit, delta)
        args = [t if t.dtype == target or not _is_python(v) else _range_arg(v, target)
                for t, v in zip(args, values)]  # fmt: skip
    return execute(_Range, [math_ops.cast(t, target) for t in args], None, name)


def _is_python(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


no_gradient("Range")


def sequence_mask(
    lengths: TensorLike,
    maxlen: TensorLike | None = None,
    dtype: DTypeLike = dtypes.bool,
    name: str | None = None,
) -> Tensor:
    """A mask of the first ``lengths[i]`` positions of ``maxlen`` (``max(lengths)`` when not
    given): ``mask[..., j] = j < lengths[...]``, in ``dtype`` (bool by default).

    >>> import retrograd as rg
    >>> rg.sequence_mask([1, 3, 2], 4).numpy().tolist()
    [[True, False, False, False], [True, True, True, False], [True, True, False, False]]
    >>> rg.sequence_mask([2, 1], dtype=rg.float32).numpy().tolist()
    [[1.0, 1.0], [1.0, 0.0]]
    """
    lengths = tensor_arg("SequenceMask", lengths, "iu", "lengths")
    if maxlen is None:
        maxlen = reduction_ops.reduce_max(lengths)
    else:
        maxlen = tensor_arg("SequenceMask", maxlen, "iu", "maxlen")
        if maxlen._value.shape != ():
            raise ValueError(
                f"SequenceMask: `maxlen` must be a scalar, got shape {plain_dims(maxlen.shape)}"
            )
    positions = range(0, math_ops.cast(maxlen, lengths.dtype), 1)
    mask = comparison_ops.less(positions, array_ops.expand_dims(lengths, -1))
    return mask if as_dtype(dtype) == dtypes.bool else math_ops.cast(mask, dtype)


# --- linspace ----------------------------------------------------------------------------


def linspace(
    start: TensorLike, stop: TensorLike, num: TensorLike, name: str | None = None, axis: int = 0
) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, along a new ``axis``
    (``start`` and ``stop`` broadcast against each other). Integers give float64.

    >>> import retrograd as rg
    >>> rg.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1).numpy().tolist()
    [[0.0, 0.5, 1.0], [1.0, 2.0, 3.0]]
    """
    s, e = tensor_pair("LinSpace", start, stop, "iuf")
    if s._value.dtype.kind in "iu":
        s, e = math_ops.cast(s, "float64"), math_ops.cast(e, "float64")
    n = static_int("LinSpace", num, "num")
    if n < 0:
        raise InvalidArgumentError(f"LinSpace: num must be non-negative, got {n}")
    shape = broadcast_dims([s._value.shape, e._value.shape], "LinSpace")
    s, e = (t if plain_dims(t.shape) == shape else broadcast.broadcast_to(t, shape) for t in (s, e))
    rank = len(shape) + 1
    axis = int(axis)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"LinSpace: axis {axis} is out of range for rank {rank}")
    axis %= rank
    first, last = array_ops.expand_dims(s, axis), array_ops.expand_dims(e, axis)
    if n == 0:
        return array_ops.getitem(first, (*(slice(None),) * axis, slice(0, 0)))
    if n == 1:
        return first
    # As TensorFlow: the ends exactly, and start + i * delta between them.
    delta = (last - first) / (n - 1)
    steps_shape = tuple(n - 2 if d == axis else 1 for d in builtins.range(rank))
    host_steps = np.arange(1, n - 1).reshape(steps_shape).astype(s._value.dtype)
    steps = beside(host_steps, s)
    return array_ops.concat([first, first + delta * steps, last], axis)


# --- meshgrid ----------------------------------------------------------------------------


def meshgrid(*args: TensorLike, **kwargs: Any) -> list[Tensor]:
    """Coordinate grids from 1-D vectors (other shapes are flattened). ``indexing="xy"``
    (default, Cartesian) puts the first vector along columns; ``"ij"`` (matrix) along rows.

    >>> import retrograd as rg
    >>> [g.numpy().tolist() for g in rg.meshgrid([1, 2, 3], [4, 5])]
    [[[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]]]
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: '{next(iter(kwargs))}' is an invalid keyword argument")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: `indexing` must be either 'xy' or 'ij', got {indexing!r}")
    tensors = [tensor_arg("meshgrid", a, ANY, "args") for a in args]
    sizes = [math.prod(t._value.shape) for t in tensors]
    ndim = len(tensors)
    where = list(builtins.range(ndim))  # the output dimension each vector runs along
    if indexing == "xy" and ndim > 1:
        where[0], where[1] = 1, 0
    full = [0] * ndim
    for size, d in zip(sizes, where):
        full[d] = size
    grids = []
    for t, size, d in zip(tensors, sizes, where):
        line = tuple(size if k == d else 1 for k in builtins.range(ndim))
        grids.append(broadcast.broadcast_to(array_ops.reshape(t, line), full))
    return grids
