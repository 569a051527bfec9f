"""The finite-difference checker finds the common mistakes and accepts correct rules."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg


def _custom(forward, backward):
    @rg.custom_gradient
    def f(x):
        return forward(x), lambda dy: backward(dy, x)

    return f


def test_correct_functions_pass_at_second_order():
    rg.check_gradients(
        lambda x, y: rg.matmul(x, y) * rg.sin(x[:, :1]), np.ones((2, 3)), np.ones((3, 2)) * 0.5
    )


@pytest.mark.parametrize(
    "backward, order",
    [
        (lambda dy, x: -2 * x * dy, 1),  # wrong sign
        (lambda dy, x: 2 * x, 1),  # forgot the upstream gradient (seed 000's question)
        (lambda dy, x: 2 * rg.stop_gradient(x) * dy, 2),  # right first derivative, blocked second
    ],
)
def test_wrong_custom_rules_are_caught(backward, order):
    f = _custom(lambda x: x * x, backward)
    with pytest.raises(rg.GradientCheckError, match=f"at order {order}"):
        rg.check_gradients(f, [0.5, -1.5], order=2)


def test_a_transposed_matmul_gradient_is_caught():
    @rg.custom_gradient
    def bad_matmul(a, b):
        return rg.matmul(a, b), lambda g: (rg.matmul(g, b), rg.matmul(a, g, transpose_a=True))

    with pytest.raises((rg.GradientCheckError, ValueError)):
        rg.check_gradients(bad_matmul, np.ones((2, 2)), np.arange(4.0).reshape(2, 2), order=1)


def test_error_message_says_where():
    f = _custom(lambda x: x * x, lambda dy, x: x * dy)
    with pytest.raises(rg.GradientCheckError) as raised:
        rg.check_gradients(f, 1.5, order=1)
    first, how = str(raised.value).splitlines()
    # The scalar output is weighted by a random w (1.74587 with seed 0), never by 1.
    assert first == (
        "gradient of '_custom.<locals>.f' at order 1 is wrong for argument 0 (reverse mode): largest error 2.61881 at "
        "index () (computed 2.61881, finite differences 5.23762)"
    )
    assert how.startswith(
        "How it was checked: s1(x) = sum(w * f(x)), the outputs of '_custom.<locals>.f' weighted at random (w = 1.74587; "
        "a single value's weight is never 1, so a rule that ignores its upstream gradient cannot pass)"
    )
    assert "h = 1e-06 (then 8e-06, 6.4e-05 where that failed)" in how


def test_big_inputs_cost_a_few_evaluations_per_direction():
    calls = []

    def f(a, b):
        calls.append(1)
        return rg.matmul(a, b)

    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((60, 50)), rng.standard_normal((50, 40))
    rg.check_gradients(f, a, b, order=2, modes="reverse")
    # 1 call to weight the outputs, then per order: 2 arguments x 3 directions x 3 evaluations,
    # plus the gradient itself; independent of the 3000 + 2000 elements.
    assert len(calls) < 50


def test_arguments_are_promoted_to_float64():
    seen = []

    def f(x):
        seen.append(x.dtype)
        return x * x

    rg.check_gradients(f, rg.constant([1.0, 2.0], dtype=rg.float32), order=1)
    assert set(seen) == {rg.float64}


def test_a_function_mixing_in_float32_constants_gets_a_hint():
    with pytest.raises(TypeError, match="float64 copies.*dtype=x.dtype"):
        rg.check_gradients(lambda x: x * rg.constant(2.0), [1.0])


def test_modes_are_validated():
    with pytest.raises(ValueError, match="modes must be a subset"):
        rg.check_gradients(rg.sin, [1.0], modes=("sideways",))


def test_forward_mode_checks_jacobian_vector_products():
    rg.check_gradients(lambda x: rg.sin(x) * x, [0.3, -1.2], order=2, modes="forward")
    f = _custom(lambda x: x * x, lambda dy, x: -2 * x * dy)
    with pytest.raises(rg.GradientCheckError, match=r"forward mode\).*at output 0 index"):
        rg.check_gradients(f, [0.5, -1.5, 2.0, 1.0], order=1, modes="forward")


def test_a_big_wrong_argument_is_reported_along_a_direction(monkeypatch):
    monkeypatch.setattr(rg.checking.gradcheck, "LOCATE_LIMIT", 4)
    f = _custom(lambda x: x * x, lambda dy, x: -2 * x * dy)
    with pytest.raises(rg.GradientCheckError, match="too many to locate one") as raised:
        rg.check_gradients(f, np.linspace(0.5, 1.0, 10), order=1)
    assert "along a random direction the error is" in str(raised.value)


def test_a_kink_is_pointed_out():
    with pytest.raises(rg.GradientCheckError, match="may not be differentiable at this point"):
        rg.check_gradients(rg.nn.relu, 0.0, order=1)


def test_compute_gradient_has_tensorflows_form_and_numbers():
    # TensorFlow 2.21 prints these for tf.test.compute_gradient(lambda x: x*x*x, [[1.3, -0.7]]).
    theoretical, numerical = rg.test.compute_gradient(lambda x: x * x * x, [[1.3, -0.7]])
    assert isinstance(theoretical, tuple) and len(theoretical) == 1
    assert theoretical[0].dtype == np.float32 and theoretical[0].shape == (2, 2)
    np.testing.assert_array_equal(
        theoretical[0], np.array([[5.0699997, 0], [0, 1.4699999]], np.float32)
    )
    np.testing.assert_array_equal(
        numerical[0], np.array([[5.0699463, 0], [0, 1.4700012]], np.float32)
    )


def test_compute_gradient_rows_are_outputs_and_columns_inputs():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    b = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]])
    theoretical, numerical = rg.test.compute_gradient(rg.matmul, [a, b], delta=1e-3)
    assert [t.shape for t in theoretical] == [(6, 4), (6, 6)]
    assert theoretical[0][2].tolist() == [2.0, 1.0, 0.0, 0.0]  # c[0, 2] = 2 a00 + a01
    for t, n in zip(theoretical, numerical):
        np.testing.assert_allclose(t, n, atol=1e-9)


def test_compute_gradient_argument_errors():
    with pytest.raises(ValueError, match="list or tuple"):
        rg.test.compute_gradient(rg.sin, rg.constant([1.0]))
    with pytest.raises(TypeError, match="one tensor"):
        rg.test.compute_gradient(lambda x: (x, x), [[1.0]])
    with pytest.raises(TypeError, match="int32"):
        rg.test.compute_gradient(lambda x: rg.cast(x, rg.int32), [[1.0]])


def test_complex_arguments_and_outputs_pass_at_second_order():
    z = np.array([0.3 + 0.5j, -0.2 + 0.1j])
    rg.check_gradients(lambda z, w: rg.exp(z) * w + rg.math.conj(z) * z, z, z[::-1], order=2)
    rg.check_gradients(lambda x: rg.complex(x, x * x) ** 2, np.array([0.5, -1.0]), order=2)
    rg.check_gradients(lambda z: rg.abs(z) ** 3, z, order=2)


def test_numerical_gradient_of_a_complex_argument_is_d_re_plus_i_d_im():
    def squared_modulus(z):
        return rg.reduce_sum(rg.math.real(z * rg.math.conj(z)))

    z = rg.constant([1 + 2j, -0.5j])
    g = rg.checking.gradcheck.numerical_gradient(squared_modulus, [z], 0, 1e-6)
    assert g.dtype == np.complex128
    np.testing.assert_allclose(g, 2 * z.numpy(), atol=1e-8)


def _holomorphic(forward, derivative):
    @rg.custom_gradient
    def f(z):
        return forward(z), lambda dy: dy * derivative(z)

    return f


def test_a_complex_rule_without_the_conjugate_is_caught():
    wrong = _holomorphic(rg.exp, rg.exp)  # TensorFlow's convention needs conj(exp(z))
    right = _holomorphic(rg.exp, lambda z: rg.math.conj(rg.exp(z)))
    z = np.array([0.3 + 0.5j, -0.2 + 0.1j])
    rg.check_gradients(right, z, order=2)
    with pytest.raises(rg.GradientCheckError, match=r"at order 1 .* \(computed .*j, finite"):
        rg.check_gradients(wrong, z, order=1)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("modes", ["reverse", "forward"])
def test_non_finite_gradients_fail_naming_the_argument_and_direction(bad, modes):
    @rg.custom_gradient
    def broken(x):
        return x * 2.0, lambda dy: dy * bad

    with pytest.raises(rg.GradientCheckError, match=r"not finite for argument 0") as info:
        rg.check_gradients(broken, [1.0, 2.0], order=1, modes=modes)
    assert ("NaN" if np.isnan(bad) else "infinity") in str(info.value)


def test_a_non_finite_derivative_along_a_direction_names_it():
    # sqrt(0 - h) is NaN: the finite difference is NaN and the check fails (it used to pass,
    # since abs(a - b) > tol is False for NaN).
    @rg.custom_gradient
    def root(x):
        return rg.sqrt(x), lambda dy: dy * 0.0

    with pytest.raises(rg.GradientCheckError, match="finite differences along unit direction"):
        rg.check_gradients(root, [0.0], order=1, modes="reverse")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"delta": 0}, ValueError, "delta must be a finite number > 0"),
        ({"delta": -1e-6}, ValueError, "delta"),
        ({"delta": np.nan}, ValueError, "delta"),
        ({"atol": np.nan}, ValueError, "atol must be a finite number >= 0"),
        ({"rtol": np.inf}, ValueError, "rtol"),
        ({"atol": -1.0}, ValueError, "atol"),
        ({"atol": "1"}, TypeError, "atol must be a number"),
        ({"directions": 0}, ValueError, "directions must be at least 1"),
        ({"directions": 1.5}, TypeError, "directions must be an int"),
        ({"order": 0}, ValueError, "order must be from 1 to 8"),
        ({"order": -1}, ValueError, "order"),
        ({"order": 100}, ValueError, "order must be from 1 to 8, got 100"),
        ({"order": 2.0}, TypeError, "order must be an int"),
        ({"order": True}, TypeError, "order must be an int"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_invalid_settings_are_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        rg.check_gradients(lambda x: x * x, 1.0, **kwargs)


def test_memory_is_proportional_to_the_input():
    # Directions are drawn one at a time: no identity matrix of size n x n (the old code
    # needed 8 n^2 bytes before choosing random directions). 1,000,000 elements peak at about
    # 21x the input (160 MiB) at order 2; this checks the ratio on a smaller input.
    import tracemalloc

    x = np.random.default_rng(0).standard_normal(50_000)
    tracemalloc.start()
    try:
        rg.check_gradients(lambda v: rg.reduce_sum(rg.sin(v) * v), x, order=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * x.nbytes


def test_progress_lines_name_order_mode_argument_and_direction(capsys):
    lines = []
    rg.check_gradients(lambda x: x * x, [1.0, 2.0, 3.0, 4.0], order=1, progress=lines.append)
    assert len(lines) == 6  # 3 random directions per mode
    assert lines[0] == (
        "check_gradients('test_progress_lines_name_order_mode_argument_and_direction.<locals>."
        "<lambda>'): order 1, reverse mode, argument 0, random direction 1 of 3"
    )
    rg.check_gradients(lambda x: x * x, 1.0, order=1, modes="reverse", progress=True)
    assert "unit direction e()" in capsys.readouterr().err


FORGOT_DY = "ignores its upstream gradient (dy): its result does not change when dy doubles"


@pytest.mark.parametrize("point", [1.5, [1.5, 2.0], np.linspace(-1.0, 1.0, 50)])
def test_a_rule_that_ignores_dy_fails_with_the_shared_diagnosis(point):
    # Seed 000's question: grad_fn returns the local derivative without the upstream factor.
    # With a weight of exactly 1 on a scalar output, this rule used to pass.
    @rg.custom_gradient
    def bad(x):
        return x * x, lambda dy: 2 * x

    with pytest.raises(rg.GradientCheckError) as raised:
        rg.check_gradients(bad, point)
    message = str(raised.value)
    assert (
        "gradient of 'test_a_rule_that_ignores_dy_fails_with_the_shared_diagnosis.<locals>.bad' at order 1 is wrong"
        in message
    )
    assert (
        f"custom_gradient function 'test_a_rule_that_ignores_dy_fails_with_the_shared_diagnosis.<locals>.bad' (defined at {__file__}:"
        in message
    )
    assert FORGOT_DY in message


def test_a_rule_that_ignores_dy_is_caught_at_second_order_too():
    # A first-order rule that is right, whose own gradient (a custom second derivative)
    # forgets its upstream gradient.
    @rg.custom_gradient
    def first_derivative(x):
        return 2 * x, lambda dy: 2.0 + 0 * x

    @rg.custom_gradient
    def square(x):
        return x * x, lambda dy: dy * first_derivative(x)

    with pytest.raises(rg.GradientCheckError, match="at order 2 is wrong") as raised:
        rg.check_gradients(square, 0.7, order=2)
    assert FORGOT_DY in str(raised.value)


def test_the_weight_of_a_single_value_is_never_one():
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert 1.3 <= abs(rg.checking.gradcheck.weights_like(rng, (), False).item()) <= 2.0
        assert 1.3 <= abs(rg.checking.gradcheck.weights_like(rng, (1, 1), True).item()) <= 2.0


def test_rounding_noise_is_not_blamed_on_the_rule():
    # (x + 1e11) - 1e11 has derivative 1, but its finite differences are rounding noise: the
    # check cannot confirm the gradient and says why, without calling it wrong.
    for modes in ("reverse", "forward"):
        with pytest.raises(rg.GradientCheckError) as raised:
            rg.check_gradients(lambda x: (x + 1e11) - 1e11, [0.3, 0.7], order=1, modes=modes)
        message = str(raised.value)
        assert "does not match finite differences" in message and "is wrong" not in message
        assert "the finite differences change with the step" in message
        assert "too noisy here to judge the gradient" in message


def test_a_kink_is_not_blamed_on_the_rule():
    with pytest.raises(rg.GradientCheckError) as raised:
        rg.check_gradients(rg.nn.relu, 0.0, order=1)
    assert "does not match finite differences" in str(raised.value)
    assert "is wrong" not in str(raised.value)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_correct_rules_pass_at_a_million_elements_at_second_order(dtype):
    # Rounding grows with the elements summed: a cumulative sum of 1M values loses ~1e-10 per
    # element, 1e-4 after dividing by the step; the tolerance accounts for it (and larger
    # steps confirm). Time is measured, not asserted.
    import time

    x = np.random.default_rng(3).standard_normal(1_000_000).astype(dtype)
    start = time.perf_counter()
    rg.check_gradients(rg.cumsum, x, order=2, progress=False)
    print(f"cumsum of 1M {dtype.__name__} at order 2: {time.perf_counter() - start:.1f} s")


def test_a_function_computing_in_float32_is_held_to_float32s_tolerances():
    layer = rg.keras.layers.Dense(3, activation="tanh")
    x = np.random.default_rng(0).standard_normal((4, 5))
    rg.check_gradients(layer, x, order=2)  # float64 in, float32 inside (Keras casts)

    # ... and a wrong rule is still caught there.
    @rg.custom_gradient
    def half(x):
        return rg.cast(x, rg.float32) * 2.0, lambda dy: rg.cast(dy, rg.float64)

    with pytest.raises(rg.GradientCheckError, match="is wrong.*\n.*rounding in float32"):
        rg.check_gradients(half, [0.5, 1.0], order=1)


def test_progress_counts_to_a_total_with_the_time_left(capsys):
    rg.check_gradients(lambda x: rg.sin(x) * x, np.arange(10.0), order=2, progress=True)
    err = capsys.readouterr().err
    # 2 orders x 2 modes x 3 directions, weighted by order: 6 + 12 steps
    assert "/18 [" in err and "18/18" in err and "check_gradients('" in err
    rg.check_gradients(lambda x: rg.sin(x) * x, np.arange(10.0), order=2)
    assert capsys.readouterr().err == ""  # by default: only on a terminal, after 2 s
