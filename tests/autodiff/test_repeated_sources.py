"""A source given more than once gets its whole gradient each time: the in-place sum of
gradient parts never writes into a buffer already returned or reused for another source."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

X = np.array([1.0, 2.0, 3.0])


def _tape_pair(f, persistent=False):
    x = rg.constant(X)
    with rg.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        y = f(x)
    return tape, x, y


@pytest.mark.parametrize(
    "f, expected",
    [
        (lambda x: rg.reduce_sum(x * x), 2 * X),
        (lambda x: rg.reduce_sum(x * x * x), 3 * X**2),
        (lambda x: rg.reduce_sum(x + x + x + x), 4 * np.ones(3)),
        (lambda x: rg.reduce_sum(rg.sin(x) * x), np.cos(X) * X + np.sin(X)),
    ],
)
def test_repeated_tensor_sources(f, expected):
    tape, x, y = _tape_pair(f)
    grads = tape.gradient(y, [x, x, x])
    for g in grads:
        np.testing.assert_allclose(g.numpy(), expected)


def test_repeated_variable_sources():
    v = rg.Variable(X)
    with rg.GradientTape() as tape:
        y = rg.reduce_sum(v * v * v)
    a, b = tape.gradient(y, [v, v])
    np.testing.assert_allclose(a.numpy(), 3 * X**2)
    np.testing.assert_allclose(b.numpy(), 3 * X**2)


def test_repeated_sources_in_nested_structures():
    tape, x, y = _tape_pair(lambda x: rg.reduce_sum(x * x))
    grads = tape.gradient(y, {"a": x, "b": [x, (x,)]})
    for g in (grads["a"], grads["b"][0], grads["b"][1][0]):
        np.testing.assert_allclose(g.numpy(), 2 * X)


def test_a_persistent_tape_gives_the_same_gradients_again():
    tape, x, y = _tape_pair(lambda x: rg.reduce_sum(x * x), persistent=True)
    first = [g.numpy().copy() for g in tape.gradient(y, [x, x])]
    second = [g.numpy() for g in tape.gradient(y, [x, x])]
    for g in first + second:
        np.testing.assert_allclose(g, 2 * X)


def test_a_source_and_a_value_computed_from_it():
    x = rg.constant(X)
    with rg.GradientTape() as tape:
        tape.watch(x)
        z = rg.identity(x)
        y = rg.reduce_sum(x * z)
    gx, gz, gx2 = tape.gradient(y, [x, z, x])
    np.testing.assert_allclose(gz.numpy(), X)
    np.testing.assert_allclose(gx.numpy(), 2 * X)
    np.testing.assert_allclose(gx2.numpy(), 2 * X)


def test_repeated_sources_of_a_jacobian():
    x = rg.constant(X)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    a, b = tape.jacobian(y, [x, x])
    np.testing.assert_allclose(a.numpy(), np.diag(2 * X))
    np.testing.assert_allclose(b.numpy(), np.diag(2 * X))


def test_repeated_sources_of_symbolic_gradients():
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float64, [3])
        y = rg.reduce_sum(x * x * x)
        grads = rg.gradients(y, [x, x])
        with rg.compat.v1.Session() as sess:
            a, b = sess.run(grads, {x: X})
    np.testing.assert_allclose(a, 3 * X**2)
    np.testing.assert_allclose(b, 3 * X**2)


def test_repeated_sources_through_a_function():
    f = rg.function(lambda x: rg.reduce_sum(x * x * x))
    tape, x, y = _tape_pair(f)
    for g in tape.gradient(y, [x, x]):
        np.testing.assert_allclose(g.numpy(), 3 * X**2)
