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
    assert str(raised.value) == (
        "gradient of '_custom.<locals>.f' at order 1 is wrong for argument 0 (reverse mode): largest error 1.5 at "
        "index () (computed 1.5, finite differences 3)"
    )


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
