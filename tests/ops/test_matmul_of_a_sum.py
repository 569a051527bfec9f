"""The gradient of sum(A @ B) (an upstream spread from a scalar) uses row and column sums
instead of two products: the same values, first and second order, eager and traced."""

import numpy as np
import pytest

import retrograd as rg

RNG = np.random.default_rng(7)
A, B = RNG.standard_normal((300, 40)), RNG.standard_normal((40, 20))


def _expected(weight):
    ones = np.full((300, 20), weight)
    return ones @ B.T, A.T @ ones


def _gradients(a, b, weight):
    with rg.GradientTape() as tape:
        tape.watch([a, b])
        y = rg.reduce_sum(rg.matmul(a, b))
    return tape.gradient(y, [a, b], output_gradients=rg.constant(weight, rg.float64))


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("weight", [1.0, 3.0])
def test_the_gradients_are_the_products_of_the_chain_rule(traced, weight):
    run = rg.function(_gradients) if traced else _gradients
    got = run(rg.constant(A), rg.constant(B), weight)
    for g, want in zip(got, _expected(weight)):
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-10)


def test_second_derivatives_flow_through_the_sums():
    a, b = rg.constant(A), rg.constant(B)
    with rg.GradientTape() as outer:
        outer.watch(b)
        with rg.GradientTape() as inner:
            inner.watch(a)
            y = rg.reduce_sum(rg.matmul(a, b))
        ga = inner.gradient(y, a)
        z = rg.reduce_sum(ga * ga)  # sum over rows i of (row sums of b)^2
    gb = outer.gradient(z, b)
    rows = B.sum(axis=1)
    np.testing.assert_allclose(gb.numpy(), np.broadcast_to(2 * 300 * rows[:, None], B.shape))
