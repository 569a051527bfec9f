"""Gamma, Poisson, binomial and truncated samples, seeds and candidate samplers: the
samples' distributions, the gamma sample's gradient in alpha against finite differences (to
second order; stateless samples are functions of alpha), seed utilities and samplers."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special
import scipy.stats

import retrograd as rg
from retrograd.ops import philox_random
from tests.ops.table import Case, check_forward, check_gradient


def _uniforms(n):
    return philox_random.standard("uniform", np.array([1, 2]), n, np.dtype(np.float64))


def _gamma_reference(alpha, leading=(3,)):
    u = _uniforms(int(np.prod(leading)) * alpha.size).reshape(*leading, *alpha.shape)
    return scipy.special.gammaincinv(alpha, u).astype(alpha.dtype)


CASES = [
    Case(
        "StatelessRandomGammaV3",
        lambda a: rg.random.stateless_gamma([3, 2], [1, 2], alpha=a, dtype=a.dtype),
        ((2,),),
        _gamma_reference,
        domain=(0.6, 4.0),
        rtol=1e-4,
    ),
    Case(
        "StatelessRandomGammaV3",
        lambda a, b: rg.random.stateless_gamma([3, 2], [1, 2], alpha=a, beta=b, dtype=a.dtype),
        ((2,), (2,)),
        lambda a, b: _gamma_reference(a) / b,
        domain=(0.6, 4.0),
        rtol=1e-4,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_scipy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_stateful_gamma_gradient_is_the_implicit_one():
    alpha = rg.constant([0.8, 2.5], rg.float64)
    with rg.GradientTape() as tape:
        tape.watch(alpha)
        x = rg.random.gamma([4], alpha, dtype=rg.float64, seed=3)
    grad = tape.gradient(x, alpha).numpy()
    xs, a, h = x.numpy(), alpha.numpy(), 1e-6
    dp = (scipy.special.gammainc(a + h, xs) - scipy.special.gammainc(a - h, xs)) / (2 * h)
    density = scipy.stats.gamma.pdf(xs, a)
    np.testing.assert_allclose(grad, (-dp / density).sum(0), rtol=1e-5)


def test_samples_follow_their_distributions():
    n = 20000
    x = rg.random.gamma([n], 3.0, beta=2.0, dtype=rg.float64, seed=1).numpy()
    assert abs(x.mean() - 1.5) < 0.05 and abs(x.var() - 0.75) < 0.05
    p = rg.random.poisson([n], 4.0, seed=1).numpy()
    assert abs(p.mean() - 4.0) < 0.1 and np.all(p == np.round(p))
    b = rg.random.stateless_binomial([n], [3, 4], counts=10.0, probs=0.3).numpy()
    assert abs(b.mean() - 3.0) < 0.1 and b.dtype == np.int32
    t = rg.random.stateless_parameterized_truncated_normal([n], [5, 6], 1.0, 2.0, 0.0, 3.0)
    t = t.numpy()
    assert t.min() >= 0.0 and t.max() <= 3.0
    q = rg.random.stateless_poisson([n, 2], [7, 8], lam=[2.0, 5.0]).numpy()
    assert np.allclose(q.mean(0), [2.0, 5.0], atol=0.1)


def test_stateless_samples_are_functions_of_the_seed():
    a = rg.random.stateless_poisson([5], [1, 2], lam=3.0)
    assert a.numpy().tolist() == rg.random.stateless_poisson([5], [1, 2], lam=3.0).numpy().tolist()
    with pytest.raises(rg.errors.InvalidArgumentError, match="must end with"):
        rg.random.stateless_gamma([3], [1, 2], alpha=[1.0, 2.0])


def test_candidate_samplers():
    s = rg.random.uniform_candidate_sampler([[1, 2], [3, 4]], 2, 5, True, 10, seed=1)
    picked = s.sampled_candidates.numpy()
    assert len(set(picked.tolist())) == 5 and picked.max() < 10
    assert s.true_expected_count.shape == (2, 2) and s.sampled_expected_count.shape == (5,)
    s = rg.random.log_uniform_candidate_sampler([[0]], 1, 4, False, 10, seed=1)
    p0 = (np.log(2) - np.log(1)) / np.log(11)
    np.testing.assert_allclose(s.true_expected_count.numpy(), [[4 * p0]], rtol=1e-6)
    s = rg.random.fixed_unigram_candidate_sampler([[1]], 1, 3, False, 3, unigrams=[0, 0, 1])
    assert s.sampled_candidates.numpy().tolist() == [2, 2, 2]
    s = rg.random.all_candidate_sampler([[1, 2]], 2, 3, True)
    assert s.sampled_candidates.numpy().tolist() == [0, 1, 2]
    with pytest.raises(rg.errors.InvalidArgumentError, match="out of range"):
        rg.random.all_candidate_sampler([[3]], 1, 3, True)
