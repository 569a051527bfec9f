"""The fused recurrent ops: BlockLSTMV2 and BlockGRU against NumPy step loops, against their
unfused formulations (values and gradients, cell clipping and gate outputs included),
against TensorFlow's BlockLSTMV2 (stored: data/rnn_goldens.npz, made by
data/make_rnn_goldens.py; the gradients there are those of TensorFlow's step loop, as
TensorFlow's BlockLSTMGradV2 disagrees with them), and against finite differences to second order (the table)."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import rnn_composite, rnn_ops
from tests.ops.table import Case, check_forward, check_gradient

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import rnn_cases  # noqa: E402


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def lstm_reference(seq_len_max, x, cs, h, w, wci, wcf, wco, b, clip=0.0, peephole=False):
    """NumPy's step loop of TensorFlow's BlockLSTMV2 (gates i, f, c, o)."""
    steps, units = x.shape[0], cs.shape[-1]
    out = [np.zeros((steps, *cs.shape)) for _ in range(7)]
    for t in range(min(seq_len_max, steps)):
        g = np.concatenate([x[t], h], 1) @ w + b
        gi, gf, gc, go = np.split(g, 4, 1)
        i = _sigmoid(gi + cs * wci * peephole)
        f = _sigmoid(gf + cs * wcf * peephole)
        ci = np.tanh(gc)
        cs = f * cs + i * ci
        cs = np.clip(cs, -clip, clip) if clip > 0 else cs
        o = _sigmoid(go + cs * wco * peephole)
        co = np.tanh(cs)
        h = o * co
        for k, v in enumerate((i, cs, f, o, ci, co, h)):
            out[k][t] = v
    assert units == w.shape[1] // 4
    return out


def gru_reference(x, h, w, u, b):
    """NumPy's step loop of Keras' GRU with reset_after (gates z, r, h)."""
    outs = []
    for x_t in x:
        g, s = x_t @ w + b[0], h @ u + b[1]
        z, r, n = np.split(g, 3, 1), np.split(s, 3, 1), np.split(s, 3, 1)[2]
        z, r = _sigmoid(z[0] + r[0]), _sigmoid(z[1] + r[1])
        c = np.tanh(np.split(g, 3, 1)[2] + r * n)
        h = z * h + (1 - z) * c
        outs.append(h)
    return np.stack(outs)


def _lstm(steps, **attrs):
    def fn(x, cs, h, w, wci, wcf, wco, b):
        out = rnn_ops.block_lstm_v2(steps, x, cs, h, w, wci, wcf, wco, b, **attrs)
        return out.h + 0.5 * out.cs

    def reference(*a):
        clip, peephole = attrs.get("cell_clip", 0.0), attrs.get("use_peephole", False)
        out = lstm_reference(steps, *a, clip=clip, peephole=peephole)
        return out[6] + 0.5 * out[1]

    return fn, reference


def _lstm_shapes(steps, batch, features, units):
    return ((steps, batch, features), (batch, units), (batch, units),
            (features + units, 4 * units), (units,), (units,), (units,), (4 * units,))  # fmt: skip


def _gates(x, cs, h, w, wci, wcf, wco, b):
    out = rnn_ops.block_lstm_v2(3, x, cs, h, w, wci, wcf, wco, b)
    return out.i * out.o + out.f * out.ci - out.co


def _gates_reference(*a):
    i, cs, f, o, ci, co, h = lstm_reference(3, *a)
    return i * o + f * ci - co


def _gru(x, h, w, u, b):
    return rnn_ops.block_gru(x, h, w, u, b).h


def _gru_gates(x, h, w, u, b):
    out = rnn_ops.block_gru(x, h, w, u, b)
    return out.z * out.c + out.r * out.n


def _gru_shapes(steps, batch, features, units):
    return ((steps, batch, features), (batch, units), (features, 3 * units),
            (units, 3 * units), (2, 3 * units))  # fmt: skip


def _lstm_case(steps, shapes, **attrs):
    fn, reference = _lstm(steps, **attrs)
    return Case("BlockLSTMV2", fn, _lstm_shapes(*shapes), reference, domain=(-1.0, 1.0))


CASES = [
    _lstm_case(3, (3, 2, 3, 2)),
    _lstm_case(1, (1, 1, 2, 2)),
    _lstm_case(2, (3, 2, 2, 2), use_peephole=True),
    Case("BlockLSTMV2", _gates, _lstm_shapes(3, 2, 2, 2), _gates_reference, domain=(-1.0, 1.0)),
    Case("BlockGRU", _gru, _gru_shapes(3, 2, 3, 2), gru_reference, domain=(-1.0, 1.0)),
    Case("BlockGRU", _gru, _gru_shapes(1, 1, 2, 3), gru_reference, domain=(-1.0, 1.0)),
    Case("BlockGRU", _gru_gates, _gru_shapes(2, 2, 2, 2), None, domain=(-1.0, 1.0)),
]  # fmt: skip


@pytest.mark.parametrize("case", [c for c in CASES if c.reference], ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def _random(rng, shapes):
    return [rg.constant(rng.normal(0.0, 0.8, s)) for s in shapes]


def _loss(out):
    # every output counts, so gradients through the gates are compared too
    return sum(rg.reduce_sum(rg.sin(v) * (k + 1)) for k, v in enumerate(out))


@pytest.mark.parametrize(
    "steps, seq_len_max, clip, peephole",
    [(4, 4, 0.0, False), (4, 2, 0.0, True), (3, 3, 0.3, True), (1, 1, 0.5, False)],
)
def test_lstm_fused_and_composite_agree_in_values_and_gradients(steps, seq_len_max, clip, peephole):
    rng = np.random.default_rng(steps + seq_len_max)
    args = _random(rng, _lstm_shapes(steps, 3, 4, 5))
    results = []
    for fn in (rnn_ops.block_lstm_v2, rnn_composite.block_lstm_composite):
        with rg.GradientTape() as tape:
            tape.watch(args)
            out = fn(seq_len_max, *args, clip, peephole)
            loss = _loss(out)
        results.append(([v.numpy() for v in out], tape.gradient(loss, args)))
    (fused, fused_grads), (composite, composite_grads) = results
    for a, b in zip(fused, composite):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    for k, (a, b) in enumerate(zip(fused_grads, composite_grads)):
        if b is None:  # peephole weights without peepholes: the fused op says zero
            assert not peephole and k in (4, 5, 6) and not np.any(a.numpy())
            continue
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


def test_gru_fused_and_composite_agree_in_values_and_gradients():
    rng = np.random.default_rng(7)
    args = _random(rng, _gru_shapes(5, 3, 4, 6))
    results = []
    for fn in (rnn_ops.block_gru, rnn_composite.block_gru_composite):
        with rg.GradientTape() as tape:
            tape.watch(args)
            out = fn(*args)
            loss = _loss(out)
        results.append(([v.numpy() for v in out], tape.gradient(loss, args)))
    for a, b in zip(results[0][0], results[1][0]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


GOLDENS = np.load(DATA / "rnn_goldens.npz")
INPUTS = ("x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b")


@pytest.mark.parametrize("name", list(rnn_cases.LSTM_CASES))
def test_block_lstm_v2_matches_tensorflow(name):
    case = rnn_cases.LSTM_CASES[name]
    arrays = [rg.constant(a) for a in rnn_cases.lstm_inputs(case)]
    with rg.GradientTape() as tape:
        tape.watch(arrays)
        out = rnn_ops.block_lstm_v2(
            case["seq_len_max"], *arrays, case["cell_clip"], case["use_peephole"]
        )
        loss = rg.reduce_sum(out.h**2) + rg.reduce_sum(out.cs)
    for field in out._fields:  # (TensorFlow leaves the gates past seq_len_max uninitialized)
        expected = GOLDENS[f"{name}/{field}"]
        got = getattr(out, field).numpy()[: len(expected)]
        np.testing.assert_allclose(got, expected, rtol=2e-5, atol=2e-6)
    for input_name, g in zip(INPUTS, tape.gradient(loss, arrays)):
        expected = GOLDENS[f"{name}/grad_{input_name}"]
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_graphs_infer_shapes_with_an_unknown_batch():
    @rg.function(
        input_signature=[rg.TensorSpec([3, None, 2], rg.float32), rg.TensorSpec([None, 4])]
    )
    def run(x, h):
        w, u, b = rg.ones([2, 12]), rg.ones([4, 12]), rg.zeros([2, 12])
        with rg.GradientTape() as tape:
            tape.watch(x)
            out = rnn_ops.block_gru(x, h, w, u, b)
            lstm = rnn_ops.block_lstm_v2(
                3, x, h, h, rg.ones([6, 16]), rg.zeros([4]), rg.zeros([4]), rg.zeros([4]),
                rg.zeros([16]),
            )  # fmt: skip
            loss = rg.reduce_sum(out.h) + rg.reduce_sum(lstm.h)
        assert out.h.shape.as_list() == [3, None, 4]
        assert lstm.cs.shape.as_list() == [3, None, 4]
        return tape.gradient(loss, x)

    got = run(rg.ones([3, 5, 2]), rg.zeros([5, 4]))
    assert got.shape.as_list() == [3, 5, 2]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rnn_ops.block_gru(rg.ones([2, 3]), rg.zeros([2, 1]), rg.ones([3, 3]),
                                   rg.ones([1, 3]), rg.zeros([2, 3])),
         "BlockGRU: x must be [time, batch, features], got shape [2, 3]"),
        (lambda: rnn_ops.block_gru(rg.ones([1, 2, 3]), rg.zeros([2, 1], rg.float64),
                                   rg.ones([3, 3]), rg.ones([1, 3]), rg.zeros([2, 3])),
         "BlockGRU: every input must have one dtype"),
        (lambda: rnn_ops.block_gru(rg.ones([1, 2, 3], rg.int32), rg.zeros([2, 1]),
                                   rg.ones([3, 3]), rg.ones([1, 3]), rg.zeros([2, 3])),
         "BlockGRU"),
    ],
)  # fmt: skip
def test_arguments_are_checked(call, message):
    with pytest.raises((rg.errors.InvalidArgumentError, TypeError)) as caught:
        call()
    assert message in str(caught.value)
