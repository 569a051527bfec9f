"""TF1's ``tf.Print`` shows tensors as TensorFlow 1 does (``[[1 2][3...]...]``: nested
brackets, the first ``summarize`` elements, ``...`` for the rest), in graphs and eagerly;
each case compared with what real TensorFlow wrote to stderr (data/print_goldens.json, made
by data/make_print_goldens.py). ``tf.Assert`` shows its data the same way."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf
from tests.compat.data.print_cases import CASES

GOLDENS = json.loads((pathlib.Path(__file__).parent / "data" / "print_goldens.json").read_text())


def test_every_case_has_a_golden():
    assert sorted(GOLDENS) == sorted(CASES)


def _tensors(name):
    data, summarize = CASES[name]
    tensors = [rg.constant(np.array(value, dtype=dtype)) for value, dtype in data]
    return tensors, ({} if summarize is None else {"summarize": summarize})


@pytest.mark.parametrize("name", sorted(CASES))
def test_print_in_a_graph_writes_what_tensorflow_1_wrote(name, capsys):
    g = rg.Graph()
    with g.as_default():
        tensors, kwargs = _tensors(name)
        op = tf.Print(rg.constant(0), tensors, "value: ", **kwargs)
    with tf.Session(graph=g) as sess:
        sess.run(op)
    assert capsys.readouterr().err == GOLDENS[name] + "\n"


@pytest.mark.parametrize("name", ["matrix", "several", "vector_none"])
def test_print_eagerly_writes_the_same(name, capsys):
    tensors, kwargs = _tensors(name)
    tf.Print(rg.constant(0), tensors, "value: ", **kwargs)
    assert capsys.readouterr().err == GOLDENS[name] + "\n"


def test_assert_shows_its_data_as_print_does():
    with pytest.raises(rg.errors.InvalidArgumentError) as caught:
        tf.Assert(rg.constant(False), [rg.constant([[1, 2], [3, 4]]), rg.constant(2.5)])
    assert "assertion failed: [[1 2][3...]...] [2.5]" in str(caught.value)  # (TF 2.21's text)
