"""Backward traces: seed 000's table, the rules report, and the pictures (DOT, SVG, HTML)."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

import retrograd as tf
from retrograd.autodiff.state import state as autodiff_state
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
    assert context.observers == [] and autodiff_state.backward_observers == []
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
    ]  # triple(c): no tape recorded it, so it is not reported as bypassed, only counted
    assert report.unrecorded == 1
    text = str(report)
    assert "defined at " + __file__ in text and "test_trace.py" in text
    assert "Custom-gradient functions that a tape recorded but whose rule never ran:" in text
    assert "(1 call of custom-gradient functions ran where no tape recorded" in text


def test_a_keras_model_built_on_zeros_does_not_count_as_bypassing_its_custom_rule():
    # Building Sequential([Input, Dense, CustomLayer, Dense]) runs the custom layer on zeros,
    # outside any tape; it used to be reported twice as "never ran" though its rule ran in
    # every pass.
    @tf.custom_gradient
    def clip_gradient(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)

    class Clip(tf.keras.layers.Layer):
        def call(self, x):
            return clip_gradient(x)

    with tf.trace() as tr:
        model = tf.keras.Sequential(
            [tf.keras.Input((3,)), tf.keras.layers.Dense(4), Clip(), tf.keras.layers.Dense(1)]
        )
        x = tf.ones((2, 3))
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x))
            tape.gradient(loss, model.trainable_variables)
    report = tr.rules()
    assert report.bypassed == [] and report.unrecorded == 2  # one per layer added
    assert ("custom", "clip_gradient") in {(kind, name) for kind, name, _, _ in report.fired}
    assert "Every custom-gradient function that a tape recorded had its rule called." in str(report)


def test_keras_layers_are_groups_and_weights_are_named_by_path():
    model = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(4, name="d1"),
            tf.keras.layers.Dense(1, name="d2"),
        ],
        name="net",
    )
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.ones((2, 3))))
        tape.gradient(loss, model.trainable_variables)
    forward = [r for r in tr.ops if r.op.type == "MatMul" and not r.in_backward]
    assert {r.scope for r in forward} == {"net/d1", "net/d2"}
    labels = {g.label for g in tr.gradients if g.op.type == "ReadVariableOp"}
    assert labels == {"net/d1/kernel", "net/d1/bias", "net/d2/kernel", "net/d2/bias"}
    expanded = tr.to_dot(1)
    assert 'label="net/d1/"' in expanded  # each layer a box (a Graphviz cluster)
    collapsed = graph.build(tr, 1, collapse=True)
    groups = sorted(n.label for n in collapsed.nodes if n.kind == "scope")
    assert groups == ["net/d1/", "net/d2/"]
    assert all(
        n.id.startswith("g") and n.id[1:].isdigit() for n in collapsed.nodes if n.kind == "scope"
    )


def test_recording_stops_at_max_ops():
    x = tf.constant(1.0)
    with tf.trace(max_ops=5) as tr:
        for _ in range(10):
            x = x + 1.0
    assert len(tr.ops) == 5 and tr.truncated
    assert tr.table().endswith("(recording stopped after 5 ops)")


# --- pictures ----------------------------------------------------------------------------


def test_dot_shows_the_forward_graph_marked_where_gradients_flowed_back():
    tr = seed_000_trace()
    dot = tr.to_dot(1)
    assert dot.startswith("digraph trace {") and dot.rstrip().endswith("}")
    assert "rankdir=TB" in dot  # top-down
    # Collapsed: the three custom calls, each one node; expanded, their forward ops inside.
    collapsed = tr.to_dot(1, collapse=True)
    assert collapsed.count('class="rg-node rg-custom"') == 3
    assert "subgraph cluster_" not in collapsed and "subgraph cluster_" in dot
    assert collapsed.count("style=dashed") == 4  # x→foo→foo→foo→output: gradients flowed back
    assert "∇ 1024.0" in collapsed and "∇ 1.0" in collapsed  # what x and the output received
    for r in tr.forward_ops():  # ids are shown, so #node=ID can be typed
        assert f"{r.label} (custom gradient)  n{r.index}" in collapsed


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_renders_the_dot_text():
    svg = seed_000_trace().to_svg(1)
    assert svg.startswith("<svg") and "foo" in svg and "1024.0" in svg
    assert 'class="node rg-node rg-custom"' in svg


def test_without_graphviz_the_svg_comes_from_the_built_in_layout(monkeypatch):
    monkeypatch.setattr(graph, "graphviz", lambda: None)
    svg = seed_000_trace().to_svg(1, collapse=True)
    assert svg.startswith("<svg") and svg.count('class="node rg-node rg-custom"') == 3
    assert svg.count('class="edge rg-edge"') == 4
    assert svg.count("stroke-dasharray") == 4  # every edge carried a gradient back


def test_variables_are_drawn_by_name_and_backward_ops_are_marked():
    v = tf.Variable([1.0, 2.0], name="weights")
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            first, _ = tf.unstack(v * 3.0)  # the second output gets zeros made by the walk
        tape.gradient(first, v)
    view = graph.build(tr, 1)
    labels = {n.label: n.kind for n in view.nodes}
    assert labels["weights"] == "variable" and "ReadVariableOp" not in labels
    assert "weights" in tr.table() and "ReadVariableOp" not in tr.table()
    made_by_walk = [r for r in tr.ops if r.op.type == "ZerosLike"]
    assert made_by_walk and all(r.in_backward for r in made_by_walk)
    assert all(n.kind != "op" or not n.record.in_backward for n in view.nodes)


def test_a_view_per_pass_and_counts_that_match_the_drawing():
    x = tf.constant([1.0, 2.0])
    with tf.trace() as tr:
        for scale in (2.0, 3.0):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(tf.exp(x) * scale)
            tape.gradient(y, x)
    first, both = graph.build(tr, 1), graph.build(tr, None)
    assert [n.record.op.type for n in first.nodes if n.record] == ["Exp", "Mul", "Sum"]
    assert len([n for n in both.nodes if n.record]) == 6
    counts = first.counts()
    assert counts == {"source": 2, "op": 3, "output": 1, "edges": 5, "gradient edges": 4}
    assert first.caption() == (
        "pass 1: 3 ops, 2 inputs, 1 output, 5 edges (4 carried gradients back) drawn"
    )


def test_name_scopes_collapse_into_one_node():
    x = tf.constant([1.0, 2.0])
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.exp(x, name="layer/exp")
            h = tf.multiply(h, 2.0, name="layer/scale")
            y = tf.reduce_sum(h)
        tape.gradient(y, x)
    view = graph.build(tr, 1, collapse=True)
    scopes = [n for n in view.nodes if n.kind == "scope"]
    assert [(n.label, n.lines) for n in scopes] == [("layer/", ["2 ops (name scope)"])]
    assert len([n for n in graph.build(tr, 1).nodes if n.kind == "op"]) == 3


def test_the_page_is_self_contained(tmp_path):
    path = tmp_path / "trace.html"
    page = seed_000_trace().to_html(path)
    assert path.read_text(encoding="utf-8") == page
    assert page.startswith("<!DOCTYPE html>")
    urls = set(re.findall(r"https?://[^\"' ]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert "<link" not in page and " src=" not in page and "@import" not in page
    assert "1024.0" in page and "<svg" in page
    assert '<table class="rg-grid">' in page  # the table as a monospace grid


def test_names_cannot_break_out_of_the_embedded_data():
    x = tf.constant(1.0)
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.exp(x, name="a</script><!--")
        tape.gradient(y, x)
    page = tr.to_html()
    data = page.split('-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data


def test_notebooks_get_html_with_an_svg_fallback():
    tr = seed_000_trace()
    first, second = tr._repr_html_(), tr._repr_html_()
    assert "<svg" in first and "rg-grid" in first
    ids = re.findall(r'class="rg-trace" id="([^"]+)"', first + second)
    assert len(set(ids)) == 2  # two outputs in one notebook do not share element ids
    bundle = tr._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/svg+xml", "text/plain"}
    assert bundle["image/svg+xml"].startswith("<svg") and bundle["text/plain"] == repr(tr)
    width = re.search(r'<svg[^>]* width="([0-9.]+)pt"', bundle["image/svg+xml"])
    assert width and float(width.group(1)) < 1200  # drawn at its size, not squeezed to a cell


def test_ops_of_a_second_order_pass_are_marked_as_made_by_the_first():
    x = tf.constant(2.0)
    with tf.trace() as tr:
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.sin(x) * x
            dy = inner.gradient(y, x)
        outer.gradient(dy, x)
    first, second = graph.build(tr, 1), graph.build(tr, 2)
    assert {n.kind for n in first.nodes if n.record} == {"op"}
    made = [n.record.op.type for n in second.nodes if n.kind == "backward"]
    assert sorted(made) == ["AddN", "Cos", "Mul", "Mul", "Mul"]
    assert 'class="rg-node rg-backward"' in tr.to_dot(
        2
    ) and 'style="rounded,filled,dashed"' in tr.to_dot(2)


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


@pytest.mark.parametrize("dot", [True, False], ids=["graphviz", "builtin"])
def test_user_names_never_reach_markup_unescaped(monkeypatch, dot):
    # A layer, a variable and a function named with markup: every SVG on the page parses as
    # XML, no id carries user text, and the names appear only escaped.
    import xml.etree.ElementTree as ElementTree

    if dot and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    if not dot:
        monkeypatch.setattr(graph, "graphviz", lambda: None)
    evil = '<img src=x onerror="alert(1)">&'

    class Evil(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

    layer = Evil(name=evil)
    v = tf.Variable([1.0, 2.0], name=evil)
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(tf.ones((2, 2))) * v)
        tape.gradient(loss, [v, *layer.trainable_variables])
    page = tr.to_html()
    assert evil not in page and "<img" not in page
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.DOTALL)
    assert len(svgs) >= 2
    for svg in svgs:
        root = ElementTree.fromstring(svg)  # well-formed: every attribute value escaped
        for element in root.iter():
            assert "img" not in element.get("id", "") and "<" not in element.get("id", "")
