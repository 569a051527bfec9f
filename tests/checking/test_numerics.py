"""NaN/inf origin: the first op whose forward or backward made a non-finite value, named with
the line that created it."""

from __future__ import annotations

import pytest

import retrograd as rg
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core.execute import context


def test_the_forward_op_that_overflowed_is_named_with_its_creation_line():
    x = rg.constant([1.0, 100.0])
    with rg.debugging.numeric_checks(), pytest.raises(rg.errors.InvalidArgumentError) as raised:
        y = x * 2
        rg.exp(y)  # the culprit
    message = str(raised.value)
    assert message.startswith(
        "Detected Infinity in output 0 of op 'Exp' (type Exp) in the forward pass: shape (2,), "
        "dtype float32, 0 NaN and 1 infinite element(s)"
    )
    assert "input 0: [2 200]" in message
    assert "test_numerics.py" in message and "rg.exp(y)  # the culprit" in message


def test_the_backward_rule_that_made_infinity_is_named_with_its_upstream():
    def model(x):
        return rg.reduce_sum(rg.sqrt(x * 3.0))

    x = rg.constant([0.0, 3.0])
    with rg.debugging.numeric_checks():
        with rg.GradientTape() as tape:
            tape.watch(x)
            loss = model(x)
        with pytest.raises(rg.errors.InvalidArgumentError) as raised:
            tape.gradient(loss, x)
    message = str(raised.value)
    assert message.startswith(
        "Detected Infinity in the gradient for input 0 of op 'Sqrt' (type Sqrt), computed by the "
        "gradient function for op type 'Sqrt' (registered at "
    )
    assert "upstream gradient 0: [1 1]" in message and "input 0: [0 9]" in message
    assert "return rg.reduce_sum(rg.sqrt(x * 3.0))" in message
    assert "loss = model(x)" in message


def test_a_custom_gradient_returning_nan_is_named():
    @rg.custom_gradient
    def ratio(x):
        return x, lambda dy: dy * (x / x)

    x = rg.constant(0.0)
    with rg.debugging.numeric_checks():
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = ratio(x)
        with pytest.raises(rg.errors.InvalidArgumentError, match="custom_gradient function"):
            tape.gradient(y, x)


def test_non_finite_inputs_are_pointed_out():
    with rg.debugging.numeric_checks(), pytest.raises(rg.errors.InvalidArgumentError) as raised:
        rg.constant(float("nan")) + 1.0
    assert "its inputs already held non-finite values" in str(raised.value)


def test_enable_and_disable_like_tensorflow():
    rg.debugging.enable_check_numerics()
    rg.debugging.enable_check_numerics()  # a second call changes nothing
    try:
        assert len(context.observers) == 1
        with pytest.raises(rg.errors.InvalidArgumentError):
            rg.math.log(rg.constant(-1.0))
    finally:
        rg.debugging.disable_check_numerics()
    assert (
        context.observers == []
        and autodiff_state.backward_observers == []
        and not context.recording
    )
    assert rg.exp(rg.constant(100.0)).numpy() == float("inf")  # off again: silent, as TensorFlow
