"""Gradients of fused backward ops (second order) obtained by differentiating the unfused
formulation of the same computation: ``BlockLSTMGradV2`` and ``BlockGRUGrad``.

A fused backward op computes ``J(p)^T u``: the gradient of a fused forward ``F`` at its
inputs ``p`` for upstream gradients ``u``, from values the forward kept. Its own gradient
is that of ``p, u -> J_c(p)^T u`` where ``F_c`` is ``F`` written with retrograd ops
(``ops.rnn_composite.block_lstm_composite``): ``F_c`` runs under two tapes, the inner one gives
``J_c^T u`` while the outer one records, and the outer one differentiates that. The values
the forward kept (gates, states) are recomputed, so they get no gradient of their own: the
inputs get all of it. It lives here, above the ops, because it needs tapes; second order is
rarely hot, first order runs the fused ops.

>>> import retrograd as rg
>>> from retrograd.ops import rnn_ops
>>> x = rg.constant([[[0.5]], [[-1.0]]], rg.float64)
>>> h0, w, u, b = rg.zeros([1, 1], rg.float64), rg.ones([1, 3], rg.float64), \\
...     rg.ones([1, 3], rg.float64), rg.zeros([2, 3], rg.float64)
>>> with rg.GradientTape() as outer:
...     outer.watch(w)
...     with rg.GradientTape() as inner:
...         inner.watch(w)
...         loss = rg.reduce_sum(rnn_ops.block_gru(x, h0, w, u, b).h ** 2)
...     g = inner.gradient(loss, w)
>>> outer.gradient(g, w).shape.as_list()
[1, 3]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.autodiff.tape import GradientTape, UnconnectedGradients
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import constant_value
from retrograd.ops import rnn_composite

__all__: list[str] = []


def _composite_vjp_grad(
    composite: Callable[..., Any], primals: list, outputs: list, upstream: list, grads: tuple
) -> tuple[list, list]:
    """d<J_c(primals)^T upstream, grads>: (gradients of ``primals``, of ``upstream``).
    ``outputs`` picks the composite's outputs that ``upstream`` goes with."""
    zero = UnconnectedGradients.ZERO
    with GradientTape(persistent=True, watch_accessed_variables=False) as outer:
        outer.watch(primals + upstream)
        with GradientTape(watch_accessed_variables=False) as inner:
            inner.watch(primals)
            values = composite(*primals)
        picked = [values[k] for k in outputs]
        first = inner.gradient(picked, primals, upstream, unconnected_gradients=zero)
    pairs = [(f, g) for f, g in zip(first, grads) if g is not None]
    if not pairs:
        return [None] * len(primals), [None] * len(upstream)
    second = outer.gradient(
        [f for f, _ in pairs],
        primals + upstream,
        [g for _, g in pairs],
        unconnected_gradients=zero,
    )
    return list(second[: len(primals)]), list(second[len(primals) :])


@op_gradient("BlockLSTMGradV2")
def _block_lstm_grad_v2_grad(op: Any, *grads: Any) -> tuple:
    inputs = list(op.inputs)
    seq_len_max = int(constant_value(inputs[0]))
    clip, peephole = op.get_attr("cell_clip"), op.get_attr("use_peephole")
    upstream = inputs[16:]  # cs_grad, h_grad, then i, f, o, ci, co's where given
    outputs = [1, 6, 0, 2, 3, 4, 5][: len(upstream)]

    def composite(*primals: Any) -> tuple:
        x, cs_prev, h_prev, w, wci, wcf, wco, b = primals
        return rnn_composite.block_lstm_composite(
            seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, clip, peephole
        )

    primal_grads, upstream_grads = _composite_vjp_grad(
        composite, inputs[1:9], outputs, upstream, grads
    )
    return (None, *primal_grads, *[None] * 7, *upstream_grads)


@op_gradient("BlockGRUGrad")
def _block_gru_grad_grad(op: Any, *grads: Any) -> tuple:
    inputs = list(op.inputs)
    upstream = inputs[10:]  # h_grad, then z, r, c, n's where given
    outputs = [4, 0, 1, 2, 3][: len(upstream)]
    primal_grads, upstream_grads = _composite_vjp_grad(
        rnn_composite.block_gru_composite, inputs[:5], outputs, upstream, grads
    )
    return (*primal_grads, *[None] * 5, *upstream_grads)
