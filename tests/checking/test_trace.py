"""Backward traces: seed 000's table, the rules report, and the pictures (DOT, SVG, HTML)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import retrograd as tf
from retrograd.checking.tracing import graph
from retrograd.core.execute import context
from tests.test_seeds import log1pexp2

SEED_000_TABLE = """\
step  op   x     upstream  local  downstream
1     foo  16.0  1.0       32.0   32.0
2     foo  4.0   32.0      8.0    256.0
3     foo  2.0   256.0     4.0    1024.0"""


@tf.custom_gradient
def foo(x):
    tf.debugging.assert_rank(x, 0)

    def grad(dy_dx_upstream):
        dy_dx = 2 * x
        dy_dx_downstream = dy_dx * dy_dx_upstream
        return dy_dx_downstream

    y = x**2
    return y, grad


def seed_000_trace():
    x = tf.constant(2.0, dtype=tf.float32)
    with tf.trace() as tr:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = foo(foo(foo(x)))  # y = x ** 8
        assert tape.gradient(y, x).numpy() == 1024.0
    return tr


def test_the_trace_of_seed_000_is_the_seeds_table():
    tr = seed_000_trace()
    assert tr.table() == SEED_000_TABLE
    assert tr.table(custom_only=True) == SEED_000_TABLE
    rows = [(g.inputs[0], g.upstream[0], g.local[0], g.downstream[0]) for g in tr.gradients]
    assert np.array(rows).tolist() == [
        [16.0, 1.0, 32.0, 32.0],
        [4.0, 32.0, 8.0, 256.0],
        [2.0, 256.0, 4.0, 1024.0],
    ]
    assert [g.label for g in tr.gradients] == ["foo"] * 3 and tr.passes == 1


def test_the_trace_stops_observing_when_the_block_ends():
    seed_000_trace()
    assert context.observers == [] and context.backward_observers == []
    assert not context.recording


def test_registered_rules_show_local_derivatives_where_defined():
    x = tf.constant([1.0, -2.0])
    w = tf.constant([[1.0], [2.0]])
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.matmul(tf.reshape(tf.sin(x) * x, (1, 2)), w)
        tape.gradient(y, x)
    by_type = {g.op.type: g for g in tr.gradients}
    assert by_type["MatMul"].local == [None, None]  # not elementwise: no local derivative
    x0 = x.numpy()
    np.testing.assert_allclose(by_type["Sin"].local[0], np.cos(x0), rtol=1e-6)
    np.testing.assert_allclose(by_type["Mul"].local[0], x0, rtol=1e-6)  # d(s * x)/ds = x
    lines = tr.table().splitlines()
    assert lines[0].split() == ["step", "op", "x", "upstream", "local", "downstream"]
    assert lines[1].split() == [
        "1",
        "MatMul[0]",
        "[[0.841471",
        "1.81859481]]",
        "[[1]]",
        "-",
        "[[1",
        "2]]",
    ]
    assert lines[-1].split() == [
        "4",
        "Sin",
        "[1",
        "-2]",
        "[1",
        "-4]",
        "[0.540302277",
        "-0.416146815]",
        "[0.540302277",
        "1.66458726]",
    ]


def test_local_derivatives_are_found_where_the_upstream_gradient_is_zero():
    x = tf.constant([1.0, 2.0])
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.exp(x)
        tape.gradient(y, x, output_gradients=tf.constant([0.0, 1.0]))
    np.testing.assert_allclose(tr.gradients[0].local[0], np.exp([1.0, 2.0]), rtol=1e-6)


def test_big_tensors_are_summarised():
    x = tf.constant(np.arange(1000.0).reshape(10, 100))
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * 2.0)
        tape.gradient(y, x)
    text = tr.table()
    assert "float64[10,100] min=0 max=999 mean=499.5" in text
    assert max(len(line) for line in text.splitlines()) < 200


def test_several_passes_are_numbered():
    x = tf.constant(3.0)
    with tf.trace() as tr:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = foo(x)
        tape.gradient(y, x)
        tape.gradient(y, x)
    assert tr.passes == 2
    assert [row.split()[0] for row in tr.table().splitlines()[1:]] == ["1.1", "2.1"]
    assert tr.table(pass_index=2).splitlines()[1].split()[:2] == ["1", "foo"]


def test_higher_order_passes_see_the_rules_of_gradient_computations():
    x = tf.constant(1.0)
    with tf.trace() as tr:
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = log1pexp2(x)
            dy = inner.gradient(y, x)
        outer.gradient(dy, x)
    labels = [g.label for g in tr.gradients]
    assert labels[0] == "log1pexp2" and "first_order_custom" in labels
    assert tr.passes == 2
    second = [r for r in tr.ops if r.label == "first_order_custom"]
    assert second and all(r.in_backward for r in second)


def test_rules_report_names_fired_rules_and_bypassed_functions():
    @tf.custom_gradient
    def triple(x):
        return x * 3, lambda dy: dy * 3

    @tf.custom_gradient
    def outer(x):
        inner_value = triple(x)  # shadowed: outer's rule replaces it
        return inner_value * 2, lambda dy: dy * 6

    x, c = tf.constant(2.0), tf.constant(1.0)
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = foo(x) + outer(x)
            triple(x)  # recorded, never reached
            triple(c)  # nothing watched
        tape.gradient(y, x)
    report = tr.rules()
    fired = {(kind, name): calls for kind, name, calls, _ in report.fired}
    assert fired == {("registered", "AddV2"): 1, ("custom", "foo"): 1, ("custom", "outer"): 1}
    reasons = [(name, reason.split(":")[0]) for name, _, reason in report.bypassed]
    assert reasons == [
        (
            "triple",
            "it ran inside the forward of custom function 'outer', whose own rule gives the gradient instead",
        ),
        ("triple", "a tape recorded it, but no gradient passed through it"),
        ("triple", "no tape recorded it"),
    ]
    text = str(report)
    assert "defined at " + __file__ in text and "test_trace.py" in text
    assert "Custom-gradient functions that ran forward but whose rule never ran:" in text


def test_recording_stops_at_max_ops():
    x = tf.constant(1.0)
    with tf.trace(max_ops=5) as tr:
        for _ in range(10):
            x = x + 1.0
    assert len(tr.ops) == 5 and tr.truncated
    assert tr.table().endswith("(recording stopped after 5 ops)")


# --- pictures ----------------------------------------------------------------------------


def test_dot_shows_the_forward_graph_and_the_gradients_flowing_back():
    dot = seed_000_trace().to_dot()
    assert dot.startswith("digraph trace {") and dot.rstrip().endswith("}")
    assert dot.count('fillcolor="#ffd8a8"') == 3  # the three custom calls, highlighted
    assert dot.count("style=dashed") == 4  # three gradients flowing back, and the seed
    assert 'label="∇ 1024.0"' in dot and 'label="∇ 1.0"' in dot


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_renders_the_dot_text():
    svg = seed_000_trace().to_svg()
    assert "<svg" in svg and "foo" in svg and "1024.0" in svg


def test_without_graphviz_the_svg_comes_from_the_built_in_layout(monkeypatch):
    monkeypatch.setattr(graph.shutil, "which", lambda name: None)
    svg = seed_000_trace().to_svg()
    assert svg.startswith("<svg") and svg.count('class="rg-node rg-custom"') == 3
    assert svg.count('class="rg-edge rg-gradient"') == 4  # 3 into inputs, 1 seed from the output


def test_the_page_is_self_contained(tmp_path):
    path = tmp_path / "trace.html"
    page = seed_000_trace().to_html(path)
    assert path.read_text(encoding="utf-8") == page
    assert page.startswith("<!DOCTYPE html>")
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"]
    assert "<link" not in page and " src=" not in page and "@import" not in page
    assert "1024.0" in page and "<svg" in page


def test_jupyter_gets_html():
    tr = seed_000_trace()
    first, second = tr._repr_html_(), tr._repr_html_()
    assert "<svg" in first and "rg-table" in first
    ids = re.findall(r'class="rg-trace" id="([^"]+)"', first + second)
    assert len(set(ids)) == 2  # two outputs in one notebook do not share element ids


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(
    _browser() is None,
    reason="no Chromium here (.ci/run installs Debian's chromium where apt-get can reach it)",
)
def test_the_page_renders_in_headless_chromium_without_console_errors(tmp_path):
    tr = seed_000_trace()
    path = tmp_path / "trace.html"
    tr.to_html(path)
    first_foo = [r for r in tr.forward_ops() if r.label == "foo"][0]
    profile = tmp_path / "profile"
    command = [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        f"file://{path}#node=n{first_foo.index}",  # the page's deep link: as clicking the node
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console  # the page logs nothing: any line is an error
    assert 'data-ready="true"' in dom  # the script ran to its end
    assert dom.count('class="rg-node rg-custom') == 3
    details = dom.split('class="rg-details"')[1].split("</div>")[0]
    assert "Gradient records" in details
    assert "<td>2.0</td><td>256.0</td><td>4.0</td><td>1024.0</td>" in details


def test_names_cannot_break_the_pages_embedded_json(tmp_path):
    @tf.custom_gradient
    def f(x):
        return x * 2.0, lambda dy: dy * 2.0

    f.__name__ = f.__qualname__ = "<!--<script>alert(1)</script>&"
    x = tf.constant(1.0)
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.exp(f(x), name="</script><!--")
        tape.gradient(y, x)
    page = tr.to_html(tmp_path / "trace.html")
    data = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S).group(1)
    assert "<" not in data and ">" not in data and "&" not in data
    assert "\\u003c/script\\u003e\\u003c!--" in data  # the op's name, kept as data
    assert page.count("<script") == page.count("</script>")
