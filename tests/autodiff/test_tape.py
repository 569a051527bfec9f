"""GradientTape: recording, the backward walk, nesting, structures, policies, errors."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import retrograd as rg
from retrograd.core.execute import OP_DEFS, define_op, execute


def grad_of(fn, x, **tape_kwargs):
    x = rg.constant(x)
    with rg.GradientTape(**tape_kwargs) as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


def test_gradient_of_a_simple_function():
    assert grad_of(lambda x: x * x + 3 * x, 2.0).numpy() == 7.0


def test_targets_in_a_list_are_summed_and_sources_keep_their_structure():
    x = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y, z = x * 2, x * 3
    grads = tape.gradient([y, z], {"a": x, "b": [x]})
    assert grads["a"].numpy() == 5.0 and grads["b"][0].numpy() == 5.0


def test_output_gradients_weight_the_targets():
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x, output_gradients=rg.constant(3.0)).numpy() == 12.0


def test_output_gradients_must_match_the_target():
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match="output_gradients"):
        tape.gradient(y, x, output_gradients=rg.constant([1.0]))


def test_unconnected_sources_give_none_or_zeros():
    x, z = rg.constant(1.0), rg.constant([2.0, 3.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2
    assert tape.gradient(y, [x, z])[1] is None
    zero = tape.gradient(y, z, unconnected_gradients=rg.UnconnectedGradients.ZERO)
    assert zero.numpy().tolist() == [0.0, 0.0]
    assert tape.gradient(y, z, unconnected_gradients="zero").shape == (2,)
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, z, unconnected_gradients="zeros")


def test_unwatched_constants_get_no_gradient():
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_a_non_persistent_tape_computes_once():
    x = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.gradient(y, x)


def test_a_persistent_tape_computes_many_times():
    x = rg.constant(3.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(y, x).numpy() == 6.0
    assert tape.gradient(z, x).numpy() == 108.0
    assert tape.gradient(z, y).numpy() == 18.0  # an intermediate as source


def test_target_with_respect_to_itself_is_one():
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
    assert tape.gradient(x, x).numpy().tolist() == [1.0, 1.0]


def test_integer_and_bool_values_have_no_gradient():
    x = rg.constant(1)
    with pytest.warns(UserWarning, match="floating"), rg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    assert tape.gradient(y, x) is None
    f = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(f)
        b = f > 1.0
    assert tape.gradient(b, f) is None


def test_watch_refuses_non_tensors():
    with rg.GradientTape() as tape, pytest.raises(ValueError, match="not a retrograd.Tensor"):
        tape.watch(1.0)


def test_sources_must_be_tensors_or_variables():
    x = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(TypeError, match=r"sources\[0\]"):
        tape.gradient(y, [1.0])


def test_trainable_variables_are_watched_automatically():
    v, frozen = rg.Variable(2.0), rg.Variable(5.0, trainable=False)
    with rg.GradientTape() as tape:
        y = v * v * frozen
    assert tape.watched_variables() == (v,)
    grad_v, grad_frozen = tape.gradient(y, [v, frozen])
    assert grad_v.numpy() == 20.0 and grad_frozen is None


def test_watch_accessed_variables_false_watches_only_what_is_asked():
    a, b = rg.Variable(2.0), rg.Variable(3.0)
    with rg.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a * b
    assert tape.watched_variables() == (a,)
    grad_a, grad_b = tape.gradient(y, [a, b])
    assert grad_a.numpy() == 3.0 and grad_b is None


def test_stop_recording_and_reset():
    x = rg.constant(2.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * y  # not recorded
        w = y + z
    assert tape.gradient(w, x).numpy() == 4.0
    with pytest.raises(RuntimeError, match="not recording"):
        tape.stop_recording().__enter__()
    tape.reset()
    assert tape.gradient(w, x) is None


def test_a_tape_cannot_be_reentered_while_active():
    tape = rg.GradientTape()
    with tape, pytest.raises(ValueError, match="re-entered"):
        tape.__enter__()


def test_nested_tapes_give_third_derivatives():
    x = rg.constant(2.0)
    with rg.GradientTape() as t3:
        t3.watch(x)
        with rg.GradientTape() as t2:
            t2.watch(x)
            with rg.GradientTape() as t1:
                t1.watch(x)
                y = x**4
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert (d1.numpy(), d2.numpy(), d3.numpy()) == (32.0, 48.0, 48.0)


def test_a_persistent_tape_differentiates_its_own_gradient_inside_its_context():
    x = rg.constant(3.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        dy = tape.gradient(y, x)
    assert tape.gradient(dy, x).numpy() == 18.0


def test_a_non_persistent_tape_stops_recording_when_its_gradient_is_taken():
    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.gradient(y, x)
        assert tape not in rg.core.execute.context.tapes


def test_a_chain_of_100000_ops_is_walked_without_recursion():
    x = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(100_000):
            y = y * 1.0
    assert tape.gradient(y, x).numpy() == 1.0


def test_a_non_persistent_tape_frees_what_it_saved():
    x = rg.constant(np.ones(3))
    with rg.GradientTape() as tape:
        tape.watch(x)
        middle = rg.exp(x)
        y = rg.reduce_sum(middle * middle)
    saved = weakref.ref(middle)
    del middle
    gc.disable()  # freed by reference counting alone: no cycles keep records alive
    try:
        assert saved() is not None  # the tape's record of exp keeps it
        tape.gradient(y, x)
        assert saved() is None
    finally:
        gc.enable()


@rg.custom_gradient
def _scaled_sin(y):
    return rg.sin(y) * 1.01, lambda upstream: upstream * rg.cos(y) * 1.01


def _tape_gradient(body):
    def run():
        x = rg.constant(np.linspace(0.1, 1.0, 4))
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = body(x)
        return tape.gradient(y, [x, {"x": x}])

    return run


_traced_sum = rg.function(lambda x: rg.reduce_sum(rg.exp(rg.sin(x)) * x))


@pytest.mark.parametrize(
    "run",
    [
        _tape_gradient(lambda x: rg.reduce_sum(rg.exp(rg.sin(x)) * x)),
        _tape_gradient(_scaled_sin),
        _tape_gradient(_traced_sum),
    ],
    ids=["ops", "custom_gradient", "function"],
)
def test_a_gradient_leaves_no_cyclic_garbage(run):
    # Values caught in reference cycles live until the next collection: large gradients
    # would pile up between collections.
    run()
    gc.collect()
    gc.disable()
    try:
        run()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_jacobian_matches_the_closed_form():
    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.jacobian(y, x).numpy().tolist() == np.diag([2.0, 4.0, 6.0]).tolist()


def test_jacobian_of_a_matrix_function_with_several_sources():
    a, b = rg.constant([[1.0, 2.0]]), rg.constant([[3.0], [4.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        c = rg.matmul(b, a)  # 2 x 2
    ja, jb = tape.jacobian(c, [a, b])
    assert ja.shape == (2, 2, 1, 2) and jb.shape == (2, 2, 2, 1)
    np.testing.assert_allclose(ja.numpy()[1, 0, 0], [4.0, 0.0])
    unrelated = rg.constant(1.0)
    tape.watch(unrelated)
    assert tape.jacobian(c, unrelated) is None
    assert tape.jacobian(c, unrelated, unconnected_gradients="zero").shape == (2, 2)


def test_batch_jacobian():
    x = rg.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    w = rg.constant([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.matmul(x, w) * x[:, :1]  # per-row function
    jb = tape.batch_jacobian(y, x)
    assert jb.shape == (3, 3, 2)
    for i in range(3):
        row = x.numpy()[i]
        expected = np.outer(np.ones(3), [0, 0]) + (w.numpy().T * row[0])
        expected[:, 0] += row @ w.numpy()
        np.testing.assert_allclose(jb.numpy()[i], expected)


def test_batch_jacobian_requires_matching_batch_dimensions():
    x = rg.constant([[1.0], [2.0]])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(x, keepdims=True)
    with pytest.raises(ValueError, match="batch"):
        tape.batch_jacobian(y, x)


# --- rule validation and lookup --------------------------------------------------------


@pytest.fixture(scope="module")
def test_ops():
    """Two ops defined only for these tests, removed afterwards."""
    ops = {
        "double": define_op("TestDoubleWrongRule", lambda x: 2 * x),
        "unregistered": define_op("TestUnregistered", lambda x: x),
    }
    yield ops
    for op in ops.values():
        del OP_DEFS[op.type]


@pytest.fixture
def double_rule(test_ops):
    """Registers a rule for TestDoubleWrongRule; returns the op's function."""

    def register(fn):
        rg.RegisterGradient("TestDoubleWrongRule")(fn)
        return lambda x: execute(test_ops["double"], (x,))

    yield register
    rg.gradient_registry.unregister("TestDoubleWrongRule")


def _differentiate(fn, x):
    x = rg.constant(x)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize(
    "rule, error, match",
    [
        (lambda op, grad: (grad, grad), ValueError, "returned 2 gradient.*1 input"),
        (
            lambda op, grad: rg.reduce_sum(grad),
            ValueError,
            r"shape \(\) and dtype float32 for input 0, which has shape \(2,\)",
        ),
        (lambda op, grad: rg.cast(grad, rg.float64), ValueError, "dtype float64 for input 0"),
        (lambda op, grad: 2.0, TypeError, "returned a float for input 0"),
    ],
)
def test_wrong_registered_rules_fail_naming_the_rule(double_rule, rule, error, match):
    double = double_rule(rule)
    with pytest.raises(error, match=match) as raised:
        _differentiate(double, [1.0, 2.0])
    assert "op type 'TestDoubleWrongRule' (registered at" in str(raised.value)


def test_an_op_without_a_gradient_raises_lookup_error_naming_it(test_ops):
    with pytest.raises(LookupError, match="TestUnregistered"):
        _differentiate(lambda x: execute(test_ops["unregistered"], (x,)), 1.0)


def test_an_op_without_a_gradient_off_the_path_is_not_consulted(test_ops):
    x, other = rg.constant(1.0), rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch([x, other])
        execute(test_ops["unregistered"], (other,))
        y = x * 3
    assert tape.gradient(y, x).numpy() == 3.0


def test_gradients_needs_a_graph():
    with pytest.raises(RuntimeError, match="GradientTape"):
        rg.gradients(rg.constant(1.0), rg.constant(1.0))
