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
        "gradient of '_custom.<locals>.f' at order 1 is wrong for argument 0: largest error 1.5 at "
        "index () (computed 1.5, finite differences 3)"
    )


def test_complex_arguments_and_outputs_pass_at_second_order():
    z = np.array([0.3 + 0.5j, -0.2 + 0.1j])
    rg.check_gradients(lambda z, w: rg.exp(z) * w + rg.math.conj(z) * z, z, z[::-1], order=2)
    rg.check_gradients(lambda x: rg.complex(x, x * x) ** 2, np.array([0.5, -1.0]), order=2)
    rg.check_gradients(lambda z: rg.abs(z) ** 3, z, order=2)


def test_numerical_gradient_of_a_complex_argument_is_d_re_plus_i_d_im():
    def squared_modulus(z):
        return rg.reduce_sum(rg.math.real(z * rg.math.conj(z)))

    z = rg.constant([1 + 2j, -0.5j])
    g = rg.gradcheck.numerical_gradient(squared_modulus, [z], 0, 1e-6)
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
