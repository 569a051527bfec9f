"""logsumexp, variance, std, l2_normalize and moments: values, gradients to second order,
special values, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _logsumexp(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _l2_normalize(x, axis=None, epsilon=1e-12):
    return x / np.sqrt(np.maximum(np.sum(x * x, axis=axis, keepdims=True), epsilon))


AXES = [((2, 3), None, False), ((2, 3), 1, True), ((2, 3, 2), [0, 2], False), ((), None, False)]

CASES = [
    *(
        Case(
            f"reduce_logsumexp[axis={axis},keepdims={keep}]",
            lambda x, axis=axis, keep=keep: rg.reduce_logsumexp(x, axis, keep),
            (shape,),
            lambda x, axis=axis, keep=keep: _logsumexp(
                x, None if axis is None else tuple(np.atleast_1d(axis)), keep
            ),
        )
        for shape, axis, keep in AXES
    ),
    *(
        Case(
            f"reduce_variance[axis={axis},keepdims={keep}]",
            lambda x, axis=axis, keep=keep: rg.math.reduce_variance(x, axis, keep),
            (shape,),
            lambda x, axis=axis, keep=keep: np.var(
                x, None if axis is None else tuple(np.atleast_1d(axis)), keepdims=keep
            ),
        )
        for shape, axis, keep in AXES
    ),
    Case(
        "reduce_std",
        lambda x: rg.math.reduce_std(x, axis=-1),
        ((3, 4),),
        lambda x: np.std(x, axis=-1),
    ),
    Case(
        "reduce_std",
        lambda x: rg.math.reduce_std(x, keepdims=True),
        ((2, 1, 3),),
        lambda x: np.std(x, keepdims=True),
    ),
    Case("l2_normalize", rg.math.l2_normalize, ((2, 3),), _l2_normalize),
    Case(
        "l2_normalize",
        lambda x: rg.nn.l2_normalize(x, axis=[0, 2]),
        ((2, 1, 3),),
        lambda x: _l2_normalize(x, axis=(0, 2)),
    ),
    Case(
        "l2_normalize",
        lambda x: rg.linalg.l2_normalize(x, dim=1, epsilon=10.0),
        ((3, 2),),
        lambda x: _l2_normalize(x, axis=1, epsilon=10.0),
        domain=(-1.0, 1.0),
    ),
    Case(
        "moments",
        lambda x: rg.nn.moments(x, axes=[0]),
        ((3, 2),),
        lambda x: (np.mean(x, 0), np.var(x, 0)),
    ),
    Case(
        "moments",
        lambda x: rg.nn.moments(x, axes=[0, 2], keepdims=True),
        ((2, 3, 2),),
        lambda x: (np.mean(x, (0, 2), keepdims=True), np.var(x, (0, 2), keepdims=True)),
    ),
    Case(
        "moments",
        lambda x: rg.nn.moments(x, axes=None),
        ((2, 2),),
        lambda x: (np.mean(x), np.var(x)),
    ),
    Case(
        "moments",
        lambda x: rg.nn.moments(x, axes=[]),
        ((2,),),
        lambda x: (x, np.zeros(2)),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_logsumexp_is_stable_and_handles_infinities_as_tensorflow():
    assert float(rg.reduce_logsumexp([1000.0, 1000.0])) == pytest.approx(1000.0 + np.log(2))
    got = rg.reduce_logsumexp([[1.0, 2.0], [3.0, np.inf]], axis=1).numpy()
    assert got[0] == pytest.approx(2.3132617) and got[1] == np.inf
    assert float(rg.reduce_logsumexp([-np.inf, -np.inf])) == -np.inf
    assert float(rg.reduce_logsumexp(rg.zeros([0]))) == -np.inf
    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_logsumexp(x)
    np.testing.assert_allclose(
        tape.gradient(y, x).numpy(), np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum(), rtol=1e-6
    )


def test_moments_dtypes_follow_tensorflow():
    mean, variance = rg.nn.moments(rg.constant([[1, 2], [3, 5]]), axes=[0])
    assert mean.dtype == rg.int32 and mean.numpy().tolist() == [2, 3]
    assert variance.numpy().tolist() == [1, 2]  # integer means and variances truncate
    mean, variance = rg.nn.moments(rg.constant([[1, 2], [3, 5]], rg.float16), axes=0)
    assert mean.dtype == rg.float16 and variance.numpy().tolist() == [1.0, 2.25]
    assert rg.nn.moments([1.0, 2.0], axes=[0], shift=5.0)[0].numpy() == 1.5


def test_moments_second_derivatives_are_exact():
    # d2 var / dx0 dx = 2/n (e0 - 1/n); TensorFlow's moments gives 2/n e0 (see the docstring).
    x = rg.constant([1.0, 2.0, 4.0])
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            _, variance = rg.nn.moments(x, [0])
        first = inner.gradient(variance, x)
        picked = rg.reduce_sum(first * rg.constant([1.0, 0.0, 0.0]))
    np.testing.assert_allclose(
        outer.gradient(picked, x).numpy(), [4 / 9, -2 / 9, -2 / 9], rtol=1e-6
    )


def test_l2_normalize_keeps_zero_vectors_zero_and_variance_of_nothing_is_nan():
    assert rg.math.l2_normalize([0.0, 0.0]).numpy().tolist() == [0.0, 0.0]
    assert np.isnan(float(rg.math.reduce_variance(rg.zeros([0]))))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.reduce_logsumexp([1, 2]),
            TypeError,
            "reduce_logsumexp: `input_tensor` must be a float",
        ),
        (lambda: rg.math.reduce_variance([1, 2]), TypeError, "reduce_variance"),
        (lambda: rg.math.reduce_std([True]), TypeError, "reduce_std"),
        (lambda: rg.math.l2_normalize([3, 4]), TypeError, "l2_normalize: `x` must be a float"),
        (
            lambda: rg.math.l2_normalize([[3.0, 4.0]], axis=1, dim=1),
            ValueError,
            "both 'dim' and 'axis'",
        ),
        (lambda: rg.nn.moments([True], axes=[0]), TypeError, "moments"),
        (lambda: rg.nn.moments([1.0], axes=[1]), rg.errors.InvalidArgumentError, "dimension 1"),
        (lambda: rg.reduce_logsumexp([1.0], axis=2), rg.errors.InvalidArgumentError, "dimension 2"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
