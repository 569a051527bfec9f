"""tf.math's remaining ops: values against NumPy, gradients against finite differences to
second order, and the non-differentiable ones (rint, invert_permutation) giving none."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, binary, check_forward, check_gradient


def _logcumsumexp(x, exclusive=False, reverse=False):
    x = x[::-1] if reverse else x
    out = np.logaddexp.accumulate(x)
    if exclusive:
        out = np.concatenate([[-np.inf], out[:-1]])
    return out[::-1] if reverse else out


CASES = [
    *binary(
        "MulNoNan",
        rg.math.multiply_no_nan,
        lambda x, y: np.where(y == 0, 0.0, x * y),
    ),
    *binary(
        "Xlog1py",
        rg.math.xlog1py,
        lambda x, y: x * np.log1p(y),
        domain=(0.1, 2.0),
    ),
    Case(
        "NextAfter",
        lambda x, y: rg.math.nextafter(x, y) * 2.0,
        ((2, 3), (3,)),
        lambda x, y: np.nextafter(x, y) * 2.0,
    ),
    Case(
        "EuclideanNorm",
        lambda x: rg.math.reduce_euclidean_norm(x, axis=1),
        ((2, 3, 2),),
        lambda x: np.sqrt((x * x).sum(1)),
    ),
    Case(
        "EuclideanNorm",
        lambda x: rg.math.reduce_euclidean_norm(x, axis=[0, 2], keepdims=True),
        ((2, 3, 2),),
        lambda x: np.sqrt((x * x).sum((0, 2), keepdims=True)),
    ),
    Case(
        "EuclideanNorm",
        rg.math.reduce_euclidean_norm,
        ((4,),),
        lambda x: np.sqrt((x * x).sum()),
    ),
    Case(
        "CumulativeLogsumexp",
        rg.math.cumulative_logsumexp,
        ((4,),),
        _logcumsumexp,
    ),
    Case(
        "CumulativeLogsumexp",
        lambda x: rg.math.cumulative_logsumexp(x, exclusive=True, reverse=True)[:-1],
        ((4,),),
        lambda x: _logcumsumexp(x, True, True)[:-1],
    ),
    Case(
        "CumulativeLogsumexp",
        lambda x: rg.math.cumulative_logsumexp(x, axis=1, reverse=True),
        ((2, 3),),
        lambda x: np.stack([_logcumsumexp(r, reverse=True) for r in x]),
    ),
    Case(
        "Lgamma",
        rg.math.lbeta,
        ((2, 3),),
        lambda x: (
            __import__("scipy.special").special.gammaln(x).sum(-1)
            - __import__("scipy.special").special.gammaln(x.sum(-1))
        ),
        domain=(0.5, 3.0),
    ),
    Case(
        "Mul",
        lambda c, x: rg.math.polyval([c[0], c[1], 2.0 * c[0]], x),
        ((2,), (3,)),
        lambda c, x: np.polyval([c[0], c[1], 2.0 * c[0]], x),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_rint_and_invert_permutation_have_no_gradient():
    x = rg.constant([0.5, 1.5, 2.6])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.math.rint(x)
    assert y.numpy().tolist() == [0.0, 2.0, 3.0] and tape.gradient(y, x) is None
    assert rg.math.invert_permutation([3, 4, 0, 2, 1]).numpy().tolist() == [2, 4, 3, 0, 1]
    assert rg.gradient_registry.lookup("InvertPermutation") is None


def test_in_top_k_counts_ties_and_refuses_non_finite_rows():
    predictions = [[1.0, 1.0, 0.0], [0.0, 2.0, 3.0], [np.nan, 0.0, 1.0]]
    got = rg.math.in_top_k([0, 1, 2], predictions, 1).numpy().tolist()
    assert got == [True, False, False]
    assert rg.nn.in_top_k([5], [[1.0, 1.0, 0.0]], 1).numpy().tolist() == [False]


def test_segment_prod_and_zero_fraction():
    assert rg.math.zero_fraction([0, 1, 0, 2]).numpy() == 0.5
    assert np.isnan(rg.math.zero_fraction(rg.zeros([0])).numpy())
    assert rg.math.segment_prod([1.0, 2.0, 3.0], [0, 0, 2]).numpy().tolist() == [2.0, 1.0, 3.0]


def test_approx_min_k_along_any_dimension_is_exact_and_differentiable():
    # (TensorFlow 2.21 has no CPU kernel for approx_min_k; values here are exact.)
    x = rg.constant([[3.0, 1.0], [0.5, 4.0], [2.0, 2.5]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        values, indices = rg.math.approx_min_k(x, 2, reduction_dimension=0)
        y = rg.reduce_sum(values * [[1.0, 2.0], [3.0, 4.0]])
    assert values.numpy().tolist() == [[0.5, 1.0], [2.0, 2.5]]
    assert indices.numpy().tolist() == [[1, 0], [2, 2]]
    assert tape.gradient(y, x).numpy().tolist() == [[0.0, 2.0], [1.0, 0.0], [3.0, 4.0]]
    with pytest.raises(rg.errors.InvalidArgumentError, match="of double is not in the list"):
        rg.math.approx_max_k(rg.constant([1.0], rg.float64), 1)
