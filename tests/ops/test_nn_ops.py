"""Activations and losses: values against NumPy, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import nn_ops
from tests.ops.table import Case, binary, check_forward, check_gradient, unary


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


CASES = [
    *unary("Relu", rg.nn.relu, lambda x: np.maximum(x, 0), avoid=lambda a: np.abs(a) < 0.1),
    *binary(
        "ReluGrad",
        nn_ops.relu_grad,
        lambda g, f: g * (f > 0),
        avoid=lambda a: np.abs(a) < 0.1,
    ),
    *unary("Softplus", rg.nn.softplus, lambda x: np.log1p(np.exp(x))),
    Case("Softmax", rg.nn.softmax, ((2, 3),), _softmax),
    Case(
        "Softmax[axis=0]", lambda x: rg.nn.softmax(x, axis=0), ((2, 3),), lambda x: _softmax(x, 0)
    ),
    Case("LogSoftmax", rg.nn.log_softmax, ((2, 3),), lambda x: np.log(_softmax(x))),
    Case(
        "LogSoftmax[axis=0]",
        lambda x: rg.nn.log_softmax(x, 0),
        ((3, 2),),
        lambda x: np.log(_softmax(x, 0)),
    ),
    Case("L2Loss", rg.nn.l2_loss, ((2, 3),), lambda x: np.sum(x * x) / 2),
    Case("L2Loss", rg.nn.l2_loss, ((),), lambda x: x * x / 2),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_softmax_is_stable_for_large_logits():
    assert np.allclose(rg.nn.softmax([1000.0, 1000.0]).numpy(), [0.5, 0.5])
    assert np.isfinite(rg.nn.log_softmax([1000.0, -1000.0]).numpy()).all()


def test_softplus_is_stable_for_large_inputs():
    np.testing.assert_allclose(
        rg.nn.softplus([100.0, -100.0]).numpy(), [100.0, 3.7835e-44], rtol=1e-4
    )


def test_softmax_axis_out_of_range():
    with pytest.raises(rg.errors.InvalidArgumentError, match="Softmax"):
        rg.nn.softmax(rg.ones([2]), axis=1)


def test_the_second_derivative_of_relu_is_zeros_as_in_tensorflow():
    x = rg.constant([1.0, -2.0, 3.0])
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = rg.reduce_sum(rg.nn.relu(x))
        g = inner.gradient(y, x)
    assert g.numpy().tolist() == [1.0, 0.0, 1.0]
    assert outer.gradient(g, x).numpy().tolist() == [0.0, 0.0, 0.0]  # TensorFlow: zeros, not None
