"""Tensors in notebooks, and notebook cells named as people see them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import retrograd as tf
from retrograd.core import display


def test_a_tensor_in_a_notebook_shows_shape_dtype_and_values():
    view = tf.constant([[1.0, 2.0], [3.0, 4.0]])._repr_html_()
    assert "shape=(2, 2) dtype=float32" in view
    assert "<pre>[[1. 2.]\n [3. 4.]]</pre>" in view


def test_a_big_tensor_is_summarised_with_statistics():
    view = tf.constant(np.arange(100_000.0).reshape(100, 1000))._repr_html_()
    assert len(view) < 1000
    assert "..." in view and "min 0, max 1e+05, mean 5e+04" in view


def test_a_variable_shows_its_name_and_text_is_escaped():
    view = tf.Variable([1.0], name="w")._repr_html_()
    assert view.startswith('<div class="rg-value"><code>retrograd.Variable &#x27;w:0&#x27;')
    assert "&lt;" in display.value_html("<kind>", np.zeros(1))


def test_cells_of_a_session_are_named_by_their_number(monkeypatch):
    shell = types.SimpleNamespace(compile=types.SimpleNamespace(_filename_map={"/tmp/k/1.py": 7}))
    fake = types.SimpleNamespace(get_ipython=lambda: shell)
    monkeypatch.setitem(sys.modules, "IPython", fake)
    assert display.source_location("/tmp/k/1.py", 2) == "In [7], line 2"
    assert display.source_location("<ipython-input-3-0a1b2c>", 5) == "In [3], line 5"
    assert display.source_location("/home/me/x.py", 5) == "/home/me/x.py:5"


def test_a_rule_defined_in_an_ipython_cell_is_named_by_its_cell():
    pytest.importorskip("IPython")
    program = textwrap.dedent(
        """
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_cell("import retrograd as tf", store_history=True)
        shell.run_cell(
            "@tf.custom_gradient\\n"
            "def f(x):\\n"
            "    return x * x, lambda dy: dy * 2 * x\\n",
            store_history=True,
        )
        shell.run_cell(
            "x = tf.constant(3.0)\\n"
            "with tf.trace() as tr:\\n"
            "    with tf.GradientTape() as tape:\\n"
            "        tape.watch(x)\\n"
            "        y = f(x)\\n"
            "    tape.gradient(y, x)\\n",
            store_history=True,
        )
        record = shell.user_ns["tr"].forward_ops().__next__()
        print(record.created_at, "|", record.defined_at)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "In [3], line 5 | In [2], line 1"
