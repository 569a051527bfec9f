"""MkDocs hook: the trace viewer in the docs, made by the build from a real trace.

A small program (a Keras model whose hidden layer clips its gradient with a custom rule,
trained for two steps) runs under ``retrograd.trace()``; its page is added to the site as
``assets/trace-example.html`` (the viewer itself, working offline), and headless Chromium
takes a screenshot of it, ``assets/trace-viewer.png``, with the custom rule's node selected.
The marker ``<!-- trace viewer screenshot -->`` in a page becomes that picture and a link
to the page. Where no Chromium is installed the marker becomes the link alone, and the
build says so; .ci/run installs Debian's chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- trace viewer screenshot -->"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_made: dict[str, bool] = {}


def example_trace() -> Any:
    """The program the docs show: two steps of a Keras model with a clipped gradient."""
    sys.path.insert(0, str(ROOT / "src"))
    import numpy as np

    import retrograd as tf

    @tf.custom_gradient
    def clip_gradient(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.1, 0.1)

    class ClipGradient(tf.keras.layers.Layer):
        def call(self, x):
            return clip_gradient(x)

    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(4, activation="tanh", name="hidden"),
            ClipGradient(name="clip"),
            tf.keras.layers.Dense(1, name="out"),
        ],
        name="model",
    )
    opt = tf.keras.optimizers.SGD(0.1)
    x = tf.constant(np.linspace(-1.0, 1.0, 12).reshape(4, 3), tf.float32)
    y = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    with tf.trace() as tr:
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
    return tr


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _screenshot(page: Path, png: Path, fragment: str) -> bool:
    browser = _browser()
    if browser is None:
        return False
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        f"--user-data-dir={png.parent / 'profile'}", "--window-size=1200,760",
        f"--screenshot={png}", f"file://{page}{fragment}",
    ]  # fmt: skip
    try:
        subprocess.run(command, capture_output=True, timeout=120, check=True,
                       env={**os.environ, "HOME": str(png.parent)})  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return png.is_file() and png.stat().st_size > 0


def on_files(files: Files, config: Any) -> Files:
    tr = example_trace()
    html = tr.to_html()
    custom = [r for r in tr.ops if r.custom and not r.in_backward and r.gradients]
    fragment = f"#node=n{custom[0].index}" if custom else ""
    files.append(File.generated(config, "assets/trace-example.html", content=html))
    with tempfile.TemporaryDirectory() as folder:
        page, png = Path(folder) / "trace.html", Path(folder) / "trace-viewer.png"
        page.write_text(html, encoding="utf-8")
        _made["png"] = _screenshot(page, png, fragment)
        if _made["png"]:
            files.append(
                File.generated(config, "assets/trace-viewer.png", content=png.read_bytes())
            )
        else:
            print("docs: no Chromium found: the trace viewer's screenshot is left out")
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if MARKER not in markdown:
        return markdown
    depth = page.file.src_uri.count("/")
    assets = "../" * depth + "assets"
    link = f"[Open this trace page]({assets}/trace-example.html) (it works offline)."
    if _made.get("png"):
        picture = (
            f"![The trace viewer: pass 1 of a Keras model whose layer 'clip' clips its "
            f"gradient with a custom rule, the rule's node selected]({assets}/trace-viewer.png)"
        )
        return markdown.replace(MARKER, f"{picture}\n\n{link}")
    return markdown.replace(MARKER, link)
