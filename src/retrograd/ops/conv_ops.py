"""Convolutions: conv1d, conv2d and conv2d_transpose, with TensorFlow's strides, SAME/VALID
(or explicit) padding and dilations.

Three op types are closed under differentiation, so every order works:

- ``Conv2D(x, w)``: the forward convolution (im2col: every window copied out of a strided
  view, then one matrix product with the filter);
- ``Conv2DBackpropInput(w, dy)``: its gradient for ``x``, also ``conv2d_transpose``;
- ``Conv2DBackpropFilter(x, dy)``: its gradient for ``w``.

Each is bilinear in its two inputs, and the gradient of each is built from the three.
conv1d is conv2d on a height-1 image, as in TensorFlow.

>>> import retrograd as rg
>>> x = rg.reshape(rg.constant([1.0, 2.0, 3.0, 4.0]), [1, 4, 1])
>>> rg.nn.conv1d(x, rg.ones([2, 1, 1]), stride=1, padding="VALID").numpy().ravel().tolist()
[3.0, 5.0, 7.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, window
from retrograd.ops.define import FLOAT, tensor_pair

# --- kernels (NHWC arrays; filters [height, width, in_channels, out_channels]) ------------


def _conv2d_kernel(x, w, strides, dilations, explicit_paddings, padding):
    xp = window.pad(x, explicit_paddings)
    spans = window.effective_size(w.shape[:2], dilations)
    outs = window.out_sizes(xp.shape[1:3], spans, strides)
    if 0 in outs:
        return np.zeros_like(x, shape=(x.shape[0], *outs, w.shape[3]))
    cols = window.patches(xp, w.shape[:2], strides, dilations, outs)  # (N, Ho, Wo, kh, kw, C)
    rows, taps = int(np.prod(cols.shape[:3])), int(np.prod(w.shape[:3]))
    out = cols.reshape(rows, taps) @ w.reshape(taps, w.shape[3])
    return out.reshape(*cols.shape[:3], w.shape[3])


def _conv2d_backprop_input_kernel(
    w, dy, input_sizes, strides, dilations, explicit_paddings, padding
):
    _, h, wd, c = input_sizes
    n = dy.shape[0]  # the batch of x is that of dy (and may be unknown when a graph is built)
    (top, bottom), (left, right) = explicit_paddings
    padded = (n, h + top + bottom, wd + left + right, c)
    if dy.size and w.size and tuple(strides) == (1, 1):
        return namespace_of(dy).ascontiguousarray(
            window.crop(_backprop_input_unit_stride(w, dy, padded, dilations), explicit_paddings)
        )
    dxp = np.zeros_like(dy, shape=padded)
    outs = dy.shape[1:3]
    if dy.size and w.size:
        for i, j in window.offsets(w.shape[:2]):  # col2im, one filter tap at a time
            dxp[window.window_slots((i, j), strides, dilations, outs)] += dy @ w[i, j].T
    return window.crop(dxp, explicit_paddings)


def _backprop_input_unit_stride(w, dy, padded, dilations):
    """The padded input's gradient of a stride-1 convolution, channels first: ``dy`` placed
    at the top-left of a zero array as wide as the padded input, flattened, makes every
    filter tap's contribution a contiguous run of positions shifted by the tap's offset.
    One product per filter row (``w`` rows times ``dy`` transposed, so each tap's block is
    ``(channels, positions)``) and one add per tap of long contiguous runs; returns a
    transposed view ``(n, hp, wp, c)``."""
    kh, kw, c, o = w.shape
    n, hp, wp, _ = padded
    ho, wo = dy.shape[1:3]
    rows = n * hp * wp
    shifts = [i * dilations[0] * wp + j * dilations[1] for i, j in window.offsets((kh, kw))]
    reach = rows - shifts[-1]  # positions whose every tap lands inside the array
    full = np.zeros_like(dy, shape=(n, hp, wp, o))
    full[:, :ho, :wo] = dy
    dy_t = full.reshape(rows, o)[:reach].T  # (o, reach): the product reads it transposed
    taps = w.reshape(kh, kw * c, o)
    dx_t = np.zeros_like(dy, shape=(c, rows))
    for i in range(kh):  # (a filter row at a time: a third of the memory of all taps)
        block = taps[i] @ dy_t  # (kw * c, reach)
        for j in range(kw):
            shift = shifts[i * kw + j]
            dx_t[:, shift : shift + reach] += block[j * c : (j + 1) * c]
    return dx_t.T.reshape(n, hp, wp, c)


def _conv2d_backprop_filter_kernel(
    x, dy, filter_sizes, strides, dilations, explicit_paddings, padding
):
    outs = dy.shape[1:3]
    if 0 in outs:
        return np.zeros_like(dy, shape=filter_sizes)
    xp = window.pad(x, explicit_paddings)
    cols = window.patches(xp, filter_sizes[:2], strides, dilations, outs)
    rows, taps = int(np.prod(cols.shape[:3])), int(np.prod(filter_sizes[:3]))
    dw = cols.reshape(rows, taps).T @ dy.reshape(rows, filter_sizes[3])
    return dw.reshape(filter_sizes)


# Shape functions, so that building a graph does not run the convolutions on dummy inputs.
def _conv2d_shape(metas, strides, dilations, explicit_paddings, padding):
    x, w = metas
    depth = None if w.shape is None else w.shape[3]
    ksize = (None, None) if w.shape is None else w.shape[:2]
    if None in ksize:
        return [(None if x.shape is None else (x.shape[0], None, None, depth), x.dtype)]
    return [
        (window.out_shape(x.shape, ksize, strides, dilations, explicit_paddings, depth), x.dtype)
    ]


def _backprop_input_shape(metas, input_sizes, **_):
    dy = metas[1]
    return [((None if dy.shape is None else dy.shape[0], *input_sizes[1:]), dy.dtype)]


def _backprop_filter_shape(metas, filter_sizes, **_):
    return [(tuple(filter_sizes), metas[1].dtype)]


_Conv2D = define_op("Conv2D", _conv2d_kernel, shape_fn=_conv2d_shape)
_Conv2DBackpropInput = define_op(
    "Conv2DBackpropInput", _conv2d_backprop_input_kernel, shape_fn=_backprop_input_shape
)
_Conv2DBackpropFilter = define_op(
    "Conv2DBackpropFilter", _conv2d_backprop_filter_kernel, shape_fn=_backprop_filter_shape
)


def _shape(t: Tensor) -> tuple[int, ...]:
    return tuple(t._value.shape)


def _attrs(op) -> dict:
    return {k: op.get_attr(k) for k in ("strides", "dilations", "explicit_paddings", "padding")}


def _backprop_input(input_sizes, w, dy, attrs, name=None):
    return execute(_Conv2DBackpropInput, (w, dy), {**attrs, "input_sizes": input_sizes}, name)


def _backprop_filter(x, filter_sizes, dy, attrs, name=None):
    return execute(_Conv2DBackpropFilter, (x, dy), {**attrs, "filter_sizes": filter_sizes}, name)


@op_gradient("Conv2D")
def _conv2d_grad(op, grad):
    x, w = op.inputs
    attrs = _attrs(op)
    skip = op.skip_input_indices  # (a first layer's input needs no gradient)
    return (
        None if 0 in skip else _backprop_input(_shape(x), w, grad, attrs),
        None if 1 in skip else _backprop_filter(x, _shape(w), grad, attrs),
    )


@op_gradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    # <grad, BackpropInput(w, dy)> = <Conv2D(grad, w), dy> = <w, BackpropFilter(grad, dy)>.
    w, dy = op.inputs
    attrs = _attrs(op)
    return _backprop_filter(grad, _shape(w), dy, attrs), execute(_Conv2D, (grad, w), attrs)


@op_gradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    # <grad, BackpropFilter(x, dy)> = <Conv2D(x, grad), dy> = <x, BackpropInput(grad, dy)>.
    x, dy = op.inputs
    attrs = _attrs(op)
    return _backprop_input(_shape(x), grad, dy, attrs), execute(_Conv2D, (x, grad), attrs)


# --- public functions -----------------------------------------------------------------------


def _check_depth(op_type: str, in_channels: int, filter_channels: int) -> None:
    if in_channels != filter_channels:
        raise InvalidArgumentError(
            f"{op_type}: input depth {in_channels} does not match the filter's in_channels "
            f"{filter_channels} (grouped convolutions are not supported)"
        )


def _window_attrs(op_type, sizes, ksize, strides, padding, dilations, first):
    strides = window.spatial(op_type, "strides", strides, 2, first)
    dilations = window.spatial(
        op_type, "dilations", 1 if dilations is None else dilations, 2, first
    )
    pads, outs = window.resolve_padding(op_type, padding, sizes, ksize, strides, dilations, first)
    mode = padding if isinstance(padding, str) else "EXPLICIT"
    attrs = {"strides": strides, "dilations": dilations, "explicit_paddings": pads, "padding": mode}
    return attrs, outs


def conv2d(
    input: TensorLike,
    filters: TensorLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str = "NHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """2-D convolution (cross-correlation) of ``input`` with ``filters``.

    ``input`` is ``[..., height, width, channels]`` (``NHWC``; ``NCHW`` is transposed to it),
    ``filters`` ``[height, width, in_channels, out_channels]``. ``padding`` is ``"SAME"``
    (output size ``ceil(size / stride)``, odd padding after), ``"VALID"`` or explicit
    ``[before, after]`` pairs for all four dimensions.

    >>> import retrograd as rg
    >>> rg.nn.conv2d(rg.ones([1, 3, 3, 1]), rg.ones([2, 2, 1, 1]), 1, "SAME")[0, :, :, 0].numpy()
    array([[4., 4., 2.],
           [4., 4., 2.],
           [2., 2., 1.]], dtype=float32)
    """
    x, w = tensor_pair("Conv2D", input, filters, FLOAT)
    first = window.channels_first("Conv2D", data_format, 2)
    shape = _shape(x)
    if len(shape) < 4:
        raise InvalidArgumentError(
            f"Conv2D: input must have rank >= 4 (batch, height, width, channels), got shape {shape}"
        )
    if w._value.ndim != 4:
        raise InvalidArgumentError(
            f"Conv2D: filters must have rank 4 (height, width, in_channels, out_channels), got "
            f"shape {_shape(w)}"
        )
    batch = shape[:-3]
    if len(batch) != 1:
        x = array_ops.reshape(x, (int(np.prod(batch, dtype=np.int64)), *shape[-3:]))
    if first:
        x = array_ops.transpose(x, (0, 2, 3, 1))
    n, h, wd, c = _shape(x)
    _check_depth("Conv2D", c, _shape(w)[2])
    attrs, _ = _window_attrs("Conv2D", (h, wd), _shape(w)[:2], strides, padding, dilations, first)
    y = execute(_Conv2D, (x, w), attrs, name)
    if first:
        y = array_ops.transpose(y, (0, 3, 1, 2))
    if len(batch) != 1:
        y = array_ops.reshape(y, (*batch, *_shape(y)[1:]))
    return y


def _unknown_batch(output_shape: Any) -> bool:
    """An output shape ``[batch, h, w, c]`` whose batch is None or a run-time scalar (a
    graph's ``tf.shape(x)[0]``), the rest known."""
    if not isinstance(output_shape, (list, tuple)) or not output_shape:
        return False
    batch = output_shape[0]
    return batch is None or (isinstance(batch, Tensor) and batch.shape.rank == 0)


def conv2d_transpose(
    input: TensorLike,
    filters: TensorLike,
    output_shape: ShapeLike,
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]] = "SAME",
    data_format: str = "NHWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The transpose (gradient) of conv2d: maps conv2d's output space back to its input space.

    ``filters`` is ``[height, width, output_channels, in_channels]``; ``output_shape`` is the
    4-D shape of the result, which must be one that conv2d with the same arguments maps to
    ``input``'s shape (its batch may be None or a run-time scalar: it is the input's).

    >>> import retrograd as rg
    >>> y = rg.nn.conv2d_transpose(rg.ones([1, 2, 2, 1]), rg.ones([3, 3, 1, 1]), [1, 4, 4, 1], 2)
    >>> y.shape
    TensorShape([1, 4, 4, 1])
    """
    dy, w = tensor_pair("Conv2DBackpropInput", input, filters, FLOAT)
    op_type = "Conv2DBackpropInput"
    first = window.channels_first(op_type, data_format, 2)
    if _unknown_batch(output_shape):  # the batch is the input's: taken from it when it runs
        sizes = (None, *broadcast.static_shape(list(output_shape[1:]), op_type))
    else:
        sizes = broadcast.static_shape(output_shape, op_type)
    if dy._value.ndim != 4 or w._value.ndim != 4 or len(sizes) != 4:
        raise InvalidArgumentError(
            f"{op_type}: input, filters and output_shape must all be 4-D, got input shape "
            f"{_shape(dy)}, filters shape {_shape(w)} and output_shape {list(sizes)}"
        )
    if first:
        dy = array_ops.transpose(dy, (0, 2, 3, 1))
        sizes = (sizes[0], sizes[2], sizes[3], sizes[1])
    kh, kw, out_channels, in_channels = _shape(w)
    _check_depth(op_type, _shape(dy)[3], in_channels)
    if sizes[0] not in (None, _shape(dy)[0]) or sizes[3] != out_channels:
        raise InvalidArgumentError(
            f"{op_type}: output_shape {list(sizes)} (as NHWC) must have the input's batch size "
            f"{_shape(dy)[0]} and the filters' output channels {out_channels}"
        )
    attrs, outs = _window_attrs(op_type, sizes[1:3], (kh, kw), strides, padding, dilations, first)
    if outs != _shape(dy)[1:3]:
        raise InvalidArgumentError(
            f"{op_type}: conv2d would map output_shape {list(sizes)} to spatial size "
            f"{list(outs)}, but the input's spatial size is {list(_shape(dy)[1:3])}"
        )
    y = _backprop_input(sizes, w, dy, attrs, name)
    return array_ops.transpose(y, (0, 3, 1, 2)) if first else y


def conv1d(
    input: TensorLike,
    filters: TensorLike,
    stride: int | Sequence[int],
    padding: str,
    data_format: str = "NWC",
    dilations: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """1-D convolution: ``input`` ``[..., width, channels]`` (``NWC``, or ``NCW``) with
    ``filters`` ``[width, in_channels, out_channels]``; computed as a height-1 conv2d.

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 2.0, 3.0, 4.0], [1, 4, 1])  # batch, width, channels
    >>> w = rg.reshape([1.0, -1.0], [2, 1, 1])  # width, in, out
    >>> rg.nn.conv1d(x, w, stride=1, padding='VALID')[0, :, 0].numpy().tolist()
    [-1.0, -1.0, -1.0]
    """
    x, w = tensor_pair("Conv1D", input, filters, FLOAT)
    first = window.channels_first("Conv1D", data_format, 1)
    if x._value.ndim < 3 or w._value.ndim != 3:
        raise InvalidArgumentError(
            f"Conv1D: input must have rank >= 3 and filters rank 3, got shapes {_shape(x)} and "
            f"{_shape(w)}"
        )
    if not isinstance(padding, str):
        raise ValueError(f"Conv1D: padding must be 'SAME' or 'VALID', got {padding!r}")
    (s,) = window.spatial("Conv1D", "stride", stride, 1, first)
    (d,) = window.spatial("Conv1D", "dilations", 1 if dilations is None else dilations, 1, first)
    axis = -2 if first else -3  # the new height axis
    y = conv2d(
        array_ops.expand_dims(x, axis),
        array_ops.expand_dims(w, 0),
        (1, s),
        padding,
        "NCHW" if first else "NHWC",
        (1, d),
        name,
    )
    return array_ops.squeeze(y, [axis])
