"""The documentation site as the README says to read it: ``mkdocs build --strict``, then
``site/index.html`` opened from the file system, offline. Headless Chromium clicks through
the navigation, the API reference and search; every link of every page resolves to a file;
the reference shows ``tf.`` examples and readable types; the trace viewer's screenshot
(made by the build) is on the page that describes it.

Building the site takes a minute or two: it is built once for this module. Skipped where
MkDocs (``pip install -e '.[docs]'``) or Chromium is not installed (.ci/run installs both).
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cdp import Chromium, browser

pytest.importorskip("mkdocs", reason="the docs extras are not installed: pip install -e '.[docs]'")
pytestmark = pytest.mark.skipif(browser() is None, reason="no Chromium here")

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=1200,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    return out


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    driver = Chromium(str(tmp_path_factory.mktemp("profile")))
    yield driver
    driver.close()


def _click(chromium, selector):
    """Clicks the first element matching ``selector`` and waits for the next page."""
    before = chromium.js("location.href")
    found = chromium.js(f"!!document.querySelector({selector!r})")
    assert found, f"nothing matches {selector} on {before}"
    chromium.js(f"document.querySelector({selector!r}).click(); 1")
    chromium.wait(f"location.href !== {before!r} && document.readyState === 'complete'")


def _title(chromium):
    return (
        chromium.wait(
            "document.querySelector('article h1') && document.querySelector('article h1').textContent"
        )
        .rstrip("¶")
        .strip()
    )


def test_the_navigation_opens_pages_not_folders(site, chromium):
    chromium.open((site / "index.html").as_uri())
    assert _title(chromium) == "retrograd"
    _click(chromium, "nav a[href='checking-and-tracing.html']")
    assert chromium.js("location.pathname").endswith("/checking-and-tracing.html")
    assert _title(chromium) == "Checking and tracing"
    _click(chromium, "nav a[href='api/tf/math.html']")
    assert _title(chromium) == "tf.math"
    _click(chromium, "article a[href='math/sin.html']")  # from the namespace's table
    assert _title(chromium) == "tf.math.sin"
    assert "Also reachable as" in chromium.js("document.querySelector('article').textContent")
    _click(chromium, "nav a[href='../../../keras.html']")
    assert _title(chromium) == "Keras"


def test_search_finds_and_opens_a_page_offline(site, chromium):
    chromium.open((site / "index.html").as_uri())
    chromium.js(
        "var box = document.querySelector('.md-search__input'); box.focus();"
        "box.value = 'GradientTape'; box.dispatchEvent(new Event('input', {bubbles: true}));"
        "box.dispatchEvent(new KeyboardEvent('keyup', {key: 'e', bubbles: true})); 1"
    )
    chromium.wait("document.querySelectorAll('.md-search-result__item a').length > 0")
    first = chromium.js("document.querySelector('.md-search-result__item a').getAttribute('href')")
    assert first.endswith("api/tf/GradientTape.html"), first
    _click(chromium, ".md-search-result__item a")
    assert _title(chromium) == "tf.GradientTape"


def test_the_trace_viewer_is_shown_and_opens(site, chromium):
    chromium.open((site / "checking-and-tracing.html").as_uri())
    width = chromium.wait(
        "(document.querySelector('img[src$=\"trace-viewer.png\"]') || {}).naturalWidth"
    )
    assert width >= 800
    _click(chromium, "a[href$='trace-example.html']")
    assert chromium.wait("document.querySelector('.rg-trace[data-ready=true]') !== null")


def _pages(site):
    """The site's pages (404.html is a server's page, with links from the server's root)."""
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def test_every_link_of_every_page_resolves_to_a_file(site):
    missing = []
    for page in _pages(site):
        for href in re.findall(r'href="([^"#?]+)', page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", href):
                continue  # http:, https:, mailto:, data:
            target = (page.parent / html.unescape(href)).resolve()
            if not target.exists() or target.is_dir():
                missing.append(f"{page.relative_to(site)} -> {href}")
    assert not missing, missing[:20]


def test_the_reference_has_a_page_per_namespace_class_and_function(site):
    api = site / "api" / "tf"
    for page in ["math.html", "keras/layers.html", "compat/v1.html", "GradientTape.html",
                 "custom_gradient.html", "math/sin.html", "keras/layers/Dense.html"]:  # fmt: skip
        assert (api / page).is_file(), page
    assert len(list(api.rglob("*.html"))) > 400
    # retrograd's own names are marked
    assert "retrograd only" in (api / "check_gradients.html").read_text(encoding="utf-8")


def _text(tag_html):
    return html.unescape(re.sub(r"<[^>]+>", "", tag_html))


def test_examples_say_tf_and_types_read_as_written(site):
    for page in (site / "api").rglob("*.html"):
        for block in re.findall(r"<pre.*?</pre>", page.read_text(encoding="utf-8"), re.DOTALL):
            code = _text(block)
            assert "import retrograd as rg" not in code and not re.search(
                r"(?<![\w.])rg\.", code
            ), (
                page,
                code[:300],
            )
    constant = (site / "api" / "tf" / "constant.html").read_text(encoding="utf-8")
    signature = _text(re.search(r"doc-signature.*?</pre>", constant, re.DOTALL).group(0))
    assert "value: TensorLike" in signature and "dtype: DTypeLike | None = None" in signature
    assert "Union" not in signature
