"""Max and average pooling over 1, 2 or 3 spatial dimensions, with TensorFlow's SAME/VALID
padding.

Op types (2-D; the 3-D ones carry a ``3D`` suffix, 1-D pools a height-1 image):
``MaxPool(x)`` → its gradient ``MaxPoolGrad(x, y, dy)`` routes each window's gradient to
the window's first maximum in row-major order, as TensorFlow does with ties; the gradient of
that is ``MaxPoolGradGrad(x, y, g)`` (picks ``g`` at the same positions), whose gradient is
``MaxPoolGrad`` again. ``AvgPool(x)`` and ``AvgPoolGrad(dy)`` are each other's gradients;
SAME windows average only the elements inside the input.

>>> import retrograd as rg
>>> x = rg.reshape(rg.constant([1.0, 5.0, 2.0, 4.0]), [1, 4, 1])
>>> rg.nn.max_pool(x, 2, 2, "VALID").numpy().ravel().tolist()
[5.0, 4.0]
>>> rg.nn.avg_pool(x, 3, 3, "SAME").numpy().ravel().tolist()  # (1 + 5) / 2, (2 + 4) / 2
[3.0, 3.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, window
from retrograd.ops.define import FLOAT, REAL, tensor_arg

# --- kernels: channels-last arrays, any number of spatial axes -------------------------------


def _lowest(dtype: np.dtype) -> Any:
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _window_axes(n: int) -> tuple[int, ...]:
    return tuple(range(-n, 0))


def _unit(n: int) -> tuple[int, ...]:
    return (1,) * n


def _outs(x_shape, ksize, strides, pads) -> tuple[int, ...]:
    padded = tuple(size + lo + hi for size, (lo, hi) in zip(x_shape[1:-1], pads))
    return window.out_sizes(padded, ksize, strides)


def _max_pool_kernel(x, ksize, strides, explicit_paddings, padding):
    outs = _outs(x.shape, ksize, strides, explicit_paddings)
    if 0 in outs:
        return np.zeros_like(x, shape=(x.shape[0], *outs, x.shape[-1]))
    xp = window.pad(x, explicit_paddings, _lowest(x.dtype))
    cols = window.windows(xp, ksize, strides, _unit(len(ksize)), outs)
    return cols.max(axis=_window_axes(len(ksize)))


def _first_max(x, ksize, strides, pads, outs):
    """The row-major position inside each window of the window's first maximum."""
    xp = window.pad(x, pads, _lowest(x.dtype))
    cols = window.windows(xp, ksize, strides, _unit(len(ksize)), outs)
    return np.argmax(cols.reshape(*cols.shape[: -len(ksize)], -1), axis=-1)


def _padded_zeros(dy, shape, pads):
    """Zeros shaped like the padded input; the batch is dy's (it may be unknown in a graph)."""
    spatial = (size + lo + hi for size, (lo, hi) in zip(shape[1:-1], pads))
    return np.zeros_like(dy, shape=(dy.shape[0], *spatial, shape[-1]))


def _tiled_max_pool_grad(x, dy, ksize, outs):
    """MaxPoolGrad when the windows tile the input (stride == window, no padding): ``x``
    reshaped so each window position is an axis, and each window's gradient written to
    the first position (row-major) that holds its maximum, one position at a time; None
    when a window's maximum is NaN (the general path routes those)."""
    n, channels = x.shape[0], x.shape[-1]
    covered = tuple(o * k for o, k in zip(outs, ksize))
    crop = (slice(None), *(slice(0, c) for c in covered), slice(None))
    split = (n, *(d for o, k in zip(outs, ksize) for d in (o, k)), channels)
    tiles = x[crop].reshape(split)  # (n, o0, k0, o1, k1, ..., channels)
    window_axes = tuple(range(2, 2 * len(ksize) + 1, 2))
    top = tiles.max(axis=window_axes)
    if top.dtype.kind == "f" and np.isnan(top).any():
        return None
    dx = np.zeros_like(dy, shape=x.shape)
    whole = covered == x.shape[1:-1]  # (then dx reshapes to a view)
    dx_tiles = dx.reshape(split) if whole else np.zeros_like(dy, shape=split)
    taken = None
    for offset in window.offsets(ksize):
        index = (slice(None), *(p for i in offset for p in (slice(None), i)), slice(None))
        hit = np.equal(tiles[index], top)
        if taken is None:
            taken = hit
        else:
            np.greater(hit, taken, out=hit)  # a maximum not taken by an earlier position
            taken |= hit
        np.copyto(dx_tiles[index], dy, where=hit)
    if not whole:
        dx[crop] = dx_tiles.reshape(x[crop].shape)
    return dx


def _max_pool_grad_kernel(x, y, dy, ksize, strides, explicit_paddings, padding):
    outs = dy.shape[1:-1]
    tiled = tuple(strides) == tuple(ksize) and not any(lo or hi for lo, hi in explicit_paddings)
    if tiled and dy.size:
        dx = _tiled_max_pool_grad(x, dy, ksize, outs)
        if dx is not None:
            return dx
    dxp = _padded_zeros(dy, x.shape, explicit_paddings)
    if dy.size:
        chosen = _first_max(x, ksize, strides, explicit_paddings, outs)
        zero = dy.dtype.type(0)
        for k, offset in enumerate(window.offsets(ksize)):
            slots = window.window_slots(offset, strides, _unit(len(ksize)), outs)
            dxp[slots] += np.where(chosen == k, dy, zero)
    return window.crop(dxp, explicit_paddings)


def _max_pool_grad_grad_kernel(x, y, g, ksize, strides, explicit_paddings, padding):
    outs = y.shape[1:-1]
    if y.size == 0:
        return np.zeros_like(g, shape=y.shape)
    chosen = _first_max(x, ksize, strides, explicit_paddings, outs)
    cols = window.windows(window.pad(g, explicit_paddings), ksize, strides, _unit(len(ksize)), outs)
    flat = cols.reshape(*cols.shape[: -len(ksize)], -1)
    return np.take_along_axis(flat, chosen[..., None], axis=-1)[..., 0]


def _counts(like, spatial, ksize, strides, pads, outs):
    """How many input (not padding) elements each window covers: the SAME average's divisor."""
    ones = window.pad(np.ones_like(like, shape=(1, *spatial, 1)), pads)
    cols = window.windows(ones, ksize, strides, _unit(len(ksize)), outs)
    return cols.sum(axis=_window_axes(len(ksize)))


def _avg_pool_kernel(value, ksize, strides, explicit_paddings, padding):
    outs = _outs(value.shape, ksize, strides, explicit_paddings)
    if 0 in outs:
        return np.zeros_like(value, shape=(value.shape[0], *outs, value.shape[-1]))
    cols = window.windows(
        window.pad(value, explicit_paddings), ksize, strides, _unit(len(ksize)), outs
    )
    counts = _counts(value, value.shape[1:-1], ksize, strides, explicit_paddings, outs)
    return (cols.sum(axis=_window_axes(len(ksize))) / counts).astype(value.dtype, copy=False)


def _avg_pool_grad_kernel(dy, orig_input_shape, ksize, strides, explicit_paddings, padding):
    outs = dy.shape[1:-1]
    dxp = _padded_zeros(dy, orig_input_shape, explicit_paddings)
    if dy.size:
        counts = _counts(dy, orig_input_shape[1:-1], ksize, strides, explicit_paddings, outs)
        share = (dy / counts).astype(dy.dtype, copy=False)
        for offset in window.offsets(ksize):
            dxp[window.window_slots(offset, strides, _unit(len(ksize)), outs)] += share
    return window.crop(dxp, explicit_paddings)


# Shape functions, so that building a graph does not run the pools on dummy inputs.
def _pooled_shape(metas, ksize, strides, explicit_paddings, padding):
    x = metas[0]
    unit = _unit(len(ksize))
    return [(window.out_shape(x.shape, ksize, strides, unit, explicit_paddings, None), x.dtype)]


def _input_shape(metas, **_):  # MaxPoolGrad: shaped like x; MaxPoolGradGrad: like y
    return [(metas[0].shape, metas[2].dtype)]


def _output_shape(metas, **_):
    return [(metas[1].shape, metas[2].dtype)]


def _avg_pool_grad_shape(metas, orig_input_shape, **_):
    dy = metas[0]
    return [((None if dy.shape is None else dy.shape[0], *orig_input_shape[1:]), dy.dtype)]


class _PoolOps:
    """The five op types of pooling over 2 (suffix "") or 3 (suffix "3D") spatial axes."""

    def __init__(self, suffix: str) -> None:
        def op(name, kernel, shape_fn):
            return define_op(name.format(suffix), kernel, shape_fn=shape_fn)

        self.max = op("MaxPool{}", _max_pool_kernel, _pooled_shape)
        self.max_grad = op("MaxPool{}Grad", _max_pool_grad_kernel, _input_shape)
        self.max_grad_grad = op("MaxPool{}GradGrad", _max_pool_grad_grad_kernel, _output_shape)
        self.avg = op("AvgPool{}", _avg_pool_kernel, _pooled_shape)
        self.avg_grad = op("AvgPool{}Grad", _avg_pool_grad_kernel, _avg_pool_grad_shape)


_OPS = {2: _PoolOps(""), 3: _PoolOps("3D")}


def _attrs(op) -> dict:
    return {k: op.get_attr(k) for k in ("ksize", "strides", "explicit_paddings", "padding")}


def _ops(op) -> _PoolOps:
    return _OPS[len(op.get_attr("ksize"))]


def _max_pool_grad(op, grad):
    return execute(_ops(op).max_grad, (op.inputs[0], op.outputs[0], grad), _attrs(op))


def _max_pool_grad_grad(op, grad):
    # Where the maximum sits does not move under small changes of x: no gradient for x or y.
    x, y, _ = op.inputs
    out = execute(_ops(op).max_grad_grad, (x, y, grad), _attrs(op))
    return array_ops.zeros_like(x), array_ops.zeros_like(y), out


def _max_pool_grad_grad_grad(op, grad):
    x, y, _ = op.inputs
    out = execute(_ops(op).max_grad, (x, y, grad), _attrs(op))
    return array_ops.zeros_like(x), array_ops.zeros_like(y), out


def _avg_pool_grad(op, grad):
    attrs = {**_attrs(op), "orig_input_shape": tuple(op.inputs[0]._value.shape)}
    return execute(_ops(op).avg_grad, (grad,), attrs)


def _avg_pool_grad_grad(op, grad):
    return execute(_ops(op).avg, (grad,), _attrs(op))


for _suffix in ("", "3D"):
    op_gradient(f"MaxPool{_suffix}")(_max_pool_grad)
    op_gradient(f"MaxPool{_suffix}Grad")(_max_pool_grad_grad)
    op_gradient(f"MaxPool{_suffix}GradGrad")(_max_pool_grad_grad_grad)
    op_gradient(f"AvgPool{_suffix}")(_avg_pool_grad)
    op_gradient(f"AvgPool{_suffix}Grad")(_avg_pool_grad_grad)


# --- public functions -----------------------------------------------------------------------


def _pool(kind, input, ksize, strides, padding, data_format, name, rank=None):
    op_type = "MaxPool" if kind == "max" else "AvgPool"
    x = tensor_arg(op_type, input, REAL if kind == "max" else FLOAT, "input")
    r = x._value.ndim
    if (rank is not None and r != rank) or not 3 <= r <= 5:
        expected = rank if rank is not None else "3, 4 or 5"
        raise InvalidArgumentError(
            f"{op_type}: input must have rank {expected} (batch, spatial..., channels), got "
            f"shape {tuple(x._value.shape)}"
        )
    n = r - 2
    first = window.channels_first(op_type, data_format, n)
    if kind == "avg" and not isinstance(padding, str):
        raise ValueError(f"{op_type}: padding must be 'SAME' or 'VALID', got {padding!r}")
    ksize = window.spatial(op_type, "ksize", ksize, n, first)
    strides = window.spatial(op_type, "strides", strides, n, first)
    if first:
        x = array_ops.transpose(x, (0, *range(2, r), 1))
    sizes = tuple(x._value.shape[1:-1])
    pads, _ = window.resolve_padding(op_type, padding, sizes, ksize, strides, _unit(n), first)
    if n == 1:  # a height-1 image, as TensorFlow pools 1-D
        x = array_ops.expand_dims(x, 1)
        ksize, strides, pads = (1, *ksize), (1, *strides), ((0, 0), *pads)
    mode = padding if isinstance(padding, str) else "EXPLICIT"
    attrs = {"ksize": ksize, "strides": strides, "explicit_paddings": pads, "padding": mode}
    ops = _OPS[len(ksize)]
    y = execute(ops.max if kind == "max" else ops.avg, (x,), attrs, name)
    if n == 1:
        y = array_ops.squeeze(y, [1])
    if first:
        y = array_ops.transpose(y, (0, r - 1, *range(1, r - 1)))
    return y


def max_pool(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = None,
    name: str | None = None,
) -> Tensor:
    """The maximum of each window over the spatial axes of a rank 3, 4 or 5 ``input``.

    ``ksize`` and ``strides`` are one int, one per spatial axis, or one per axis with 1 for
    batch and channels. ``padding``: ``"SAME"``, ``"VALID"`` or explicit pairs. The gradient
    goes to the first maximum of each window (row-major), as in TensorFlow.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.nn.max_pool(x, 2, 2, 'VALID')[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    return _pool("max", input, ksize, strides, padding, data_format, name)


def avg_pool(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str,
    data_format: str | None = None,
    name: str | None = None,
) -> Tensor:
    """The mean of each window; SAME windows at the border average only real elements.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.nn.avg_pool(x, 2, 2, 'VALID')[0, :, :, 0].numpy().tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    """
    return _pool("avg", input, ksize, strides, padding, data_format, name)


def max_pool1d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NWC",
    name: str | None = None,
) -> Tensor:
    """max_pool of a rank-3 ``input`` (``NWC`` or ``NCW``).

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 2.0], [1, 4, 1])
    >>> rg.nn.max_pool1d(x, 2, 1, 'SAME')[0, :, 0].numpy().tolist()
    [3.0, 5.0, 5.0, 2.0]
    """
    return _pool("max", input, ksize, strides, padding, data_format, name, rank=3)


def max_pool2d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NHWC",
    name: str | None = None,
) -> Tensor:
    """max_pool of a rank-4 ``input`` (``NHWC`` or ``NCHW``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.nn.max_pool2d(x, 2, 2, 'VALID')[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    return _pool("max", input, ksize, strides, padding, data_format, name, rank=4)


def max_pool3d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str | None = "NDHWC",
    name: str | None = None,
) -> Tensor:
    """max_pool of a rank-5 ``input`` (``NDHWC`` or ``NCDHW``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.nn.max_pool3d(x, 2, 2, 'VALID').numpy().ravel().tolist()
    [7.0]
    """
    return _pool("max", input, ksize, strides, padding, data_format, name, rank=5)


def avg_pool1d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str,
    data_format: str | None = "NWC",
    name: str | None = None,
) -> Tensor:
    """avg_pool of a rank-3 ``input`` (``NWC`` or ``NCW``).

    >>> import retrograd as rg
    >>> x = rg.reshape([1.0, 3.0, 5.0, 7.0], [1, 4, 1])
    >>> rg.nn.avg_pool1d(x, 2, 2, 'VALID')[0, :, 0].numpy().tolist()
    [2.0, 6.0]
    """
    return _pool("avg", input, ksize, strides, padding, data_format, name, rank=3)


def avg_pool2d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str,
    data_format: str | None = "NHWC",
    name: str | None = None,
) -> Tensor:
    """avg_pool of a rank-4 ``input`` (``NHWC`` or ``NCHW``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> rg.nn.avg_pool2d(x, 2, 2, 'VALID')[0, :, :, 0].numpy().tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    """
    return _pool("avg", input, ksize, strides, padding, data_format, name, rank=4)


def avg_pool3d(
    input: TensorLike,
    ksize: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str,
    data_format: str | None = "NDHWC",
    name: str | None = None,
) -> Tensor:
    """avg_pool of a rank-5 ``input`` (``NDHWC`` or ``NCDHW``).

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(8.0), [1, 2, 2, 2, 1])
    >>> rg.nn.avg_pool3d(x, 2, 2, 'VALID').numpy().ravel().tolist()
    [3.5]
    """
    return _pool("avg", input, ksize, strides, padding, data_format, name, rank=5)
