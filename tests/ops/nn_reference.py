"""Plain-loop NumPy references for convolution and pooling (written for clarity, not speed,
and independently of the kernels' sliding windows), and ``vjp`` to turn an op's gradient
into a function a table row can check.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

import retrograd as rg


def vjp(f, wrt=0):
    """``(*args, upstream) -> gradient of <f(*args), upstream>`` with respect to ``args[wrt]``.

    Calling it while a tape records makes the gradient ops of ``f`` part of the row.
    """

    def pulled_back(*args):
        *inputs, upstream = args
        with rg.GradientTape() as tape:
            tape.watch(inputs[wrt])
            out = f(*inputs)
        # (gather's gradient is an IndexedSlices, as in TensorFlow: used as its dense tensor)
        return rg.convert_to_tensor(tape.gradient(out, inputs[wrt], output_gradients=upstream))

    pulled_back.__name__ = f"vjp_{getattr(f, '__name__', 'f')}"
    return pulled_back


def geometry(sizes, ksize, strides, dilations, padding):
    """TensorFlow's (before, after) padding and output size per spatial axis."""
    pads, outs = [], []
    for i, (size, k, s, d) in enumerate(zip(sizes, ksize, strides, dilations)):
        span = (k - 1) * d + 1
        if padding == "SAME":
            out = math.ceil(size / s)
            total = max((out - 1) * s + span - size, 0)
            pads.append((total // 2, total - total // 2))
        else:
            lo, hi = (0, 0) if padding == "VALID" else padding[i + 1]  # NHWC pairs
            out = math.ceil((size + lo + hi - span + 1) / s)
            pads.append((lo, hi))
        outs.append(out)
    return pads, outs


def _positions(outs, ksize, strides, dilations):
    """(output index, window offset, padded input index) for every window element."""
    for o in itertools.product(*(range(n) for n in outs)):
        for k in itertools.product(*(range(n) for n in ksize)):
            yield o, k, tuple(oi * s + ki * d for oi, ki, s, d in zip(o, k, strides, dilations))


def _pad(x, pads, value=0.0):
    return np.pad(x, [(0, 0), *pads, (0, 0)], constant_values=value)


def _crop(xp, pads):
    return xp[(slice(None), *(slice(lo, xp.shape[i + 1] - hi) for i, (lo, hi) in enumerate(pads)))]


def conv2d(x, w, strides, padding, dilations=(1, 1)):
    pads, outs = geometry(x.shape[1:3], w.shape[:2], strides, dilations, padding)
    xp = _pad(x, pads)
    out = np.zeros((x.shape[0], *outs, w.shape[3]), x.dtype)
    for o, k, i in _positions(outs, w.shape[:2], strides, dilations):
        out[:, o[0], o[1]] += xp[:, i[0], i[1]] @ w[k]
    return out


def conv2d_backprop_input(input_shape, w, dy, strides, padding, dilations=(1, 1)):
    pads, outs = geometry(input_shape[1:3], w.shape[:2], strides, dilations, padding)
    dxp = np.zeros(
        (input_shape[0], *(s + lo + hi for s, (lo, hi) in zip(input_shape[1:3], pads)), w.shape[2]),
        dy.dtype,
    )
    for o, k, i in _positions(outs, w.shape[:2], strides, dilations):
        dxp[:, i[0], i[1]] += dy[:, o[0], o[1]] @ w[k].T
    return _crop(dxp, pads)


def conv2d_backprop_filter(x, filter_shape, dy, strides, padding, dilations=(1, 1)):
    pads, outs = geometry(x.shape[1:3], filter_shape[:2], strides, dilations, padding)
    xp = _pad(x, pads)
    dw = np.zeros(filter_shape, dy.dtype)
    for o, k, i in _positions(outs, filter_shape[:2], strides, dilations):
        dw[k] += xp[:, i[0], i[1]].T @ dy[:, o[0], o[1]]
    return dw


def _first_max(x, ksize, strides, padding):
    """For every output position: the padded input index of the window's first maximum."""
    n = len(ksize)
    pads, outs = geometry(x.shape[1:-1], ksize, strides, (1,) * n, padding)
    xp = _pad(x, pads, -np.inf)
    best = {}
    for o, _, i in _positions(outs, ksize, strides, (1,) * n):
        for b, c in itertools.product(range(x.shape[0]), range(x.shape[-1])):
            key = (b, *o, c)
            value = xp[(b, *i, c)]
            if key not in best or value > best[key][0]:
                best[key] = (value, (b, *i, c))
    return pads, outs, best


def max_pool(x, ksize, strides, padding):
    _, outs, best = _first_max(x, ksize, strides, padding)
    out = np.zeros((x.shape[0], *outs, x.shape[-1]), x.dtype)
    for key, (value, _) in best.items():
        out[key] = value
    return out


def max_pool_grad(x, dy, ksize, strides, padding):
    pads, _, best = _first_max(x, ksize, strides, padding)
    dxp = np.zeros(_pad(x, pads).shape, dy.dtype)
    for key, (_, where) in best.items():
        dxp[where] += dy[key]
    return _crop(dxp, pads)


def max_pool_grad_grad(x, g, ksize, strides, padding):
    pads, outs, best = _first_max(x, ksize, strides, padding)
    gp = _pad(g, pads)
    out = np.zeros((x.shape[0], *outs, x.shape[-1]), g.dtype)
    for key, (_, where) in best.items():
        out[key] = gp[where]
    return out


def avg_pool(x, ksize, strides, padding):
    n = len(ksize)
    pads, outs = geometry(x.shape[1:-1], ksize, strides, (1,) * n, padding)
    xp, inside = _pad(x, pads), _pad(np.ones_like(x), pads)
    total = np.zeros((x.shape[0], *outs, x.shape[-1]), x.dtype)
    count = np.zeros_like(total)
    for o, _, i in _positions(outs, ksize, strides, (1,) * n):
        total[(slice(None), *o)] += xp[(slice(None), *i)]
        count[(slice(None), *o)] += inside[(slice(None), *i)]
    return total / count


def avg_pool_grad(x_shape, dy, ksize, strides, padding):
    n = len(ksize)
    pads, outs = geometry(x_shape[1:-1], ksize, strides, (1,) * n, padding)
    inside = _pad(np.ones(x_shape, dy.dtype), pads)
    count = np.zeros(dy.shape, dy.dtype)
    for o, _, i in _positions(outs, ksize, strides, (1,) * n):
        count[(slice(None), *o)] += inside[(slice(None), *i)]
    dxp = np.zeros(inside.shape, dy.dtype)
    for o, _, i in _positions(outs, ksize, strides, (1,) * n):
        dxp[(slice(None), *i)] += dy[(slice(None), *o)] / count[(slice(None), *o)]
    return _crop(dxp, pads)
