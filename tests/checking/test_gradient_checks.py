"""Automatic gradient checks: common mistakes caught with messages that say what and where;
correct rules, registered or custom, never flagged."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import context
from tests.ops.table import in_precision, random_weights, weighted_total
from tests.ops.test_op_coverage import TABLES
from tests.test_seeds import differentiable_sign, log1pexp2


def gradient(f, *values, checks=None):
    xs = [rg.constant(v) for v in values]
    with rg.debugging.gradient_checks(**(checks or {})):
        with rg.GradientTape() as tape:
            tape.watch(xs)
            loss = rg.reduce_sum(f(*xs))
        return tape.gradient(loss, xs)


def custom(backward):
    @rg.custom_gradient
    def foo(x):
        return x**2, lambda upstream: backward(upstream, x)

    return foo


def test_checks_are_off_by_default_and_cost_nothing():
    assert autodiff_state.backward_observers == [] and context.observers == []
    assert not context.recording


def test_a_wrong_sign_is_caught_with_where_the_rule_was_defined():
    foo = custom(lambda upstream, x: -2 * x * upstream)
    with pytest.raises(rg.GradientCheckError) as raised:
        gradient(foo, [1.0, 2.0])
    message = str(raised.value)
    assert message.startswith(
        "gradient check failed: custom_gradient function 'custom.<locals>.foo' (defined at "
    )
    assert "test_gradient_checks.py:" in message and "is wrong for input 0" in message
    assert "The sign looks flipped." in message


def test_a_missing_upstream_factor_is_caught_even_where_upstream_is_one():
    # Seed 000's question: grad_fn returns the local derivative without the upstream factor.
    foo = custom(lambda upstream, x: 2 * x)
    with pytest.raises(rg.GradientCheckError) as raised:
        gradient(lambda x: foo(foo(foo(x))), 2.0)
    assert (
        "The rule ignores its upstream gradient (dy): its result does not change when dy doubles"
        in str(raised.value)
    )
    assert "must return dy times the local derivative" in str(raised.value)


def test_a_transposed_matmul_gradient_is_caught_on_square_matrices():
    @rg.custom_gradient
    def product(a, b):
        def grad(g):
            return rg.matmul(g, b), rg.matmul(g, a, transpose_a=True)  # should be b^T, a^T

        return rg.matmul(a, b), grad

    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.5, 1.0], [2.0, -1.0]])
    with pytest.raises(rg.GradientCheckError, match=r"is wrong for input 0 .*largest error"):
        gradient(product, a, b)


def test_wrong_count_and_shape_fail_at_the_backward_step_whether_or_not_checks_run():
    too_many = custom(lambda upstream, x: (upstream, upstream))
    wrong_shape = custom(lambda upstream, x: rg.reduce_sum(upstream))
    for checks in (None, {"registered": True}):
        with pytest.raises(ValueError, match=r"returned 2 gradient\(s\) but the function has 1"):
            gradient(too_many, [1.0, 2.0], checks=checks)
        with pytest.raises(ValueError, match=r"shape \(\).*for input 0, which has shape \(2,\)"):
            gradient(wrong_shape, [1.0, 2.0], checks=checks)


def test_a_wrong_registered_rule_is_caught_with_registered_true():
    rg.RegisterGradient("TestWrongSquareGrad")(lambda op, grad: grad * op.inputs[0])
    try:
        from retrograd.core.execute import OP_DEFS, define_op, execute

        op_def = define_op("TestWrongSquareGrad", np.square)
        square = lambda x: execute(op_def, (x,))  # noqa: E731
        assert gradient(square, [1.0, 3.0])[0].numpy().tolist() == [1.0, 3.0]  # unchecked
        with pytest.raises(rg.GradientCheckError, match="registered at .*test_gradient_checks"):
            gradient(square, [1.0, 3.0], checks={"registered": True})
    finally:
        rg.gradient_registry.unregister("TestWrongSquareGrad")
        OP_DEFS.pop("TestWrongSquareGrad", None)


def test_a_wrong_variable_gradient_names_the_variable():
    v = rg.Variable(3.0, name="scale")

    @rg.custom_gradient
    def scaled(x):
        def grad(upstream, variables=None):
            return upstream * v, [upstream]  # d/dv (x v) is x, not 1

        return x * v, grad

    with pytest.raises(rg.GradientCheckError, match="is wrong for variable 'scale:0'"):
        gradient(scaled, 2.0)


def test_correct_custom_rules_pass_and_are_checked_once():
    calls = []

    @rg.custom_gradient
    def log1pexp(x):
        calls.append(1)
        e = rg.exp(x)
        return rg.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    with rg.debugging.gradient_checks() as checker:
        for _ in range(3):
            x = rg.constant([-1.0, 0.5, 3.0])
            with rg.GradientTape() as tape:
                tape.watch(x)
                y = rg.reduce_sum(log1pexp(x))
            np.testing.assert_allclose(tape.gradient(y, x).numpy(), 1 / (1 + np.exp(-x.numpy())))
    assert len(checker.checked) == 1
    assert len(calls) == 3 + 3  # three real calls, then the forward at x and x +- h v once


# Rules that follow TensorFlow's convention rather than the derivative in the raw input.
CONVENTIONS = {
    "Cholesky": "symmetrised as TensorFlow's: it assumes symmetric perturbations, while the "
    "kernel reads only the lower triangle",
    "PadV2": "TensorFlow gives constant_values no gradient",
    "Zeta": "TensorFlow gives zeta no gradient in x (only in q)",
    "Betainc": "TensorFlow gives betainc no gradient in a and b (only in x)",
    # The fused recurrent backwards read the forward's gates as inputs; their rules give the
    # total derivative through x and the weights (the unfused step loop differentiated) and
    # none through those saved gates, which is exact where the gates come from the matching
    # forward op (always, in a tape or graph), but not input by input as this check asks.
    "BlockLSTMGradV2": "its rule gives total derivatives, none through the saved gates",
    "BlockGRUGrad": "its rule gives total derivatives, none through the saved gates",
}


def test_every_op_table_rule_passes_in_float32_and_float64_at_second_order():
    checked = set()
    for module in TABLES:
        for case in module.CASES:
            for bits in (64, 32):
                if bits == 32 and "Cast" in case.id:
                    continue  # the row mixes float32 and float64 on purpose
                xs = [
                    rg.constant(a.astype(in_precision(a.dtype.kind, bits))) for a in case.inputs()
                ]
                with rg.debugging.gradient_checks(
                    registered=True, skip=list(CONVENTIONS)
                ) as checker:
                    with rg.GradientTape() as outer:
                        outer.watch(xs)
                        with rg.GradientTape() as inner:
                            inner.watch(xs)
                            ys = [y for y in rg.nest.flatten(case.fn(*xs)) if y.dtype.is_trainable]
                            loss = weighted_total(ys, random_weights(ys))
                        # (gather's IndexedSlices, as in TensorFlow, used as a dense tensor)
                        grads = [
                            rg.convert_to_tensor(g)
                            for g in inner.gradient(loss, xs)
                            if g is not None
                        ]
                        total = weighted_total(grads, random_weights(grads, seed=1))
                    outer.gradient(total, xs)
                checked |= {key[1] for key in checker.checked}
    assert {"MatMul", "Exp", "Mul", "Sum", "Transpose"} <= checked


def test_a_kink_is_inconclusive_not_a_failure():
    gradient(rg.nn.relu, [0.0, 1.0], checks={"registered": True})
    gradient(rg.abs, [0.0, -1.0], checks={"registered": True})


def test_deliberate_surrogate_gradients_are_flagged_until_skipped():
    with pytest.raises(rg.GradientCheckError, match=r"skip=\['differentiable_sign'\]"):
        gradient(differentiable_sign, 0.5)
    gradient(differentiable_sign, 0.5, checks={"skip": [differentiable_sign]})
    gradient(differentiable_sign, 0.5, checks={"skip": ["differentiable_sign"]})


def test_seed_004_custom_second_derivative_is_flagged_unless_skipped():
    # Its second derivative (1 - e) is deliberately not the derivative of the first.
    def second(skip):
        x = rg.constant(1.0)
        with rg.debugging.gradient_checks(skip=skip):
            with rg.GradientTape() as outer:
                outer.watch(x)
                with rg.GradientTape() as inner:
                    inner.watch(x)
                    y = log1pexp2(x)
                dy = inner.gradient(y, x)
            return outer.gradient(dy, x)

    with pytest.raises(rg.GradientCheckError, match="first_order_custom"):
        second([])
    np.testing.assert_allclose(second(["first_order_custom"]).numpy(), 1 - np.e, rtol=1e-6)


def test_enable_and_disable():
    foo = custom(lambda upstream, x: -2 * x * upstream)
    checker = rg.debugging.enable_gradient_checks()
    try:
        assert autodiff_state.backward_observers == [checker]
        x = rg.constant(1.0)
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = foo(x)
        with pytest.raises(rg.GradientCheckError):
            tape.gradient(y, x)
    finally:
        rg.debugging.disable_gradient_checks()
    assert autodiff_state.backward_observers == []
