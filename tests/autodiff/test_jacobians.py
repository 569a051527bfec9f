"""GradientTape.jacobian and batch_jacobian: vectorised where the rules allow, the same values
as the one-pass-per-element fallback, and both right against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff.backprop import NotBatchableError, backward
from retrograd.autodiff.state import state as autodiff_state
from tests.ops.test_op_coverage import TABLES

CASES = [case for module in TABLES for case in module.CASES]


def _numerical_jacobian(f, args, index, delta=1e-6):
    """d f(args) / d args[index] by central differences, shape out.shape + arg.shape."""
    base = args[index]
    out_shape = np.shape(f(*args))
    jac = np.zeros(out_shape + base.shape)
    for position in np.ndindex(base.shape):
        values = []
        for step in (delta, -delta):
            moved = base.copy()
            moved[position] += step
            values.append(np.asarray(f(*args[:index], moved, *args[index + 1 :])))
        jac[(...,) + position] = (values[0] - values[1]) / (2 * delta)
    return jac


class RuleCounter:
    """Counts gradient-function calls (a backward observer)."""

    def __init__(self):
        self.calls = 0

    def observe_backward(self, op, rule, upstream, grads):
        self.calls += 1

    def __enter__(self):
        autodiff_state.backward_observers.append(self)
        return self

    def __exit__(self, *exc):
        autodiff_state.backward_observers.remove(self)


def _jacobians(case, **kwargs):
    args = [rg.constant(a) for a in case.inputs()]
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(args)
        out = case.fn(*args)
    outputs = [y for y in rg.nest.flatten(out) if y.dtype.is_floating]
    return [tape.jacobian(y, args, unconnected_gradients="zero", **kwargs) for y in outputs]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_vectorised_jacobian_equals_the_fallback_for_every_op_table_row(case):
    """Checks every op declared batchable: its rule gives the same rows in one batched pass."""
    vectorised = rg.nest.flatten(_jacobians(case))
    looped = rg.nest.flatten(_jacobians(case, experimental_use_pfor=False))
    for v, s in zip(vectorised, looped):
        np.testing.assert_allclose(v.numpy(), s.numpy(), rtol=1e-12, atol=1e-12, err_msg=case.id)


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.id.split("-")[0] in {"Mul", "MatMul[broadcast]", "Softmax", "Pow"}],
)
def test_jacobians_match_finite_differences(case):
    inputs = case.inputs()

    def numeric(*xs):
        return rg.nest.flatten(case.fn(*[rg.constant(x) for x in xs]))[0].numpy()

    (jacobians,) = _jacobians(case)
    for i, jac in enumerate(jacobians):
        np.testing.assert_allclose(
            jac.numpy(), _numerical_jacobian(numeric, inputs, i), rtol=1e-6, atol=1e-6
        )


def test_an_elementwise_and_matmul_graph_takes_one_backward_pass():
    x = rg.constant(np.linspace(-1.0, 1.0, 10))
    w = rg.constant(np.random.default_rng(0).standard_normal((10, 10)))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.tanh(rg.matmul(w, x[:, None]) * 2.0 + 1.0)
    with RuleCounter() as counter:
        tape.jacobian(y, x)
    # StridedSlice is not batchable, so this one falls back: one pass per element of y
    assert counter.calls == 10 * 5

    x2 = rg.constant(np.linspace(-1.0, 1.0, 10)[:, None])
    with rg.GradientTape() as tape:
        tape.watch(x2)
        y = rg.tanh(rg.matmul(w, x2) * 2.0 + 1.0)
    with RuleCounter() as counter:
        jac = tape.jacobian(y, x2)
    assert counter.calls == 4  # MatMul, Mul, AddV2, Tanh: once each
    expected = (1 - np.tanh(2 * w.numpy() @ x2.numpy() + 1) ** 2) * 2 * w.numpy()
    np.testing.assert_allclose(jac.numpy()[:, 0, :, 0], expected, rtol=1e-12)


def test_parallel_iterations_bounds_the_rows_per_pass_without_changing_values():
    x = rg.constant(np.linspace(0.5, 1.5, 7))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rg.exp(x) * x
    with RuleCounter() as counter:
        chunked = tape.jacobian(y, x, parallel_iterations=3)
    assert counter.calls == 3 * 2  # three passes of 3, 3 and 1 rows through Mul and Exp
    np.testing.assert_allclose(chunked.numpy(), tape.jacobian(y, x).numpy())
    with pytest.raises(ValueError, match="parallel_iterations"):
        tape.jacobian(y, x, parallel_iterations=0)


def test_custom_gradients_fall_back_to_one_pass_per_element():
    @rg.custom_gradient
    def cube(x):
        return x * x * x, lambda dy: dy * 3 * x * x

    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = cube(x)
    with RuleCounter() as counter:
        jac = tape.jacobian(y, x)
    assert counter.calls == 3
    np.testing.assert_allclose(jac.numpy(), np.diag([3.0, 12.0, 27.0]))


def test_batched_backward_refuses_unbatchable_rules_before_running_any():
    x = rg.constant([[1.0, 2.0]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(x, axis=1)
    with RuleCounter() as counter, pytest.raises(NotBatchableError, match="'Sum'"):
        backward(tape.producers(), [y], [rg.ones([1, 1])], [x], (1,))
    assert counter.calls == 0


def test_batch_jacobian_vectorised_equals_the_fallback_and_the_closed_form():
    rng = np.random.default_rng(1)
    x = rg.constant(rng.standard_normal((4, 3)))
    w = rg.constant(rng.standard_normal((3, 2)))
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rg.sin(rg.matmul(x, w))  # [4, 2]; example i depends on row i only
    with RuleCounter() as counter:
        fast = tape.batch_jacobian(y, x)
    assert counter.calls == 2
    slow = tape.batch_jacobian(y, x, experimental_use_pfor=False)
    expected = np.cos(x.numpy() @ w.numpy())[:, :, None] * w.numpy().T[None]
    assert fast.shape == (4, 2, 3)
    np.testing.assert_allclose(fast.numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(slow.numpy(), expected, rtol=1e-12)


def test_vectorised_jacobians_differentiate_again():
    x = rg.constant([0.3, -0.7])
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = rg.sin(x) * x
        jac = inner.jacobian(y, x)  # diag(cos(x) x + sin(x))
        trace = jac[0, 0] + jac[1, 1]
    xs = x.numpy()
    np.testing.assert_allclose(
        outer.gradient(trace, x).numpy(), 2 * np.cos(xs) - xs * np.sin(xs), rtol=1e-6
    )


def test_jacobian_with_respect_to_a_variable_is_vectorised():
    v = rg.Variable([1.0, 2.0])
    with rg.GradientTape() as tape:
        y = v * v
    with RuleCounter() as counter:
        jac = tape.jacobian(y, v)
    assert counter.calls == 3  # Mul and the two reads
    np.testing.assert_allclose(jac.numpy(), np.diag([2.0, 4.0]))


def test_a_vectorised_jacobian_under_a_forward_accumulator():
    """Forward over a batched backward pass: the accumulator's rules see unbatched values."""
    xs, ts = np.array([0.3, -0.7, 1.1]), np.array([1.0, 2.0, -1.0])
    x = rg.constant(xs)
    with rg.autodiff.ForwardAccumulator(x, rg.constant(ts)) as acc:
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.sin(x) * rg.exp(x) + rg.pow(x * x + 1.0, 1.5)
        with RuleCounter() as counter:
            jac = tape.jacobian(y, x)
    assert counter.calls == 7  # one batched pass through the 7 ops, not one per element
    second = (  # f'' of each element
        2 * np.cos(xs) * np.exp(xs) + 3 * (2 * xs * xs + 1) / np.sqrt(xs * xs + 1)
    )
    np.testing.assert_allclose(acc.jvp(jac).numpy(), np.diag(second * ts), rtol=1e-10)
