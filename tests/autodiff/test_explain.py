"""Why is my gradient None? (issue 15 item 2): one case per reason, each with the exact
reason retrograd gives; with the debugging switch, the user's line."""

from __future__ import annotations

import inspect
import pathlib
import warnings

import pytest

import retrograd as rg
from retrograd.autodiff.state import state as autodiff_state

X = [1.5, 2.5]


def _never_watched(x):
    with rg.GradientTape() as tape:
        y = x * 2.0
    return tape, y, x


def _not_on_path(x):
    z = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch([x, z])
        y = z * 2.0
    return tape, y, x


def _through_round(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.round(x) * 2.0)
    return tape, y, x


def _cast_to_int(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.cast(rg.cast(x, rg.int32), rg.float32) * 2.0
    return tape, y, x


def _argmax(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.cast(rg.argmax(x), rg.float32)
    return tape, y, x


def _comparison(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.cast(x > 2.0, rg.float32)
    return tape, y, x


def _stop_gradient(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.stop_gradient(x) * 2.0
    return tape, y, x


def _left_by_numpy(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.constant((x * 2.0).numpy()) * 3.0
    return tape, y, x


def _stop_recording(x):
    with rg.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x * 2.0
    return tape, y, x


def _rule_returned_none(x):
    @rg.custom_gradient
    def scaled(a, b):
        return a * b, lambda dy: (rg.reduce_sum(dy * b), None)

    with rg.GradientTape() as tape:
        tape.watch(x)
        y = scaled(rg.constant(2.0), x)
    return tape, y, x


def _captured(x):
    with rg.GradientTape() as tape, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tape.watch(x)
        c = x * 3.0

        @rg.custom_gradient
        def f(a):
            return a * c, lambda dy: dy * c

        y = f(x)
    return tape, y, c


def _integer_source(x):
    n = rg.constant(3)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    return tape, y, n


def _unread_variable(x):
    v = rg.Variable(1.0, name="v")
    with rg.GradientTape() as tape:
        y = x * 2.0
    return tape, y, v


def _untrainable_variable(x):
    v = rg.Variable(1.0, name="v", trainable=False)
    with rg.GradientTape() as tape:
        y = x * v
    return tape, y, v


STRAIGHT = "To let a gradient through it (a straight-through estimator), use "
CASES = [
    (_never_watched, "not watched: call tape.watch(x) inside the `with GradientTape()` block"),
    (_not_on_path, "no path: it was watched, but the target does not depend on it"),
    (_through_round, "no gradient op: the path from it to the target goes through op 'Round' "
     "(type Round), which has no gradient. " + STRAIGHT),
    (_cast_to_int, "no gradient op: the path from it goes through op 'Cast' (type Cast), whose "
     "output has dtype int32: integer and bool values carry no gradient. " + STRAIGHT),
    (_argmax, "no gradient op: the path from it goes through op 'ArgMax' (type ArgMax), whose "
     "output has dtype int64"),
    (_comparison, "no gradient op: the path from it goes through op 'Greater' (type Greater), "
     "whose output has dtype bool"),
    (_stop_gradient, "no gradient op: the path from it to the target goes through op "
     "'StopGradient' (type StopGradient)."),
    (_left_by_numpy, "target not recorded: the target was not computed by ops this tape "
     "recorded from anything it watches: it does not depend on the source at all, or its value "
     "left the tape (through .numpy(), float()"),
    (_stop_recording, "target not recorded: the target was not computed by ops this tape "
     "recorded"),
    (_rule_returned_none, "rule returned None: custom_gradient function "
     "'_rule_returned_none.<locals>.scaled' (defined at"),
    (_captured, "captured: custom_gradient function '_captured.<locals>.f' (defined at"),
    (_integer_source, "not differentiable: it has dtype int32"),
    (_unread_variable, "not watched: the variable was never read while the tape recorded"),
    (_untrainable_variable, "not watched: the variable is not trainable"),
]  # fmt: skip


def _explained(case, **kwargs):
    tape, y, source = case(rg.constant(X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        assert tape.gradient(y, source, **kwargs) is None
    for w in caught:
        assert (w.filename, w.lineno) == (__file__, line)  # the gradient call
    return [w for w in caught if issubclass(w.category, rg.debugging.NoneGradientWarning)]


@pytest.mark.parametrize("case, reason", CASES, ids=[c[0].__name__ for c in CASES])
def test_each_none_says_why(case, reason):
    (warning,) = _explained(case, explain=True)
    header, text = str(warning.message).split("\n", 1)
    assert text.strip().startswith(reason), text
    assert header.endswith(" is None:") and "test_explain.py:" in header  # the gradient call
    assert warning.filename == __file__


def test_without_explain_nothing_is_said():
    assert _explained(_through_round) == []


LINES = [
    (_cast_to_int, "op 'Cast' (type Cast) at {file}:{line}", "rg.cast(rg.cast(x, rg.int32)"),
    (_stop_recording, "op 'Mul' (type Mul) at {file}:{line} computed with a value the tape "
     "tracks but the tape did not record it", "y = x * 2.0"),
    (_left_by_numpy, "the value of op 'Mul' (type Mul) at {file}:{line} left the tape and came "
     "back as a new constant", "rg.constant((x * 2.0).numpy())"),
]  # fmt: skip


@pytest.mark.parametrize("case, reason, code", LINES, ids=[c[0].__name__ for c in LINES])
def test_the_debugging_switch_explains_every_none_with_the_line(case, reason, code):
    lines = pathlib.Path(__file__).read_text().splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith(f"def {case.__name__}("))
    line = next(i for i in range(start, len(lines)) if code in lines[i]) + 1
    with rg.debugging.explain_none_gradients():
        (warning,) = _explained(case)
    assert reason.format(file=__file__, line=line) in str(warning.message)
    assert not autodiff_state.explain_none  # switched off after the block


def test_the_optimizer_error_says_why():
    v = rg.Variable(2.0, name="weight")
    with rg.GradientTape() as tape:
        y = rg.constant(v.numpy()) * 2.0  # the value left the tape before it was read
    grads = tape.gradient(y, [v])
    with pytest.raises(ValueError) as raised:
        rg.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, [v]))
    assert str(raised.value).startswith(
        "SGD.apply_gradients: no gradients provided for any variable ['weight:0']\n"
        "Why (from the last GradientTape.gradient):\n"
        "  'weight:0': not watched: the variable was never read while the tape recorded"
    )


def test_the_optimizer_error_after_a_connected_gradient_says_nothing_stale():
    v = rg.Variable(2.0, name="w")
    with rg.GradientTape() as tape:
        y = v * 2.0
    tape.gradient(y, [v])  # not None: forgets any earlier reasons
    with pytest.raises(ValueError) as raised:
        rg.keras.optimizers.SGD(0.1).apply_gradients([(None, v)])
    assert "Why" not in str(raised.value)


# -- the same explanations for tape.jacobian, batch_jacobian and tf.gradients -------------


@pytest.mark.parametrize("case, reason", CASES, ids=[c[0].__name__ for c in CASES])
def test_jacobian_explains_each_none_as_gradient_does(case, reason):
    tape, y, source = case(rg.constant(X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        assert tape.jacobian(y, source, explain=True) is None
    (warning,) = [w for w in caught if issubclass(w.category, rg.debugging.NoneGradientWarning)]
    assert str(warning.message).split("\n", 1)[1].strip().startswith(reason)
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_jacobian_and_batch_jacobian_explain_under_the_debugging_switch_only_nones():
    x, z = rg.constant([[1.0], [2.0]]), rg.constant([[3.0], [4.0]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = rg.round(z) + x * 2.0
    with rg.debugging.explain_none_gradients(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jx, jz = tape.jacobian(y, [x, z])
        assert tape.batch_jacobian(y, z) is None
        assert tape.batch_jacobian(y, x) is not None
    assert jx is not None and jz is None
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2 and all("op 'Round' (type Round)" in m for m in messages)
    with warnings.catch_warnings(record=True) as caught:  # the switch is off again
        warnings.simplefilter("always")
        assert tape.jacobian(y, z) is None
    assert caught == []


def _graph_cases():
    """(name, ys, xs, stop_gradients) built in a new graph."""
    x = rg.compat.v1.placeholder(rg.float32, [2], name="x")
    z = rg.compat.v1.placeholder(rg.float32, [None], name="z")
    n = rg.compat.v1.placeholder(rg.int32, [2], name="n")
    w = rg.compat.v1.Variable([1.0, 2.0], name="w")

    @rg.custom_gradient
    def scaled(a, b):
        return a * b, lambda dy: (rg.reduce_sum(dy * b), None)

    half = x * 0.5
    return [
        ("round", rg.round(x) * 2.0, x, None),
        ("cast_to_int", rg.cast(rg.cast(x, rg.int32), rg.float32), x, None),
        ("argmax", rg.cast(rg.argmax(x), rg.float32), x, None),
        ("stop_gradient", rg.stop_gradient(x) * 2.0, x, None),
        ("not_used", x * 2.0, z, None),
        ("variable_not_used", x * 2.0, w, None),
        ("stop_gradients", half * 2.0, x, [half]),
        ("rule_returned_none", scaled(rg.constant(2.0), x), x, None),
        ("integer", x * 2.0 + rg.cast(n, rg.float32), n, None),
    ]


GRAPH_REASONS = {
    "round": "no gradient op: the path from it to the target goes through op 'Round' (type "
    "Round), which has no gradient. " + STRAIGHT,
    "cast_to_int": "no gradient op: the path from it goes through op 'Cast' (type Cast), "
    "whose output has dtype int32",
    "argmax": "no gradient op: the path from it goes through op 'ArgMax' (type ArgMax)",
    "stop_gradient": "no gradient op: the path from it to the target goes through op "
    "'StopGradient' (type StopGradient).",
    "not_used": "no path: the ys are not computed from it in this graph",
    "variable_not_used": "no path: the ys are not computed from it in this graph",
    "stop_gradients": "no path: the ys are not computed from it in this graph (it is not an "
    "input of any op they depend on) (stop_gradients cut the paths",
    "rule_returned_none": "rule returned None: custom_gradient function "
    "'_graph_cases.<locals>.scaled' (defined at",
    "integer": "not differentiable: it has dtype int32",
}


@pytest.mark.parametrize("name", sorted(GRAPH_REASONS))
def test_tf_gradients_explains_each_none(name):
    g = rg.Graph()
    with g.as_default(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ys, xs, stops = next((y, x, s) for n, y, x, s in _graph_cases() if n == name)
        line = inspect.currentframe().f_lineno + 1
        assert rg.gradients(ys, [xs], stop_gradients=stops, explain=True) == [None]
    (warning,) = [w for w in caught if issubclass(w.category, rg.debugging.NoneGradientWarning)]
    header, text = str(warning.message).split("\n", 1)
    assert text.strip().startswith(GRAPH_REASONS[name]), text
    assert f"test_explain.py:{line}" in header
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_tf_gradients_explains_under_the_debugging_switch_and_not_without():
    g = rg.Graph()
    with g.as_default(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = rg.compat.v1.placeholder(rg.float32, [2])
        y = rg.round(x) + 1.0
        assert rg.gradients(y, [x]) == [None]
        assert caught == []
        with rg.debugging.explain_none_gradients():
            assert rg.gradients(y, [x]) == [None]
            (dy,) = rg.gradients(x * 3.0, [x])  # connected: nothing said
    assert dy is not None
    assert len(caught) == 1 and "op 'Round' (type Round)" in str(caught[0].message)
