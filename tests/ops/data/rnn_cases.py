"""The ``BlockLSTMV2`` cases compared with TensorFlow (``make_rnn_goldens.py``): attributes
and seeded float32 inputs."""

from __future__ import annotations

import numpy as np

LSTM_CASES = {
    "plain": {"shape": (4, 3, 5, 6), "seq_len_max": 4, "cell_clip": 0.0, "use_peephole": False},
    "peephole_short": {"shape": (5, 2, 3, 4), "seq_len_max": 3, "cell_clip": 0.0,
                       "use_peephole": True},
    "clipped": {"shape": (4, 2, 3, 4), "seq_len_max": 4, "cell_clip": 0.4, "use_peephole": True},
    "one_step_one_row": {"shape": (1, 1, 2, 3), "seq_len_max": 1, "cell_clip": 0.0,
                         "use_peephole": False},
}  # fmt: skip


def lstm_inputs(case: dict) -> list[np.ndarray]:
    """x, cs_prev, h_prev, w, wci, wcf, wco, b of a case (float32)."""
    steps, batch, features, units = case["shape"]
    rng = np.random.default_rng(steps * 1000 + batch * 100 + features * 10 + units)
    shapes = [(steps, batch, features), (batch, units), (batch, units),
              (features + units, 4 * units), (units,), (units,), (units,), (4 * units,)]  # fmt: skip
    return [rng.normal(0.0, 0.8, s).astype(np.float32) for s in shapes]
