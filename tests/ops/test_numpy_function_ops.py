"""numpy_function (issue 15 item 5): TensorFlow's semantics (gradient None) eagerly, under
``function`` and in a Session (goldens from TensorFlow); the documented way to give NumPy
code a gradient in all three modes; a second derivative through NumPy code is an error."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg

GOLDENS = json.loads(
    (
        pathlib.Path(__file__).parents[1] / "autodiff" / "data" / "custom_gradient_goldens.json"
    ).read_text()
)
X = [1.0, 2.0]


def _eager():
    x = rg.constant(X)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.numpy_function(np.sin, [x], rg.float32)
    return y.numpy().tolist(), tape.gradient(y, x)


@rg.function
def _traced(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.numpy_function(np.sin, [x], rg.float32)
    g = tape.gradient(y, x)
    return y, (rg.constant(-1.0) if g is None else g)


def _session():
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [2])
        y = rg.numpy_function(np.sin, [x], rg.float32)
        d = rg.gradients(y, x)
        with rg.compat.v1.Session(graph=g) as sess:
            return [sess.run(y, {x: X}).tolist(), str(d), str(y.shape)]


def test_eagerly_as_tensorflow():
    value, grad = _eager()
    np.testing.assert_allclose(value, GOLDENS["numpy_function_eager"]["value"][0], rtol=1e-6)
    assert grad is None and GOLDENS["numpy_function_eager"]["value"][1] is None


def test_under_function_as_tensorflow():
    y, g = _traced(rg.constant(X))
    expected = GOLDENS["numpy_function_function"]["value"]
    np.testing.assert_allclose(y.numpy(), expected[0], rtol=1e-6)
    assert g.numpy().tolist() == expected[1]  # -1.0 marks a None gradient


def test_in_a_session_as_tensorflow():
    value, grads, shape = _session()
    expected = GOLDENS["numpy_function_session"]["value"]
    np.testing.assert_allclose(value, expected[0], rtol=1e-6)
    assert grads == expected[1] == "[None]"
    assert shape == "<unknown>" == expected[2]


def test_several_outputs_come_as_a_list():
    found = rg.numpy_function(
        lambda a, b: (a + b, a * b), [rg.constant(1.0), rg.constant(2.0)], [rg.float32] * 2
    )
    assert [type(found).__name__, [float(v) for v in found]] == (
        GOLDENS["numpy_function_multi"]["value"]
    )


@pytest.mark.parametrize(
    "func, Tout, match",
    [
        (lambda a: a.astype(np.float64), rg.float32, "returned float64 for output 0, but Tout says float32"),
        (lambda a: (a, a), rg.float32, r"returned 2 value\(s\) but Tout lists 1"),
        (lambda a: "text", rg.float32, "returned a str for output 0"),
    ],
)  # fmt: skip
def test_wrong_results_are_errors(func, Tout, match):
    # TensorFlow eagerly returns the float64 array despite Tout (golden): retrograd does not
    # cast silently.
    assert GOLDENS["numpy_function_wrong_dtype"]["value"] == 1.0
    with pytest.raises(rg.errors.InvalidArgumentError, match=match):
        rg.numpy_function(func, [rg.constant(1.0)], Tout)


def test_a_python_number_result_takes_tout():
    assert rg.numpy_function(lambda a: 3.0, [rg.constant(1.0)], rg.float64).dtype == rg.float64


@rg.custom_gradient
def np_sin(x):
    """The documented way to give NumPy code a gradient."""
    y = rg.numpy_function(np.sin, [x], rg.float32)

    def grad(dy):
        return dy * rg.numpy_function(np.cos, [x], rg.float32)

    return y, grad


def _np_sin_eager(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = np_sin(x)
    return y, tape.gradient(y, x)


def _np_sin_session(x):
    g = rg.Graph()
    with g.as_default():
        p = rg.compat.v1.placeholder(rg.float32, [2])
        y = np_sin(p)
        (d,) = rg.gradients(y, p)
        with rg.compat.v1.Session(graph=g) as sess:
            values = sess.run([y, d], {p: x.numpy()})
    return [rg.constant(v) for v in values]


@pytest.mark.parametrize("mode", ["eager", "function", "session"])
def test_numpy_code_with_a_custom_gradient_in_every_mode(mode):
    x = rg.constant(X)
    run = {
        "eager": _np_sin_eager,
        "function": rg.function(_np_sin_eager),
        "session": _np_sin_session,
    }
    y, g = run[mode](x)
    np.testing.assert_allclose(y.numpy(), np.sin(X), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), np.cos(X), rtol=1e-6)


def test_a_second_derivative_through_numpy_code_is_an_error():
    x = rg.constant(X)
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = np_sin(x)
        g = inner.gradient(y, x)
    with pytest.raises(rg.errors.InvalidArgumentError) as raised:
        outer.gradient(g, x)
    assert "ran 'cos' inside a gradient function, so differentiating that gradient (a second " in (
        str(raised.value)
    )


@pytest.mark.parametrize("tout", [[rg.float32], (rg.float32,)], ids=["list", "tuple"])
def test_a_one_element_tout_list_as_tensorflow_in_every_mode(tout):
    # TensorFlow: a tensor eagerly; a list under function and in a graph, which a Session
    # fetches as a list of one array (golden).
    expected = GOLDENS["numpy_function_one_element_list"]["value"]
    assert expected == ["EagerTensor", "list", "list", "list", 1]
    eager = rg.numpy_function(lambda a: a * 2.0, [rg.constant(1.0)], tout)
    assert isinstance(eager, rg.Tensor) and float(eager.numpy()) == 2.0
    found = []

    @rg.function
    def f(x):
        r = rg.numpy_function(lambda a: a * 2.0, [x], tout)
        found.append(type(r).__name__)
        return r

    result = f(rg.constant(1.0))
    assert found == ["list"] and isinstance(result, list) and len(result) == 1
    assert float(result[0].numpy()) == 2.0
    g = rg.Graph()
    with g.as_default():
        r = rg.numpy_function(lambda a: a * 2.0, [rg.constant(1.0)], tout)
        with rg.compat.v1.Session() as sess:
            fetched = sess.run(r)
    assert isinstance(r, list) and len(r) == 1
    assert isinstance(fetched, list) and len(fetched) == 1 and float(fetched[0]) == 2.0


def test_two_outputs_are_a_list_eagerly():
    two = rg.numpy_function(lambda a: (a, a), [rg.constant(1.0)], [rg.float32, rg.float32])
    assert isinstance(two, list) and len(two) == 2
