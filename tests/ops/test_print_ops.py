"""retrograd.print formats values as tf.print does (observed with TensorFlow 2.21)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import retrograd as rg


def printed(*values, **kwargs):
    stream = io.StringIO()
    rg.print(*values, output_stream=stream, **kwargs)
    return stream.getvalue()


@pytest.mark.parametrize(
    "value, text",
    [
        (rg.constant(0.045176655), "0.0451766551"),
        (rg.constant(2.0), "2"),
        (rg.constant(1e-5), "1e-05"),
        (rg.constant(123456789.0), "123456792"),
        (rg.constant(1 / 3, rg.float64), "0.33333333333333331"),
        (rg.constant(0.1, rg.float64), "0.1"),
        (rg.constant(0.1, rg.float16), "0.0999755859"),
        (rg.constant([0.1, 2.0]), "[0.1 2]"),
        (rg.constant([[1, 2], [3, 4]]), "[[1 2]\n [3 4]]"),
        (rg.constant(True), "1"),
        (rg.constant(np.nan), "nan"),
        (rg.constant(-np.inf), "-inf"),
        (rg.constant(1 + 2j), "?"),
        (rg.Variable(2.0), "2"),
        (None, "None"),
        ("text", "text"),
        (2.5, "2.5"),
        ({"a": rg.constant(1.0)}, "{'a': 1}"),
        ([rg.constant(1), 2], "[1, 2]"),
    ],
)
def test_values_print_like_tensorflow(value, text):
    assert printed(value) == text + "\n"


def test_long_dimensions_are_summarised():
    assert printed(rg.constant(np.arange(20))) == "[0 1 2 ... 17 18 19]\n"
    assert printed(rg.constant(np.arange(10)), summarize=2) == "[0 1 ... 8 9]\n"
    assert (
        printed(rg.constant(np.zeros((3, 2, 2), np.int32)))
        == "[[[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]]\n"
    )


def test_separators_streams_and_files(tmp_path, capsys):
    assert printed("a", "b", sep="|", end="!\n") == "a|b!\n"
    rg.print("to stderr")
    assert capsys.readouterr().err == "to stderr\n"
    target = tmp_path / "log.txt"
    rg.print(rg.constant(1.5), output_stream=f"file://{target}")
    assert target.read_text() == "1.5\n"
    with pytest.raises(ValueError, match="output_stream"):
        rg.print(1, output_stream="stdout")
