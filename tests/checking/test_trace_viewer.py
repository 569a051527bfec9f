"""The trace page in headless Chromium: a two-layer MLP over three steps and a 50-op
custom-gradient chain, drawn with Graphviz and with the built-in layout.

The page opened with ``#selfcheck`` measures every view as drawn (nodes and edges against
its caption's counts, texts overlapping other nodes' texts, text outside its box, the
smallest text on screen); screenshots are decoded and checked to show a drawing. They are
kept under the test's temporary folder (and copied to ``$RETROGRAD_SCREENSHOTS`` when set),
and their paths are recorded as test properties.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import zlib

import numpy as np
import pytest

import retrograd as tf
from retrograd.checking.tracing import graph


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


pytestmark = pytest.mark.skipif(
    _browser() is None,
    reason="no Chromium here (.ci/run installs Debian's chromium where apt-get can reach it)",
)


def _chromium(tmp_path, url, *options):
    command = [
        _browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr",
        "--v=0", "--hide-scrollbars", "--window-size=1200,800", *options, url,
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console  # the page logs nothing: any line is an error
    return done.stdout


def _png_pixels(path):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA or RGB PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0
    channels = 4 if color == 6 else 3
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    previous = np.zeros(stride, np.uint8)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:]
        if kind == 0:
            row = line.copy()
        elif kind == 2:  # up
            row = line + previous
        elif kind == 1:  # sub: a running sum per channel
            row = np.cumsum(line.reshape(width, channels), axis=0, dtype=np.uint64)
            row = (row & 255).astype(np.uint8).reshape(stride)
        else:  # average or Paeth: byte by byte
            row, up = bytearray(line.tobytes()), previous.tobytes()
            for i in range(stride):
                a = row[i - channels] if i >= channels else 0
                b = up[i]
                if kind == 3:
                    row[i] = (row[i] + (a + b) // 2) & 255
                    continue
                c = up[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            row = np.frombuffer(bytes(row), np.uint8)
        out[y] = previous = row
    return out.reshape(height, width, channels)[:, :, :3]


def _check_screenshot(png, record_property):
    kept = os.environ.get("RETROGRAD_SCREENSHOTS")
    if kept:
        os.makedirs(kept, exist_ok=True)
        shutil.copy(png, os.path.join(kept, png.name))
    record_property(f"screenshot {png.stem}", str(png))
    pixels = _png_pixels(png)
    # The graph's canvas is the left of the window, under the controls.
    canvas = pixels[200:700, 10:750]
    ink = np.any(canvas < 235, axis=2).mean()
    colours = len(np.unique(canvas.reshape(-1, 3) // 16, axis=0))
    assert ink > 0.01 and colours >= 6, f"{png} looks blank: {ink:.3%} ink, {colours} colours"


def mlp_three_steps():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((4, 3)), dtype=tf.float32)
    y = tf.constant(rng.standard_normal((4, 2)), dtype=tf.float32)
    w1 = tf.Variable(rng.standard_normal((3, 5)).astype("float32"), name="dense1/kernel")
    b1 = tf.Variable(np.zeros(5, "float32"), name="dense1/bias")
    w2 = tf.Variable(rng.standard_normal((5, 2)).astype("float32"), name="dense2/kernel")
    b2 = tf.Variable(np.zeros(2, "float32"), name="dense2/bias")
    params = [w1, b1, w2, b2]
    opt = tf.keras.optimizers.SGD(0.1)
    with tf.trace() as tr:
        for _ in range(3):
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, w1, name="dense1/matmul") + b1)
                out = tf.matmul(h, w2, name="dense2/matmul") + b2
                loss = tf.reduce_mean(tf.square(out - y))
            opt.apply_gradients(zip(tape.gradient(loss, params), params))
    return tr


@tf.custom_gradient
def smooth_step(x):
    """Five ops forward, one custom rule back."""
    s = tf.sigmoid(x, name="step/sigmoid")
    y = tf.multiply(s, s, name="step/square")
    y = tf.add(y, x, name="step/add")
    y = tf.multiply(y, 0.5, name="step/half")
    y = tf.tanh(y, name="step/tanh")

    def grad(upstream):
        return upstream * 0.5

    return y, grad


def custom_chain():
    x = tf.constant([0.5, -1.0, 2.0])
    with tf.trace() as tr:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(10):  # 10 calls x 5 ops = 50 ops inside custom-gradient functions
                y = smooth_step(y)
            loss = tf.reduce_sum(y)
        tape.gradient(loss, x)
    return tr


def keras_function_step():
    """A Keras model trained by a @tf.function step: the function's graph is a view."""
    model = tf.keras.Sequential(
        [tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="d1"), tf.keras.layers.Dense(1)]
    )
    opt = tf.keras.optimizers.SGD(0.1)
    x, y = tf.ones((8, 3)), tf.zeros((8, 1))

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    with tf.trace() as tr:
        for _ in range(3):
            step(x, y)
    return tr


PROGRAMS = {"mlp": mlp_three_steps, "chain": custom_chain, "step": keras_function_step}


@pytest.fixture(params=["graphviz", "builtin"])
def layout(request, monkeypatch):
    if request.param == "graphviz":
        if shutil.which("dot") is None:
            pytest.skip("Graphviz's dot is not installed")
    else:
        monkeypatch.setattr(graph, "graphviz", lambda: None)
    return request.param


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_every_view_is_legible_and_counts_what_it_draws(tmp_path, program, layout, record_property):
    tr = PROGRAMS[program]()
    page = tmp_path / "trace.html"
    tr.to_html(page)
    # One run: measure every view, then show the first (collapsed with the built-in layout,
    # so that the screenshots cover both states) and take its picture.
    png = tmp_path / f"{program}-{layout}{'-collapsed' if layout == 'builtin' else ''}.png"
    fragment = "#selfcheck" + (",collapse" if layout == "builtin" else "")
    dom = _chromium(tmp_path, f"file://{page}{fragment}", "--dump-dom", f"--screenshot={png}")
    assert 'data-ready="true"' in dom  # the script ran to its end
    checks = json.loads(re.search(r'<pre class="rg-selfcheck">([^<]*)</pre>', dom).group(1))
    views = {
        "mlp": ["p1", "p2", "p3", "all"],
        "chain": ["p1", "all"],
        "step": ["p1", "p2", "f0", "all"],  # tracing pass, the function's gradient, its graph
    }[program]
    panel = checks.pop("panel")  # the details panel, showing a node, fits the page
    assert panel["right"] <= panel["page"] and panel["width"] >= 240 and not panel["cut"], panel
    assert sorted(checks) == sorted(f"{v}-{c}" for v in views for c in "ec")
    for key, seen in checks.items():
        assert seen["nodes"] == seen["caption_nodes"] > 0, (key, seen)
        assert seen["edges"] == seen["caption_edges"], (key, seen)
        assert seen["overlapping_texts"] == 0, (key, seen)
        assert seen["texts_outside_nodes"] == 0, (key, seen)
        assert seen["smallest_text_px"] >= 8, (key, seen)  # readable as first shown
        assert seen["fit_smallest_text_px"] >= 8, (key, seen)  # and after "fit"
    if program == "step":
        assert checks["f0-c"]["nodes"] < checks["f0-e"]["nodes"]  # layers collapse
    elif program == "mlp":  # one pass: 8 ops (2 matmuls, 2 adds, relu, sub, square, mean)
        assert checks["p1-e"]["nodes"] == 8 + 4 + 2 + 1  # + 4 variables, 2 inputs, 1 output
        assert checks["p1-c"]["nodes"] < checks["p1-e"]["nodes"]  # dense1/, dense2/ collapsed
    else:
        assert checks["p1-c"]["nodes"] == 10 + 1 + 1 + 1  # 10 calls, the sum, input, output
        assert checks["p1-e"]["nodes"] == 10 + 50 + 3 + 10  # and a constant 0.5 per call
    _check_screenshot(png, record_property)


def test_deep_links_select_a_node_in_the_view_that_draws_it(tmp_path, monkeypatch):
    monkeypatch.setattr(graph, "graphviz", lambda: None)  # fast: no Graphviz runs
    tr = mlp_three_steps()
    page = tmp_path / "trace.html"
    tr.to_html(page)
    third = [r for r in tr.ops if r.op.type == "Relu" and not r.in_backward][2]
    dom = _chromium(tmp_path, f"file://{page}#node=n{third.index}", "--dump-dom")
    selected = re.findall(r'<g id="([^"]+)" class="[^"]*rg-selected', dom)
    assert len(selected) == 1 and selected[0].endswith(f"-p3-e-n{third.index}")
    details = dom.split('class="rg-details"')[1].split("</div>")[0]
    assert f"<td>n{third.index}</td>" in details and "Gradient records" in details


def test_the_details_panel_fits_a_narrow_window(tmp_path, monkeypatch):
    monkeypatch.setattr(graph, "graphviz", lambda: None)
    page = tmp_path / "trace.html"
    mlp_three_steps().to_html(page)
    dom = _chromium(tmp_path, f"file://{page}#selfcheck", "--dump-dom", "--window-size=640,900")
    checks = json.loads(re.search(r'<pre class="rg-selfcheck">([^<]*)</pre>', dom).group(1))
    panel = checks.pop("panel")  # wrapped under the picture, as wide as the page allows
    assert panel["right"] <= panel["page"] and not panel["cut"], panel
    assert all(seen["fit_smallest_text_px"] >= 8 for seen in checks.values()), checks
