"""Bad inputs to Keras, tf.data, checkpoints and compat.v1 (data/bad_input_cases.py) end as
they do in TensorFlow 2.21 (data/bad_input_goldens.json, made by
data/make_bad_input_goldens.py): the same value, or an error of TensorFlow's type (a
subclass of it counts: retrograd's errors also derive from the Python exception a user
expects)."""

from __future__ import annotations

import builtins
import json
import pathlib

import pytest

import retrograd as rg
from tests.data.bad_input_cases import CASES

GOLDENS = json.loads(
    (pathlib.Path(__file__).parent / "data" / "bad_input_goldens.json").read_text()
)


def _error_type(name: str) -> type:
    found = getattr(rg.errors, name, None) or getattr(builtins, name, None)
    assert isinstance(found, type), f"no retrograd error type for TensorFlow's {name}"
    return found


def test_every_case_has_a_golden():
    assert sorted(GOLDENS) == sorted(CASES)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_inputs_end_as_in_tensorflow(name, tmp_path):
    kind, expected = GOLDENS[name]
    if kind == "error":
        with pytest.raises(_error_type(expected)) as info:
            CASES[name](rg, str(tmp_path))
        assert str(info.value), "an error without a message"
        assert not isinstance(info.value, (AttributeError, KeyError, RecursionError, MemoryError))
    else:
        assert json.loads(json.dumps(CASES[name](rg, str(tmp_path)))) == expected
