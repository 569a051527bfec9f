"""python -m retrograd trace / check: a script's backward passes as a page, a function's
gradients checked from the shell."""

from __future__ import annotations

import argparse
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


def test_a_script_failing_before_any_backward_pass_writes_nothing(files, capsys):
    page = files / "trace.html"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(page)]) == 1  # no argv[1]
    err = capsys.readouterr().err
    assert "IndexError" in err and "nothing traced" in err
    assert not page.exists()


def test_check_passes_and_fails_with_exit_status(files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    assert cli.main(["check", "functions:good", "[0.5, -2.0, 3.0]"]) == 0
    assert "ok: the gradients of 'good' match" in capsys.readouterr().out
    assert cli.main(["check", f"{files / 'functions.py'}:forgot_upstream", "--shapes", "4"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "FAILED: gradient of 'forgot_upstream' at order 1 is wrong for argument 0"
    )
    assert (
        "custom_gradient function 'forgot_upstream' (defined at " in out
        and "ignores its upstream gradient (dy): its result does not change when dy doubles" in out
    )
    # ... at a scalar point too, where a weight of 1 used to let it pass
    assert cli.main(["check", "functions:forgot_upstream", "1.5"]) == 1
    assert "ignores its upstream gradient (dy)" in capsys.readouterr().out
    assert cli.main(["check", "functions:product", "--shapes", "30,20", "20,10"]) == 0


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


# -- misuse: one line on stderr, exit status 2, nothing written ---------------------------
MISUSES = [
    (["check", "--order", "-1", "functions:good", "1.0"], "argument --order: invalid positive"),
    (["check", "--order", "0", "functions:good", "1.0"], "argument --order"),
    (["check", "--order", "99", "functions:good", "1.0"], "argument --order: at most 10"),
    (["check", "--order", "two", "functions:good", "1.0"], "argument --order"),
    (["check", "--modes", "bogus", "functions:good", "1.0"], "argument --modes: expected"),
    (["check", "--modes", "", "functions:good", "1.0"], "argument --modes"),
    (["check", "--atol", "nan", "functions:good", "1.0"], "argument --atol"),
    (["check", "--rtol", "-1", "functions:good", "1.0"], "argument --rtol"),
    (["check", "--seed", "x", "functions:good", "1.0"], "argument --seed"),
    (["check", "functions:good", "--shapes", "3,x"], "a shape is sizes separated by commas"),
    (["check", "functions:good", "--shapes", "-3"], "a shape is sizes"),
    (["check", "functions:good", "1.0", "--shapes", "3"], "not both"),
    (
        ["check", "functions:good", "not python"],
        "argument 1 ('not python') is not a Python literal",
    ),
    (["check", "functions:good", "x"], "argument 1 ('x') is not a Python literal"),
    (["check", "functions:good"], "'functions:good' takes 1 argument (x), got 0"),
    (["check", "functions:good", "1.0", "2.0"], "takes 1 argument (x), got 2"),
    (["check", "functions:product", "--shapes", "3"], "takes 2 arguments (a, b), got 1"),
    (["check", "functions:missing", "1.0"], "has no attribute 'missing'"),
    (["check", "no_colon", "1.0"], "expected MODULE:FUNCTION"),
    (["check", "no_such_module:f", "1.0"], "No module named 'no_such_module'"),
    (["check", "--bogus", "functions:good"], "unrecognized arguments: --bogus"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "the following arguments are required: COMMAND"),
    (["trace", "missing.py"], "the script 'missing.py' does not exist"),
    (["trace", "script.py", "-o", "out.png"], "cannot tell the format of 'out.png'"),
    (["trace", "script.py", "-o", "out"], "suffix '(none)'"),
    (["trace", "script.py", "-o", "nowhere/out.html"], "does not exist"),
    (["trace", "script.py", "--max-ops", "-5"], "argument --max-ops"),
    (["run", "missing.py"], "the script 'missing.py' does not exist"),
]


@pytest.mark.parametrize("argv, message", MISUSES, ids=[" ".join(a) for a, _ in MISUSES])
def test_misuse_is_one_line_and_status_2(files, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(files)
    before = sorted(p.name for p in files.iterdir())
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("retrograd") and "error: " in lines[0]
    assert message in lines[0]
    assert sorted(p.name for p in files.iterdir()) == before  # no file written


def test_trace_of_a_missing_script_keeps_the_previous_page(files, capsys):
    page = files / "trace.html"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(page), "--", "2"]) == 0
    previous = page.read_text(encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["trace", str(files / "missing.py"), "-o", str(page)]) == 2
    assert "trace written" not in capsys.readouterr().out
    assert page.read_text(encoding="utf-8") == previous


def test_trace_writes_text_for_txt(files, capsys):
    out = files / "trace.txt"
    assert cli.main(["trace", str(files / "script.py"), "-o", str(out), "--", "2"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("step  op") and "custom      foo" in text


def test_every_option_has_help():
    parser = cli.build_parser()
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)][0]
    for name, sub in [("retrograd", parser), *subparsers.choices.items()]:
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, f"{name}: {action.option_strings or action.dest} has no help"


def test_version(capsys):
    from retrograd import __version__

    with pytest.raises(SystemExit) as raised:
        cli.main(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out == f"retrograd {__version__}\n"


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`retrograd run loud.py | head -1`: the reader leaves early; no BrokenPipeError."""
    script = tmp_path / "loud.py"
    script.write_text("for i in range(10**6):\n    print('line', i)\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "retrograd", "run", str(script)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait(timeout=120)
    process.stderr.close()
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
    assert process.returncode in (0, 141)


def test_check_shows_progress_on_request(files, monkeypatch, capsys):
    monkeypatch.chdir(files)
    assert cli.main(["check", "functions:good", "[0.5, 2.0]", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "check_gradients('good'):  1/12 [" in err and "12/12" in err
    assert "order 2, forward mode, argument 0, unit direction e(1,)" in err


def test_a_function_that_raises_fails_the_check_in_one_line(files, monkeypatch, capsys):
    (files / "broken.py").write_text("def f(x):\n    raise RuntimeError('boom\\nsecond line')\n")
    (files / "import_fails.py").write_text("raise RuntimeError('at import')\n")
    monkeypatch.chdir(files)
    assert cli.main(["check", "broken:f", "1.0"]) == 1
    out = capsys.readouterr().out
    assert out == "FAILED: checking 'broken:f' raised RuntimeError: boom second line\n"
    assert cli.main(["check", "import_fails:f", "1.0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RuntimeError: at import" in err


def test_run_serves_tensorflow_autograph_imports(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(
        "import tensorflow as tf\n"
        "from tensorflow.autograph.experimental import do_not_convert\n"
        "@tf.function\n"
        "def f(x):\n"
        "    if x > 0:\n"
        "        y = x * 2.0\n"
        "    else:\n"
        "        y = -x\n"
        "    return y\n"
        "print(f(tf.constant(3.0)).numpy(), f(tf.constant(-2.0)).numpy(), callable(do_not_convert))\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "retrograd", "run", str(script)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "6.0 2.0 True\n"  # TensorFlow 2.21 prints the same
