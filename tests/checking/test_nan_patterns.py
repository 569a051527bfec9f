"""NaN diagnosis that names the fix (issue 15 item 7): the first non-finite value of a forward
or backward pass recognised as a known pattern, with its remedy and the user's line."""

from __future__ import annotations

import inspect

import pytest

import retrograd as rg
from retrograd.checking.nan_patterns import DOUBLE_WHERE, LOG_SOFTMAX, SAFE_NORM


def _where_pow_backward():
    # (sqrt's gradient is 0 where its upstream is, as TensorFlow's SqrtGrad; pow's is not)
    x = rg.constant([0.0, 4.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.where(x > 0, x**0.5, 0.0))  # the line
    tape.gradient(y, x)


def _where_sqrt_of_negative():
    x = rg.constant([-1.0, 4.0])
    rg.where(x > 0, rg.sqrt(x), 0.0)  # the line


def _where_division():
    x = rg.constant([0.0, 2.0])
    rg.where(x != 0, 1.0 / x, 0.0)  # the line


def _norm_at_zero():
    v = rg.constant([0.0, 0.0])
    with rg.GradientTape() as tape:
        tape.watch(v)
        y = rg.norm(v)  # the line
    tape.gradient(y, v)


def _softmax_by_hand():
    logits = rg.constant([1000.0, 1.0])
    e = rg.exp(logits)  # the line
    return e / rg.reduce_sum(e)


def _log_of_softmax():
    logits = rg.constant([1000.0, 1.0])
    return rg.math.log(rg.nn.softmax(logits))  # the line


def _log_at_zero_backward():
    x = rg.constant([0.0, 1.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(x * rg.math.log(x + 1.0) + rg.math.log(x) * 0.0)  # the line
    tape.gradient(y, x)


CASES = [
    (_where_pow_backward, "the unused branch of a where: op 'Pow' (pow) is computed also "
     "where the where selects the other branch", DOUBLE_WHERE),
    (_where_sqrt_of_negative, "op 'Sqrt' computes sqrt of a negative value at 1 point(s). If a "
     "tf.where masks these points out", DOUBLE_WHERE),
    (_where_division, "op 'RealDiv' divides by 0 at 1 point(s)", DOUBLE_WHERE),
    (_norm_at_zero, "a norm or sqrt at 0: op 'Sqrt' (sqrt) has an input of 0", SAFE_NORM),
    (_softmax_by_hand, "softmax/exp of large logits: op 'Exp' (exp) overflowed (exp of more than "
     "about 89 in float32)", LOG_SOFTMAX),
    (_log_of_softmax, "log of a softmax of large logits: op 'Log' (log) got 0 where the softmax "
     "underflowed", LOG_SOFTMAX),
    (_log_at_zero_backward, "op 'Log' computes log of 0 at 1 point(s)", DOUBLE_WHERE),
]  # fmt: skip


@pytest.mark.parametrize("program, cause, remedy", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_first_nan_names_its_cause_remedy_and_line(program, cause, remedy):
    lines, start = inspect.getsourcelines(program)
    line = start + next(i for i, s in enumerate(lines) if "# the line" in s)
    with pytest.raises(rg.errors.InvalidArgumentError) as raised, rg.debugging.numeric_checks():
        program()
    (found,) = [s for s in str(raised.value).splitlines() if s.startswith("Likely cause")]
    assert found.startswith(f"Likely cause (at {__file__}:{line}): {cause}"), found
    assert found.endswith(f"Remedy: {remedy}")


def test_an_unrecognised_nan_has_no_guess():
    x = rg.constant([1.0])
    with pytest.raises(rg.errors.InvalidArgumentError) as raised, rg.debugging.numeric_checks():
        x * float("nan")
    assert "Likely cause" not in str(raised.value)
