"""The documentation site: every page is in the navigation, and every Python example on
it runs on its own and prints what the page says (tests/markdown_examples.py). The site
itself is built with ``mkdocs build --strict`` in CI (.ci/run), not here: it takes seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.markdown_examples import blocks, run_block

ROOT = Path(__file__).parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
EXAMPLES = [
    (page, code, shown) for page in PAGES for code, shown in blocks(page)
]  # fmt: skip


def test_every_page_is_in_the_navigation():
    # mkdocs.yml lists the guides; the API reference's section is added by its hook, which
    # names the one written page under api/.
    config = (ROOT / "mkdocs.yml").read_text()
    hook = (ROOT / "docs" / "hooks" / "api_pages.py").read_text()
    for page in PAGES:
        name = page.relative_to(ROOT / "docs").as_posix()
        listed = f": {name}\n" in config or (name.startswith("api/") and f'"{name}"' in hook)
        assert listed, page


def test_the_guides_have_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(
    "page, code, shown",
    EXAMPLES,
    ids=[f"{p.relative_to(ROOT).as_posix()}-{k}" for k, (p, _, _) in enumerate(EXAMPLES)],
)
def test_example_runs_alone_and_prints_what_it_promises(page, code, shown):
    run_block(code, shown, str(page.relative_to(ROOT)))


def test_doctest_sessions_in_docstrings_become_code_in_the_reference():
    pytest.importorskip("griffe")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "doctest_fences", ROOT / "docs" / "extensions" / "doctest_fences.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Adds.\n\n>>> 1 + 1\n2\n\nMore prose.\n    >>> x = 1\n"
    assert module.fence_doctests(text) == (
        "Adds.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nMore prose.\n    ```pycon\n    >>> x = 1\n    ```"
    )
    # the reference writes retrograd as tf, as the guides do
    assert module.as_tf(">>> import retrograd as rg\n>>> rg.sin(org.x)") == (
        ">>> import retrograd as tf\n>>> tf.sin(org.x)"
    )
