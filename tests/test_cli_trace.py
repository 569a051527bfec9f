"""retrograd trace runs what retrograd run runs, as carefully: TensorFlow scripts (eager,
TF1 with --tf1, a @tf.function training step), the script's exit status, output paths fixed
before the script runs, nothing written when it fails before any backward pass, threads it
starts; and run's tracebacks start at the user's line."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from retrograd import cli


def _script(tmp_path, text, name="program.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


EAGER = """
import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.sin(x) * x)
print("gradient", tape.gradient(y, x).numpy())
"""


def test_trace_answers_import_tensorflow_as_run_does(tmp_path, capsys):
    page = tmp_path / "trace.html"
    assert cli.main(["trace", str(_script(tmp_path, EAGER)), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    assert "gradient [" in out and "Backward passes: 1" in out
    assert "Sin" in out and page.exists()


def test_trace_tf1_graphs_show_shapes_marked_symbolic(tmp_path, capsys):
    script = _script(
        tmp_path,
        """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable([[1.0], [2.0]])
        g = tf.gradients(tf.reduce_sum(tf.matmul(x, w) ** 2), [w])[0]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            print(s.run(g, {x: [[1.0, 2.0]]}).tolist())
        """,
    )
    page = tmp_path / "trace.html"
    assert cli.main(["trace", "--tf1", str(script), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    assert "[[10.0], [20.0]]" in out
    assert "float32[?,1] symbolic" in out and "TensorMeta" not in out
    assert "Backward pass 1: built in a graph (tf.gradients, TensorFlow 1): symbolic" in out
    assert "TensorMeta" not in page.read_text(encoding="utf-8")


STEP = """
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="d1"),
                             tf.keras.layers.Dense(1, name="d2")], name="net")
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(np.linspace(-1.0, 1.0, 24).reshape(8, 3), tf.float32)
y = tf.ones((8, 1))

@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

for _ in range(3):
    step(x, y)
"""


def test_a_tf_function_training_step_is_drawn_from_its_graph(tmp_path, capsys):
    page = tmp_path / "trace.html"
    assert cli.main(["trace", str(_script(tmp_path, STEP)), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    assert (
        "Backward pass 1: made while tracing function 'step': symbolic (shapes, no values)" in out
    )
    assert "Function 'step': 3 compiled runs, each recorded as one op" in out
    assert "TensorMeta" not in out
    text = page.read_text(encoding="utf-8")
    assert "function &#x27;step&#x27;: its graph as traced" in text
    assert "function &#x27;step&#x27; as traced: " in text and "backward)" in text
    assert "net/d1/kernel" in text  # weights by layer path
    assert "TensorMeta" not in text


def test_the_exit_status_is_kept_and_the_output_resolved_before_the_script_runs(
    tmp_path, capsys, monkeypatch
):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = _script(
        tmp_path,
        f"""
        import os, sys
        import tensorflow as tf
        x = tf.constant(2.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        tape.gradient(y, x)
        os.chdir({str(elsewhere)!r})
        sys.exit(3)
        """,
    )
    monkeypatch.chdir(tmp_path)
    assert cli.main(["trace", str(script), "-o", "trace.html"]) == 3
    assert (tmp_path / "trace.html").exists() and not (elsewhere / "trace.html").exists()
    assert f"trace written to {tmp_path / 'trace.html'}" in capsys.readouterr().out


def test_nothing_is_written_when_the_script_fails_before_any_backward_pass(tmp_path, capsys):
    page = tmp_path / "trace.html"
    script = _script(
        tmp_path, "import tensorflow as tf\nx = tf.constant(1.0) * 2\nraise KeyError('early')\n"
    )
    assert cli.main(["trace", str(script), "-o", str(page)]) == 1
    err = capsys.readouterr().err
    assert "KeyError: 'early'" in err and "failed before any backward pass" in err
    assert not page.exists()
    # ... and a script failing after one gets its trace (up to the failure)
    late = _script(tmp_path, EAGER + "raise KeyError('late')\n", "late.py")
    assert cli.main(["trace", str(late), "-o", str(page)]) == 1
    assert page.exists()


def test_ops_of_threads_the_script_starts_are_recorded_and_named(tmp_path, capsys):
    script = _script(
        tmp_path,
        """
        import threading
        import tensorflow as tf

        def work():
            x = tf.constant(2.0)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.tanh(x)
            tape.gradient(y, x)

        thread = threading.Thread(target=work, name="worker")
        thread.start()
        thread.join()
        """,
    )
    page = tmp_path / "trace.html"
    assert cli.main(["trace", str(script), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Backward passes: 1" in out and "Tanh" in out
    assert "Recorded from threads the program started, beside its own: worker (" in out


def test_the_terminal_table_fits_the_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    script = _script(
        tmp_path,
        """
        import tensorflow as tf
        x = tf.random.normal([40, 30])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.matmul(x, x, transpose_b=True))
        tape.gradient(y, x)
        """,
    )
    assert cli.main(["trace", str(script), "-o", str(tmp_path / "t.html")]) == 0
    lines = capsys.readouterr().out.split("Backward passes: 1")[1].split("Rules fired")[0]
    table = [line for line in lines.splitlines() if line.strip()][1:]
    assert table and all(len(line) <= 72 for line in table), table
    assert any("…" in line for line in table)  # values summarised to fit


def test_run_tracebacks_start_at_the_users_line(tmp_path):
    script = _script(
        tmp_path, "import tensorflow as tf\n\ndef f():\n    return tf.constant(1.0).nope\n\nf()\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "retrograd", "run", str(script)], capture_output=True, text=True
    )
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{script}", line 6, in <module>', done.stderr
    assert "runpy" not in done.stderr and "cli.py" not in done.stderr
    assert lines[-1].startswith("AttributeError")
