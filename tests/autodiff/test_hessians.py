"""Second and third derivatives in every combination of forward and reverse mode: known
functions against closed forms and second-order finite differences, seed 004's custom
second derivative, and third derivatives of polynomials."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff import functional as F
from tests.test_seeds import log1pexp2

ForwardAccumulator = rg.autodiff.ForwardAccumulator


# --- Hessians of known functions -------------------------------------------------------------

A = np.array([[3.0, 1.0, -1.0], [0.5, 2.0, 0.0], [1.0, -2.0, 4.0]])
B = np.array([1.0, -2.0, 0.5])


def quadratic(x):
    """0.5 xᵀ A x + bᵀ x; Hessian (A + Aᵀ) / 2."""
    ax = rg.matmul(rg.constant(A), rg.reshape(x, [3, 1]))
    return 0.5 * rg.reduce_sum(rg.reshape(ax, [3]) * x) + rg.reduce_sum(rg.constant(B) * x)


def quadratic_hessian(x):
    return 0.5 * (A + A.T)


def logsumexp(x):
    """log Σ exp(x), computed stably; Hessian diag(p) - p pᵀ with p = softmax(x)."""
    m = rg.stop_gradient(rg.reduce_max(x))
    return rg.math.log(rg.reduce_sum(rg.exp(x - m))) + m


def logsumexp_hessian(x):
    p = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    return np.diag(p) - np.outer(p, p)


def rosenbrock(x):
    """Σ 100 (x[i+1] - x[i]²)² + (1 - x[i])²."""
    head, tail = x[:-1], x[1:]
    return rg.reduce_sum(100.0 * rg.square(tail - head * head) + rg.square(1.0 - head))


def rosenbrock_hessian(x):
    n = len(x)
    h = np.zeros((n, n))
    for i in range(n - 1):
        h[i, i] += 1200 * x[i] ** 2 - 400 * x[i + 1] + 2
        h[i + 1, i + 1] += 200
        h[i, i + 1] += -400 * x[i]
        h[i + 1, i] += -400 * x[i]
    return h


def _custom_softplus(with_defjvp):
    @rg.custom_gradient
    def softplus(x):
        return rg.math.log(1 + rg.exp(x)), lambda dy: dy * rg.sigmoid(x)

    if with_defjvp:
        softplus.defjvp(lambda primals, tangents, outputs: tangents[0] * rg.sigmoid(primals[0]))
    return softplus


C = np.array([1.0, -2.0, 3.0])


def _through(softplus):
    def custom_rules(x):
        """Σ c softplus(x) through a custom gradient; Hessian diag(c σ(x) (1 - σ(x)))."""
        return rg.reduce_sum(rg.constant(C) * softplus(x))

    return custom_rules


def custom_rules_hessian(x):
    s = 1 / (1 + np.exp(-x))
    return np.diag(C * s * (1 - s))


FUNCTIONS = [
    (quadratic, quadratic_hessian, np.array([0.3, -1.2, 2.0])),
    (logsumexp, logsumexp_hessian, np.array([0.5, -1.0, 2.0, 0.1])),
    (rosenbrock, rosenbrock_hessian, np.array([-1.2, 1.0, 0.8, 1.5])),
    (_through(_custom_softplus(False)), custom_rules_hessian, np.array([0.5, -1.0, 2.0])),
    (_through(_custom_softplus(True)), custom_rules_hessian, np.array([0.5, -1.0, 2.0])),
]
FUNCTION_IDS = ["quadratic", "logsumexp", "rosenbrock", "custom-derived-jvp", "custom-defjvp"]


def _tape_hessian(f, x):
    """Reverse over reverse with tapes: the Jacobian of the gradient."""
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x)


def _accumulator_over_tape_hessian(f, x):
    """Forward over reverse with an accumulator around a tape: one HVP per column."""
    columns = []
    for unit in np.eye(x.shape[0]):
        with ForwardAccumulator(x, rg.constant(unit)) as acc:
            with rg.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
            g = tape.gradient(y, x)
        columns.append(acc.jvp(g).numpy())
    return np.stack(columns, axis=1)


def _tape_over_accumulator_hessian(f, x):
    """Reverse over forward with a tape around an accumulator: one gradient per column."""
    columns = []
    for unit in np.eye(x.shape[0]):
        with rg.GradientTape() as tape:
            tape.watch(x)
            with ForwardAccumulator(x, rg.constant(unit)) as acc:
                y = f(x)
            directional = acc.jvp(y)
        columns.append(tape.gradient(directional, x).numpy())
    return np.stack(columns, axis=1)


def _nested_accumulators_hessian(f, x):
    """Forward over forward: H[i, j] from two nested accumulators."""
    n = x.shape[0]
    h = np.zeros((n, n))
    for i, ei in enumerate(np.eye(n)):
        for j, ej in enumerate(np.eye(n)):
            with ForwardAccumulator(x, rg.constant(ei)) as outer:
                with ForwardAccumulator(x, rg.constant(ej)) as inner:
                    y = f(x)
                first = inner.jvp(y)
            h[i, j] = outer.jvp(first, unconnected_gradients="zero").numpy()
    return h


MODES = {
    "rev-rev (jacrev of jacrev)": lambda f, x: F.jacrev(F.jacrev(f))(x).numpy(),
    "fwd-rev (hessian)": lambda f, x: F.hessian(f)(x).numpy(),
    "rev-fwd (jacrev of jacfwd)": lambda f, x: F.jacrev(F.jacfwd(f))(x).numpy(),
    "fwd-fwd (jacfwd of jacfwd)": lambda f, x: F.jacfwd(F.jacfwd(f))(x).numpy(),
    "rev-rev (nested tapes)": lambda f, x: _tape_hessian(f, x).numpy(),
    "fwd-rev (accumulator over tape)": _accumulator_over_tape_hessian,
    "rev-fwd (tape over accumulator)": _tape_over_accumulator_hessian,
    "fwd-fwd (nested accumulators)": _nested_accumulators_hessian,
}


def _finite_difference_hessian(f, x, h=1e-4):
    """Second-order central differences of the scalar function f in float64."""
    n = len(x)
    value = lambda z: float(f(rg.constant(z)))  # noqa: E731
    hess = np.zeros((n, n))
    for i, ei in enumerate(np.eye(n) * h):
        for j, ej in enumerate(np.eye(n) * h):
            hess[i, j] = (
                value(x + ei + ej) - value(x + ei - ej) - value(x - ei + ej) + value(x - ei - ej)
            ) / (4 * h * h)
    return hess


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("f, closed_form, point", FUNCTIONS, ids=FUNCTION_IDS)
def test_hessians_in_every_mode_match_the_closed_form_and_finite_differences(
    mode, f, closed_form, point
):
    hessian = MODES[mode](f, rg.constant(point))
    np.testing.assert_allclose(hessian, closed_form(point), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(hessian, _finite_difference_hessian(f, point), rtol=1e-5, atol=1e-4)


# --- seed 004: a custom second derivative ----------------------------------------------------

# The seed prints, at x = 1: dy 0.7310586, ddy -1.7182817; at x = 100: 1.0, -inf (float32).
SEED_004 = [(1.0, 0.7310586, -1.7182817), (100.0, 1.0, -np.inf)]


def _seed_004_modes(x):
    """(first, second) derivative of log1pexp2 at x, by each route."""
    one = rg.constant(1.0)
    routes = {}
    with rg.GradientTape() as t2:
        t2.watch(x)
        with rg.GradientTape() as t1:
            t1.watch(x)
            y = log1pexp2(x)
        dy = t1.gradient(y, x)
    routes["nested tapes"] = (dy, t2.gradient(dy, x))
    routes["hessian"] = (F.grad(log1pexp2)(x), F.hessian(log1pexp2)(x))
    routes["jacrev of grad"] = (F.grad(log1pexp2)(x), F.jacrev(F.grad(log1pexp2))(x))
    with ForwardAccumulator(x, one) as acc:
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp2(x)
        dy = tape.gradient(y, x)
    routes["forward over reverse"] = (dy, acc.jvp(dy))
    with rg.GradientTape() as tape:
        tape.watch(x)
        with ForwardAccumulator(x, one) as acc:
            y = log1pexp2(x)
        dy = acc.jvp(y)
    routes["reverse over forward"] = (dy, tape.gradient(dy, x))
    with ForwardAccumulator(x, one) as outer:
        with ForwardAccumulator(x, one) as inner:
            y = log1pexp2(x)
        dy = inner.jvp(y)
    routes["forward over forward"] = (dy, outer.jvp(dy))
    return routes


@pytest.mark.parametrize("value, first, second", SEED_004)
def test_seed_004_custom_second_derivative_by_every_route(value, first, second):
    for route, (dy, ddy) in _seed_004_modes(rg.constant(value)).items():
        np.testing.assert_allclose(float(dy), first, rtol=2e-7, err_msg=route)
        np.testing.assert_allclose(float(ddy), second, rtol=2e-7, err_msg=route)


# --- third derivatives ----------------------------------------------------------------------


def polynomial(x):
    return x**4 - 2 * x**3 + 3 * x


def test_third_derivative_of_a_polynomial_in_every_mode_combination():
    x = rg.constant(1.5, rg.float64)
    expected = 24 * 1.5 - 12  # p'''(x)
    d = F.grad
    routes = {
        "rev-rev-rev": d(d(d(polynomial)))(x),
        "fwd-fwd-fwd": F.jacfwd(F.jacfwd(F.jacfwd(polynomial)))(x),
        "fwd-rev-rev": F.jacfwd(d(d(polynomial)))(x),
        "rev-fwd-rev": d(F.jacfwd(d(polynomial)))(x),
        "fwd-fwd-rev": F.jacfwd(F.jacfwd(d(polynomial)))(x),
        "rev-rev-fwd": d(d(F.jacfwd(polynomial)))(x),
    }
    with ForwardAccumulator(x, 1.0) as a3, ForwardAccumulator(x, 1.0) as a2:
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = polynomial(x)
        g = tape.gradient(y, x)
        gg = a2.jvp(g)
    routes["accumulators over a tape"] = a3.jvp(gg)
    for route, value in routes.items():
        assert float(value) == pytest.approx(expected, rel=1e-12), route


def test_third_derivative_tensor_of_a_multivariate_polynomial():
    def f(x):
        return rg.reduce_sum(x**3) + x[0] * x[1] * x[2]

    expected = np.zeros((3, 3, 3))
    for i in range(3):
        expected[i, i, i] = 6.0
    for i, j, k in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:
        expected[i, j, k] = 1.0
    x = rg.constant([0.5, -1.0, 2.0], rg.float64)
    for third in (
        F.jacrev(F.jacrev(F.jacrev(f))),
        F.jacfwd(F.jacfwd(F.jacrev(f))),
        F.jacfwd(F.jacrev(F.jacfwd(f))),
    ):
        np.testing.assert_allclose(third(x).numpy(), expected, atol=1e-12)
