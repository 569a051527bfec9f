"""Every op in the op tables, in forward mode: its JVP equals reverse mode's J·t, its direct
forward rule (where one is written) equals the one derived from its gradient function, and
second derivatives agree in all four combinations of modes. The tables are those of
tests/ops/test_op_coverage.py, so ops added later are covered automatically."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff import forward
from tests.ops.table import recorded_op_types
from tests.ops.test_op_coverage import CHECKED_ELSEWHERE, TABLES


def _real(case) -> bool:
    """Rows with real inputs and outputs: forward mode is verified on real values only (the
    Jacobian of a non-holomorphic complex function is not a complex number)."""
    if case.complex_inputs:
        return False
    outputs = rg.nest.flatten(case.fn(*[rg.constant(a) for a in case.inputs()]))
    return not any(y.dtype.is_complex for y in outputs)


CASES = [case for module in TABLES for case in module.CASES if _real(case)]
TOL = {"rtol": 1e-9, "atol": 1e-9}
ZERO = "zero"


def _tol(case):
    """Float64 agreement, looser for rows that round through float32 (their FD tolerance)."""
    return TOL if case.atol <= 1e-6 else {"rtol": 1e-6, "atol": 1e-6}


def _setup(case):
    rng = np.random.default_rng(7 + sum(map(ord, case.id)))
    args = [rg.constant(a) for a in case.inputs()]
    t1 = [rg.constant(rng.standard_normal(a.shape)) for a in args]
    t2 = [rg.constant(rng.standard_normal(a.shape)) for a in args]
    return args, t1, t2


def _float_outputs(out):
    return [y for y in rg.nest.flatten(out) if y.dtype.is_floating]


def _scalar(case, rng_seed=3):
    """``x -> sum_k sum(w_k * y_k)`` over the floating outputs, with fixed random weights."""
    args = [rg.constant(a) for a in case.inputs()]
    rng = np.random.default_rng(rng_seed)
    weights = [rng.standard_normal(tuple(y.shape)) for y in _float_outputs(case.fn(*args))]

    def scalar(*xs):
        ys = _float_outputs(case.fn(*xs))
        return rg.add_n([rg.reduce_sum(y * w) for y, w in zip(ys, weights)])

    return scalar


def _dot(values, tangents):
    return sum(
        float(np.sum(rg.convert_to_tensor(v).numpy() * t.numpy()))
        for v, t in zip(values, tangents)
        if v is not None
    )


def forward_jvps(case, args, tangents):
    with rg.autodiff.ForwardAccumulator(args, tangents) as acc:
        out = case.fn(*args)
    return [acc.jvp(y, unconnected_gradients=ZERO).numpy() for y in _float_outputs(out)]


def reverse_jvps(case, args, tangents):
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(args)
        out = case.fn(*args)
    result = []
    for y in _float_outputs(out):
        jacobians = tape.jacobian(y, args, unconnected_gradients=ZERO)
        result.append(
            sum(
                np.tensordot(j.numpy(), t.numpy(), axes=t.ndim) for j, t in zip(jacobians, tangents)
            )
        )
    return result


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_mode_equals_reverse_mode(case):
    args, t1, _ = _setup(case)
    for got, expected in zip(forward_jvps(case, args, t1), reverse_jvps(case, args, t1)):
        np.testing.assert_allclose(got, expected, err_msg=case.id, **_tol(case))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_direct_forward_rules_equal_the_derived_ones(case, monkeypatch):
    args, t1, _ = _setup(case)
    direct = forward_jvps(case, args, t1)
    monkeypatch.setattr(forward.forward_registry, "find", lambda op_type: None)
    derived = forward_jvps(case, args, t1)
    for got, expected in zip(direct, derived):
        np.testing.assert_allclose(got, expected, err_msg=case.id, **TOL)


def _dense(grads):
    """Gradients as tensors: gather's IndexedSlices (TensorFlow's type) made dense while the
    outer tape or accumulator records."""
    return [rg.convert_to_tensor(g) for g in grads]


def _second_order_all_modes(case):
    """t1ᵀ H t2 of the weighted-sum scalar in the four combinations of modes."""
    args, t1, t2 = _setup(case)
    scalar = _scalar(case)
    acc_t = rg.autodiff.ForwardAccumulator

    with acc_t(args, t1) as outer, acc_t(args, t2) as inner:
        s = scalar(*args)
    fwd_fwd = outer.jvp(inner.jvp(s, ZERO), ZERO).numpy()

    with rg.GradientTape() as t_outer:
        t_outer.watch(args)
        with rg.GradientTape() as t_inner:
            t_inner.watch(args)
            s = scalar(*args)
        g = _dense(t_inner.gradient(s, args, unconnected_gradients=ZERO))
        g_t2 = rg.add_n([rg.reduce_sum(gi * ti) for gi, ti in zip(g, t2)])
    rev_rev = _dot(t_outer.gradient(g_t2, args), t1)

    with acc_t(args, t1) as acc:
        with rg.GradientTape() as tape:
            tape.watch(args)
            s = scalar(*args)
        g = _dense(tape.gradient(s, args, unconnected_gradients=ZERO))
    fwd_rev = _dot(acc.jvp(g, ZERO), t2)

    with rg.GradientTape() as tape:
        tape.watch(args)
        with acc_t(args, t2) as acc:
            s = scalar(*args)
        d = acc.jvp(s, ZERO)
    rev_fwd = _dot(tape.gradient(d, args), t1)
    return fwd_fwd, rev_rev, fwd_rev, rev_fwd


@pytest.mark.parametrize("case", [c for c in CASES if c.order >= 2], ids=lambda c: c.id)
def test_second_derivatives_agree_in_all_four_mode_combinations(case):
    fwd_fwd, rev_rev, fwd_rev, rev_fwd = _second_order_all_modes(case)
    for name, value in (("fwd-fwd", fwd_fwd), ("fwd-rev", fwd_rev), ("rev-fwd", rev_fwd)):
        np.testing.assert_allclose(value, rev_rev, err_msg=f"{case.id} {name}", **_tol(case))


def test_every_direct_forward_rule_is_exercised_by_an_op_table_row():
    exercised = set()
    for case in CASES:
        exercised |= recorded_op_types(case)
    complex_only = {"Conj"}  # the identity on real values: its rule runs on complex ones only
    untested = set(rg.forward_registry.list()) - exercised - set(CHECKED_ELSEWHERE) - complex_only
    assert not untested, f"forward rules with no op-table row: {sorted(untested)}"


def test_ops_checked_elsewhere_have_forward_rules_that_agree():
    """The ops without a table row, through small functions of their own."""
    x = rg.constant(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
    v = rg.Variable(np.array([0.5, 2.0]))
    functions = [
        lambda x: (
            rg.ops.array_ops.strided_slice_grad(
                x[0, 1:], rg.zeros([4, 3], rg.float64), (slice(1, 3), 0)
            )
            * x[0, 0]
        ),
        lambda x: rg.debugging.check_numerics(x * x, "checked"),
        lambda x: rg.reduce_sum(x[0, :2] * v),
    ]
    tangent = rg.constant(np.ones((2, 3)))
    for fn in functions:
        with rg.autodiff.ForwardAccumulator(x, tangent) as acc:
            y = fn(x)
        with rg.GradientTape() as tape:
            tape.watch(x)
            y2 = fn(x)
        jac = tape.jacobian(y2, x, unconnected_gradients=ZERO).numpy()
        expected = np.tensordot(jac, tangent.numpy(), axes=2)
        np.testing.assert_allclose(acc.jvp(y).numpy(), expected, **TOL)


def test_forward_rule_results_are_checked_and_the_error_names_the_rule():
    @rg.RegisterForward("ForwardRulesTestBadShape")
    def _bad(op, t):
        return rg.reduce_sum(t)

    op_def = rg.core.execute.define_op("ForwardRulesTestBadShape", lambda x: x * 2)
    rg.RegisterGradient("ForwardRulesTestBadShape")(lambda op, g: g * 2)
    try:
        x = rg.constant([1.0, 2.0])
        with (
            rg.autodiff.ForwardAccumulator(x, rg.constant([1.0, 1.0])),
            pytest.raises(ValueError, match=r"forward rule for op type.*shape \(\)"),
        ):
            rg.core.execute.execute(op_def, (x,))
    finally:
        rg.forward_registry.unregister("ForwardRulesTestBadShape")
        rg.gradient_registry.unregister("ForwardRulesTestBadShape")
        del rg.core.execute.OP_DEFS["ForwardRulesTestBadShape"]


def test_forward_registry_refuses_duplicates_and_explains_missing_rules():
    with pytest.raises(KeyError, match="two forward rule with name 'Exp'"):
        rg.RegisterForward("Exp")(lambda op, t: t)
    with pytest.raises(LookupError, match=r"No forward rule.*RegisterForward\('Nope'\)"):
        rg.forward_registry.lookup("Nope")
    with pytest.raises(TypeError, match="string"):
        rg.RegisterForward(3)
