"""py_function: eager calls, EagerPyFunc ops in graphs that run Python eagerly, and gradients
(a VJP built on a tape, itself a py_function) checked against finite differences to second
order. TensorFlow goldens: tests/api/data/cases_function.py."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg


def _python_side(x):
    scale = 2.0 if x.numpy()[0] > 0 else 3.0  # Python control flow on a value: eager only
    return rg.sin(x) * x * scale


@rg.function
def _in_graph(x):
    return rg.py_function(_python_side, [x], rg.float64) * 2.0


def test_py_function_runs_python_eagerly_in_a_graph():
    x = rg.constant([1.0, 2.0], rg.float64)
    assert np.allclose(_in_graph(x).numpy(), 2 * np.sin([1.0, 2.0]) * [1.0, 2.0] * 2.0)


def test_gradients_match_finite_differences_to_second_order():
    x = np.array([0.3, -0.7, 1.1])
    rg.check_gradients(_in_graph, x, order=2, atol=1e-6, rtol=1e-5)


def test_several_outputs_and_integer_inputs():
    @rg.function
    def f(x, k):
        a, b = rg.py_function(lambda v, n: (v * rg.cast(n, v.dtype), v + 1.0), [x, k],
                              [rg.float32, rg.float32])  # fmt: skip
        return a + b

    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(f(x, rg.constant(3)))
    assert float(y) == 14.0 and tape.gradient(y, x).numpy().tolist() == [4.0, 4.0]


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: rg.py_function(lambda v: v, [1.0]), TypeError, "Tout"),
        (lambda: rg.py_function(lambda v: v, Tout=rg.float32), TypeError, "inp"),
        (
            lambda: rg.py_function(lambda v: (v, v), [1.0], rg.float32),
            rg.errors.InvalidArgumentError,
            "returned 2",
        ),
        (
            lambda: rg.py_function(lambda v: rg.cast(v, rg.int32), [1.0], rg.float32),
            rg.errors.InvalidArgumentError,
            "Tout says float32",
        ),
    ],
)
def test_misuse_is_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()
