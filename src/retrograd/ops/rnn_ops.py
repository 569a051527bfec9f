"""Fused recurrent ops: ``BlockLSTMV2`` (TensorFlow's LSTM over a whole sequence, gates in
Keras' order i, f, c, o) and ``BlockGRU`` (the GRU Keras 3 runs by default,
``reset_after=True``: the reset gate applies after the recurrent product, as cuDNN's GRU),
with their backward ops ``BlockLSTMGradV2`` and ``BlockGRUGrad``.

Inputs are time-major: ``x`` [time, batch, features]. A forward projects the whole sequence
at once (``x @ kernel + bias``: one matmul call), then makes one matmul call a step for
every gate's recurrent product (``h @ recurrent_kernel``, a GEMM a gate) and updates the
gates elementwise into buffers it allocated, each gate a contiguous block. The backward
walks the steps in reverse with one matmul call a step for the state's gradient and keeps
every gate's gradient, then makes each weight's gradient in one matmul call over the whole
sequence. It reads the gates and states the forward kept; it recomputes nothing.

The backward ops' own gradients (second order) differentiate the unfused formulation of the
same sequence (:func:`block_lstm_composite`, :func:`block_gru_composite`, written with
retrograd ops), registered in ``autodiff/composite_rules.py``.

>>> import numpy as np, retrograd as rg
>>> from retrograd.ops import rnn_ops
>>> x = rg.ones([5, 2, 3])  # 5 steps, 2 sequences, 3 features
>>> h = rnn_ops.block_gru(x, rg.zeros([2, 4]), rg.ones([3, 12]) * 0.1,
...                      rg.zeros([4, 12]), rg.zeros([2, 12])).h
>>> h.shape.as_list()
[5, 2, 4]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops
from retrograd.ops.define import FLOAT, tensor_arg

__all__ = [
    "BlockLSTMOutput",
    "BlockGRUOutput",
    "block_lstm_v2",
    "block_gru",
]


class BlockLSTMOutput(NamedTuple):
    """What :func:`block_lstm_v2` returns, each [time, batch, units]: the gates ``i``,
    ``f``, ``o``, the cell input ``ci``, the cell state ``cs``, ``co = tanh(cs)`` and the
    output ``h``."""

    i: Tensor
    cs: Tensor
    f: Tensor
    o: Tensor
    ci: Tensor
    co: Tensor
    h: Tensor


class BlockGRUOutput(NamedTuple):
    """What :func:`block_gru` returns, each [time, batch, units]: the update gate ``z``, the
    reset gate ``r``, the candidate ``c``, the candidate's recurrent product ``n`` (before
    the reset gate) and the output ``h``."""

    z: Tensor
    r: Tensor
    c: Tensor
    n: Tensor
    h: Tensor


def _sigmoid(z: Any, out: Any) -> Any:
    """1 / (1 + exp(-z)) into ``out`` (exp may overflow to inf: the op is quiet)."""
    np.negative(z, out=out)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def _empty(like: Any, shape: tuple) -> Any:
    """A C-ordered buffer of ``shape`` and ``like``'s dtype, on ``like``'s device."""
    return np.empty_like(like, order="C", shape=shape)


def _zeros(like: Any, shape: tuple) -> Any:
    """Zeros of ``shape`` and ``like``'s dtype, C-ordered, on ``like``'s device."""
    return np.zeros_like(like, order="C", shape=shape)


def _steps(seq_len_max: Any, steps: int) -> int:
    return max(0, min(int(seq_len_max), steps))


def _previous(first: Any, sequence: Any) -> Any:
    """Each step's previous value, ``first`` then ``sequence[:-1]``, stacked."""
    return np.concatenate([first[None], sequence[:-1]])


# --- LSTM --------------------------------------------------------------------------------


# The kernels keep each gate in a block of its own ([gates, time, batch, units], one
# [batch, units] block a gate and step), so that every elementwise step reads and writes
# contiguous arrays; a step's recurrent product is one batched matmul (a GEMM a gate).


def _gate_blocks(kernel: Any, order: tuple, transpose: bool = False, gates: int = 4) -> Any:
    """``kernel`` [rows, gates * units] as [gates, rows, units] in ``order`` (or
    [gates, units, rows])."""
    u = kernel.shape[-1] // gates
    blocks = [kernel[:, k * u : (k + 1) * u] for k in order]
    return np.stack([b.T for b in blocks] if transpose else blocks)


def _lstm_kernel(seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, *, cell_clip, use_peephole):
    steps, batch, features = x.shape
    u = cs_prev.shape[-1]
    n = _steps(seq_len_max, steps)
    order = (0, 1, 3, 2)  # i, f, o (the sigmoids), then c
    pre = np.matmul(x[:n].reshape(n * batch, features), _gate_blocks(w[:features], order))
    pre = pre.reshape(4, n, batch, u)
    pre += b.reshape(4, 1, 1, u)[list(order)]
    recurrent = _gate_blocks(w[features:], order)
    act = _empty(x, (4, steps, batch, u))  # i, f, o, ci
    cs, co, h = (_empty(x, (steps, batch, u)) for _ in range(3))
    for buffer in (act[:, n:], cs[n:], co[n:], h[n:]):
        buffer[...] = 0
    product = _empty(x, (4, batch, u))
    c, hp = cs_prev, h_prev
    sigmoids = 2 if use_peephole else 3  # (with peepholes, o waits for the cell)
    for t in range(n):
        g, a, ct = pre[:, t], act[:, t], cs[t]
        np.matmul(hp, recurrent, out=product)
        g += product
        if use_peephole:
            g[0] += c * wci
            g[1] += c * wcf
        _sigmoid(g[:sigmoids], a[:sigmoids])
        np.tanh(g[3], out=a[3])
        np.multiply(a[1], c, out=ct)
        np.multiply(a[0], a[3], out=product[0])
        ct += product[0]
        if cell_clip > 0:
            np.clip(ct, -cell_clip, cell_clip, out=ct)
        if use_peephole:
            g[2] += ct * wco
            _sigmoid(g[2], a[2])
        np.tanh(ct, out=co[t])
        np.multiply(a[2], co[t], out=h[t])
        c, hp = ct, h[t]
    return act[0], cs, act[1], act[2], act[3], co, h


def _lstm_grad_kernel(
    seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, i, cs, f, o, ci, co, h, cs_grad, h_grad,
    *gate_grads, use_peephole, cell_clip,
):  # fmt: skip
    steps, batch, features = x.shape
    u = cs_prev.shape[-1]
    n = _steps(seq_len_max, steps)
    i_grad, f_grad, o_grad, ci_grad, co_grad = gate_grads or (None,) * 5
    dgates = _empty(x, (4, steps, batch, u))  # i, f, c, o
    dgates[:, n:] = 0
    dh, tmp = (
        _empty(x, (batch, u)),
        _empty(x, (batch, u)),
    )
    dcs, dh_rec = (
        _zeros(x, (batch, u)),
        _zeros(x, (batch, u)),
    )
    product = _empty(x, (4, batch, u))
    recurrent_t = _gate_blocks(w[features:], (0, 1, 2, 3), transpose=True)
    cs_grad = cs_grad if cs_grad[:n].any() else None  # (Keras' layers give it none)
    for t in reversed(range(n)):
        c_prev = cs[t - 1] if t else cs_prev
        dgi, dgf, dgc, dgo = dgates[:, t]
        o_t, co_t = o[t], co[t]
        np.add(h_grad[t], dh_rec, out=dh)
        if cs_grad is not None:
            dcs += cs_grad[t]
        np.multiply(dh, co_t, out=dgo)  # output gate
        if o_grad is not None:
            dgo += o_grad[t]
        np.subtract(1, o_t, out=tmp)
        tmp *= o_t
        dgo *= tmp
        np.multiply(co_t, co_t, out=tmp)  # cell state, through tanh(cs)
        np.subtract(1, tmp, out=tmp)
        if co_grad is not None:
            dcs += co_grad[t] * tmp
        tmp *= o_t
        tmp *= dh
        dcs += tmp
        if use_peephole:
            dcs += dgo * wco
        if cell_clip > 0:
            dcs *= np.abs(cs[t]) < cell_clip
        np.multiply(dcs, ci[t], out=dgi)
        np.multiply(dcs, c_prev, out=dgf)
        np.multiply(dcs, i[t], out=dgc)
        for d, gate, extra in ((dgi, i[t], i_grad), (dgf, f[t], f_grad)):
            if extra is not None:
                d += extra[t]
            np.subtract(1, gate, out=tmp)
            tmp *= gate
            d *= tmp
        if ci_grad is not None:
            dgc += ci_grad[t]
        np.multiply(ci[t], ci[t], out=tmp)
        np.subtract(1, tmp, out=tmp)
        dgc *= tmp
        dcs *= f[t]
        if use_peephole:
            dcs += dgi * wci + dgf * wcf
        np.matmul(dgates[:, t], recurrent_t, out=product)
        np.sum(product, axis=0, out=dh_rec)
    flat = dgates.reshape(4, steps * batch, u)
    x_flat = x.reshape(-1, features)
    dw_blocks = np.concatenate(
        [np.matmul(x_flat.T, flat), np.matmul(_previous(h_prev, h).reshape(-1, u).T, flat)], 1
    )  # [4, features + units, units]
    dw = dw_blocks.transpose(1, 0, 2).reshape(w.shape)
    inputs_t = _gate_blocks(w[:features], (0, 1, 2, 3), transpose=True)
    dx = np.matmul(flat, inputs_t).sum(0).reshape(x.shape)
    db = flat.sum(1).reshape(-1)
    if use_peephole:
        before = _previous(cs_prev, cs[:n])
        dwci = np.einsum("tbu,tbu->u", dgates[0, :n], before)
        dwcf = np.einsum("tbu,tbu->u", dgates[1, :n], before)
        dwco = np.einsum("tbu,tbu->u", dgates[3, :n], cs[:n])
    else:
        dwci, dwcf, dwco = np.zeros_like(wci), np.zeros_like(wcf), np.zeros_like(wco)
    return dx, dcs, dh_rec, dw, dwci, dwcf, dwco, db


def _lstm_meta(metas, **_):
    x, cs_prev = metas[1].shape, metas[2].shape
    steps, batch = (None, None) if x is None else x[:2]
    units = None if cs_prev is None else cs_prev[-1]
    if batch is None and cs_prev is not None:
        batch = cs_prev[0]
    return [((steps, batch, units), metas[1].dtype)] * 7


def _grad_meta(count: int):
    return lambda metas, **_: [(m.shape, m.dtype) for m in metas[1 : count + 1]]


_BlockLSTMV2 = define_op(
    "BlockLSTMV2", _lstm_kernel, multi_output=True, quiet=True, shape_fn=_lstm_meta,
    missing_upstream="none",
)  # fmt: skip
_BlockLSTMGradV2 = define_op(
    "BlockLSTMGradV2", _lstm_grad_kernel, multi_output=True, shape_fn=_grad_meta(8),
    missing_upstream="none",
)  # fmt: skip


def _check(op_type: str, **arrays: Any) -> dict:
    """Converts the float arguments; all of one dtype."""
    out = {k: tensor_arg(op_type, v, FLOAT, k) for k, v in arrays.items()}
    dtypes = {t.dtype for t in out.values()}
    if len(dtypes) > 1:
        got = ", ".join(f"{k}: {t.dtype.name}" for k, t in out.items())
        raise InvalidArgumentError(f"{op_type}: every input must have one dtype, got {got}")
    x = out["x"]
    if x.shape.rank is not None and x.shape.rank != 3:
        raise InvalidArgumentError(
            f"{op_type}: x must be [time, batch, features], got shape {x.shape.as_list()}"
        )
    return out


def block_lstm_v2(
    seq_len_max: TensorLike,
    x: TensorLike,
    cs_prev: TensorLike,
    h_prev: TensorLike,
    w: TensorLike,
    wci: TensorLike,
    wcf: TensorLike,
    wco: TensorLike,
    b: TensorLike,
    cell_clip: float = 0.0,
    use_peephole: bool = False,
    name: str | None = None,
) -> BlockLSTMOutput:
    """TensorFlow's ``BlockLSTMV2``: an LSTM over ``x`` [time, batch, features] from the
    states ``cs_prev``, ``h_prev`` [batch, units]; ``w`` [features + units, 4 units] stacks
    the input and recurrent kernels, gates in the order i, f, c, o, ``b`` [4 units]. With
    ``use_peephole``, ``wci``, ``wcf``, ``wco`` [units] weigh the cell state into the gates;
    ``cell_clip > 0`` clips the cell state. Steps from ``seq_len_max`` on are zeros.

    >>> import retrograd as rg
    >>> out = block_lstm_v2(3, rg.ones([3, 1, 2]), rg.zeros([1, 1]), rg.zeros([1, 1]),
    ...                     rg.ones([3, 4]), rg.zeros([1]), rg.zeros([1]), rg.zeros([1]),
    ...                     rg.zeros([4]))
    >>> [round(v, 4) for v in out.h.numpy().ravel().tolist()]
    [0.6083, 0.8726, 0.9353]
    """
    t = _check("BlockLSTMV2", x=x, cs_prev=cs_prev, h_prev=h_prev, w=w, wci=wci, wcf=wcf,
               wco=wco, b=b)  # fmt: skip
    seq = tensor_arg("BlockLSTMV2", seq_len_max, "iu", "seq_len_max")
    attrs = {"cell_clip": float(cell_clip), "use_peephole": bool(use_peephole)}
    return BlockLSTMOutput(*execute(_BlockLSTMV2, (seq, *t.values()), attrs, name))


def _zeros_for(grads: Any, like: Any) -> list:
    return [array_ops.zeros_like(y) if g is None else g for g, y in zip(grads, like)]


@op_gradient("BlockLSTMV2")
def _block_lstm_v2_grad(op, *grads):
    i, cs, f, o, ci, co, h = op.outputs
    i_grad, cs_grad, f_grad, o_grad, ci_grad, co_grad, h_grad = grads
    upstream = _zeros_for((cs_grad, h_grad), (cs, h))
    gate_grads = (i_grad, f_grad, o_grad, ci_grad, co_grad)
    if any(g is not None for g in gate_grads):  # (TensorFlow drops these; they count here)
        upstream += _zeros_for(gate_grads, (i, f, o, ci, co))
    attrs = {"use_peephole": op.get_attr("use_peephole"), "cell_clip": op.get_attr("cell_clip")}
    inputs = (*op.inputs, i, cs, f, o, ci, co, h, *upstream)
    return (None, *execute(_BlockLSTMGradV2, inputs, attrs))


# --- GRU (reset after the recurrent product) ---------------------------------------------


def _gru_kernel(x, h_prev, w, u, b):
    steps, batch, features = x.shape
    n_units = h_prev.shape[-1]
    order = (0, 1, 2)
    pre = np.matmul(x.reshape(steps * batch, features), _gate_blocks(w, order, gates=3))
    pre = pre.reshape(3, steps, batch, n_units)
    pre += b[0].reshape(3, 1, 1, n_units)
    recurrent, recurrent_bias = _gate_blocks(u, order, gates=3), b[1].reshape(3, 1, n_units)
    zr = _empty(x, (2, steps, batch, n_units))
    c, n, h = (_empty(x, (steps, batch, n_units)) for _ in range(3))
    product = _empty(x, (3, batch, n_units))
    hp = h_prev
    for t in range(steps):
        gate, ct, ht = zr[:, t], c[t], h[t]
        np.matmul(hp, recurrent, out=product)
        product += recurrent_bias
        np.add(pre[:2, t], product[:2], out=gate)
        _sigmoid(gate, gate)
        np.copyto(n[t], product[2])
        np.multiply(gate[1], n[t], out=ct)
        ct += pre[2, t]
        np.tanh(ct, out=ct)
        np.subtract(hp, ct, out=ht)  # h = z * h_prev + (1 - z) * c
        ht *= gate[0]
        ht += ct
        hp = ht
    return zr[0], zr[1], c, n, h


def _gru_grad_kernel(x, h_prev, w, u, b, z, r, c, n, h, h_grad, *gate_grads):
    steps, batch, features = x.shape
    n_units = h_prev.shape[-1]
    z_grad, r_grad, c_grad, n_grad = gate_grads or (None,) * 4
    d_state = _empty(x, (3, steps, batch, n_units))  # of h_prev @ u + b[1]: z, r, n
    d_candidate = _empty(x, (steps, batch, n_units))  # of the candidate's input part
    dh, tmp = (
        _empty(x, (batch, n_units)),
        _empty(x, (batch, n_units)),
    )
    dh_rec = _zeros(x, (batch, n_units))
    product = _empty(x, (3, batch, n_units))
    recurrent_t = _gate_blocks(u, (0, 1, 2), transpose=True, gates=3)
    for t in reversed(range(steps)):
        hp = h[t - 1] if t else h_prev
        np.add(h_grad[t], dh_rec, out=dh)
        (dz, dr, dn), dc = d_state[:, t], d_candidate[t]
        np.subtract(hp, c[t], out=dz)
        dz *= dh
        if z_grad is not None:
            dz += z_grad[t]
        np.subtract(1, z[t], out=tmp)
        np.multiply(tmp, dh, out=dc)
        tmp *= z[t]
        dz *= tmp
        if c_grad is not None:
            dc += c_grad[t]
        np.multiply(c[t], c[t], out=tmp)
        np.subtract(1, tmp, out=tmp)
        dc *= tmp
        np.multiply(dc, n[t], out=dr)
        if r_grad is not None:
            dr += r_grad[t]
        np.subtract(1, r[t], out=tmp)
        tmp *= r[t]
        dr *= tmp
        np.multiply(dc, r[t], out=dn)
        if n_grad is not None:
            dn += n_grad[t]
        np.matmul(d_state[:, t], recurrent_t, out=product)
        np.sum(product, axis=0, out=dh_rec)
        np.multiply(dh, z[t], out=tmp)
        dh_rec += tmp
    flat_state = d_state.reshape(3, steps * batch, n_units)
    flat_candidate = d_candidate.reshape(steps * batch, n_units)
    x_flat = x.reshape(-1, features)
    dw = np.concatenate(
        [np.matmul(x_flat.T, flat_state[:2]), np.matmul(x_flat.T, flat_candidate)[None]]
    )  # [3, features, units]
    du = np.matmul(_previous(h_prev, h).reshape(-1, n_units).T, flat_state)
    inputs_t = _gate_blocks(w, (0, 1, 2), transpose=True, gates=3)
    dx = np.matmul(flat_state[:2], inputs_t[:2]).sum(0)
    dx += np.matmul(flat_candidate, inputs_t[2])
    db_state = flat_state.sum(1)
    db_inputs = np.concatenate([db_state[0], db_state[1], flat_candidate.sum(0)])
    return (
        dx.reshape(x.shape),
        dh_rec,
        dw.transpose(1, 0, 2).reshape(w.shape),
        du.transpose(1, 0, 2).reshape(u.shape),
        np.stack([db_inputs, db_state.reshape(-1)]),
    )


def _gru_meta(metas, **_):
    x, h_prev = metas[0].shape, metas[1].shape
    steps, batch = (None, None) if x is None else x[:2]
    units = None if h_prev is None else h_prev[-1]
    if batch is None and h_prev is not None:
        batch = h_prev[0]
    return [((steps, batch, units), metas[0].dtype)] * 5


_BlockGRU = define_op(
    "BlockGRU", _gru_kernel, multi_output=True, quiet=True, shape_fn=_gru_meta,
    missing_upstream="none",
)  # fmt: skip
_BlockGRUGrad = define_op(
    "BlockGRUGrad", _gru_grad_kernel, multi_output=True,
    shape_fn=lambda metas, **_: [(m.shape, m.dtype) for m in metas[:5]], missing_upstream="none",
)  # fmt: skip


def block_gru(
    x: TensorLike,
    h_prev: TensorLike,
    w: TensorLike,
    u: TensorLike,
    b: TensorLike,
    name: str | None = None,
) -> BlockGRUOutput:
    """A GRU over ``x`` [time, batch, features] from ``h_prev`` [batch, units], as Keras 3's
    ``GRU`` with ``reset_after=True`` (cuDNN's formulation): kernel ``w``
    [features, 3 units] and recurrent kernel ``u`` [units, 3 units], gates z, r, h; ``b``
    [2, 3 units] holds the input and the recurrent bias. TensorFlow has no sequence-level
    GRU op (its ``GRUBlockCell`` is one step, the reset gate before the product)::

        z = sigmoid(x_t w_z + b0_z + h u_z + b1_z); r = likewise
        n = h u_h + b1_h; c = tanh(x_t w_h + b0_h + r * n); h = z * h + (1 - z) * c

    >>> import retrograd as rg
    >>> out = block_gru(rg.ones([2, 1, 1]), rg.zeros([1, 1]), rg.ones([1, 3]),
    ...                 rg.zeros([1, 3]), rg.zeros([2, 3]))
    >>> [round(v, 4) for v in out.h.numpy().ravel().tolist()]
    [0.2048, 0.3546]
    """
    t = _check("BlockGRU", x=x, h_prev=h_prev, w=w, u=u, b=b)
    return BlockGRUOutput(*execute(_BlockGRU, tuple(t.values()), None, name))


@op_gradient("BlockGRU")
def _block_gru_grad(op, *grads):
    z, r, c, n, h = op.outputs
    z_grad, r_grad, c_grad, n_grad, h_grad = grads
    upstream = _zeros_for((h_grad,), (h,))
    gate_grads = (z_grad, r_grad, c_grad, n_grad)
    if any(g is not None for g in gate_grads):
        upstream += _zeros_for(gate_grads, (z, r, c, n))
    return execute(_BlockGRUGrad, (*op.inputs, z, r, c, n, h, *upstream))
