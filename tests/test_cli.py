"""python -m retrograd trace / check: a script's backward passes as a page, a function's
gradients checked from the shell."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from retrograd import cli

SCRIPT = """
import sys
import retrograd as tf

@tf.custom_gradient
def foo(x):
    return x ** 2, lambda upstream: 2 * x * upstream

x = tf.constant(float(sys.argv[1]))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = foo(foo(foo(x)))
print("gradient", tape.gradient(y, x).numpy())
"""

FUNCTIONS = """
import retrograd as tf

@tf.custom_gradient
def good(x):
    e = tf.exp(x)
    return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

@tf.custom_gradient
def forgot_upstream(x):
    return x * x, lambda dy: 2 * x

def product(a, b):
    return tf.matmul(a, b)
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "script.py").write_text(textwrap.dedent(SCRIPT))
    (tmp_path / "functions.py").write_text(textwrap.dedent(FUNCTIONS))
    return tmp_path


def test_trace_runs_a_script_and_writes_its_page(files, capsys):
    page = files / "trace.html"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(page), "--", "2"]) == 0
    out = capsys.readouterr().out
    assert "gradient 1024.0" in out
    assert "3     foo  2.0   256.0     4.0    1024.0" in out
    assert "custom      foo" in out and f"trace written to {page}" in out
    assert "<svg" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix, start", [(".dot", "digraph trace {"), (".svg", "<")])
def test_trace_writes_dot_and_svg_by_extension(files, capsys, suffix, start):
    out = files / f"trace{suffix}"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(out), "--", "2"]) == 0
    assert out.read_text(encoding="utf-8").lstrip().startswith(start)


def test_a_failing_script_still_gets_its_trace(files, capsys):
    page = files / "trace.html"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(page)]) == 1  # no argv[1]
    assert "IndexError" in capsys.readouterr().err
    assert page.exists()


def test_check_passes_and_fails_with_exit_status(files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    assert cli.main(["check", "functions:good", "[0.5, -2.0, 3.0]"]) == 0
    assert "ok: the gradients of 'good' match" in capsys.readouterr().out
    assert cli.main(["check", f"{files / 'functions.py'}:forgot_upstream", "--shapes", "4"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "FAILED: gradient of 'forgot_upstream' at order 1 is wrong for argument 0"
    )
    assert cli.main(["check", "functions:product", "--shapes", "30,20", "20,10"]) == 0


def test_check_reports_what_cannot_be_loaded(files, monkeypatch, capsys):
    monkeypatch.chdir(files)
    with pytest.raises(SystemExit) as raised:
        cli.main(["check", "functions:missing", "1.0"])
    assert raised.value.code == 2
    assert "has no attribute 'missing'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["check", "no_colon", "1.0"])


def test_the_module_entry_point(files):
    done = subprocess.run(
        [sys.executable, "-m", "retrograd", "check", "functions:good", "1.5"],
        capture_output=True, text=True, timeout=120, cwd=files,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok:")


def test_run_answers_import_tensorflow_with_retrograd(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(
        "import sys\n"
        "import tensorflow as tf\n"
        "from tensorflow import math as tfm\n"
        "x = tf.constant(3.0)\n"
        "with tf.GradientTape() as tape:\n"
        "    tape.watch(x)\n"
        "    y = tfm.square(x)\n"
        "print(tape.gradient(y, x).numpy(), sys.argv[1:])\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "retrograd", "run", str(script), "a", "--flag"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "6.0 ['a', '--flag']\n"


def test_run_says_plainly_which_tensorflow_module_is_missing(tmp_path):
    script = tmp_path / "program.py"
    script.write_text("import tensorflow.contrib\n")
    result = subprocess.run(
        [sys.executable, "-m", "retrograd", "run", str(script)], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "retrograd does not implement the module 'tensorflow.contrib'" in result.stderr
