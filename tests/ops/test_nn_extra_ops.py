"""tf.nn's composites (crelu, moments, lrn, Poisson loss, sampled losses) and isotonic
regression: values against NumPy, gradients against finite differences to second order."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

NN = rg.nn
SAMPLED = (  # (NumPy: converted where the row runs, on its device)
    np.array([0, 3], np.int64),
    np.array([[0.5]], np.float32),
    np.array([0.25, 0.75], np.float32),
)


def _pav(row):
    means, sizes = [], []
    for v in row:
        means.append(v)
        sizes.append(1)
        while len(means) > 1 and means[-2] < means[-1]:
            m, s = means.pop(), sizes.pop()
            means[-1] = (means[-1] * sizes[-1] + m * s) / (sizes[-1] + s)
            sizes[-1] += s
    return np.repeat(means, sizes)


def _lrn(x, r=2, bias=1.0, alpha=0.5, beta=0.75):
    sq = np.pad(x * x, [(0, 0)] * 3 + [(r, r)])
    window = sum(sq[..., i : i + x.shape[-1]] for i in range(2 * r + 1))
    return x / (bias + alpha * window) ** beta


def _softmax_xent(logits, target):
    z = logits - logits.max(-1, keepdims=True)
    return -(target * (z - np.log(np.exp(z).sum(-1, keepdims=True)))).sum(-1)


def _sampled_logits(w, b, x):
    true = x @ w[2] + b[2] - np.log(0.5)
    sampled = x @ w[[0, 3]].T + b[[0, 3]] - np.log([0.25, 0.75])
    return np.concatenate([[true], sampled], -1)


def _ctc_reference(logits, labels=(1, 2, 1), blank=0):
    """-log P(labels) by summing over every alignment of 4 steps (brute force)."""
    import itertools

    log_p = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    total = -np.inf
    for path in itertools.product(range(logits.shape[-1]), repeat=logits.shape[0]):
        collapsed = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
        if [c for c in collapsed if c != blank] == list(labels):
            total = np.logaddexp(total, sum(log_p[t, 0, c] for t, c in enumerate(path)))
    return np.array([-total])


CASES = [
    Case("PadV2", lambda x: NN.ctc_loss([[1, 2, 1]], x, [3], [4]), ((4, 1, 3),), _ctc_reference),
    Case("IsotonicRegression", lambda x: NN.isotonic_regression(x)[0], ((2, 5),),
         lambda x: np.stack([_pav(r) for r in x])),
    Case("IsotonicRegression", lambda x: NN.isotonic_regression(x, False, axis=0)[0], ((4, 2),),
         lambda x: -np.stack([_pav(-c) for c in x.T]).T),
    Case("Pow", lambda x: NN.lrn(x, 2, 1.0, 0.5, 0.75), ((1, 2, 2, 5),), _lrn),
    Case("Exp", lambda t, q: NN.log_poisson_loss(t, q, compute_full_loss=True), ((4,), (4,)),
         lambda t, q: np.exp(q) - q * t + np.where((t >= 0) & (t <= 1), 0,
                                                   t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t)),
         domain=(0.5, 3.0)),
    Case("SquaredDifference", lambda x, w: NN.weighted_moments(x, [1], w)[1], ((2, 3), (3,)),
         lambda x, w: ((x - (x * w).sum(1, keepdims=True) / w.sum()) ** 2 * w).sum(1) / w.sum(),
         domain=(0.5, 2.0)),
    Case("Reciprocal", lambda x: NN.normalize_moments(*NN.sufficient_statistics(x, [0], shift=0.5)),
         ((4, 2),), lambda x: (x.mean(0), x.var(0))),
    Case("SoftmaxCrossEntropyWithLogits",
         lambda w, b, x: NN.sampled_softmax_loss(w, b, [[2]], x, 2, 4, sampled_values=SAMPLED),
         ((4, 3), (4,), (1, 3)),
         lambda w, b, x: _softmax_xent(_sampled_logits(w, b, x[0])[None], [[1.0, 0.0, 0.0]])),
    Case("Sigmoid", lambda w, b, x: NN.nce_loss(w, b, [[2]], x, 2, 4, sampled_values=SAMPLED),
         ((4, 3), (4,), (1, 3)),
         lambda w, b, x: np.array([sum(
             np.maximum(z, 0) - z * t + np.log1p(np.exp(-abs(z)))
             for z, t in zip(_sampled_logits(w, b, x[0]), [1.0, 0.0, 0.0]))])),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_accidental_hits_are_removed_from_sampled_softmax():
    w, b, x = rg.ones([4, 3]), rg.zeros([4]), rg.ones([1, 3])
    hit = (rg.constant([2, 3], rg.int64), rg.constant([[1.0]]), rg.constant([1.0, 1.0]))
    loss = NN.sampled_softmax_loss(w, b, [[2]], x, 2, 4, sampled_values=hit)
    np.testing.assert_allclose(loss.numpy(), [np.log(2.0)], rtol=1e-6)  # class 2 not doubled
    rows, cols, weights = NN.compute_accidental_hits([[2], [3]], [2, 3, 2], 1)
    assert rows.numpy().tolist() == [0, 1] and cols.numpy().tolist() == [2, 1]
    assert weights.numpy().tolist() == [np.finfo(np.float32).min] * 2
