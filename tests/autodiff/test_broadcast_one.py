"""Rules skip multiplying by a broadcast of one (a sum's gradient), but never when that
gradient is itself differentiated: higher derivatives flow through it."""

import numpy as np
import pytest

import retrograd as rg

X = np.linspace(0.1, 1.0, 1000)

CASES = {  # f, d/dx sum(f)
    "Mul": (lambda x: x * rg.sin(x), lambda v: np.sin(v) + v * np.cos(v)),
    "Square": (rg.square, lambda v: 2 * v),
    "Sin": (rg.sin, np.cos),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_watched_upstream_of_one_keeps_its_derivative(name):
    f, df = CASES[name]
    x = rg.constant(X)
    w = rg.constant(1.0, rg.float64)  # the upstream gradient, itself differentiated
    with rg.GradientTape() as outer:
        outer.watch(w)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = rg.reduce_sum(f(x))
        g = inner.gradient(y, x, output_gradients=w)
        total = rg.reduce_sum(g)
    np.testing.assert_allclose(g.numpy(), df(X), rtol=1e-12)
    np.testing.assert_allclose(float(outer.gradient(total, w)), df(X).sum(), rtol=1e-12)
