"""Special functions (SciPy-backed): values against SciPy, gradients against finite
differences to second order, TensorFlow's values at the poles, and the error when SciPy is
missing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import scipy.special

import retrograd as rg
from retrograd.ops import special_ops
from tests.ops.table import Case, check_forward, check_gradient, unary


def _near_pole(a):
    """Within 0.15 of 0, -1, -2, ... (lgamma and digamma have poles there)."""
    return (a < 0.15) & (np.abs(a - np.round(a)) < 0.15)


ORDERS = np.array([[0.0], [1.0], [2.0]])


def _polygamma_by_order(x):
    return rg.math.polygamma(rg.constant(ORDERS, x.dtype), x)


CASES = [
    *unary("Erf", rg.math.erf, scipy.special.erf),
    *unary("Erfc", rg.math.erfc, scipy.special.erfc),
    *unary("Erfinv", special_ops.erfinv, scipy.special.erfinv, domain=(-0.9, 0.9)),
    *unary("Lgamma", rg.math.lgamma, scipy.special.gammaln, domain=(-2.9, 4.0), avoid=_near_pole),
    *unary("Digamma", rg.math.digamma, scipy.special.psi, domain=(-2.9, 4.0), avoid=_near_pole),
    *unary(
        "Polygamma",
        lambda x: rg.math.polygamma(1.0, x),
        lambda x: scipy.special.polygamma(1, x),
        domain=(-2.9, 4.0),
        avoid=_near_pole,
    ),
    # Orders 0, 1, 2 (a column) broadcast against x (a row).
    Case(
        "Polygamma",
        _polygamma_by_order,
        ((4,),),
        lambda x: scipy.special.polygamma(ORDERS, x).astype(x.dtype),
        domain=(0.5, 4.0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_scipy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_values_at_poles_and_infinities_follow_tensorflow():
    poles = [0.0, -1.0, -2.0]
    assert rg.math.lgamma(poles).numpy().tolist() == [np.inf] * 3
    assert rg.math.lgamma([np.inf, -np.inf]).numpy().tolist() == [np.inf, np.inf]
    assert np.isnan(rg.math.digamma(poles + [-0.0]).numpy()).all()
    assert np.isnan(rg.math.polygamma([0.0, 2.0, 4.0], [0.0, -1.0, -3.0]).numpy()).all()
    assert rg.math.polygamma([1.0, 3.0], [0.0, -2.0]).numpy().tolist() == [np.inf, np.inf]
    assert np.isnan(rg.math.polygamma([1.5, -1.0], [2.0, 2.0]).numpy()).all()  # not an order


def test_erf_saturates_at_infinity():
    # (TensorFlow 2.21 returns nan for float64 erf(+-inf); float32 gives +-1, as here.)
    for dtype in (rg.float32, rg.float64):
        x = rg.constant([np.inf, -np.inf], dtype)
        assert rg.math.erf(x).numpy().tolist() == [1.0, -1.0]
        assert rg.math.erfc(x).numpy().tolist() == [0.0, 2.0]


def test_polygamma_has_no_gradient_for_its_order():
    a, x = rg.constant(1.0), rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch([a, x])
        y = rg.math.polygamma(a, x)
    ga, gx = tape.gradient(y, [a, x])
    assert ga is None
    np.testing.assert_allclose(gx.numpy(), scipy.special.polygamma(2, 2.0), rtol=1e-6)


def test_digamma_differentiates_three_times():
    x = rg.constant(1.5, rg.float64)
    with rg.GradientTape() as t3:
        t3.watch(x)
        with rg.GradientTape() as t2:
            t2.watch(x)
            with rg.GradientTape() as t1:
                t1.watch(x)
                y = rg.math.lgamma(x)
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x)
    np.testing.assert_allclose(
        [g1.numpy(), g2.numpy(), g3.numpy()],
        [scipy.special.psi(1.5), scipy.special.polygamma(1, 1.5), scipy.special.polygamma(2, 1.5)],
    )


@pytest.mark.parametrize(
    "op", [rg.math.erf, rg.math.erfc, rg.math.lgamma, rg.math.digamma], ids=lambda f: f.__name__
)
def test_integers_are_refused(op):
    with pytest.raises(TypeError, match="must be a float tensor, got int32"):
        op(rg.constant([1, 2]))


def test_polygamma_refuses_mismatched_arguments():
    with pytest.raises(TypeError, match="same dtype"):
        rg.math.polygamma(rg.constant(1.0), rg.constant(1.0, rg.float64))
    with pytest.raises(rg.errors.InvalidArgumentError, match="Polygamma: shapes"):
        rg.math.polygamma(rg.ones([2]), rg.ones([3]))


@pytest.fixture
def without_scipy(monkeypatch):
    """Makes ``import scipy.special`` fail, as on a machine without SciPy."""
    for module in [m for m in sys.modules if m == "scipy" or m.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.special", None)


@pytest.mark.parametrize(
    "op_type, call",
    [
        ("Erf", lambda: rg.math.erf(0.5)),
        ("Erfc", lambda: rg.math.erfc(0.5)),
        ("Lgamma", lambda: rg.math.lgamma(0.5)),
        ("Digamma", lambda: rg.math.digamma(0.5)),
        ("Polygamma", lambda: rg.math.polygamma(1.0, 0.5)),
        ("Erfc", lambda: rg.nn.gelu(0.5)),
    ],
)
def test_without_scipy_the_error_names_the_extra(without_scipy, op_type, call):
    with pytest.raises(rg.errors.MissingDependencyError) as raised:
        call()
    assert isinstance(raised.value, ImportError)
    assert str(raised.value) == (
        f"{op_type} needs SciPy, an optional dependency of retrograd; install it with "
        "pip install 'retrograd[special]'"
    )


def test_without_scipy_everything_else_works(without_scipy):
    assert rg.nn.gelu(1.0, approximate=True).numpy() > 0.84
    assert rg.exp(0.0).numpy() == 1.0


def test_importing_retrograd_does_not_import_scipy():
    code = "import sys, retrograd; assert 'scipy' not in sys.modules, 'scipy was imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
