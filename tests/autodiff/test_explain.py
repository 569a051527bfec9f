"""Why is my gradient None? (issue 15 item 2): one case per reason, each with the exact
reason retrograd gives; with the debugging switch, the user's line."""

from __future__ import annotations

import inspect
import pathlib
import warnings

import pytest

import retrograd as rg

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
    assert not rg.core.execute.context.explain_none  # switched off after the block


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
