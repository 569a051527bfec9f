"""cond and while_loop: eagerly, in graphs and functions, with gradients to second order."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as tf


def _piecewise(x):
    return tf.cond(x > 0, lambda: x * x, lambda: tf.sin(x) * 3.0)


def _power(x, n):
    _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), [0, tf.ones_like(x)])
    return y


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", [1.5, -0.7])
def test_cond_values_and_gradients(mode, x):
    fn = _piecewise if mode == "eager" else tf.function(_piecewise)
    tf.check_gradients(fn, x, order=2)
    expected = x * x if x > 0 else np.sin(x) * 3
    np.testing.assert_allclose(fn(tf.constant(x)).numpy(), np.float32(expected), rtol=1e-6)


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_while_loop_values_and_gradients_through_every_iteration(mode):
    fn = (
        (lambda x: _power(x, 4))
        if mode == "eager"
        else tf.function(lambda x: _power(x, tf.constant(4)))
    )
    assert fn(tf.constant(1.5)).numpy() == np.float32(1.5**4)
    tf.check_gradients(fn, [0.7, -1.3], order=2)


def test_while_loop_with_captured_tensors_and_variables_in_a_function():
    w = tf.Variable(0.5)

    @tf.function
    def f(x, c):
        def body(i, acc):
            return i + 1, tf.tanh(acc * w + c * x)

        return tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), x))[1]

    def eager(x, c, w):
        acc = x
        for _ in range(3):
            acc = tf.tanh(acc * w + c * x)
        return acc

    x, c = tf.constant(0.3), tf.constant(1.2)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, c])
        y = f(x, c)
        ref_w = tf.Variable(0.5)
        ref = eager(x, c, ref_w)
    got = tape.gradient(y, [x, c, w])
    want = tape.gradient(ref, [x, c, ref_w])
    np.testing.assert_allclose([g.numpy() for g in got], [g.numpy() for g in want], rtol=1e-5)


def test_maximum_iterations_and_zero_iterations():
    @tf.function
    def count(limit, n):
        return tf.while_loop(
            lambda i: i < limit, lambda i: i + 1, [tf.constant(0)], maximum_iterations=n
        )

    assert int(count(tf.constant(10), 3)[0]) == 3
    assert int(count(tf.constant(0), 3)[0]) == 0
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.function(lambda v: _power(v, tf.constant(0)))(x)
    # x reaches the result only through the body, which ran zero times: a zero gradient.
    assert y.numpy() == 1.0 and tape.gradient(y, x).numpy() == 0.0


def test_eager_control_flow_is_python():
    assert tf.cond(tf.constant(True), lambda: 1.0, lambda: 2.0) == 1.0
    assert tf.while_loop(lambda i: i < 5, lambda i: i + 2, 0) == 6


def test_errors_name_the_problem():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(1.0)
        with pytest.raises(ValueError, match="same structure"):
            tf.cond(x > 0, lambda: (x, x), lambda: x)
        with pytest.raises(TypeError, match="output 0"):
            tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))
        with pytest.raises(ValueError, match="shape_invariants"):
            tf.while_loop(
                lambda v: tf.reduce_sum(v) < 10, lambda v: tf.concat([v, v], 0), [tf.ones([1])]
            )
        with pytest.raises(TypeError, match="scalar bool"):
            tf.cond(tf.constant([True, False]), lambda: x, lambda: x)


def test_shape_invariants_let_a_loop_variable_grow():
    g = tf.Graph()
    with g.as_default():
        out = tf.while_loop(
            lambda v: tf.size(v) < 8,
            lambda v: tf.concat([v, v], 0),
            [tf.ones([1])],
            shape_invariants=[[None]],
        )[0]
        assert out.shape.as_list() == [None]
        with tf.compat.v1.Session(graph=g) as sess:
            assert sess.run(out).tolist() == [1.0] * 8
