"""3-D convolutions, depthwise/separable/atrous/transposed convolutions, pooling with
dilations, morphology and max_pool_with_argmax: values against direct NumPy loops, gradients
against finite differences to second order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

NN = rg.nn


def _conv_nd(x, w, stride=1, dilation=1):
    """VALID N-d cross-correlation, channels last, by loops."""
    n = w.ndim - 2
    spans = [(k - 1) * dilation + 1 for k in w.shape[:n]]
    outs = [(s - k) // stride + 1 for s, k in zip(x.shape[1 : n + 1], spans)]
    y = np.zeros((x.shape[0], *outs, w.shape[-1]))
    for pos in itertools.product(*(range(o) for o in outs)):
        for tap in itertools.product(*(range(k) for k in w.shape[:n])):
            idx = tuple(p * stride + t * dilation for p, t in zip(pos, tap))
            y[(slice(None), *pos)] += x[(slice(None), *idx)] @ w[tap]
    return y


def _depthwise(x, w):
    c, m = w.shape[2:]
    full = np.zeros((*w.shape[:2], c, c * m))
    for ch in range(c):
        full[:, :, ch, ch * m : (ch + 1) * m] = w[:, :, ch]
    return _conv_nd(x, full)


def _dilation(x, w):
    kh, kw, _ = w.shape
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.full((x.shape[0], oh, ow, x.shape[3]), -np.inf)
    for i, j in itertools.product(range(kh), range(kw)):
        out = np.maximum(out, x[:, i : i + oh, j : j + ow] + w[i, j])
    return out


CASES = [
    Case("Conv3D", lambda x, w: NN.conv3d(x, w, [1, 1, 1, 1, 1], "VALID"),
         ((1, 3, 3, 3, 2), (2, 2, 2, 2, 2)), lambda x, w: _conv_nd(x, w)),
    Case("Conv3D", lambda x, w: NN.conv3d(x, w, 2, "VALID"), ((2, 4, 3, 4, 1), (2, 1, 2, 1, 3)),
         lambda x, w: _conv_nd(x, w, stride=2)),
    Case("Conv3DBackpropInputV2",
         lambda y, w: NN.conv3d_transpose(y, w, [1, 3, 3, 3, 2], 1, "VALID"),
         ((1, 2, 2, 2, 1), (2, 2, 2, 2, 1)), None),
    Case("Conv2D", lambda x, w: NN.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID"),
         ((1, 3, 4, 2), (2, 2, 2, 2)), _depthwise),
    Case("Conv2D", lambda x, d, p: NN.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
         ((1, 3, 3, 2), (2, 2, 2, 1), (1, 1, 2, 3)),
         lambda x, d, p: _conv_nd(_depthwise(x, d), p)),
    Case("Conv2D", lambda x, w: NN.atrous_conv2d(x, w, 2, "VALID"), ((1, 5, 5, 1), (2, 2, 1, 2)),
         lambda x, w: _conv_nd(x, w, dilation=2)),
    Case("Conv2DBackpropInput",
         lambda y, w: NN.conv1d_transpose(y, w, [1, 5, 2], 2, "VALID"), ((1, 2, 1), (3, 2, 1)),
         None),
    Case("MaxPool", lambda x: NN.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 2]),
         ((1, 5, 5, 1),), None),
    Case("AvgPool", lambda x: NN.pool(x, [2], "AVG", strides=[2]), ((2, 6, 3),), None),
    Case("Max", lambda x, w: NN.dilation2d(x, w, 1, "VALID", "NHWC", 1), ((1, 3, 4, 2), (2, 2, 2)),
         _dilation),
    Case("Max", lambda x, w: NN.erosion2d(x, w, 1, "VALID", "NHWC", 1), ((1, 3, 3, 1), (2, 2, 1)),
         lambda x, w: -_dilation(-x, w[::-1, ::-1])),
]  # fmt: skip


@pytest.mark.parametrize("case", [c for c in CASES if c.reference], ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_depthwise_backprops_are_the_gradients():
    x = rg.constant(np.random.default_rng(0).normal(size=(1, 4, 4, 2)))
    w = rg.constant(np.random.default_rng(1).normal(size=(2, 2, 2, 3)))
    dy = rg.constant(np.random.default_rng(2).normal(size=(1, 3, 3, 6)))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = NN.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")
    gx, gw = tape.gradient(y, [x, w], output_gradients=dy)
    bx = NN.depthwise_conv2d_backprop_input([1, 4, 4, 2], w, dy, [1, 1, 1, 1], "VALID")
    bw = NN.depthwise_conv2d_backprop_filter(x, [2, 2, 2, 3], dy, [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(bx.numpy(), gx.numpy())
    np.testing.assert_allclose(bw.numpy(), gw.numpy())


def test_max_pool_with_argmax_indexes_the_input():
    x = rg.constant(np.random.default_rng(3).normal(size=(2, 4, 5, 3)), rg.float32)
    values, where = NN.max_pool_with_argmax(x, 2, 2, "SAME", include_batch_in_index=True)
    np.testing.assert_array_equal(values.numpy().ravel(), x.numpy().ravel()[where.numpy().ravel()])
    _, local = NN.max_pool_with_argmax(x, 2, 2, "SAME")
    np.testing.assert_array_equal(
        local.numpy() + np.arange(2)[:, None, None, None] * 60, where.numpy()
    )
