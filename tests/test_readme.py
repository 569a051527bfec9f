"""The README's Python examples run, and print what the README says they print.

A ``print(...)  # text`` line promises ``text`` (``...`` matches anything); a block whose
last line prints without a comment is followed in the README by a plain block showing its
output exactly.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```\n(?:\n[^`]*?```\n(.*?)```)?", README, flags=re.DOTALL)


def test_readme_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code, shown", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs_alone_and_prints_what_it_promises(code, shown):
    namespace: dict = {"__name__": "__readme__"}  # each block alone: a reader may copy any one
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    lines = code.strip().splitlines()
    if lines[-1].startswith("print(") and "# " not in lines[-1]:
        assert out.getvalue() == shown, (
            f"README shows {shown!r}, the code printed {out.getvalue()!r}"
        )
        return
    promised = [
        ln.split("# ", 1)[1] for ln in lines if ln.strip().startswith("print(") and "# " in ln
    ]
    printed = out.getvalue().splitlines()
    assert len(printed) == len(promised)
    for text, promise in zip(printed, promised):
        expected = promise.split(":")[0].strip()
        pattern = re.escape(expected).replace(r"\.\.\.", ".*")
        assert re.match(pattern, text), f"README promised {expected!r}, printed {text!r}"
