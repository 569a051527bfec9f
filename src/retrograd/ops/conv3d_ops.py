"""3-D convolutions: ``conv3d`` and ``conv3d_transpose`` (``NDHWC``, or ``NCDHW``), with
TensorFlow's strides, SAME/VALID padding and dilations. As the 2-D ones (conv_ops.py), three
op types are closed under differentiation, so every order works: ``Conv3D(x, w)``, its
gradient for x ``Conv3DBackpropInputV2(w, dy)`` (also ``conv3d_transpose``) and for w
``Conv3DBackpropFilterV2(x, dy)``, each bilinear.

>>> import retrograd as tf
>>> tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 1, 1]), [1, 1, 1, 1, 1],
...              "VALID").numpy().ravel().tolist()
[8.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, window
from retrograd.ops.define import FLOAT, tensor_pair

__all__ = ["conv3d", "conv3d_backprop_filter", "conv3d_transpose"]

_N = 3


def _forward_kernel(x, w, strides, dilations, explicit_paddings, padding):
    xp = window.pad(x, explicit_paddings)
    spans = window.effective_size(w.shape[:_N], dilations)
    outs = window.out_sizes(xp.shape[1 : _N + 1], spans, strides)
    if 0 in outs:
        return np.zeros_like(x, shape=(x.shape[0], *outs, w.shape[-1]))
    cols = window.patches(xp, w.shape[:_N], strides, dilations, outs)
    rows, taps = int(np.prod(cols.shape[: _N + 1])), int(np.prod(w.shape[:-1]))
    out = cols.reshape(rows, taps) @ w.reshape(taps, w.shape[-1])
    return out.reshape(*cols.shape[: _N + 1], w.shape[-1])


def _input_kernel(w, dy, input_sizes, strides, dilations, explicit_paddings, padding):
    spatial, c = input_sizes[1:-1], input_sizes[-1]
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(spatial, explicit_paddings))
    dxp = np.zeros_like(dy, shape=(dy.shape[0], *padded, c))
    outs = dy.shape[1 : _N + 1]
    if dy.size and w.size:
        for offset in window.offsets(w.shape[:_N]):
            dxp[window.window_slots(offset, strides, dilations, outs)] += dy @ w[offset].T
    return window.crop(dxp, explicit_paddings)


def _filter_kernel(x, dy, filter_sizes, strides, dilations, explicit_paddings, padding):
    outs = dy.shape[1 : _N + 1]
    if 0 in outs:
        return np.zeros_like(dy, shape=filter_sizes)
    xp = window.pad(x, explicit_paddings)
    cols = window.patches(xp, filter_sizes[:_N], strides, dilations, outs)
    rows, taps = int(np.prod(cols.shape[: _N + 1])), int(np.prod(filter_sizes[:-1]))
    dw = cols.reshape(rows, taps).T @ dy.reshape(rows, filter_sizes[-1])
    return dw.reshape(filter_sizes)


def _forward_shape(metas, strides, dilations, explicit_paddings, padding):
    x, w = metas
    if w.shape is None or None in w.shape[:_N]:
        depth = None if w.shape is None else w.shape[-1]
        return [(None if x.shape is None else (x.shape[0], *(None,) * _N, depth), x.dtype)]
    out = window.out_shape(x.shape, w.shape[:_N], strides, dilations, explicit_paddings,
                           w.shape[-1])  # fmt: skip
    return [(out, x.dtype)]


def _input_shape(metas, input_sizes, **_):
    dy = metas[1]
    return [((None if dy.shape is None else dy.shape[0], *input_sizes[1:]), dy.dtype)]


def _filter_shape(metas, filter_sizes, **_):
    return [(tuple(filter_sizes), metas[1].dtype)]


_Conv3D = define_op("Conv3D", _forward_kernel, shape_fn=_forward_shape)
_Conv3DBackpropInputV2 = define_op("Conv3DBackpropInputV2", _input_kernel, shape_fn=_input_shape)
_Conv3DBackpropFilterV2 = define_op(
    "Conv3DBackpropFilterV2", _filter_kernel, shape_fn=_filter_shape
)


def _shape(t: Tensor) -> tuple:
    return tuple(t._value.shape)


def _attrs(op) -> dict:
    return {k: op.get_attr(k) for k in ("strides", "dilations", "explicit_paddings", "padding")}


def _backprop_input(sizes, w, dy, attrs, name=None):
    return execute(_Conv3DBackpropInputV2, (w, dy), {**attrs, "input_sizes": tuple(sizes)}, name)


def _backprop_filter(x, sizes, dy, attrs, name=None):
    return execute(_Conv3DBackpropFilterV2, (x, dy), {**attrs, "filter_sizes": tuple(sizes)},
                   name)  # fmt: skip


@op_gradient("Conv3D")
def _conv3d_grad(op, grad):
    x, w = op.inputs
    attrs = _attrs(op)
    return _backprop_input(_shape(x), w, grad, attrs), _backprop_filter(x, _shape(w), grad, attrs)


@op_gradient("Conv3DBackpropInputV2")
def _conv3d_input_grad(op, grad):
    w, dy = op.inputs
    attrs = _attrs(op)
    return _backprop_filter(grad, _shape(w), dy, attrs), execute(_Conv3D, (grad, w), attrs)


@op_gradient("Conv3DBackpropFilterV2")
def _conv3d_filter_grad(op, grad):
    x, dy = op.inputs
    attrs = _attrs(op)
    return _backprop_input(_shape(x), grad, dy, attrs), execute(_Conv3D, (x, grad), attrs)


def _window_attrs(op_type, sizes, ksize, strides, padding, dilations, first):
    strides = window.spatial(op_type, "strides", strides, _N, first)
    dilations = window.spatial(op_type, "dilations", 1 if dilations is None else dilations,
                               _N, first)  # fmt: skip
    pads, outs = window.resolve_padding(op_type, padding, sizes, ksize, strides, dilations, first)
    mode = padding if isinstance(padding, str) else "EXPLICIT"
    return {"strides": strides, "dilations": dilations, "explicit_paddings": pads,
            "padding": mode}, outs  # fmt: skip


_TO_LAST, _TO_FIRST = (0, 2, 3, 4, 1), (0, 4, 1, 2, 3)


def conv3d(
    input: TensorLike,
    filters: TensorLike,
    strides: int | Sequence[int],
    padding: str,
    data_format: str = "NDHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """3-D convolution of ``input`` [batch, depth, height, width, channels] with ``filters``
    [depth, height, width, in_channels, out_channels].

    >>> import retrograd as tf
    >>> tf.nn.conv3d(tf.ones([1, 3, 3, 3, 1]), tf.ones([2, 2, 2, 1, 2]), [1, 2, 2, 2, 1],
    ...              "SAME").shape
    TensorShape([1, 2, 2, 2, 2])
    """
    x, w = tensor_pair("Conv3D", input, filters, FLOAT)
    first = window.channels_first("Conv3D", data_format, _N)
    if x._value.ndim != 5 or w._value.ndim != 5:
        raise InvalidArgumentError(
            f"Conv3D: input and filters must be 5-D, got shapes {_shape(x)} and {_shape(w)}"
        )
    if first:
        x = array_ops.transpose(x, _TO_LAST)
    if _shape(x)[-1] != _shape(w)[3]:
        raise InvalidArgumentError(
            f"Conv3D: input depth {_shape(x)[-1]} must equal filter depth {_shape(w)[3]}"
        )
    attrs, _ = _window_attrs("Conv3D", _shape(x)[1:4], _shape(w)[:3], strides, padding,
                             dilations, first)  # fmt: skip
    y = execute(_Conv3D, (x, w), attrs, name)
    return array_ops.transpose(y, _TO_FIRST) if first else y


def conv3d_transpose(
    input: TensorLike,
    filters: TensorLike,
    output_shape: ShapeLike,
    strides: int | Sequence[int],
    padding: str = "SAME",
    data_format: str = "NDHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The transpose (gradient) of conv3d; ``filters`` [depth, height, width,
    output_channels, in_channels], ``output_shape`` the 5-D result shape.

    >>> import retrograd as tf
    >>> tf.nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 3, 1]),
    ...                        [1, 4, 4, 4, 3], 2).shape
    TensorShape([1, 4, 4, 4, 3])
    """
    op_type = "Conv3DBackpropInputV2"
    dy, w = tensor_pair(op_type, input, filters, FLOAT)
    first = window.channels_first(op_type, data_format, _N)
    sizes = broadcast.static_shape(output_shape, op_type)
    if dy._value.ndim != 5 or w._value.ndim != 5 or len(sizes) != 5:
        raise InvalidArgumentError(
            f"{op_type}: input, filters and output_shape must all be 5-D, got {_shape(dy)}, "
            f"{_shape(w)} and {list(sizes)}"
        )
    if first:
        dy = array_ops.transpose(dy, _TO_LAST)
        sizes = (sizes[0], *sizes[2:], sizes[1])
    if sizes[-1] != _shape(w)[3] or _shape(dy)[-1] != _shape(w)[4]:
        raise InvalidArgumentError(
            f"{op_type}: output_shape {list(sizes)} and input {_shape(dy)} do not match the "
            f"filters {_shape(w)} (output channels, input channels)"
        )
    attrs, outs = _window_attrs(op_type, sizes[1:4], _shape(w)[:3], strides, padding,
                                dilations, first)  # fmt: skip
    if outs != _shape(dy)[1:4]:
        raise InvalidArgumentError(
            f"{op_type}: conv3d would map output_shape {list(sizes)} to spatial size "
            f"{list(outs)}, but the input's spatial size is {list(_shape(dy)[1:4])}"
        )
    y = _backprop_input(sizes, w, dy, attrs, name)
    return array_ops.transpose(y, _TO_FIRST) if first else y


def conv3d_backprop_filter(
    input: TensorLike,
    filter_sizes: ShapeLike,
    out_backprop: TensorLike,
    strides: int | Sequence[int],
    padding: str,
    data_format: str = "NDHWC",
    dilations: int | Sequence[int] | None = (1, 1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The gradient of conv3d for its filters (TensorFlow 1's ``Conv3DBackpropFilterV2``):
    ``filter_sizes`` is the 5-D filter shape, ``out_backprop`` the gradient of the output.

    >>> import retrograd as tf
    >>> tf.compat.v1.nn.conv3d_backprop_filter(tf.ones([1, 3, 3, 3, 1]), [2, 2, 2, 1, 1],
    ...     tf.ones([1, 2, 2, 2, 1]), [1, 1, 1, 1, 1], "VALID").numpy().ravel().tolist()
    [8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0]
    """
    op_type = "Conv3DBackpropFilterV2"
    x, dy = tensor_pair(op_type, input, out_backprop, FLOAT)
    first = window.channels_first(op_type, data_format, _N)
    sizes = broadcast.static_shape(filter_sizes, op_type)
    if x._value.ndim != 5 or dy._value.ndim != 5 or len(sizes) != 5:
        raise InvalidArgumentError(
            f"{op_type}: input, filter_sizes and out_backprop must all be 5-D, got "
            f"{_shape(x)}, {list(sizes)} and {_shape(dy)}"
        )
    if first:
        x, dy = array_ops.transpose(x, _TO_LAST), array_ops.transpose(dy, _TO_LAST)
    if sizes[3] != _shape(x)[-1] or sizes[4] != _shape(dy)[-1]:
        raise InvalidArgumentError(
            f"{op_type}: filter_sizes {list(sizes)} do not match the input's {_shape(x)[-1]} "
            f"and out_backprop's {_shape(dy)[-1]} channels"
        )
    attrs, outs = _window_attrs(op_type, _shape(x)[1:4], tuple(sizes[:3]), strides, padding,
                                dilations, first)  # fmt: skip
    if outs != _shape(dy)[1:4]:
        raise InvalidArgumentError(
            f"{op_type}: out_backprop has spatial shape {list(_shape(dy)[1:4])}; the "
            f"convolution gives {list(outs)}"
        )
    return _backprop_filter(x, sizes, dy, attrs, name)
