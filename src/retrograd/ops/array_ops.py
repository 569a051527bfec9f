"""Shape and selection ops: reshape, transpose, where, fills, identity; concat/stack/split
live in :mod:`retrograd.ops.join_ops` and are re-exported here."""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, ShapeLike, TensorLike
from retrograd.core.backends import current_namespace, on_device_of
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.reads import metadata_only
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import broadcast
from retrograd.ops.define import ANY, BOOL, tensor_arg, tensor_pair
from retrograd.ops.index_args import static_int
from retrograd.ops.indexing import normalize_index
from retrograd.ops.join_ops import concat, split, stack, unstack  # noqa: F401 (re-exported)

# --- reshaping --------------------------------------------------------------------------


def _reshape_meta(metas, shape):
    """The output of a static reshape: ``shape``, with a -1 worked out where the input's size
    is known (else unknown); a known size that does not fit fails while building."""
    dims = metas[0].shape
    size = None if dims is None or None in dims else int(np.prod(dims, dtype=np.int64))
    rest = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
    fits = size is None or (size % rest == 0 if -1 in shape and rest else size == rest)
    if not fits:
        raise InvalidArgumentError(
            f"Reshape: cannot reshape a tensor of {size} elements into shape {list(shape)}"
        )
    infer = None if size is None or not rest else size // rest
    return [(tuple(infer if d == -1 else d for d in shape), metas[0].dtype)]


_Reshape = define_op("Reshape", lambda x, shape: np.reshape(x, shape), shape_fn=_reshape_meta)
_ReshapeLike = define_op(
    "ReshapeLike",
    lambda x, like: np.reshape(x, np.shape(like)),
    shape_fn=lambda metas: broadcast.shaped_like(metas),
    shape_only_inputs=(1,),
)
_Transpose = define_op("Transpose", lambda x, perm: np.transpose(x, perm))
_ExpandDims = define_op("ExpandDims", lambda x, axis: np.expand_dims(x, axis))
_Squeeze = define_op("Squeeze", lambda x, axis: np.squeeze(x, axis))


def reshape(tensor: TensorLike, shape: ShapeLike, name: str | None = None) -> Tensor:
    """``tensor`` with a new shape of the same size; one dimension may be -1 (or None).

    >>> import retrograd as rg
    >>> rg.reshape([1, 2, 3, 4, 5, 6], [-1, 3]).numpy().tolist()
    [[1, 2, 3], [4, 5, 6]]"""
    from retrograd.ops import dynamic_shape_ops

    x = tensor_arg("Reshape", tensor, ANY, "tensor")
    if isinstance(shape, (list, tuple)) and any(d is None for d in shape):
        if sum(d is None or (type(d) is int and d == -1) for d in shape) > 1:
            raise ValueError(f"Reshape: shape {list(shape)} has more than one unknown dimension")
        shape = [-1 if d is None else d for d in shape]
    static, dynamic, known = dynamic_shape_ops.shape_input(shape, "Reshape")
    if static is None:  # known only when the graph runs
        return dynamic_shape_ops.reshape(x, dynamic, known, name)
    target = broadcast.static_shape(static, "Reshape")
    for i, d in enumerate(target):
        if d < -1:
            raise InvalidArgumentError(
                f"Reshape: Size {i} must be non-negative, not {d} (shape {list(target)})"
            )
    if x._value.shape is not None and target == tuple(x._value.shape):
        return x  # (a graph value of unknown rank is reshaped: its size is checked when run)
    return execute(_Reshape, (x,), {"shape": target}, name)


def transpose(
    a: TensorLike, perm: AxisLike | None = None, conjugate: bool = False, name: str = "transpose"
) -> Tensor:
    """Permutes the axes of ``a`` (reverses them when ``perm`` is None).

    >>> import retrograd as rg
    >>> rg.transpose([[1, 2, 3], [4, 5, 6]]).numpy().tolist()
    [[1, 4], [2, 5], [3, 6]]"""
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("Transpose", a, ANY, "a")
    if run_time_args.is_run_time(perm):  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_rearrange.transpose(x, perm, conjugate, name)
    ndim = x._value.ndim
    perm = tuple(range(ndim))[::-1] if perm is None else broadcast.static_shape(perm, "Transpose")
    out_of_range = [p for p in perm if not -ndim <= p < ndim]
    if out_of_range:
        raise InvalidArgumentError(
            f"Transpose: {out_of_range[0]} is out of range [{-ndim}, {ndim}) in perm {list(perm)}"
        )
    if sorted(p % ndim if ndim else p for p in perm) != list(range(ndim)) or len(perm) != ndim:
        raise InvalidArgumentError(
            f"Transpose: perm {list(perm)} is not a permutation of {ndim} axes"
        )
    out = execute(_Transpose, (x,), {"perm": tuple(p % ndim for p in perm)}, name)
    if conjugate:
        from retrograd.ops import math_ops

        out = math_ops.conj(out)
    return out


def expand_dims(input: TensorLike, axis: int, name: str | None = None) -> Tensor:
    """Inserts a size-1 axis at ``axis`` (which may be -rank-1 ... rank).

    >>> import retrograd as rg
    >>> rg.expand_dims([1, 2], 0).shape.as_list(), rg.expand_dims([1, 2], -1).shape.as_list()
    ([1, 2], [2, 1])"""
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("ExpandDims", input, ANY, "input")
    if run_time_args.is_run_time(axis):  # (a graph tensor: TensorFlow reads it when it runs)
        return run_time_rearrange.expand_dims(x, axis, name)
    ndim = x._value.ndim
    axis = static_int("ExpandDims", axis, "axis")
    if not -ndim - 1 <= axis <= ndim:
        raise InvalidArgumentError(f"ExpandDims: axis {axis} is out of range for rank {ndim}")
    return execute(_ExpandDims, (x,), {"axis": axis % (ndim + 1)}, name)


def squeeze(input: TensorLike, axis: AxisLike | None = None, name: str | None = None) -> Tensor:
    """Removes size-1 axes (all of them, or those listed in ``axis``, which must be 1).

    >>> import retrograd as rg
    >>> rg.squeeze(rg.zeros([1, 2, 1])).shape.as_list(), rg.squeeze([[1, 2]], [0]).shape.as_list()
    ([2], [2])"""
    x = tensor_arg("Squeeze", input, ANY, "input")
    shape = tuple(x._value.shape)
    if axis is not None:
        axes = broadcast.static_shape(axis, "Squeeze")
        for a in axes:
            if not -len(shape) <= a < len(shape) or shape[a] != 1:
                raise InvalidArgumentError(
                    f"Squeeze: can not squeeze dim[{a}] of shape {shape}: expected a dimension of 1"
                )
        axis = tuple(sorted(a % len(shape) for a in axes))
    return execute(_Squeeze, (x,), {"axis": axis}, name)


def reshape_like(tensor: Tensor, like: Any) -> Tensor:
    """``tensor`` reshaped to the shape of ``like`` (known statically or only at run time)."""
    shape = like._value.shape
    if shape is not None and None not in shape:
        return reshape(tensor, shape)
    return execute(_ReshapeLike, (tensor, like))


def _reshape_back(op, grad):
    return reshape_like(grad, op.inputs[0])


for _op_type in ("Reshape", "ExpandDims", "Squeeze"):
    op_gradient(_op_type)(_reshape_back)


@op_gradient("ReshapeLike")
def _reshape_like_grad(op, grad):
    return reshape_like(grad, op.inputs[0]), None


@op_gradient("Transpose")
def _transpose_grad(op, grad):
    return transpose(grad, tuple(np.argsort(op.get_attr("perm"))))


# --- indexing ---------------------------------------------------------------------------


def _slice_grad_kernel(dy, like, index):
    out = np.zeros_like(dy, shape=np.shape(like))
    out[index] = dy
    return out


_StridedSlice = define_op("StridedSlice", lambda x, index: x[index])
_StridedSliceGrad = define_op(
    "StridedSliceGrad",
    _slice_grad_kernel,
    shape_fn=lambda metas, index: broadcast.shaped_like(metas),
)


def getitem(x: TensorLike, index: Any, name: str | None = None) -> Tensor:
    """``x[index]`` for ints, slices (with steps), ``...`` and ``None``: what ``[]`` lowers to
    (``retrograd.strided_slice`` is TensorFlow's form, with begin, end, strides and masks).

    >>> from retrograd.ops import array_ops
    >>> array_ops.getitem([[1, 2, 3], [4, 5, 6]], (1, slice(None, None, 2))).numpy().tolist()
    [4, 6]"""
    from retrograd.ops import dynamic_shape_ops

    t = tensor_arg("StridedSlice", x, ANY)
    items = index if isinstance(index, tuple) else (index,)
    if any(dynamic_shape_ops.is_run_time_item(i) for i in items):
        return dynamic_shape_ops.index_at_run_time(t, items, name)
    return execute(
        _StridedSlice, (t,), {"index": normalize_index(index, tuple(t._value.shape))}, name
    )


def strided_slice_grad(dy: Tensor, like: Any, index: tuple, name: str | None = None) -> Tensor:
    """Zeros shaped like ``like`` with ``dy`` placed at ``index`` (the gradient of a slice)."""
    return execute(_StridedSliceGrad, (dy, like), {"index": index}, name)


@op_gradient("StridedSlice")
def _strided_slice_grad(op, grad):
    return strided_slice_grad(grad, op.inputs[0], op.get_attr("index"))


@op_gradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    return execute(_StridedSlice, (grad,), {"index": op.get_attr("index")}), None


# --- fills, identities and selection ------------------------------------------------------


def _shape_of(x: Any, dtype: Any) -> Any:
    """The shape of ``x`` as a vector, on ``x``'s device (where the values it sizes live)."""
    shape = np.array(np.shape(x), dtype=dtype)
    return shape if isinstance(x, (np.ndarray, np.generic)) else on_device_of(shape, x)


def fill_array(value: Any, dims: tuple) -> Any:
    """An array of shape ``dims`` filled with the scalar ``value``, where ``value`` lives (a
    NumPy scalar, which goes with any device: on the current device)."""
    if isinstance(value, np.generic):
        return current_namespace().full(dims, value, dtype=value.dtype)
    return np.full_like(value, value, shape=dims)


_Fill = define_op("Fill", lambda value, dims: fill_array(value, dims))
# The input's shape and dtype, known or not (a NumPy function's output has unknown rank).
_same_meta = lambda metas, **_: [(metas[0].shape, metas[0].dtype)]  # noqa: E731
_ZerosLike = define_op("ZerosLike", np.zeros_like, shape_fn=_same_meta, shape_only_inputs=(0,))
_OnesLike = define_op("OnesLike", np.ones_like, shape_fn=_same_meta, shape_only_inputs=(0,))
_Identity = define_op(
    "Identity", lambda x: x, forwards_inputs=True, batchable=True, passes_slices=True
)
_StopGradient = define_op("StopGradient", lambda x: x, forwards_inputs=True)
_SelectV2 = define_op("SelectV2", np.where, batchable=True)
_Where = define_op(
    "Where",
    lambda condition: np.argwhere(condition).astype(np.int64),
    shape_fn=lambda metas: [((None, metas[0].ndim), np.int64)],  # as many rows as True values
)
_Size = define_op(
    "Size",
    lambda x, out_type: out_type.as_numpy_dtype(np.size(x)),  # (a NumPy scalar: any device's)
    shape_only_inputs=(0,),
)
_Shape = define_op(
    "Shape",
    lambda x, out_type: _shape_of(x, out_type.as_numpy_dtype),
    shape_fn=lambda metas, out_type: [  # (a vector as long as the rank, if known)
        ((None if metas[0].shape is None else len(metas[0].shape),), out_type.as_numpy_dtype)
    ],
    shape_only_inputs=(0,),
)


def _no_layout(layout: Any, who: str) -> None:
    """TensorFlow's DTensor ``layout`` arguments: retrograd has no DTensor meshes."""
    if layout is not None:
        raise ValueError(f"{who}: layout must be None (retrograd has no DTensor), got {layout!r}")


def fill(
    dims: ShapeLike, value: TensorLike, name: str | None = None, layout: object | None = None
) -> Tensor:
    """A tensor of shape ``dims`` filled with the scalar ``value``.

    >>> import retrograd as rg
    >>> rg.fill([2, 2], 7).numpy().tolist()
    [[7, 7], [7, 7]]"""
    _no_layout(layout, "fill")
    from retrograd.ops import dynamic_shape_ops

    v = tensor_arg("Fill", value, ANY, "value")
    if v._value.ndim != 0:
        raise InvalidArgumentError(f"Fill: value must be a scalar, got shape {plain_dims(v.shape)}")
    static, dynamic, known = dynamic_shape_ops.shape_input(dims, "Fill", "dims")
    if static is None:  # known only when the graph runs
        return dynamic_shape_ops.fill(dynamic, v, known, name)
    shape = broadcast.check_dimensions(broadcast.static_shape(static, "Fill", "dims"), "Fill")
    return execute(_Fill, (v,), {"dims": shape}, name)


def _constant_fill(shape: Any, dtype: Any, value: int, who: str, name: str | None) -> Tensor:
    """zeros/ones: a constant, or a Fill op where the shape is known only when a graph runs."""
    from retrograd.ops import dynamic_shape_ops

    np_dtype = as_dtype(dtype).as_numpy_dtype
    static, dynamic, known = dynamic_shape_ops.shape_input(shape, who)
    if static is None:
        return dynamic_shape_ops.fill(dynamic, Tensor(np.dtype(np_dtype).type(value)), known, name)
    dims = broadcast.check_dimensions(broadcast.static_shape(static, who), who)
    return Tensor(current_namespace().full(dims, value, dtype=np_dtype))


def zeros(
    shape: ShapeLike,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
    layout: object | None = None,
) -> Tensor:
    """A tensor of zeros (a constant: it has no inputs to differentiate).

    >>> import retrograd as rg
    >>> rg.zeros([2, 3], rg.int32).numpy().tolist()
    [[0, 0, 0], [0, 0, 0]]"""
    _no_layout(layout, "zeros")
    return _constant_fill(shape, dtype, 0, "zeros", name)


def ones(
    shape: ShapeLike,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
    layout: object | None = None,
) -> Tensor:
    """A tensor of ones.

    >>> import retrograd as rg
    >>> rg.ones([2]).numpy().tolist()
    [1.0, 1.0]"""
    _no_layout(layout, "ones")
    return _constant_fill(shape, dtype, 1, "ones", name)


def _like(op, input, dtype, name):
    # (a variant's zeros: an empty TensorArray list, the gradient of zeros of a list)
    variant = isinstance(input, Tensor) and input._value.dtype.kind == "O"
    x = input if variant else tensor_arg(op.type, input, ANY, "input")
    out = execute(op, (x,), None, name)
    if dtype is not None and as_dtype(dtype) != out.dtype:
        from retrograd.ops import math_ops

        out = math_ops.cast(out, dtype)
    return out


@metadata_only("input")
def zeros_like(
    input: TensorLike,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    layout: object | None = None,
) -> Tensor:
    """Zeros with the shape (and dtype, unless given) of ``input``.

    >>> import retrograd as rg
    >>> rg.zeros_like([[1.5, 2.5]]).numpy().tolist()
    [[0.0, 0.0]]"""
    _no_layout(layout, "zeros_like")
    return _like(_ZerosLike, input, dtype, name or "zeros_like")  # (TensorFlow's op name)


@metadata_only("input")
def ones_like(
    input: TensorLike,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    layout: object | None = None,
) -> Tensor:
    """Ones with the shape (and dtype, unless given) of ``input``.

    >>> import retrograd as rg
    >>> rg.ones_like([1, 2], dtype=rg.float32).numpy().tolist()
    [1.0, 1.0]"""
    _no_layout(layout, "ones_like")
    return _like(_OnesLike, input, dtype, name or "ones_like")


def identity(input: TensorLike, name: str | None = None) -> Tensor:
    """The same value as a new tensor (gradient passes through).

    >>> import retrograd as rg
    >>> rg.identity([1.0, 2.0]).numpy().tolist()
    [1.0, 2.0]"""
    return execute(_Identity, (tensor_arg("Identity", input, ANY, "input"),), None, name)


def stop_gradient(input: TensorLike, name: str | None = None) -> Tensor:
    """The same value, treated as a constant by differentiation.

    >>> import retrograd as rg
    >>> x = rg.constant(3.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = rg.stop_gradient(x) * x
    >>> tape.gradient(y, x)
    <retrograd.Tensor: shape=(), dtype=float32, numpy=3.0>"""
    return execute(_StopGradient, (tensor_arg("StopGradient", input, ANY, "input"),), None, name)


def where(
    condition: TensorLike,
    x: TensorLike | None = None,
    y: TensorLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Elementwise ``x if condition else y`` (broadcasting); alone, the indices of True.

    >>> import retrograd as rg
    >>> rg.where([True, False], 1.0, 2.0).numpy().tolist()
    [1.0, 2.0]"""
    c = tensor_arg("SelectV2", condition, BOOL, "condition")
    if x is None and y is None:
        return execute(_Where, (c,), None, name)
    if x is None or y is None:
        raise ValueError("where: x and y must both be given, or neither")
    x, y = tensor_pair("SelectV2", x, y)
    broadcast_dims([c._value.shape, x._value.shape, y._value.shape], "SelectV2")
    return execute(_SelectV2, (c, x, y), None, name)


@metadata_only("input")
def shape(input: TensorLike, out_type: DTypeLike | None = None, name: str | None = None) -> Tensor:
    """The shape of ``input`` as an int32 (or ``out_type``) vector.

    >>> import retrograd as rg
    >>> rg.shape(rg.zeros([2, 3])).numpy().tolist()
    [2, 3]"""
    x = tensor_arg("Shape", input, ANY, "input")
    target = dtypes.int32 if out_type is None else as_dtype(out_type)
    return execute(_Shape, (x,), {"out_type": target}, name)


@metadata_only("input")
def rank(input: TensorLike, name: str | None = None) -> Tensor:
    """The number of dimensions of ``input`` as an int32 scalar.

    >>> import retrograd as rg
    >>> rg.rank(rg.zeros([2, 3])).numpy().tolist()
    2"""
    return Tensor(np.int32(tensor_arg("Rank", input, ANY, "input")._value.ndim))


@metadata_only("input")
def size(input: TensorLike, out_type: DTypeLike | None = None, name: str | None = None) -> Tensor:
    """The number of elements of ``input`` (an op in graphs, where it may be unknown).

    >>> import retrograd as rg
    >>> rg.size(rg.zeros([2, 3])).numpy().tolist()
    6"""
    x = tensor_arg("Size", input, ANY, "input")
    target = dtypes.int32 if out_type is None else as_dtype(out_type)
    return execute(_Size, (x,), {"out_type": target}, name)


@op_gradient("Fill")
def _fill_grad(op, grad):
    from retrograd.ops import reduction_ops

    return reduction_ops.reduce_sum(grad)


@op_gradient("Identity")
def _identity_grad(op, grad):
    return grad


@op_gradient("SelectV2")
def _select_grad(op, grad):
    c = op.inputs[0]
    zeros = zeros_like(grad)
    return broadcast.reduce_to_inputs(op, None, where(c, grad, zeros), where(c, zeros, grad))


for _op_type in ("ZerosLike", "OnesLike", "StopGradient", "Where", "Shape", "Size"):
    no_gradient(_op_type)
