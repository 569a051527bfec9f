"""The SciPy-backed special functions of tf.math and tf.math.special: values against
SciPy, gradients against finite differences to second order (igamma's in ``a`` too, which
TensorFlow stops at first), sobol_sample's points."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special
import scipy.stats

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, unary

S = rg.math.special
POSITIVE = (0.2, 3.0)


def _fresnel(which):
    return lambda x: scipy.special.fresnel(x)[which]


CASES = [
    *unary("BesselI0", S.bessel_i0, scipy.special.i0),
    *unary("BesselI0e", S.bessel_i0e, scipy.special.i0e, avoid=lambda x: np.abs(x) < 0.05),
    *unary("BesselI1", S.bessel_i1, scipy.special.i1),
    *unary("BesselI1e", S.bessel_i1e, scipy.special.i1e, avoid=lambda x: np.abs(x) < 0.05),
    *unary("BesselJ0", S.bessel_j0, scipy.special.j0),
    *unary("BesselJ1", S.bessel_j1, scipy.special.j1),
    *unary("BesselY0", S.bessel_y0, scipy.special.y0, domain=POSITIVE),
    *unary("BesselY1", S.bessel_y1, scipy.special.y1, domain=POSITIVE),
    *unary("BesselK0", S.bessel_k0, scipy.special.k0, domain=POSITIVE),
    *unary("BesselK0e", S.bessel_k0e, scipy.special.k0e, domain=POSITIVE),
    *unary("BesselK1", S.bessel_k1, scipy.special.k1, domain=POSITIVE),
    *unary("BesselK1e", S.bessel_k1e, scipy.special.k1e, domain=POSITIVE),
    *unary("Dawsn", S.dawsn, scipy.special.dawsn),
    *unary("Expint", S.expint, scipy.special.expi, domain=POSITIVE),
    *unary("FresnelCos", S.fresnel_cos, _fresnel(1)),
    *unary("FresnelSin", S.fresnel_sin, _fresnel(0)),
    *unary("Spence", S.spence, scipy.special.spence, domain=POSITIVE),
    *unary("Erfinv", rg.math.erfinv, scipy.special.erfinv, domain=(-0.9, 0.9)),
    *unary("Ndtri", rg.math.ndtri, scipy.special.ndtri, domain=(0.05, 0.95)),
    Case(
        "Ndtri",
        rg.math.erfcinv,
        ((3,),),
        scipy.special.erfcinv,
        domain=(0.1, 1.9),
    ),
    Case(
        "Igamma",
        lambda x: rg.math.igamma(rg.constant([0.7, 1.5, 3.0], x.dtype), x),
        ((3,),),
        lambda x: scipy.special.gammainc([0.7, 1.5, 3.0], x),
        domain=POSITIVE,
    ),
    Case(
        "Igammac",
        lambda x: rg.math.igammac(rg.constant([[0.7], [2.5]], x.dtype), x),
        ((3,),),
        lambda x: scipy.special.gammaincc([[0.7], [2.5]], x),
        domain=POSITIVE,
    ),
    Case(
        "IgammaGradA",
        rg.math.igamma,
        ((2, 3), (3,)),
        scipy.special.gammainc,
        domain=(0.3, 6.0),
    ),
    Case(
        "IgammaGradA",
        lambda a: rg.math.igammac(a, rg.constant([0.01, 1.0, 40.0], a.dtype)),
        ((3,),),
        lambda a: scipy.special.gammaincc(a, [0.01, 1.0, 40.0]),
        domain=(0.5, 30.0),
    ),
    Case(
        "Zeta",
        lambda q: rg.math.zeta(rg.constant([2.0, 3.5, 5.0], q.dtype), q),
        ((3,),),
        lambda q: scipy.special.zeta([2.0, 3.5, 5.0], q),
        domain=POSITIVE,
    ),
    Case(
        "Betainc",
        lambda x: rg.math.betainc(rg.constant([0.5, 2.0, 3.0], x.dtype), 2.5, x),
        ((3,),),
        lambda x: scipy.special.betainc([0.5, 2.0, 3.0], 2.5, x),
        domain=(0.1, 0.9),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_scipy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_no_gradient_in_the_arguments_tensorflow_leaves_out():
    a, b, x = (rg.constant(v, rg.float64) for v in (1.5, 2.0, 0.3))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([a, b, x])
        z = rg.math.zeta(a + 1.0, x)
        beta = rg.math.betainc(a, b, x)
        p = rg.math.igamma(a, x)
        da = tape.gradient(p, a)
        dda = tape.gradient(da, a)
    assert tape.gradient(z, a) is None and tape.gradient(beta, [a, b])[:2] == [None, None]
    with pytest.raises(LookupError, match="IgammaGradAA"):  # (TensorFlow: at the second)
        tape.gradient(dda, a)


def test_sobol_sample_leaves_out_the_first_point_and_skips():
    engine = scipy.stats.qmc.Sobol(3, scramble=False)
    engine.fast_forward(3)
    want = engine.random(4)
    got = rg.math.sobol_sample(3, 4, skip=2, dtype=rg.float64)
    assert got.dtype == rg.float64 and np.array_equal(got.numpy(), want)
    with pytest.raises(rg.errors.InvalidArgumentError, match="dim must be at least one"):
        rg.math.sobol_sample(0, 3)


def test_values_at_the_edges_follow_tensorflow():
    assert rg.math.erfinv([1.0, -1.0]).numpy().tolist() == [np.inf, -np.inf]
    assert np.isnan(rg.math.erfinv(2.0).numpy())
    assert rg.math.ndtri([0.0, 1.0]).numpy().tolist() == [-np.inf, np.inf]
    assert np.isnan(rg.math.igamma([-1.0, 1.0], [1.0, -1.0]).numpy()).all()
    zeta = rg.math.zeta([1.0, 0.5, 2.0], [1.0, 1.0, -1.5]).numpy()
    assert zeta[0] == np.inf and np.isnan(zeta[1]) and np.isclose(zeta[2], 9.379247)


def test_bessel_derivatives_at_zero_are_the_limits():
    # d/dx I1 = d/dx J1 = d/dx I1e = 1/2 at 0 (TensorFlow 2.21 gives I1 the value 1.0).
    x = rg.constant([0.0], rg.float64)
    for f in (S.bessel_i1, S.bessel_i1e, S.bessel_j1):
        with rg.GradientTape() as outer:
            outer.watch(x)
            with rg.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        assert g.numpy().tolist() == [0.5], f.__name__
        assert np.isfinite(outer.gradient(g, x).numpy()).all(), f.__name__
