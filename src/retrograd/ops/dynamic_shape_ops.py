"""Shapes known only when a graph runs: ``reshape(x, tf.shape(y))``, ``zeros([tf.shape(x)[0],
3])``, ``tile(x, multiples_tensor)``, ``slice(x, begin, size)``.

A shape argument is read by :func:`shape_input`: when every dimension is known while the
graph is built (Python ints, eager or constant tensors, ``tf.shape`` of a fully known
shape) the op takes it as an attribute, as before; otherwise it becomes an int32 tensor
input of a ``Dynamic*`` op, and the output's static shape keeps what is known (``None``
elsewhere). Eagerly every shape is known, so these ops only appear in graphs.

>>> import numpy as np, retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 3])
...     z = rg.zeros([rg.shape(x)[0], 2])
...     flat = rg.reshape(x, [-1])
>>> z.shape.as_list(), flat.shape.as_list()
([None, 2], [None])
>>> with rg.compat.v1.Session(graph=g) as sess:
...     print(sess.run([z, flat], {x: np.ones((2, 3))})[0].shape)
(2, 2)
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import is_array, to_host
from retrograd.core.dimensions import dimension_value
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, math_ops, reduction_ops
from retrograd.ops.define import ANY, tensor_arg
from retrograd.ops.index_args import host_dims

__all__ = [
    "known_value",
    "shape_input",
    "reshape",
    "fill",
    "tile",
    "slice",
    "is_run_time_int",
    "is_run_time_item",
    "index_at_run_time",
]


# Folding what is known while building follows at most this many ops back, on values of at
# most this many elements (shape arithmetic, not data).
_FOLD_DEPTH = 8
_FOLD_ELEMENTS = 64


def known_value(t: Tensor, depth: int = _FOLD_DEPTH) -> np.ndarray | None:
    """The value of ``t`` if known while the graph is built (eager or constant tensors,
    ``shape`` of a fully known shape, and small computations on known values such as
    ``tf.rank(x) - 1`` or ``tf.shape(x)[1] * 2``), else None."""
    value = t._value
    eager = type(t) is Tensor and is_array(value)  # (on any device: copied from it)
    if eager or isinstance(value, np.ndarray) or np.isscalar(value):
        return np.asarray(to_host(value))
    op = getattr(t, "op", None)
    if op is None:
        return None
    if op.type == "Const":
        return np.asarray(to_host(op.get_attr("value")))  # (a graph constant may be on a device)
    if op.type == "Shape":
        dims = op.inputs[0]._value.shape
        if dims is None or None in dims:
            return None
        return np.array(dims, dtype=t.dtype.as_numpy_dtype)
    if depth == 0 or op.op_def.stateful or op.op_def.multi_output or not op.inputs:
        return None
    inputs = []
    for i in op.inputs:
        known = known_value(i, depth - 1) if isinstance(i, Tensor) else None
        if known is None or known.size > _FOLD_ELEMENTS:
            return None
        inputs.append(known)
    try:
        return np.asarray(op.op_def.kernel(*inputs, **op._attrs))
    except (ValueError, IndexError, TypeError, ArithmeticError):
        return None


def shape_input(shape: Any, op_type: str, arg: str = "shape") -> tuple:
    """``(static, tensor, known)``: a tuple of ints when the whole shape is known while
    building (``tensor`` None), else the shape as an int32 vector tensor (``static`` None);
    ``known`` holds each dimension's value where known, else None."""
    shape = dimension_value(shape)
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(
                f"{op_type}: argument `{arg}` is {shape}, which is not fully defined; pass "
                f"tf.shape(x) (a tensor) for a shape known only when the graph runs"
            )
        dims = tuple(shape.as_list())
        return dims, None, dims
    if isinstance(shape, Tensor):
        if not shape.dtype.is_integer:  # (TensorFlow: the op refuses the tensor)
            raise InvalidArgumentError(
                f"{op_type}: `{arg}` must be an int32 or int64 tensor, got {shape.dtype.name}"
            )
        value = known_value(shape)
        if value is not None:
            dims = tuple(int(d) for d in np.atleast_1d(value))
            return dims, None, dims
        length = None if shape._value.shape is None else shape._value.shape
        if length is None or len(length) != 1 or length[0] is None:
            raise ValueError(
                f"{op_type}: argument `{arg}` must be a vector of known length, got shape "
                f"{shape.shape} (the output's rank must be known while the graph is built)"
            )
        known = _known_elements(shape, length[0])
        return None, math_ops.cast(shape, "int32"), known
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    elements, known = [], []
    for d in shape:
        d = dimension_value(d)  # (TensorFlow 1's Dimension objects: their int)
        if isinstance(d, Tensor):
            value = known_value(d)
            if value is None:
                if d._value.shape not in ((), None) or d._value.dtype.kind not in "iu":
                    raise TypeError(
                        f"{op_type}: each element of `{arg}` must be an int or an int scalar "
                        f"tensor, got {d!r}"
                    )
                elements.append(d)
                known.append(None)
                continue
            d = value.reshape(())
        if d is None:
            d = -1
        if isinstance(d, np.ndarray) and d.dtype.kind in "iu":
            d = int(d)
        if not isinstance(d, (int, np.integer)) or isinstance(d, (bool, np.bool_)):
            raise TypeError(f"{op_type}: `{arg}` must be a list of ints, got {shape!r}")
        elements.append(int(d))
        known.append(int(d))
    if all(k is not None for k in known):
        return tuple(known), None, tuple(known)
    stacked = array_ops.stack(
        [math_ops.cast(e, "int32") if isinstance(e, Tensor) else convert_to_tensor(e, "int32")
         for e in elements]
    )  # fmt: skip
    return None, stacked, tuple(known)


def _known_elements(shape: Tensor, length: int) -> tuple:
    """What is known of each element of an int vector: ``tf.shape(x)`` knows x's static
    dimensions (and so does a slice of it, ``tf.shape(x)[:2]``), a stack knows its constant
    elements."""
    op = getattr(shape, "op", None)
    if op is not None and op.type == "Shape" and op.inputs[0]._value.shape is not None:
        return tuple(op.inputs[0]._value.shape)
    if op is not None and op.type == "StridedSlice":
        index, source = op.get_attr("index"), op.inputs[0]
        if len(index) == 1 and isinstance(index[0], builtins.slice):
            length_of_source = (source._value.shape or (None,))[0] or 0
            known = _known_elements(source, length_of_source)[index[0]]
            if len(known) == length:
                return known
    if op is not None and op.type == "Pack":
        return tuple(_scalar_or_none(i) for i in op.inputs)
    return (None,) * length


def _scalar_or_none(t: Any) -> int | None:
    value = known_value(t) if isinstance(t, Tensor) else None
    if value is None and isinstance(t, Tensor):
        return _element_of_shape(t)
    return None if value is None else int(value.reshape(()))


def _element_of_shape(t: Tensor) -> int | None:
    """``tf.shape(x)[i]`` for a dimension of x known statically."""
    op = getattr(t, "op", None)
    if op is None or op.type != "StridedSlice":
        return None
    source = op.inputs[0]
    index = op.get_attr("index") if "index" in op._attrs else None
    producer = getattr(source, "op", None)
    if producer is None or producer.type != "Shape" or not isinstance(index, tuple):
        return None
    dims = producer.inputs[0]._value.shape
    if dims is None or len(index) != 1 or not isinstance(index[0], (int, np.integer)):
        return None
    return dims[int(index[0])]


def _static_dims(known: tuple) -> tuple:
    return tuple(None if k is None or k < 0 else k for k in known)


# -- reshape ---------------------------------------------------------------------------------


def _reshape_shape(metas, known):
    return [(_static_dims(known), metas[0].dtype)]


_DynamicReshape = define_op(
    "DynamicReshape",
    lambda x, shape, known: np.reshape(x, host_dims(shape)),
    shape_fn=_reshape_shape,
    host_inputs=(1,),
)


def reshape(x: Tensor, shape: Tensor, known: tuple, name: str | None = None) -> Tensor:
    """``x`` reshaped to the run-time ``shape`` (an int32 vector)."""
    if sum(k == -1 for k in known if k is not None) > 1:
        raise InvalidArgumentError(f"Reshape: shape {list(known)} has more than one -1")
    return execute(_DynamicReshape, (x, shape), {"known": known}, name)


@op_gradient("DynamicReshape")
def _dynamic_reshape_grad(op, grad):
    return array_ops.reshape_like(grad, op.inputs[0]), None


# -- fill ------------------------------------------------------------------------------------


_DynamicFill = define_op(
    "DynamicFill",
    lambda dims, value, known: array_ops.fill_array(value, host_dims(dims)),
    shape_fn=lambda metas, known: [(_static_dims(known), metas[1].dtype)],
    host_inputs=(0,),
)


def fill(dims: Tensor, value: Tensor, known: tuple, name: str | None = None) -> Tensor:
    """A tensor of the run-time shape ``dims`` filled with the scalar ``value``."""
    return execute(_DynamicFill, (dims, value), {"known": known}, name)


@op_gradient("DynamicFill")
def _dynamic_fill_grad(op, grad):
    return None, reduction_ops.reduce_sum(grad)


# -- tile ------------------------------------------------------------------------------------


def _tile_shape(metas, known):
    dims = metas[0].shape
    out = [None if d is None or k is None else d * k for d, k in zip(dims, known)]
    return [(tuple(out), metas[0].dtype)]


_DynamicTile = define_op(
    "DynamicTile",
    lambda x, multiples, known: np.tile(x, host_dims(multiples)),
    shape_fn=_tile_shape,
    host_inputs=(1,),
)


def tile(x: Tensor, multiples: Tensor, known: tuple, name: str | None = None) -> Tensor:
    """``x`` repeated a run-time number of times along each dimension."""
    if len(known) != x._value.ndim:
        raise InvalidArgumentError(
            f"Tile: Expected multiples argument to be a vector of length {x._value.ndim} but "
            f"got length {len(known)}"
        )
    return execute(_DynamicTile, (x, multiples), {"known": known}, name)


@op_gradient("DynamicTile")
def _dynamic_tile_grad(op, grad):
    x, multiples = op.inputs
    rank = len(op.get_attr("known"))
    if rank == 0:
        return grad, None
    split = array_ops.stack([multiples, array_ops.shape(x)], axis=1)  # (copies, size) pairs
    known = tuple(None for _ in range(2 * rank))
    pairs = reshape(grad, array_ops.reshape(split, [-1]), known)
    return reduction_ops.reduce_sum(pairs, axis=tuple(range(0, 2 * rank, 2))), None


# -- slice -----------------------------------------------------------------------------------


def _slice_kernel(x, begin, size):
    begin, size = to_host(begin), to_host(size)
    index = tuple(
        np.s_[int(b) : (None if s == -1 else int(b) + int(s))] for b, s in zip(begin, size)
    )
    out = x[index]
    if any(s != -1 and out.shape[i] != s for i, s in enumerate(size)) or any(b < 0 for b in begin):
        raise InvalidArgumentError(
            f"Slice: begin {list(begin)} and size {list(size)} do not fit in shape {list(x.shape)}"
        )
    return out


def _slice_shape(metas, known_begin, known_size):
    dims = metas[0].shape
    out = []
    for d, b, s in zip(dims, known_begin, known_size):
        if s is not None and s != -1:
            out.append(s)
        elif s == -1 and b is not None and d is not None:
            out.append(d - b)
        else:
            out.append(None)
    return [(tuple(out), metas[0].dtype)]


_Slice = define_op(
    "Slice",
    lambda x, begin, size, known_begin, known_size: _slice_kernel(x, begin, size),
    shape_fn=_slice_shape,
    host_inputs=(1, 2),
)


def _slice_grad_kernel(grad, like, begin):
    begin = to_host(begin)
    out = np.zeros_like(like, dtype=grad.dtype)
    out[tuple(np.s_[int(b) : int(b) + n] for b, n in zip(begin, grad.shape))] = grad
    return out


_SliceGrad = define_op(
    "SliceGrad",
    _slice_grad_kernel,
    shape_fn=lambda metas: [(metas[1].shape, metas[0].dtype)],
    host_inputs=(2,),
)


def slice(
    input_: TensorLike, begin: TensorLike, size: TensorLike, name: str | None = None
) -> Tensor:  # noqa: A001
    """The block of ``input_`` starting at ``begin`` with ``size`` elements per dimension
    (-1: to the end); ``begin`` and ``size`` may be tensors known only when the graph runs.

    >>> import retrograd as rg
    >>> rg.slice(rg.constant([[1, 2, 3], [4, 5, 6]]), [0, 1], [2, -1]).numpy().tolist()
    [[2, 3], [5, 6]]
    """
    x = tensor_arg("Slice", input_, ANY, "input_")
    rank = x._value.ndim
    inputs, known = [], []
    for arg, value in (("begin", begin), ("size", size)):
        static, tensor, k = shape_input(value, "Slice", arg)
        if len(k) != rank:
            raise InvalidArgumentError(
                f"Slice: expected `{arg}` to have {rank} entries (one per dimension), got {len(k)}"
            )
        inputs.append(convert_to_tensor(np.array(static, np.int32)) if tensor is None else tensor)
        known.append(k)
    _check_slice_bounds(x._value.shape, *known)
    attrs = {"known_begin": known[0], "known_size": known[1]}
    return execute(_Slice, (x, *inputs), attrs, name)


def _check_slice_bounds(shape: tuple | None, begin: tuple, size: tuple) -> None:
    """TensorFlow's checks of a slice, wherever the dimension, begin and size are known while
    building (the kernel checks the rest when it runs)."""
    for i, (b, n, dim) in enumerate(zip(begin, size, shape or (None,) * len(begin))):
        if b is None or dim is None:
            continue
        if not 0 <= b <= dim:
            raise InvalidArgumentError(f"Slice: Expected begin[{i}] in [0, {dim}], but got {b}")
        if n is not None and n != -1 and not 0 <= n <= dim - b:
            raise InvalidArgumentError(f"Slice: Expected size[{i}] in [0, {dim - b}], but got {n}")


@op_gradient("Slice")
def _slice_grad(op, grad):
    x, begin, _ = op.inputs
    return execute(_SliceGrad, (grad, x, begin), None, None), None, None


@op_gradient("SliceGrad")
def _slice_grad_grad(op, grad):
    upstream, _, begin = op.inputs
    known = (None,) * op.inputs[1]._value.ndim
    return (
        execute(
            _Slice,
            (grad, begin, array_ops.shape(upstream)),
            {"known_begin": known, "known_size": known},
            None,
        ),
        None,
        None,
    )


# -- x[i] with i known only when the graph runs ------------------------------------------------


def is_run_time_int(item: Any) -> bool:
    """Whether an index item is a tensor whose value is known only when the graph runs."""
    return isinstance(item, Tensor) and known_value(item) is None


def is_run_time_item(item: Any) -> bool:
    """Whether an index item is, or is a slice with a bound that is, a run-time int."""
    if isinstance(item, builtins.slice):
        return any(is_run_time_int(p) for p in (item.start, item.stop, item.step))
    return is_run_time_int(item)


def _position(bound: Any, size: Tensor, default: Any) -> Tensor:
    """A slice bound as Python reads it: None is ``default``, negative counts from the end,
    and it is clamped to [0, size]."""
    if bound is None:
        return default
    at = math_ops.cast(bound, "int32")
    at = array_ops.where(at < 0, at + size, at)
    return math_ops.minimum(math_ops.maximum(at, 0), size)


def _as_scalar(item: Any) -> Any:
    """A run-time index of unknown rank (a placeholder without a shape) as the scalar it
    must be: a value of another shape fails when the graph runs, as in TensorFlow."""
    if isinstance(item, builtins.slice):
        return builtins.slice(*(_as_scalar(p) for p in (item.start, item.stop, item.step)))
    if is_run_time_int(item) and item.shape.rank is None:
        return array_ops.reshape(item, [])
    return item


def index_at_run_time(x: Tensor, items: tuple, name: str | None = None) -> Tensor:
    """``x[items]`` where some items are int scalar tensors known only when the graph runs
    (``xs[t]`` inside a while_loop body), or slices with such bounds (``x[:, :n]``): the
    other items slice first, then each run-time item slices its axis (negative indices count
    from the end, as in TensorFlow, and slice bounds are clamped as Python's)."""
    if any(i is None or i is Ellipsis for i in items):
        raise TypeError(
            "StridedSlice: an index known only when the graph runs cannot be combined with "
            "`...` or newaxis; index with ints, slices and int scalar tensors"
        )
    for i in items:
        parts = (i.start, i.stop, i.step) if isinstance(i, builtins.slice) else (i,)
        for p in parts:
            if is_run_time_int(p) and (
                p.shape.rank not in (0, None) or p._value.dtype.kind not in "iu"
            ):  # (a tensor of unknown rank is taken as a scalar, checked when it runs)
                raise TypeError(f"StridedSlice: a tensor index must be an int scalar, got {p!r}")
        if isinstance(i, builtins.slice) and is_run_time_int(i.step):
            raise TypeError(
                "StridedSlice: a slice step known only when the graph runs is not supported; "
                "give the step as an int"
            )
        if isinstance(i, builtins.slice) and is_run_time_item(i) and (i.step or 1) < 0:
            raise TypeError(
                "StridedSlice: a negative step with bounds known only when the graph runs is "
                "not supported; reverse the tensor first"
            )
    items = tuple(_as_scalar(i) for i in items)
    # The static items first; the run-time ones keep their axes (``:``) for what follows.
    static = tuple(np.s_[:] if is_run_time_item(i) else i for i in items)
    out = array_ops.getitem(x, static)
    for j in reversed(range(len(items))):
        item = items[j]
        if not is_run_time_item(item):
            continue
        # Earlier int items removed their axes; slices and run-time items kept theirs.
        axis = j - sum(
            1 for k in items[:j] if not isinstance(k, builtins.slice) and not is_run_time_int(k)
        )
        size = math_ops.cast(array_ops.shape(out)[axis], "int32")
        rank = out._value.ndim
        if isinstance(item, builtins.slice):
            start = _position(item.start, size, 0)
            length = math_ops.maximum(_position(item.stop, size, size) - start, 0)
        else:
            start = _position(item, size, None)
            length = 1
        begin = [start if d == axis else 0 for d in range(rank)]
        sizes = [length if d == axis else -1 for d in range(rank)]
        out = slice(out, begin, sizes)
        if isinstance(item, builtins.slice) and (item.step or 1) != 1:
            out = array_ops.getitem(out, (np.s_[:],) * axis + (np.s_[:: item.step],))
        elif not isinstance(item, builtins.slice):
            out = array_ops.squeeze(out, axis=[axis])
    return out if name is None else array_ops.identity(out, name=name)
