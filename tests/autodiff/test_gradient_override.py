"""Gradient overrides (issue 15 item 4, issue 13 item 4): the scope that works under tapes,
in ``function`` and in ``tf.gradients``; ``gradient_override_map`` as TensorFlow's (only
``tf.gradients`` honours it, goldens from real TensorFlow); op types checked with
suggestions; re-registering the same gradient function."""

from __future__ import annotations

import json
import pathlib
import threading

import pytest

import retrograd as rg

GOLDENS = json.loads(
    (pathlib.Path(__file__).parent / "data" / "custom_gradient_goldens.json").read_text()
)
UPSTREAM = [1.0, -1.0]
GUIDED, PLAIN = [0.0, 0.0], [0.0, -1.0]  # relu at [-1, 2] with upstream [1, -1]


def guided_relu_grad(op, grad):
    return rg.where(grad > 0, grad, 0.0) * rg.cast(op.outputs[0] > 0, grad.dtype)


@pytest.fixture
def registered():
    rg.RegisterGradient("TestGuidedReluOverride")(guided_relu_grad)
    yield "TestGuidedReluOverride"
    rg.gradient_registry.unregister("TestGuidedReluOverride")


def _tape_eager(override):
    x = rg.constant([-1.0, 2.0])
    with rg.GradientTape() as tape:  # recorded before the scope: a model that exists
        tape.watch(x)
        y = rg.nn.relu(x)
    with rg.gradient_override({"Relu": override}):
        return tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM)).numpy().tolist()


def _tape_in_function(override):
    @rg.function
    def f(x):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.nn.relu(x)
        return tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))

    with rg.gradient_override({"Relu": override}):
        return f(rg.constant([-1.0, 2.0])).numpy().tolist()


def _tape_over_function(override):
    f = rg.function(rg.nn.relu)
    x = rg.constant([-1.0, 2.0])
    plain = None
    for scoped in (False, True):  # the traced gradient is cached per override scope
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        if scoped:
            with rg.gradient_override({"Relu": override}):
                got = tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))
        else:
            plain = tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))
    assert plain.numpy().tolist() == PLAIN
    return got.numpy().tolist()


def _tf_gradients(override):
    g = rg.Graph()
    with g.as_default():
        x = rg.constant([-1.0, 2.0])
        y = rg.nn.relu(x)
        with rg.gradient_override({"Relu": override}):
            (d,) = rg.gradients(y, x, grad_ys=rg.constant(UPSTREAM))
        with rg.compat.v1.Session(graph=g) as sess:
            return sess.run(d).tolist()


@pytest.mark.parametrize(
    "mode", [_tape_eager, _tape_in_function, _tape_over_function, _tf_gradients]
)
@pytest.mark.parametrize("by", ["function", "name"])
def test_the_override_scope_works_everywhere(mode, by, registered):
    assert mode(guided_relu_grad if by == "function" else registered) == GUIDED


def test_a_function_traced_before_the_scope_is_traced_again_inside_it(registered):
    """The trace cache is keyed by the override scope: a function with a tape inside, traced
    before the block, gives the overridden gradient inside the block (by function and by
    registered name) and the plain one again after it, each trace made once."""

    @rg.function
    def f(x):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.nn.relu(x)
        return tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))

    x = rg.constant([-1.0, 2.0])
    assert f(x).numpy().tolist() == PLAIN
    for _ in range(2):
        with rg.gradient_override({"Relu": guided_relu_grad}):
            assert f(x).numpy().tolist() == GUIDED
            assert f.get_concrete_function(x)(x).numpy().tolist() == GUIDED
        with rg.gradient_override({"Relu": registered}):
            assert f(x).numpy().tolist() == GUIDED
        assert f(x).numpy().tolist() == PLAIN
    assert f.experimental_get_tracing_count() == 3  # plain, by function, by name


def test_a_relaxed_function_is_traced_again_inside_the_scope():
    @rg.function(reduce_retracing=True)
    def f(x):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.nn.relu(x)
        return tape.gradient(y, x, output_gradients=-x)

    assert f(rg.constant([-1.0, -2.0])).numpy().tolist() == [0.0, 0.0]
    assert f(rg.constant([1.0, -2.0, 3.0])).numpy().tolist() == [-1.0, 0.0, -3.0]
    with rg.gradient_override({"Relu": guided_relu_grad}):
        assert f(rg.constant([1.0, -2.0, 3.0])).numpy().tolist() == [0.0, 0.0, 0.0]
    assert f(rg.constant([1.0, 2.0, 3.0, 4.0])).numpy().tolist() == [-1.0, -2.0, -3.0, -4.0]


def test_the_scope_ends_with_the_block_and_nests():
    x = rg.constant([-1.0, 2.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rg.nn.relu(x)
    up = rg.constant(UPSTREAM)
    with rg.gradient_override({"Relu": guided_relu_grad}):
        with rg.gradient_override({"Relu": None}):
            assert tape.gradient(y, x, output_gradients=up) is None
        assert tape.gradient(y, x, output_gradients=up).numpy().tolist() == GUIDED
    assert tape.gradient(y, x, output_gradients=up).numpy().tolist() == PLAIN


def test_the_scope_is_per_thread():
    x = rg.constant([-1.0, 2.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rg.nn.relu(x)
    seen = []
    inside, done = threading.Event(), threading.Event()

    def other():
        inside.wait()
        seen.append(tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM)).numpy().tolist())
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with rg.gradient_override({"Relu": guided_relu_grad}):
        inside.set()
        done.wait(5)
    thread.join()
    assert seen == [PLAIN]


def test_errors_from_an_override_name_it():
    def broken(op, grad):
        return grad, grad

    x = rg.constant([-1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.nn.relu(x)
    with rg.gradient_override({"Relu": broken}), pytest.raises(ValueError) as raised:
        tape.gradient(y, x)
    assert "the gradient override for op type 'Relu', 'test_errors_from_an_override_name_it" in (
        str(raised.value)
    )


@pytest.mark.parametrize(
    "mapping, error, match",
    [
        ({"sign": None}, ValueError, r"unknown op type 'sign'; did you mean 'Sign'\?"),
        ({"Rleu": None}, ValueError, r"unknown op type 'Rleu'; did you mean 'Relu'"),
        ({"Relu": "NoSuchGradientName"}, LookupError, "no gradient is registered under the name"),
        ({"Relu": 3}, TypeError, "must be a function fn"),
    ],
)
def test_the_scope_checks_its_map(mapping, error, match):
    with pytest.raises(error, match=match), rg.gradient_override(mapping):
        pass


def test_gradient_override_map_checks_op_types():
    assert GOLDENS["override_map_typo_key"]["value"] == "ok"  # TensorFlow ignores the typo
    g = rg.Graph()
    match = r"gradient_override_map: unknown op type 'Rleu'"
    with pytest.raises(ValueError, match=match), g.gradient_override_map({"Rleu": "Relu"}):
        pass


def _map_in_graph(use_tape, name):
    g = rg.Graph()
    with g.as_default():
        x = rg.constant([-1.0, 2.0])
        with g.gradient_override_map({"Relu": name}):
            if use_tape:
                with rg.GradientTape() as tape:
                    tape.watch(x)
                    y = rg.nn.relu(x)
                d = tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))
            else:
                y = rg.nn.relu(x)
                (d,) = rg.gradients(y, x, grad_ys=rg.constant(UPSTREAM))
        with rg.compat.v1.Session(graph=g) as sess:
            return sess.run(d).tolist()


def _map_in_function(name):
    @rg.function
    def f(x):
        with rg.get_default_graph().gradient_override_map({"Relu": name}):
            with rg.GradientTape() as tape:
                tape.watch(x)
                y = rg.nn.relu(x)
            return tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM))

    return f(rg.constant([-1.0, 2.0])).numpy().tolist()


def _map_in_function_tape_outside(name):
    @rg.function
    def f(x):
        with rg.get_default_graph().gradient_override_map({"Relu": name}):
            return rg.nn.relu(x)

    x = rg.constant([-1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, output_gradients=rg.constant(UPSTREAM)).numpy().tolist()


@pytest.mark.parametrize(
    "key, compute",
    [
        # The function's gradient is the symbolic gradient of its graph: the map applies.
        ("override_map_in_function_tape_outside", _map_in_function_tape_outside),
        ("override_map_tf_gradients", lambda name: _map_in_graph(False, name)),
        ("override_map_tape_in_graph", lambda name: _map_in_graph(True, name)),
        ("override_map_tape_in_function", _map_in_function),
    ],
)
def test_gradient_override_map_as_tensorflow(key, compute, registered):
    # The golden's guided gradient is the same function registered in TensorFlow.
    assert compute(registered) == GOLDENS[key]["value"]


def test_registering_the_same_function_again_is_allowed_a_different_one_is_not():
    assert GOLDENS["register_same_function_twice"]["error"] == "KeyError"  # TensorFlow refuses

    def define():  # the same code defined again: a module reloaded, a notebook cell re-run
        def _reloaded_grad(op, grad):
            return grad * 2.0

        return _reloaded_grad

    first, second = define(), define()
    rg.RegisterGradient("TestReloadedGrad")(first)
    try:
        rg.RegisterGradient("TestReloadedGrad")(second)
        assert rg.gradient_registry.lookup("TestReloadedGrad") is second
        with pytest.raises(KeyError, match="Registering two gradient with name 'TestReloadedGrad'"):
            rg.RegisterGradient("TestReloadedGrad")(lambda op, grad: grad)
    finally:
        rg.gradient_registry.unregister("TestReloadedGrad")
