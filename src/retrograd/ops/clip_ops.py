"""Clipping by value (``clip_by_value``, one op with its gradient) and by L2 norm:
``clip_by_norm`` (one tensor, or each slice along ``axes``),
``global_norm`` and ``clip_by_global_norm`` (a list of tensors scaled together, as used to
clip gradients before an optimizer step).

They are built from ops, so their gradients (to the tensors and to ``clip_norm``) are those
of TensorFlow's same construction: a zero tensor passes through ``clip_by_norm`` with
gradient 1, and ``clip_by_global_norm`` of all-zero tensors has a nan gradient.

>>> import retrograd as rg
>>> rg.clip_by_norm([3.0, 4.0], 1.0).numpy().tolist()
[0.6000000238418579, 0.800000011920929]
>>> clipped, norm = rg.clip_by_global_norm([[3.0], [4.0]], 1.0)
>>> [t.numpy().tolist() for t in clipped], norm.numpy().tolist()
([[0.6000000238418579], [0.800000011920929]], 5.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.annotations import AxisLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, broadcast, math_ops, reduction_ops
from retrograd.ops.define import FLOAT, REAL, tensor_arg, tensor_pair


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _scalar(op_name: str, arg: str, t: Tensor) -> Tensor:
    if t._value.ndim != 0:
        raise InvalidArgumentError(f"{op_name}: `{arg}` must be a scalar, got shape {t.shape}")
    return t


def clip_by_norm(
    t: TensorLike, clip_norm: TensorLike, axes: AxisLike | None = None, name: str | None = None
) -> Tensor:
    """``t * clip_norm / max(norm, clip_norm)`` with ``norm`` the L2 norm of ``t`` over
    ``axes`` (all axes by default): ``t`` unchanged where its norm is at most ``clip_norm``,
    rescaled to norm ``clip_norm`` elsewhere. A negative ``clip_norm`` counts as 0; a tensor
    ``clip_norm`` is cast to ``t``'s dtype and may broadcast, but not change ``t``'s shape.

    >>> import retrograd as rg
    >>> rg.clip_by_norm([3.0, 4.0], 2.5).numpy().tolist()
    [1.5, 2.0]
    """
    t = tensor_arg("clip_by_norm", t, FLOAT, "t")
    if _is_number(clip_norm):
        clip = convert_to_tensor(max(clip_norm, 0), dtype=t.dtype)
    else:
        clip = math_ops.cast(math_ops.maximum(convert_to_tensor(clip_norm), 0), t.dtype)
    shape = plain_dims(t.shape)
    if np.broadcast_shapes(shape, plain_dims(clip.shape)) != shape:
        raise InvalidArgumentError(
            f"clip_by_norm: clip_norm of shape {plain_dims(clip.shape)} would change the shape "
            f"{shape} of t"
        )
    sum_of_squares = reduction_ops.reduce_sum(t * t, axes, keepdims=True)
    positive = sum_of_squares > 0
    # sqrt only of positive sums: its infinite derivative at 0 would turn the gradient to nan.
    safe = array_ops.where(positive, sum_of_squares, array_ops.ones_like(sum_of_squares))
    norm = array_ops.where(positive, math_ops.sqrt(safe), sum_of_squares)
    return math_ops.divide(t * clip, math_ops.maximum(norm, clip), name=name)


def _tensor_list(op_name: str, t_list: Any) -> list[Tensor | None]:
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(
            f"{op_name}: `t_list` must be a list or tuple of tensors, got {type(t_list).__name__}"
        )
    return [None if t is None else tensor_arg(op_name, t, FLOAT, "t_list") for t in t_list]


def global_norm(t_list: Sequence[TensorLike | None], name: str | None = None) -> Tensor:
    """``sqrt(sum of the squares of every element of every tensor)``; None entries are
    skipped, all tensors share one float dtype; an empty list gives float32 0.

    >>> import retrograd as rg
    >>> rg.linalg.global_norm([[3.0], None, [[4.0]]]).numpy().tolist()
    5.0
    """
    tensors = [t for t in _tensor_list("global_norm", t_list) if t is not None]
    if not tensors:
        return convert_to_tensor(0.0)
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            raise TypeError(
                f"global_norm: all tensors must have the same dtype, got {tensors[0].dtype.name} "
                f"and {t.dtype.name}"
            )
    squares = [reduction_ops.reduce_sum(t * t) for t in tensors]
    return math_ops.sqrt(math_ops.add_n(squares), name=name)


def clip_by_global_norm(
    t_list: Sequence[TensorLike | None],
    clip_norm: TensorLike,
    use_norm: TensorLike | None = None,
    name: str | None = None,
) -> tuple[list[Tensor | None], Tensor]:
    """Scales every tensor of ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``.

    Returns ``(clipped_list, global_norm)``; None entries stay None. ``use_norm`` replaces the
    computed global norm. If the norm is inf or nan every clipped value is nan, as in
    TensorFlow, so that a blown-up step is visible rather than silently shrunk.

    >>> import retrograd as rg
    >>> clipped, norm = rg.clip_by_global_norm([rg.constant([3.0]), rg.constant([4.0])], 2.5)
    >>> [t.numpy().tolist() for t in clipped], norm.numpy().tolist()
    ([[1.5], [2.0]], 5.0)
    """
    tensors = _tensor_list("clip_by_global_norm", t_list)
    if use_norm is None:
        norm = global_norm(tensors)
    else:
        norm = tensor_arg("clip_by_global_norm", use_norm, FLOAT, "use_norm")
    norm, clip = tensor_pair("clip_by_global_norm", norm, clip_norm, FLOAT)
    _scalar("clip_by_global_norm", "use_norm", norm)
    _scalar("clip_by_global_norm", "clip_norm", clip)
    scale = clip * math_ops.minimum(1.0 / norm, 1.0 / clip)
    scale = scale + (norm - norm)  # nan when the norm is inf or nan
    clipped = [None if t is None else t * math_ops.cast(scale, t.dtype) for t in tensors]
    return clipped, norm


# --- clipping by value: one op ----------------------------------------------------------


def _clip_kernel(t, lo, hi):
    return np.maximum(np.minimum(t, hi), lo)


_ClipByValue = define_op("ClipByValue", _clip_kernel, batchable=True)


def clip_by_value(
    t: TensorLike, clip_value_min: TensorLike, clip_value_max: TensorLike, name: str | None = None
) -> Tensor:
    """Clips ``t`` to [clip_value_min, clip_value_max]; the bounds may broadcast to ``t``.

    >>> import retrograd as rg
    >>> rg.clip_by_value([-2.0, 0.5, 3.0], 0.0, 1.0).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    t = tensor_arg("ClipByValue", t, REAL, "t")
    _, lo = tensor_pair("ClipByValue", t, clip_value_min, REAL)
    _, hi = tensor_pair("ClipByValue", t, clip_value_max, REAL)
    for bound in (lo, hi):
        if broadcast_dims([t._value.shape, bound._value.shape], "ClipByValue") != t._value.shape:
            raise InvalidArgumentError(
                f"ClipByValue: a bound of shape {plain_dims(bound.shape)} would change the shape "
                f"{plain_dims(t.shape)} of t"
            )
    return execute(_ClipByValue, (t, lo, hi), None, name or "clip_by_value")


@op_gradient("ClipByValue")
def _clip_by_value_grad(op, grad):
    # Routed as the kernel maximum(minimum(t, hi), lo) routes values (ties as in Maximum and
    # Minimum), so crossed bounds (lo > hi) get the right gradient too.
    t, lo, hi = op.inputs
    zeros = array_ops.zeros_like(grad)
    t_below_hi = t <= hi
    raised_to_lo = math_ops.minimum(t, hi) < lo
    inner = array_ops.where(raised_to_lo, zeros, grad)
    gt = array_ops.where(t_below_hi, inner, zeros)
    ghi = array_ops.where(t_below_hi, zeros, inner)
    glo = array_ops.where(raised_to_lo, grad, zeros)
    return broadcast.reduce_to_inputs(op, gt, glo, ghi)
