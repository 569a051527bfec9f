"""The README's Python examples run, each on its own, and print what the README says they
print (the rules are in tests/markdown_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.markdown_examples import blocks, run_block

README = Path(__file__).parents[1] / "README.md"
BLOCKS = blocks(README)


def test_readme_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code, shown", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs_alone_and_prints_what_it_promises(code, shown):
    run_block(code, shown, "README.md")
