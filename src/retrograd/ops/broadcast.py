"""Broadcasting: the BroadcastTo op, and ``unbroadcast`` — the one place where a gradient is
summed back to the shape of an input that was broadcast.

Shapes are static in eager mode. In a graph a dimension may be unknown until the graph
runs; then ``unbroadcast`` and ``broadcast_like`` use ops that read the shape of a tensor
when they run (``UnbroadcastLike``, ``BroadcastLike``).

>>> import retrograd as rg
>>> from retrograd.ops.broadcast import unbroadcast
>>> unbroadcast(rg.ones([2, 3]), rg.zeros([1, 3]))
<retrograd.Tensor: shape=(1, 3), dtype=float32, numpy=array([[2., 2., 2.]], dtype=float32)>
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.dimensions import dimension_value
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.reads import metadata_only
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor, constant_value
from retrograd.ops import array_ops, reduction_ops
from retrograd.ops.define import ANY, tensor_arg


def static_shape(shape: Any, op_type: str, arg: str = "shape") -> tuple[int, ...]:
    """A shape argument (list, tuple, TensorShape or int tensor) as a tuple of ints.

    As TensorFlow: Python floats and strings are a TypeError, a tensor of another dtype than
    int32/int64 an InvalidArgumentError, and values beyond int64 a ValueError.
    """
    shape = dimension_value(shape)
    if isinstance(shape, Tensor):
        from retrograd.ops.index_args import build_time_value

        rank = shape.shape.rank
        if not shape.dtype.is_integer or (rank is not None and rank > 1):
            raise InvalidArgumentError(
                f"{op_type}: `{arg}` must be an int32 or int64 tensor of rank 0 or 1, got "
                f"{shape.dtype.name} with shape {plain_dims(shape.shape)}"
            )
        try:
            shape = np.atleast_1d(build_time_value(op_type, shape, arg)).tolist()
        except ValueError:
            raise ValueError(
                f"{op_type}: this shape argument must be known while the graph is built, but "
                f"{shape!r} is only known when it runs"
            ) from None
    elif isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)):
        shape = [shape]
    elif isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        raise TypeError(f"{op_type}: `{arg}` must be a list of ints, got {shape!r}")
    dims = []
    for d in shape:
        d = dimension_value(d)  # (TensorFlow 1's Dimension objects: their int)
        if isinstance(d, Tensor) and d._value.dtype.kind in "iu" and d._value.ndim == 0:
            d = constant_value(d)
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"{op_type}: `{arg}` must be a list of ints, got {shape!r}")
        if not -(2**63) <= d < 2**63:
            raise ValueError(
                f"{op_type}: Can't convert Python sequence with out-of-range integer to Tensor "
                f"(`{arg}` = {shape!r})"
            )
        dims.append(int(d))
    return tuple(dims)


def check_dimensions(dims: tuple, op_type: str) -> tuple:
    """``dims`` when none is negative; else InvalidArgumentError as TensorFlow's Fill."""
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(f"{op_type}: Dimension {d} must be >= 0")
    return dims


def _sum_to_shape(grad: np.ndarray, shape: tuple) -> np.ndarray:
    lead = grad.ndim - len(shape)
    stretched = tuple(lead + i for i, d in enumerate(shape) if d == 1 and grad.shape[lead + i] != 1)
    return np.sum(grad, axis=(*range(lead), *stretched), keepdims=False).reshape(shape)


def broadcast_view(x: Any, shape: tuple) -> Any:
    """``np.broadcast_to(x, shape)``: a read-only view with zero strides on the broadcast
    axes, made directly for a C-contiguous array or NumPy scalar (NumPy's function spends
    microseconds on argument handling, which gradients of reductions pay on every call).

    >>> import numpy as np
    >>> v = broadcast_view(np.float32(2.0), (2, 3))
    >>> v.tolist(), v.strides, v.flags.writeable
    ([[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]], (0, 0), False)
    """
    here = x.shape
    if here == shape:
        return x
    lead = len(shape) - len(here)
    if type(x) is not np.ndarray and not isinstance(x, np.generic):
        return np.broadcast_to(x, shape)  # (another device's array: its library's view)
    if lead < 0 or (type(x) is np.ndarray and not x.flags.c_contiguous) or x.dtype.hasobject:
        return np.broadcast_to(x, shape)  # (its error, for a shape that does not broadcast)
    strides = [0] * lead
    for d, target, stride in zip(here, shape[lead:], x.strides):
        if d == target:
            strides.append(stride)
        elif d == 1:
            strides.append(0)
        else:
            return np.broadcast_to(x, shape)
    view = np.ndarray(shape, x.dtype, x, 0, tuple(strides))
    view.flags.writeable = False
    return view


_BroadcastTo = define_op(
    "BroadcastTo",
    lambda x, shape: broadcast_view(x, tuple(shape)),
    shape_fn=lambda metas, shape: [(_target(shape), metas[0].dtype)],
    batchable=True,
)


def _target(shape: tuple) -> tuple:
    """BroadcastTo's output shape: its target (which inputs' unknown dimensions fit)."""
    if any(d < 0 for d in shape):
        raise InvalidArgumentError(
            f"BroadcastTo: the target shape {list(shape)} has a negative or unknown "
            f"dimension; pass tf.shape(y) (a tensor) for a shape known only when the graph runs"
        )
    return shape


def shaped_like(metas):
    """Shape function of ops whose output has the shape of their second input and the dtype
    of their first."""
    return [(metas[1].shape, metas[0].dtype)]


_BroadcastLike = define_op(
    "BroadcastLike",
    lambda x, like: broadcast_view(x, np.shape(like)),
    shape_fn=shaped_like,
    shape_only_inputs=(1,),
)
_UnbroadcastLike = define_op(
    "UnbroadcastLike",
    lambda grad, like: _sum_to_shape(grad, np.shape(like)).astype(grad.dtype, copy=False),
    shape_fn=shaped_like,
    shape_only_inputs=(1,),
)


def broadcast_to(input: TensorLike, shape: ShapeLike, name: str | None = None) -> Tensor:
    """Broadcasts ``input`` to ``shape`` (NumPy's rules).

    >>> import retrograd as rg
    >>> rg.broadcast_to([1.0, 2.0], [2, 2]).numpy().tolist()
    [[1.0, 2.0], [1.0, 2.0]]
    """
    from retrograd.ops import dynamic_shape_ops

    x = tensor_arg("BroadcastTo", input, ANY, "input")
    static, dynamic, known = dynamic_shape_ops.shape_input(shape, "BroadcastTo")
    if static is None:  # known only when the graph runs: broadcast like a filled tensor
        zero = Tensor(x._value.dtype.type(0))
        return execute(
            _BroadcastLike, (x, dynamic_shape_ops.fill(dynamic, zero, known)), None, name
        )
    target = static
    if broadcast_dims([plain_dims(x.shape), target], "BroadcastTo") != target:
        raise InvalidArgumentError(
            f"BroadcastTo: cannot broadcast shape {plain_dims(x.shape)} to {target}"
        )
    return execute(_BroadcastTo, (x,), {"shape": target}, name)


def _fully_known(shape: Any) -> bool:
    return shape is not None and None not in shape


@metadata_only("like")
def broadcast_like(x: Tensor, like: Any) -> Tensor:
    """``x`` broadcast to the shape of tensor ``like`` (known statically or only at run time)."""
    shape = like._value.shape
    if _fully_known(shape):
        if x._value.shape == shape:
            return x
        # (the shape is known to be one: BroadcastTo without broadcast_to's argument checks;
        # a shape that does not broadcast fails in the kernel, named as the op's error)
        return execute(_BroadcastTo, (x,), {"shape": tuple(shape)})
    return execute(_BroadcastLike, (x, like))


@contextlib.contextmanager
def gradient_batch_dims(count: int) -> Iterator[None]:
    """Within this block, ``unbroadcast`` keeps the first ``count`` axes of every gradient."""
    saved = set_gradient_batch_dims(count)
    try:
        yield
    finally:
        set_gradient_batch_dims(saved)


class _BatchDims(threading.local):
    """How many leading axes of the gradients in flight index a batch of backward passes
    (rows of a Jacobian computed at once), per thread."""

    count = 0


_batch = _BatchDims()


def set_gradient_batch_dims(count: int) -> int:
    """Sets the count ``gradient_batch_dims`` sets (for the backward walk, which restores it
    itself); returns the previous count."""
    saved, _batch.count = _batch.count, count
    return saved


def batch_dims() -> int:
    """The leading batch axes of the gradients in flight in this thread (see above)."""
    return _batch.count


@metadata_only("like")
def unbroadcast(grad: Tensor, like: Any) -> Tensor:
    """Sums ``grad`` over the axes that broadcasting added or stretched, giving the shape of
    ``like`` (a tensor or variable, or a static shape).

    Leading batch axes (see ``gradient_batch_dims``) are kept. Raises ValueError when
    ``grad`` is not shaped like a broadcast of that shape.
    """
    shape = like if type(like) is tuple else like._value.shape
    grad_shape = grad._value.shape
    batch = _batch.count
    if grad_shape == shape and not batch and shape is not None and None not in shape:
        return grad  # the common case: nothing was broadcast
    if not (_fully_known(shape) and _fully_known(grad_shape)):
        return execute(_UnbroadcastLike, (grad, like))  # graphs: batched passes are eager
    shape, grad_shape = tuple(shape), tuple(grad_shape)
    if grad_shape[batch:] == shape:
        return grad
    lead = len(grad_shape) - len(shape)
    if lead < batch or any(d not in (1, g) for d, g in zip(shape, grad_shape[lead:])):
        raise ValueError(
            f"cannot reduce a gradient of shape {grad_shape} to shape {shape}: it is not a "
            f"broadcast of that shape"
        )
    stretched = (lead + i for i, d in enumerate(shape) if d == 1 and grad_shape[lead + i] != 1)
    axes = (*range(batch, lead), *stretched)
    return array_ops.reshape(
        reduction_ops.reduce_sum(grad, axis=axes), (*grad_shape[:batch], *shape)
    )


@metadata_only("op")
def reduce_to_inputs(op, *grads: Tensor | None) -> tuple[Tensor | None, ...]:
    """Each gradient unbroadcast to the shape of the matching input of ``op`` (None stays)."""
    inputs = op.inputs
    if not _batch.count:  # the common case: nothing was broadcast
        for i in range(len(grads)):
            g = grads[i]
            if g is not None:
                shape = inputs[i]._value.shape
                if shape is None or g._value.shape != shape or None in shape:
                    break
        else:
            return grads
    return tuple([None if g is None else unbroadcast(g, inputs[i]) for i, g in enumerate(grads)])


@op_gradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return unbroadcast(grad, op.inputs[0])


@op_gradient("BroadcastLike")
def _broadcast_like_grad(op, grad):
    return unbroadcast(grad, op.inputs[0]), None


@op_gradient("UnbroadcastLike")
def _unbroadcast_like_grad(op, grad):
    return broadcast_like(grad, op.inputs[0]), None
