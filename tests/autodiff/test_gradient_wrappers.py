"""recompute_grad and grad_pass_through: the same values, gradients computed their way, in
every mode."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.autodiff import functional as F

RNG = np.random.default_rng(0)
W = rg.Variable(RNG.standard_normal((4, 4)) * 0.5, name="w")


def block(x, scale=1.0):
    """Two layers reading the variable W: activations worth not keeping."""
    h = rg.tanh(rg.matmul(x, W) * scale)
    return rg.nn.softplus(rg.matmul(h, W)) + h


def _gradients(fn, x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(fn(x) ** 2)
    return tape.gradient(y, [x, W])


def test_recompute_grad_gives_the_same_values_and_gradients_including_variables():
    x = rg.constant(RNG.standard_normal((3, 4)))
    recomputed = rg.recompute_grad(block)
    np.testing.assert_allclose(recomputed(x).numpy(), block(x).numpy())
    for got, expected in zip(_gradients(recomputed, x), _gradients(block, x)):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)


def test_recompute_grad_records_only_inputs_and_outputs_and_runs_f_again_backwards():
    calls = []

    def counted(x):
        calls.append(1)
        return block(x, scale=2.0)

    x = rg.constant(RNG.standard_normal((3, 4)))
    for fn, recorded_ops in ((counted, 8), (rg.recompute_grad(counted), 1)):
        calls.clear()
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        ops = {id(op) for op in tape.producers().values() if op is not None}
        assert len(ops) == recorded_ops
        tape.gradient(y, x)
        assert len(calls) == (1 if fn is counted else 2)


def test_recompute_grad_differentiates_to_second_order_and_in_forward_mode():
    x = rg.constant(RNG.standard_normal((2, 4)))
    scalar = lambda f: lambda z: rg.reduce_sum(f(z) ** 2)  # noqa: E731
    plain, recomputed = scalar(block), scalar(rg.recompute_grad(block))
    np.testing.assert_allclose(
        F.hessian(recomputed)(x).numpy(), F.hessian(plain)(x).numpy(), rtol=1e-10
    )
    np.testing.assert_allclose(
        F.jacrev(F.grad(recomputed))(x).numpy(), F.hessian(plain)(x).numpy(), rtol=1e-10
    )
    t = rg.constant(RNG.standard_normal((2, 4)))
    np.testing.assert_allclose(
        F.jvp(recomputed, (x,), (t,))[1].numpy(), F.jvp(plain, (x,), (t,))[1].numpy(), rtol=1e-12
    )


def test_recompute_grad_without_a_tape_just_runs_f():
    x = rg.constant(np.ones((1, 4)))
    np.testing.assert_allclose(
        rg.recompute_grad(block)(x, scale=3.0).numpy(), block(x, 3.0).numpy()
    )


def test_grad_pass_through_as_in_tensorflow():
    x = rg.Variable(1.0)
    z = rg.Variable(3.0)
    with rg.GradientTape() as tape:
        y = rg.grad_pass_through(x.assign)(z**2)
    assert float(y) == 9.0 and float(tape.gradient(y, z)) == 6.0  # TensorFlow's example


def test_grad_pass_through_is_a_straight_through_estimator_in_every_mode():
    sign_st = rg.grad_pass_through(rg.sign)
    x = rg.constant([-0.5, 2.0])
    assert sign_st(x).numpy().tolist() == [-1.0, 1.0]
    f = lambda z: rg.reduce_sum(sign_st(z * z))  # noqa: E731
    assert F.grad(f)(x).numpy().tolist() == [-1.0, 4.0]
    assert F.jvp(f, (x,), (rg.constant([1.0, 1.0]),))[1].numpy() == 3.0
    assert F.hessian(f)(x).numpy().tolist() == [[2.0, 0.0], [0.0, 2.0]]


def test_grad_pass_through_needs_one_output_per_input():
    both = rg.grad_pass_through(lambda a, b: a * b)
    a, b = rg.constant(2.0), rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch([a, b])
        y = both(a, b)
    with pytest.raises(ValueError, match="2 tensor input.*1 output"):
        tape.gradient(y, [a, b])
