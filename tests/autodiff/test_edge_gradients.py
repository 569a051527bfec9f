"""Gradients at edge points match real TensorFlow's (goldens from TensorFlow 2.21 made by
data/make_edge_goldens.py from the cases in edge_cases.py): zeros of sqrt/log/pow/abs/norm,
ties of max/min/relu, large logits, singular matrices — the same numbers, NaN and infinities
included, or the same kind of error."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg
from tests.autodiff.edge_cases import CASES, gradients

GOLDENS = json.loads((pathlib.Path(__file__).parent / "data" / "edge_gradients.json").read_text())[
    "cases"
]


def _array(value):
    if isinstance(value, list):
        return [_array(v) for v in value]
    return float(value)  # "nan", "inf" and "-inf" included


def test_every_case_has_a_golden():
    assert sorted(GOLDENS) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_gradients_match_tensorflow(name):
    expected, got = GOLDENS[name], gradients(rg, name)
    if "error" in expected:
        assert got == expected, f"TensorFlow raises {expected['error']}; retrograd gave {got}"
        return
    assert "grads" in got, f"retrograd raised {got}; TensorFlow gave {expected['grads']}"
    for i, (e, g) in enumerate(zip(expected["grads"], got["grads"])):
        if e is None or g is None:
            assert e is g, f"input {i}: TensorFlow {e}, retrograd {g}"
            continue
        np.testing.assert_allclose(
            np.array(g), np.array(_array(e)), rtol=1e-12, atol=1e-12, err_msg=f"input {i}"
        )
