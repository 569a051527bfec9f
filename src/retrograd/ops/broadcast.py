"""Broadcasting: the BroadcastTo op, and ``unbroadcast`` — the one place where a gradient is
summed back to the shape of an input that was broadcast.

>>> import retrograd as rg
>>> from retrograd.ops.broadcast import unbroadcast
>>> unbroadcast(rg.ones([2, 3]), (1, 3))
<retrograd.Tensor: shape=(1, 3), dtype=float32, numpy=array([[2., 2., 2.]], dtype=float32)>
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.errors import InvalidArgumentError
from retrograd.execute import define_op, execute
from retrograd.ops import array_ops, reduction_ops
from retrograd.ops.define import ANY, tensor_arg
from retrograd.registry import RegisterGradient, mark_batchable
from retrograd.tensor import Tensor

_BroadcastTo = define_op("BroadcastTo", lambda x, shape: np.broadcast_to(x, shape))


def static_shape(shape: Any, op_type: str) -> tuple[int, ...]:
    """A shape argument (list, tuple, TensorShape or int tensor) as a tuple of ints."""
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    elif isinstance(shape, (int, np.integer)):
        shape = [shape]
    try:
        return tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise TypeError(f"{op_type}: shape must be a list of ints, got {shape!r}") from None


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...], op_type: str) -> tuple[int, ...]:
    """NumPy's broadcast of two shapes; InvalidArgumentError naming the op when impossible."""
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        raise InvalidArgumentError(f"{op_type}: shapes {a} and {b} are not broadcastable") from None


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """Broadcasts ``input`` to ``shape`` (NumPy's rules).

    >>> import retrograd as rg
    >>> rg.broadcast_to([1.0, 2.0], [2, 2]).numpy().tolist()
    [[1.0, 2.0], [1.0, 2.0]]
    """
    x = tensor_arg("BroadcastTo", input, ANY, "input")
    target = static_shape(shape, "BroadcastTo")
    if broadcast_shapes(tuple(x.shape), target, "BroadcastTo") != target:
        raise InvalidArgumentError(
            f"BroadcastTo: cannot broadcast shape {tuple(x.shape)} to {target}"
        )
    return execute(_BroadcastTo, (x,), {"shape": target}, name)


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return unbroadcast(grad, op.inputs[0].shape)


mark_batchable("BroadcastTo")


# How many leading axes of the gradients in flight index a batch of backward passes (rows
# of a Jacobian computed at once); set by the backward walk for its rules, 0 otherwise.
_batch_dims = 0


@contextlib.contextmanager
def gradient_batch_dims(count: int) -> Iterator[None]:
    """Within this block, ``unbroadcast`` keeps the first ``count`` axes of every gradient."""
    global _batch_dims
    saved, _batch_dims = _batch_dims, count
    try:
        yield
    finally:
        _batch_dims = saved


def unbroadcast(grad: Tensor, shape: Any) -> Tensor:
    """Sums ``grad`` over the axes that broadcasting added or stretched, giving ``shape``.

    Leading batch axes (see ``gradient_batch_dims``) are kept. Raises ValueError when
    ``grad`` is not shaped like a broadcast of ``shape``.
    """
    shape = tuple(shape)
    grad_shape = tuple(grad.shape)
    batch = _batch_dims
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


def reduce_to_inputs(op, *grads: Tensor | None) -> tuple[Tensor | None, ...]:
    """Each gradient unbroadcast to the shape of the matching input of ``op`` (None stays)."""
    return tuple(None if g is None else unbroadcast(g, x.shape) for g, x in zip(grads, op.inputs))
