"""Values a traced function closes over are inputs of its graph: fed at every call, listed in
``captured_inputs``, and differentiable from tapes inside and outside the function."""

from __future__ import annotations

import numpy as np

import retrograd as tf


def test_a_tape_outside_differentiates_with_respect_to_a_captured_tensor():
    w = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return tf.reduce_sum(w * w * x)

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), [6.0, 12.0])
    concrete = f.get_concrete_function(x)
    assert any(c is w for c in concrete.captured_inputs)


def test_a_closure_style_hessian_vector_product_matches_eager():
    x = tf.constant([0.5, -1.0, 2.0])
    v = tf.constant([1.0, 0.5, -0.25])

    def hvp():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.sin(x) * x * x)
            g = inner.gradient(y, x)
            gv = tf.reduce_sum(g * v)
        return outer.gradient(gv, x)

    np.testing.assert_allclose(tf.function(hvp)().numpy(), hvp().numpy(), rtol=1e-6)


def test_a_jacobian_over_a_captured_variable_matches_eager():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([0.5, -1.0])

    def jacobian():
        with tf.GradientTape() as tape:
            y = tf.tanh(tf.linalg.matvec(w, x))
        return tape.jacobian(y, w)

    np.testing.assert_allclose(tf.function(jacobian)().numpy(), jacobian().numpy(), rtol=1e-6)


def test_a_training_step_reads_the_captured_variable_as_it_is_at_each_call():
    def run(step_fn_of):
        w = tf.Variable([1.0, -2.0])
        data = tf.constant([[1.0, 2.0], [3.0, -1.0]])

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(tf.linalg.matvec(data, w) - 1.0))
            grad = tape.gradient(loss, w)
            return loss, grad

        step = step_fn_of(step)
        out = []
        for i in range(3):
            loss, grad = step()
            w.assign(w - 0.05 * grad)  # changed between calls, outside the function
            if i == 1:
                w.assign_add([0.5, 0.5])
            out.append((loss.numpy(), w.numpy().copy()))
        return out

    for (eager_loss, eager_w), (traced_loss, traced_w) in zip(run(lambda f: f), run(tf.function)):
        np.testing.assert_allclose(traced_loss, eager_loss, rtol=1e-6)
        np.testing.assert_allclose(traced_w, eager_w, rtol=1e-6)


def test_a_function_of_captured_values_only_is_computed_at_every_call():
    v = tf.Variable(1.0)
    c = tf.constant(2.0)

    @tf.function
    def f():
        return v * c

    assert f().numpy() == 2.0
    v.assign(5.0)
    assert f().numpy() == 10.0
    assert f.experimental_get_tracing_count() == 1
    assert any(x is v for x in f.get_concrete_function().captured_inputs)


def test_a_captured_numpy_array_is_an_input_read_at_every_call():
    table = np.array([1.0, 2.0, 3.0], np.float32)

    @tf.function
    def f(x):
        return tf.reduce_sum(x * table)

    assert f(tf.constant(2.0)).numpy() == 12.0
    table[0] = 4.0  # its owner changes it: the next call reads the array as it is then
    assert f(tf.constant(2.0)).numpy() == 18.0
    assert f.experimental_get_tracing_count() == 1
    graph = f.get_concrete_function(tf.constant(2.0)).graph
    assert not [
        op for op in graph.get_operations() if op.type == "Const" and op.outputs[0].shape == (3,)
    ]


def test_python_numbers_used_in_a_function_are_constants_not_inputs():
    @tf.function
    def chain(x):
        for _ in range(3):
            x = tf.sin(x) * 1.01
        return x

    concrete = chain.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert concrete.captured_inputs == [] and len(concrete.inputs) == 1
