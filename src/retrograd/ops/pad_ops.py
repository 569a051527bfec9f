"""Padding: ``pad`` with a constant (``Pad``, ``PadV2``) or by mirroring the edges
(``MirrorPad``, REFLECT or SYMMETRIC). A constant pad's gradient slices the padding off; a
mirror pad's folds the mirrored parts back onto the values they copied (``MirrorPadGrad``,
whose own gradient is the mirror pad again).

>>> import retrograd as rg
>>> rg.pad([[1, 2, 3]], [[0, 0], [2, 2]], mode="REFLECT").numpy().tolist()
[[3, 2, 1, 2, 3, 2, 1]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import to_host
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops
from retrograd.ops.define import ANY, tensor_arg, tensor_pair

MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def _np_pad(x, paddings, **kwargs):
    return np.pad(x, paddings, **kwargs) if x.ndim else x.copy()


def _mirror_pad_grad_kernel(grad, paddings, mode):
    # Axis by axis, add each mirrored strip (reversed) onto the values it copied.
    shift = 1 if mode == "REFLECT" else 0  # REFLECT does not repeat the edge value
    out = grad
    for axis, (before, after) in enumerate(paddings):
        if not (before or after):
            continue
        g = np.moveaxis(out, axis, 0)
        n = g.shape[0] - before - after
        core = g[before : before + n].copy()
        core[shift : shift + before] += g[:before][::-1]
        core[n - shift - after : n - shift] += g[before + n :][::-1]
        out = np.moveaxis(core, 0, axis)
    return out


def _padded_shape(metas: list, paddings: tuple, **_: object) -> list:
    """The output's shape without running the kernel (a graph built with large paddings does
    not allocate the padded array)."""
    shape = metas[0].shape
    if shape is None or not paddings:
        return [(shape, metas[0].dtype)]
    dims = tuple(None if d is None else d + a + b for d, (a, b) in zip(shape, paddings))
    return [(dims, metas[0].dtype)]


_Pad = define_op("Pad", lambda x, paddings: _np_pad(x, paddings), shape_fn=_padded_shape)
_PadV2 = define_op(
    "PadV2",
    lambda x, constant_values, paddings: _np_pad(x, paddings, constant_values=constant_values),
    shape_fn=_padded_shape,
)
_MirrorPad = define_op(
    "MirrorPad",
    lambda x, paddings, mode: _np_pad(x, paddings, mode=mode.lower()),
    shape_fn=_padded_shape,
)
_MirrorPadGrad = define_op("MirrorPadGrad", _mirror_pad_grad_kernel)


def _static_paddings(op_type: str, paddings: Any, shape: tuple) -> tuple:
    value = to_host(paddings._value) if isinstance(paddings, Tensor) else np.asarray(paddings)
    if value.size == 0 and not shape:
        return ()
    if value.dtype.kind not in "iu":
        raise TypeError(f"{op_type}: paddings must be integers, got {paddings!r}")
    if value.ndim != 2 or value.shape[1] != 2:
        raise InvalidArgumentError(
            f"{op_type}: paddings must be a matrix with 2 columns, got shape {list(value.shape)}"
        )
    if value.shape[0] != len(shape):
        raise InvalidArgumentError(
            f"{op_type}: the first dimension of paddings must be the rank of the input "
            f"{list(shape)}, got paddings of shape {list(value.shape)}"
        )
    if (value < 0).any():
        raise InvalidArgumentError(
            f"{op_type}: paddings must be non-negative, got {value.tolist()}"
        )
    return tuple((int(b), int(a)) for b, a in value)


def _check_mirror_sizes(mode: str, pads: tuple, shape: tuple) -> None:
    for dim, (before, after) in zip(shape, pads):
        if dim is None:  # (known when the graph runs: the kernel checks it then)
            continue
        if mode == "REFLECT" and (before >= dim or after >= dim):
            raise InvalidArgumentError(
                f"MirrorPad: REFLECT paddings must be less than the dimension size: {before}, "
                f"{after} not less than {dim}"
            )
        if mode == "SYMMETRIC" and (before > dim or after > dim):
            raise InvalidArgumentError(
                f"MirrorPad: SYMMETRIC paddings must be no greater than the dimension size: "
                f"{before}, {after} greater than {dim}"
            )


def pad(
    tensor: TensorLike,
    paddings: TensorLike,
    mode: str = "CONSTANT",
    constant_values: TensorLike = 0,
    name: str | None = None,
) -> Tensor:
    """Pads ``tensor``: ``paddings[d] = [before, after]`` entries on each side of dimension d,
    filled with ``constant_values`` or, for REFLECT/SYMMETRIC, mirrored from the edges
    (without or with the edge value itself).

    >>> import retrograd as rg
    >>> rg.pad([1.0, 2.0], [[1, 2]], constant_values=9.0).numpy().tolist()
    [9.0, 1.0, 2.0, 9.0, 9.0]
    """
    from retrograd.ops import run_time_args, run_time_rearrange

    x = tensor_arg("Pad", tensor, ANY, "tensor")
    shape = x._value.shape
    chosen = str(mode).upper()
    if chosen not in MODES:
        raise ValueError(
            f'pad: `mode` must be one of "CONSTANT", "REFLECT" or "SYMMETRIC", got {mode!r}'
        )
    if run_time_args.is_run_time(paddings):  # (a graph tensor: TensorFlow reads it when it runs)
        value = tensor_pair("PadV2", x, constant_values)[1]
        if value._value.ndim != 0:
            raise InvalidArgumentError(
                f"PadV2: constant_values must be a scalar, got shape {list(value._value.shape)}"
            )
        return run_time_rearrange.pad(x, paddings, value, chosen, name)
    if chosen != "CONSTANT":
        pads = _static_paddings("MirrorPad", paddings, shape)
        _check_mirror_sizes(chosen, pads, shape)
        return execute(_MirrorPad, (x,), {"paddings": pads, "mode": chosen}, name)
    plain_zero = not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0
    if plain_zero and constant_values == 0:
        return execute(_Pad, (x,), {"paddings": _static_paddings("Pad", paddings, shape)}, name)
    pads = _static_paddings("PadV2", paddings, shape)
    _, value = tensor_pair("PadV2", x, constant_values)
    if value._value.ndim != 0:
        raise InvalidArgumentError(
            f"PadV2: constant_values must be a scalar, got shape {list(value._value.shape)}"
        )
    return execute(_PadV2, (x, value), {"paddings": pads}, name)


def mirror_pad_grad(grad: Any, paddings: tuple, mode: str, name: str | None = None) -> Tensor:
    """The gradient of a mirror pad: ``grad`` with its mirrored strips folded back."""
    return execute(_MirrorPadGrad, (grad,), {"paddings": paddings, "mode": mode}, name)


def _unpadded(op, grad):
    pads = op.get_attr("paddings")
    if not any(b or a for b, a in pads):
        return grad
    shape = op.inputs[0]._value.shape
    if None in shape:  # dimensions known only when the graph runs: slice to the input's shape
        from retrograd.ops import dynamic_shape_ops

        begin = [b for b, _ in pads]
        return dynamic_shape_ops.slice(grad, begin, array_ops.shape(op.inputs[0]))
    return array_ops.getitem(grad, tuple(slice(b, b + d) for (b, _), d in zip(pads, shape)))


@op_gradient("Pad")
def _pad_grad(op, grad):
    return _unpadded(op, grad)


@op_gradient("PadV2")
def _pad_v2_grad(op, grad):
    return _unpadded(op, grad), None  # constant_values gets no gradient, as in TensorFlow


@op_gradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    return mirror_pad_grad(grad, op.get_attr("paddings"), op.get_attr("mode"))


@op_gradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    attrs = {"paddings": op.get_attr("paddings"), "mode": op.get_attr("mode")}
    return execute(_MirrorPad, (grad,), attrs)
