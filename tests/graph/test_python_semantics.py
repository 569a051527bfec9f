"""Python as people write it inside traced functions (data/python_semantics_cases.py): each
case traced by retrograd gives what TensorFlow 2.21 gave (data/python_semantics_goldens.json,
made by data/make_python_semantics_goldens.py: the value, or the error's type), and what the
same program gives eagerly where it has an eager form."""

from __future__ import annotations

import json
import pathlib
import warnings
import weakref

import numpy as np
import pytest

import retrograd as rg
from retrograd.graph import function, traced_bodies
from tests.graph.data.python_semantics_cases import CASES, EAGER_SAME, TENSORFLOW_FAILS

GOLDENS = json.loads(
    (pathlib.Path(__file__).parent / "data" / "python_semantics_goldens.json").read_text()
)


def _outcome(case, wrap):
    try:
        return ["value", case(rg, wrap)]
    except Exception as error:
        return ["error", type(error).__name__]


def test_every_case_has_a_golden():
    assert sorted(GOLDENS) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(set(CASES) - TENSORFLOW_FAILS))
def test_traced_programs_match_tensorflow(name):
    kind, expected = GOLDENS[name]
    got = _outcome(CASES[name], rg.function)
    if kind == "error":
        assert got == ["error", expected]
    else:
        assert got[0] == "value", got
        np.testing.assert_allclose(got[1], expected, rtol=1e-6)


@pytest.mark.parametrize("name", EAGER_SAME)
def test_traced_programs_match_eager(name):
    traced = CASES[name](rg, rg.function)
    eager = CASES[name](rg, lambda f: f)
    np.testing.assert_allclose(traced, eager, rtol=1e-6)


def test_tensorflow_fails_where_retrograd_gives_the_derivative():
    # Issue 50170's program: TensorFlow 2.21 raises AttributeError, retrograd differentiates
    # through the custom gradient in the branch taken (w) and the identity in the other (1).
    assert GOLDENS["custom_gradient_in_cond"] == ["error", "AttributeError"]
    assert CASES["custom_gradient_in_cond"](rg, rg.function) == [2.0, 1.0]


def test_recursion_errors_say_why():
    with pytest.raises(rg.errors.UnimplementedError, match="same signature"):  # StagingError
        CASES["tensor_self_recursion"](rg, rg.function)
    with pytest.raises(NotImplementedError, match=f"nested more than {traced_bodies.MAX_NESTING}"):
        CASES["tensor_recursion"](rg, rg.function)


def test_a_leaked_tensor_is_named_with_the_fix():
    with pytest.raises(rg.errors.InaccessibleTensorError, match="out of scope.*TensorArray"):
        CASES["list_append_in_range_loop"](rg, rg.function)


def test_items_a_branch_adds_are_removed_for_the_other_branch():
    seen: dict = {}

    @rg.function
    def h(x):
        d = seen
        if x > 0:
            d["only_true"] = x * 2.0
        else:
            d["only_false"] = x
        return x

    assert float(h(rg.constant(1.0))) == 1.0
    assert seen == {}  # no branch's tensor is left in the dict


def test_old_traces_are_let_go():
    @rg.function
    def scaled(x, factor):
        return x * factor

    x = rg.constant(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (retracing warns)
        scaled(x, 0)
        first = next(iter(scaled._traces.values()))
        gone = weakref.ref(first)
        del first
        for factor in range(1, function.MAX_TRACES + 1):
            scaled(x, factor)
        assert gone() is None  # the least recently used trace was let go
        assert len(scaled._traces) == function.MAX_TRACES
        assert float(scaled(x, 0)) == 0.0  # and is traced again when needed
