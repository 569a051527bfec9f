"""The fused recurrent ops unfused: ``block_lstm_composite`` and ``block_gru_composite``
compute what ``rnn_ops.block_lstm_v2`` and ``rnn_ops.block_gru`` compute, as a loop of
retrograd ops a step, differentiable to any order. They are the reference the fused kernels
are tested against, and what the fused gradients' own gradients differentiate
(``autodiff/composite_rules.py``).

>>> import numpy as np, retrograd as rg
>>> from retrograd.ops import rnn_composite, rnn_ops
>>> x, h = rg.constant(np.ones((2, 1, 3))), rg.constant(np.zeros((1, 2)))
>>> w, u = rg.constant(np.full((3, 6), 0.1)), rg.constant(np.full((2, 6), 0.2))
>>> b = rg.zeros([2, 6], rg.float64)
>>> fused = rnn_ops.block_gru(x, h, w, u, b).h
>>> loop = rnn_composite.block_gru_composite(x, h, w, u, b).h
>>> bool(np.allclose(fused.numpy(), loop.numpy()))
True
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, join_ops, linalg_ops, math_ops
from retrograd.ops.rnn_ops import BlockGRUOutput, BlockLSTMOutput, _steps

__all__ = ["block_lstm_composite", "block_gru_composite"]


def block_lstm_composite(
    seq_len_max: int, x, cs_prev, h_prev, w, wci, wcf, wco, b, cell_clip=0.0, use_peephole=False
) -> BlockLSTMOutput:
    """:func:`block_lstm_v2` unfused: a loop of retrograd ops a step (``seq_len_max`` a
    Python int), differentiable to any order."""
    from retrograd.ops.clip_ops import clip_by_value

    steps = int(x.shape[0])
    u = int(w.shape[-1]) // 4
    length = _steps(seq_len_max, steps)
    c, hp, kept = cs_prev, h_prev, []
    for x_t in join_ops.unstack(x, axis=0)[:length]:
        g = linalg_ops.matmul(join_ops.concat([x_t, hp], 1), w) + b
        gi, gf, gc, go = (g[:, k * u : (k + 1) * u] for k in range(4))
        if use_peephole:
            gi, gf = gi + c * wci, gf + c * wcf
        i, f, ci = math_ops.sigmoid(gi), math_ops.sigmoid(gf), math_ops.tanh(gc)
        c = f * c + i * ci
        if cell_clip > 0:
            c = clip_by_value(c, -cell_clip, cell_clip)
        o = math_ops.sigmoid(go + c * wco if use_peephole else go)
        co = math_ops.tanh(c)
        hp = o * co
        kept.append((i, c, f, o, ci, co, hp))
    columns = []
    for k in range(7):
        parts = [array_ops.expand_dims(step[k], 0) for step in kept]
        columns.append(_padded(parts, cs_prev, steps - length))
    return BlockLSTMOutput(*columns)


def _padded(parts: list, like: Any, missing: int) -> Tensor:
    """The steps stacked, then ``missing`` steps of zeros shaped as ``like``."""
    zero = array_ops.zeros_like(array_ops.expand_dims(like, 0))
    return join_ops.concat(parts + [zero] * missing, 0)


def block_gru_composite(x, h_prev, w, u, b) -> BlockGRUOutput:
    """:func:`block_gru` unfused: a loop of retrograd ops a step, differentiable to any
    order."""
    units = int(u.shape[0])
    k = 2 * units
    hp, kept = h_prev, []
    for x_t in join_ops.unstack(x, axis=0):
        g = linalg_ops.matmul(x_t, w) + b[0]
        s = linalg_ops.matmul(hp, u) + b[1]
        z = math_ops.sigmoid(g[:, :units] + s[:, :units])
        r = math_ops.sigmoid(g[:, units:k] + s[:, units:k])
        n = s[:, k:]
        c = math_ops.tanh(g[:, k:] + r * n)
        hp = z * hp + (1 - z) * c
        kept.append((z, r, c, n, hp))
    columns = [join_ops.stack([step[j] for step in kept], 0) for j in range(5)]
    return BlockGRUOutput(*columns)
