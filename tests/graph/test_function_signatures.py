"""Which calls share a trace: input signatures with unknown dimensions, reduce_retracing,
the retracing warning, concrete functions, and methods (a trace per instance)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import retrograd as tf


def test_one_trace_serves_every_batch_size_under_a_signature_with_none():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.reduce_sum(x * 2.0, axis=1)

    for batch in (1, 4, 7):
        x = np.arange(batch * 3, dtype=np.float32).reshape(batch, 3)
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), (x * 2).sum(axis=1))
    assert f.experimental_get_tracing_count() == 1
    concrete = f.get_concrete_function()
    assert concrete.inputs[0].shape.as_list() == [None, 3]
    with pytest.raises(TypeError, match="incompatible with input_signature"):
        f(tf.zeros([2, 4]))


def test_reduce_retracing_relaxes_the_shapes_after_a_retrace():
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    for n in (2, 3, 4, 5):
        assert f(tf.ones([n])).numpy() == n
    assert f.experimental_get_tracing_count() == 2  # [2], then [None] for all others
    assert f.get_concrete_function(tf.zeros([9])).inputs[0].shape.as_list() == [None]
    f(tf.ones([2, 2]))  # another rank: traced apart, then relaxed within that rank
    f(tf.ones([3, 2]))
    f(tf.ones([4, 5]))  # [2, 2], then [None, 2], then [None, None]
    assert f.experimental_get_tracing_count() == 5
    assert f.get_concrete_function(tf.ones([6, 7])).inputs[0].shape.as_list() == [None, None]


def test_more_than_five_traces_warn_about_retracing():
    @tf.function
    def g(x):
        return x * 2.0

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(5):
            g(tf.zeros([n]))
        assert not caught
        g(tf.zeros([5]))
    assert "traced more than 5 times" in str(caught[0].message)
    assert g.experimental_get_tracing_count() == 6
    assert "reduce_retracing=True" in str(caught[0].message)
    assert caught[0].filename == __file__  # the user's line, not retrograd's


def test_the_retracing_warning_is_shown_once_per_line_of_the_program():
    @tf.function
    def g(x):
        return x * 2.0

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for n in range(9):
            g(tf.zeros([n]))  # one line retracing 9 times: one warning
    retracing = [w for w in caught if "traced more than" in str(w.message)]
    assert len(retracing) == 1 and retracing[0].filename == __file__


def test_a_method_is_traced_per_instance():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @tf.function
        def apply(self, x):
            return x * self.scale

    a, b = Model(2.0), Model(3.0)
    assert a.apply(tf.constant(1.0)).numpy() == 2.0
    assert b.apply(tf.constant(1.0)).numpy() == 3.0
    assert a.apply(tf.constant(5.0)).numpy() == 10.0
    assert a.apply.experimental_get_tracing_count() == 1
    assert b.apply.experimental_get_tracing_count() == 1
    assert Model.apply.experimental_get_tracing_count() == 0
    assert a.apply is a.apply


def test_jit_compile_is_accepted_and_unknown_options_are_refused():
    @tf.function(jit_compile=True)
    def f(x):
        return x * 2.0

    assert f(tf.constant(1.0)).numpy() == 2.0
    with pytest.raises(TypeError, match="experimental_compile_everything"):
        tf.function(lambda x: x, experimental_compile_everything=True)


def test_structured_input_signature_and_numpy_arguments_for_a_signature():
    @tf.function
    def f(x, y, k=2):
        return x * k

    concrete = f.get_concrete_function(tf.TensorSpec([2]), tf.constant([1.0, 2.0]), k=3)
    args, kwargs = concrete.structured_input_signature
    assert [a.name for a in args[:2]] == ["x", "y"] and args[2] == 3 and kwargs == {}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="a")])
    def g(a):
        return a

    assert g.get_concrete_function().structured_input_signature[0][0].name == "a"
    assert g(np.ones(2)).dtype == tf.float32  # NumPy data takes the spec's dtype
    assert g([1, 2]).numpy().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError):
        g(tf.constant([1.0], tf.float64))  # a tensor is never cast
    assert g.experimental_get_tracing_count() == 1
