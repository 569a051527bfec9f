"""Writes rnn_goldens.npz: TensorFlow's ``BlockLSTMV2`` on the inputs of ``rnn_cases.py``
(its outputs: the gates only for the first ``seq_len_max`` steps, TensorFlow leaves the rest
uninitialized) and the gradients of ``sum(h**2) + sum(cs)`` for its inputs, taken through
TensorFlow's step loop of the same equations: TensorFlow's own ``BlockLSTMGradV2`` does not
agree with that derivative for ``BlockLSTMV2`` (checked below; the gate layouts differ).
Run with TensorFlow installed: ``python tests/ops/data/make_rnn_goldens.py``."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import tensorflow as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import rnn_cases  # noqa: E402

INPUTS = ("x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b")


def step_loop(case: dict, x, cs, h, w, wci, wcf, wco, b) -> tuple:
    """BlockLSTMV2's equations as TensorFlow ops: (the steps' h, the steps' cs)."""
    peephole, clip = case["use_peephole"], case["cell_clip"]
    hs, css = [], []
    for t in range(case["seq_len_max"]):
        gi, gf, gc, go = tf.split(tf.concat([x[t], h], 1) @ w + b, 4, 1)
        i = tf.sigmoid(gi + cs * wci if peephole else gi)
        f = tf.sigmoid(gf + cs * wcf if peephole else gf)
        cs = f * cs + i * tf.tanh(gc)
        cs = tf.clip_by_value(cs, -clip, clip) if clip > 0 else cs
        o = tf.sigmoid(go + cs * wco if peephole else go)
        h = o * tf.tanh(cs)
        hs.append(h)
        css.append(cs)
    return hs, css


def main() -> None:
    out = {}
    for name, case in rnn_cases.LSTM_CASES.items():
        arrays = [tf.constant(a) for a in rnn_cases.lstm_inputs(case)]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(arrays)
            got = tf.raw_ops.BlockLSTMV2(
                seq_len_max=np.int64(case["seq_len_max"]),
                **dict(zip(INPUTS, arrays)),
                cell_clip=case["cell_clip"],
                use_peephole=case["use_peephole"],
            )
            hs, css = step_loop(case, *arrays)
            loss = tf.add_n([tf.reduce_sum(v**2) for v in hs] + [tf.reduce_sum(v) for v in css])
            op_loss = tf.reduce_sum(got.h**2) + tf.reduce_sum(got.cs)
        length = case["seq_len_max"]
        np.testing.assert_allclose(got.h.numpy()[:length], np.stack(hs), rtol=1e-5, atol=1e-6)
        for field in got._fields:
            value = getattr(got, field).numpy()
            out[f"{name}/{field}"] = value if field in ("cs", "h") else value[:length]
        grads = tape.gradient(loss, arrays, unconnected_gradients="zero")
        for input_name, g in zip(INPUTS, grads):
            out[f"{name}/grad_{input_name}"] = g.numpy()
        op_grads = tape.gradient(op_loss, arrays)
        differs = max(float(np.abs(a - b).max()) for a, b in zip(op_grads, grads) if a is not None)
        print(f"{name}: TensorFlow's BlockLSTMGradV2 is off by up to {differs:.3g}")
    np.savez_compressed(HERE / "rnn_goldens.npz", **out)


if __name__ == "__main__":
    main()
