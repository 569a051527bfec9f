"""custom_gradient: TensorFlow's semantics (seeds 001 and 004) and validation of grad_fn."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.test_seeds import log1pexp2  # seed 004's custom second derivative


@rg.custom_gradient
def log1pexp(x):
    e = rg.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return rg.math.log(1 + e), grad


def naive_log1pexp(x):
    return rg.math.log(1 + rg.exp(x))


def derivative(fn, x, order=1):
    """The ``order``-th derivative of a scalar function, by nested tapes."""
    x = rg.constant(x)
    tapes = [rg.GradientTape() for _ in range(order)]
    for tape in tapes:
        tape.__enter__()
        tape.watch(x)
    y = fn(x)
    for tape in reversed(tapes):
        tape.__exit__(None, None, None)
        y = tape.gradient(y, x)
    return y


def test_seed_001_custom_gradient_is_stable_where_the_naive_one_is_nan():
    assert np.isnan(derivative(naive_log1pexp, 100.0).numpy())
    assert derivative(log1pexp, 100.0).numpy() == 1.0
    np.testing.assert_allclose(derivative(log1pexp, 0.0).numpy(), 0.5)


def test_values_captured_from_the_forward_stay_differentiable():
    # grad uses e = exp(x) from the forward pass: its derivative is sigmoid'(x).
    s = 1 / (1 + np.exp(-0.5))
    np.testing.assert_allclose(derivative(log1pexp, 0.5, order=2).numpy(), s * (1 - s), rtol=1e-6)


def test_seed_001_two_inputs():
    @rg.custom_gradient
    def bar(x, y):
        def grad(upstream):
            return upstream * y, upstream * x

        return x * y, grad

    x, y = rg.constant(2.0), rg.constant(3.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = bar(x, y)
    assert (z.numpy(), tape.gradient(z, x).numpy(), tape.gradient(z, y).numpy()) == (6.0, 3.0, 2.0)


@pytest.mark.parametrize("x, dy, ddy", [(1.0, 0.7310586, -1.7182817), (100.0, 1.0, -np.inf)])
def test_seed_004_custom_second_derivative(x, dy, ddy):
    np.testing.assert_allclose(derivative(log1pexp2, x).numpy(), dy, rtol=1e-6)
    np.testing.assert_allclose(derivative(log1pexp2, x, order=2).numpy(), ddy, rtol=1e-6)


def test_unused_outputs_reach_grad_fn_as_zeros():
    received = []

    @rg.custom_gradient
    def two(x):
        def grad(d1, d2):
            received.extend([d1.numpy(), d2.numpy()])
            return d1 * 2 + d2 * 3

        return (x * 2, x * 3), grad

    assert derivative(lambda x: two(x)[0], 1.0).numpy() == 2.0
    assert received == [1.0, 0.0]


def test_nested_structures_and_pass_through_arguments():
    @rg.custom_gradient
    def weighted(inputs, scale, *, offset=0.0):
        a, b = inputs["a"], inputs["b"]

        def grad(dy):
            return {"a": dy * scale, "b": dy * 2 * scale}

        return (a + 2 * b) * scale + offset, grad

    a, b = rg.constant(1.0), rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch([a, b])
        y = weighted({"a": a, "b": b}, 3.0, offset=1.0)
    assert y.numpy() == 10.0
    assert [g.numpy() for g in tape.gradient(y, [a, b])] == [3.0, 6.0]


def test_variables_read_inside_need_a_variables_argument():
    v = rg.Variable(2.0)

    @rg.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            assert variables == [v]
            return dy * v, [dy * x]

        return x * v, grad

    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (2.0, 3.0)


def test_reading_variables_without_a_variables_argument_is_a_type_error():
    v = rg.Variable(2.0, name="w")

    @rg.custom_gradient
    def scale(x):
        return x * v, lambda dy: dy * v

    with pytest.raises(TypeError, match=r"'.*scale' .* reads the variables \['w:0'\].*'variables'"):
        scale(rg.constant(1.0))


def test_a_variable_argument_is_an_input_not_one_of_the_variables():
    """Seed 002's pattern: a Variable passed in and branched on."""

    @rg.custom_gradient
    def differentiable_sign(x):
        def grad(upstream):
            return upstream * rg.sigmoid(x) * (1 - rg.sigmoid(x))

        return (rg.constant(1.0) if x > 0 else rg.constant(-1.0)), grad

    v = rg.Variable(-1.0)
    with rg.GradientTape() as tape:
        y = differentiable_sign(v)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), 0.19661193)


def test_wrong_number_of_variable_gradients():
    v = rg.Variable(2.0)

    @rg.custom_gradient
    def scale(x):
        return x * v, lambda dy, variables: (dy * v, [])

    with pytest.raises(ValueError, match="one gradient per variable"):
        derivative(scale, 1.0)


def _bad(grad_result):
    @rg.custom_gradient
    def square(x):
        return x * x, lambda dy: grad_result(dy, x)

    return square


@pytest.mark.parametrize(
    "grad_result, error, match",
    [
        (lambda dy, x: (dy, dy), ValueError, "returned 2 gradient.*1 tensor input"),
        (lambda dy, x: rg.ones([3]), ValueError, r"shape \(3,\).*input 0, which has shape \(2,\)"),
        (lambda dy, x: rg.cast(dy, rg.float64), ValueError, "dtype float64 for input 0"),
        (lambda dy, x: "gradient", TypeError, "returned a str"),
        (lambda dy, x: lambda ddy: ddy, TypeError, "decorate an inner function"),
    ],
)
def test_wrong_grad_fn_results_name_the_function_and_where_it_is(grad_result, error, match):
    with pytest.raises(error, match=match) as raised:
        derivative(_bad(grad_result), [1.0, 2.0])
    assert "custom_gradient function '_bad.<locals>.square' (defined at" in str(raised.value)
    assert "test_custom_gradient.py:" in str(raised.value)


def test_python_numbers_from_grad_fn_are_accepted_as_tensorflow_does():
    assert derivative(_bad(lambda dy, x: 2.0), 1.0).numpy() == 2.0


def test_f_must_return_outputs_and_grad_fn():
    @rg.custom_gradient
    def broken(x):
        return x * 2

    with pytest.raises(TypeError, match="must return a pair"):
        broken(rg.constant(1.0))


def test_without_a_tape_the_function_just_runs():
    assert log1pexp(rg.constant(0.0)).numpy() == np.float32(np.log(2.0))


def test_works_on_methods():
    class Model:
        factor = 3.0

        @rg.custom_gradient
        def apply(self, x):
            return x * self.factor, lambda dy: dy * self.factor

    assert derivative(Model().apply, 1.0).numpy() == 3.0


def test_a_correct_custom_gradient_passes_the_checker_at_second_order():
    rg.check_gradients(log1pexp, np.array([-1.0, 0.5, 2.0]), order=2)


def _scale_by_variable(v):
    @rg.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            assert variables == [v]
            return dy * v * 10.0, [dy * x * 100.0]  # distinctive, so the rule is seen to run

        return x * v, grad

    return scale


def test_custom_gradient_with_variables_in_a_graph():
    v = rg.Variable(2.0)
    scale = _scale_by_variable(v)
    g = rg.Graph()
    with g.as_default():
        x = rg.constant(3.0)
        y = scale(x)
        gx, gv = rg.gradients(y, [x, v])
    assert y.op.type == "CustomGradient" and y.op.name == "scale"
    with rg.compat.v1.Session(graph=g) as sess:
        assert sess.run([y, gx, gv]) == [6.0, 20.0, 300.0]


def test_custom_gradient_with_variables_inside_a_function():
    v = rg.Variable(2.0)
    scale = rg.function(_scale_by_variable(v))
    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (y.numpy(), gx.numpy(), gv.numpy()) == (6.0, 20.0, 300.0)
