"""Tensors captured by custom gradients (issue 15 item 3): warned about once per call site,
naming the tensor and the rule, with the fix; an error in strict mode; never for the values
a rule legitimately closes over."""

from __future__ import annotations

import warnings

import pytest

import retrograd as rg
from retrograd.debugging import CapturedTensorWarning
from tests.test_seeds import log1pexp2


def _forward_capture(x):
    c = x * 3.0

    @rg.custom_gradient
    def f(a):
        return a * c, lambda dy: dy * c

    return f(x)


def _grad_fn_capture(x):
    c = rg.exp(x)

    @rg.custom_gradient
    def f(a):
        return a * 2.0, lambda dy: dy * c

    return f(x)


@rg.custom_gradient
def _closes_over_its_forward(x):
    e = rg.exp(x)
    return rg.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))


def _caught(fn, x, times=1):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # once per call site, as Python shows warnings
        with rg.GradientTape() as tape:
            tape.watch(x)
            for _ in range(times):
                y = fn(x)
        tape.gradient(y, x)
    return [w for w in caught if issubclass(w.category, CapturedTensorWarning)]


@pytest.mark.parametrize(
    "fn, expected",
    [
        (
            _forward_capture,
            "custom_gradient function '_forward_capture.<locals>.f' (defined at {file}:{line}) "
            "uses the tensor 'c' (shape (2,), float32, computed by op 'Mul' (type Mul)) in its "
            "forward without taking it as an input",
        ),
        (
            _grad_fn_capture,
            "custom_gradient function '_grad_fn_capture.<locals>.f' (defined at {file}:{line}) "
            "uses the tensor 'c' (shape (2,), float32, computed by op 'Exp' (type Exp)) in its "
            "grad_fn without taking it as an input",
        ),
    ],
)
def test_a_capture_is_named_with_its_rule_and_the_fix(fn, expected):
    (warning,) = _caught(fn, rg.constant([1.0, 2.0]), times=3)  # once, not three times
    line = fn.__code__.co_firstlineno + 3
    assert (warning.filename, warning.lineno) == (__file__, line + 4)  # the call `f(x)`
    message = str(warning.message)
    assert message.startswith(expected.format(file=__file__, line=line)), message
    assert message.endswith(
        "Fix: pass it as an argument of 'f' and return its gradient from grad_fn."
    )


@pytest.mark.parametrize(
    "fn",
    [
        _closes_over_its_forward,  # seed 001: e = exp(x) is computed from the input
        log1pexp2,  # seed 004: first_order_custom captures dy and e by design
        lambda x: rg.recompute_grad(lambda a: a * a)(x),
    ],
)
def test_legitimate_closures_are_not_reported(fn):
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        dy = inner.gradient(y, x)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CapturedTensorWarning)
        outer.gradient(dy, x)
    assert _caught(fn, x) == []


def test_strict_mode_raises():
    rg.debugging.enable_strict_custom_gradients()
    try:
        with pytest.raises(ValueError, match=r"uses the tensor 'c' .* in its forward"):
            _caught(_forward_capture, rg.constant([1.0, 2.0]))
    finally:
        rg.debugging.disable_strict_custom_gradients()
    assert len(_caught(_forward_capture, rg.constant([1.0, 2.0]))) == 1
