"""function: tracing, retracing, captured variables, run-time printing, gradients through calls."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as tf
from tests.ops.table import in_precision
from tests.ops.test_op_coverage import TABLES


def test_traces_once_per_signature():
    @tf.function
    def f(x, scale):
        return x * scale

    f(tf.constant(1.0), 2.0)
    f(tf.constant(5.0), 2.0)
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([1.0, 2.0]), 2.0)  # new shape
    f(tf.constant(1.0, tf.float64), 2.0)  # new dtype
    f(tf.constant(1.0), 3.0)  # new Python value
    assert f.experimental_get_tracing_count() == 4
    assert f(tf.constant(2.0), 3.0).numpy() == 6.0


def test_input_signature_with_unknown_dimensions_traces_once():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def total(x):
        return tf.reduce_sum(x * x)

    assert total(tf.constant([1.0, 2.0])).numpy() == 5.0
    assert total(tf.constant([1.0, 2.0, 3.0])).numpy() == 14.0
    assert total.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="input_signature"):
        total(tf.constant([[1.0]]))


def test_variables_are_captured_by_reference():
    v = tf.Variable(1.0)

    @tf.function
    def step(x):
        v.assign_add(x)
        return v.read_value() * 2

    assert step(tf.constant(2.0)).numpy() == 6.0
    assert v.numpy() == 3.0
    v.assign(10.0)  # changed outside: the next call sees it
    assert step(tf.constant(1.0)).numpy() == 22.0 and v.numpy() == 11.0
    assert step.experimental_get_tracing_count() == 1


def test_print_happens_each_time_the_function_runs(capsys):
    @tf.function
    def f(x):
        tf.print("x is", x)
        return x + 1

    f(tf.constant(1.0))
    f(tf.constant(2.0))
    assert capsys.readouterr().err == "x is 1\nx is 2\n"


def test_python_control_flow_on_tensors_without_autograph_names_cond_and_while_loop():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="retrograd.cond"):
        f(tf.constant(1.0))
    assert tf.function(f.python_function)(tf.constant(-2.0)).numpy() == 2.0  # AutoGraph's cond


def test_gradient_tape_and_gradients_inside_a_function():
    @tf.function
    def both(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        (symbolic,) = tf.gradients(y, x)
        return tape.gradient(y, x), symbolic

    by_tape, by_gradients = both(tf.constant(2.0))
    assert by_tape.numpy() == 12.0 and by_gradients.numpy() == 12.0


def test_a_tape_outside_differentiates_through_calls_to_any_order():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        y = x
        for _ in range(3):
            y = tf.sin(y) * v
        v.assign_add(1.0)  # the gradient is still that of what was computed
        return y

    def eager(x, w):
        y = x
        for _ in range(3):
            y = tf.sin(y) * w
        return y

    x = tf.constant(0.5)
    results = []
    for fn, var in ((f, v), (eager, tf.Variable(2.0))):
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = fn(x) if fn is f else fn(x, var)
            gx, gv = inner.gradient(y, [x, var])
        results.append([y, gx, gv, *outer.gradient(gx, [x, var]), *outer.gradient(gv, [x, var])])
        v.assign(2.0) if fn is f else None
    np.testing.assert_allclose(
        [r.numpy() for r in results[0]], [r.numpy() for r in results[1]], rtol=1e-6
    )


def test_a_first_order_gradient_of_a_call_uses_the_forward_values_it_kept(monkeypatch):
    from retrograd.core.execute import OP_DEFS

    runs = []
    kernel = OP_DEFS["Sin"].kernel
    monkeypatch.setattr(OP_DEFS["Sin"], "kernel", lambda x: runs.append(x) or kernel(x))
    f = tf.function(lambda x: tf.square(tf.sin(x)))  # d/dx = 2 sin(x) cos(x): needs sin(x)

    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    gradient(tf.constant([0.5, 1.0]))  # traces and builds the gradient functions
    runs.clear()
    g = gradient(tf.constant([0.5, 1.0]))
    assert len(runs) == 1  # the forward call's; the gradient reused its value
    np.testing.assert_allclose(g.numpy(), np.sin(2 * np.array([0.5, 1.0])), rtol=1e-6)


def test_function_calls_pass_finite_difference_checks_to_second_order():
    @tf.function
    def f(x, y):
        return tf.reduce_sum(tf.exp(x) * tf.matmul(y, y, transpose_b=True))

    tf.check_gradients(f, np.array([[0.1, -0.3]]), np.array([[0.5, 1.0], [-1.0, 2.0]]), order=2)


def test_nested_functions_methods_and_structured_outputs():
    @tf.function
    def inner(x):
        return {"square": x * x, "python": 3}

    class Model:
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            out = inner(x)
            return out["square"] * self.w + out["python"]

    model = Model()
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    assert y.numpy() == 21.0
    gx, gw = tape.gradient(y, [x, model.w])
    assert (gx.numpy(), gw.numpy()) == (12.0, 9.0)
    assert inner(x)["python"] == 3


def test_the_seed_functions_under_function(capsys):
    from tests.test_seeds import differentiable_sign, log1pexp2

    @tf.function
    def second_derivative(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = log1pexp2(x)
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    dy, ddy = second_derivative(tf.constant(1.0))
    np.testing.assert_allclose([dy.numpy(), ddy.numpy()], [0.7310586, -1.7182817], rtol=2e-7)

    @tf.function
    def sign_gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = differentiable_sign(x)  # branches on x > 0: AutoGraph converts it to a cond
        return y, tape.gradient(y, x)

    y, dy = sign_gradient(tf.constant(3.0))
    np.testing.assert_allclose([y.numpy(), dy.numpy()], [1.0, 0.0451766551], rtol=1e-6)


CASES = [case for module in TABLES for case in module.CASES]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_function_gives_eager_results_on_every_op_in_the_tables(case):
    traced = tf.function(case.fn)
    for bits in (64, 32) if case.reference is not None else (64,):
        args = [tf.constant(a.astype(in_precision(a.dtype.kind, bits))) for a in case.inputs()]
        got, expected = tf.nest.flatten(traced(*args)), tf.nest.flatten(case.fn(*args))
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape, case.id
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-7, err_msg=case.id)
    assert traced.experimental_get_tracing_count() == (2 if case.reference is not None else 1)


def test_a_first_trace_that_makes_variables_is_traced_again_as_tensorflow_does():
    # TensorFlow's first call traces with variable creation allowed and, when variables were
    # made, traces again where none may be (Python side effects run twice, the count is 2).
    traces = []

    @tf.function
    def scaled(x):
        traces.append(x.shape)
        if not hasattr(scaled, "v"):
            scaled.v = tf.Variable(2.0)
        return x * scaled.v

    assert scaled(tf.constant(3.0)).numpy() == 6.0
    assert len(traces) == 2 and scaled.experimental_get_tracing_count() == 2
    assert scaled(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert len(traces) == 3 and scaled.experimental_get_tracing_count() == 3

    @tf.function
    def plain(x):
        traces.append(x.shape)
        return x + 1.0

    plain(tf.constant(1.0))
    assert plain.experimental_get_tracing_count() == 1

    @tf.function
    def makes_one_each_time(x):
        return x * tf.Variable(1.0)

    with pytest.raises(ValueError, match="only supports tf.Variables created on the first call"):
        makes_one_each_time(tf.constant(1.0))


def test_an_optimizer_step_traces_again_only_when_it_makes_slots():
    # Keras makes SGD's learning rate with the optimizer: a plain SGD step makes no variable
    # inside the trace (one trace); Adam's first step makes its moments (traced twice).
    w = tf.Variable([1.0, -2.0])
    counts = []
    for optimizer in (tf.keras.optimizers.SGD(0.1), tf.keras.optimizers.Adam(0.1)):

        @tf.function
        def step(optimizer=optimizer):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            optimizer.apply_gradients([(tape.gradient(loss, w), w)])
            return loss

        step()
        step()
        counts.append(step.experimental_get_tracing_count())
    assert counts == [1, 2]
    assert int(optimizer.iterations.numpy()) == 2


def test_a_traced_functions_inputs_are_named_after_its_parameters():
    # TensorFlow names the placeholders after the parameters (a spec's name wins; the graph
    # makes repeated names unique), as print shows them while tracing.
    seen = []

    @tf.function
    def f(x, pair, *, k):
        seen.extend(t.name for t in (x, pair[0], pair[1], k))
        return x

    f(tf.constant(1.0), [tf.constant(2.0), tf.constant(3.0)], k=tf.constant(4.0))

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="named")] * 2)
    def g(a, b):
        seen.extend([a.name, b.name])
        return a

    g(1.0, 2.0)
    assert seen == ["x:0", "pair:0", "pair_1:0", "k:0", "named:0", "named_1:0"]
