"""The README's Python examples run, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = (Path(__file__).parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_readme_has_examples():
    assert len(BLOCKS) >= 4


def test_readme_examples_run_and_print_what_they_promise():
    namespace: dict = {}
    for block in BLOCKS:  # later blocks may use names from earlier ones, as a reader would
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), namespace)
        promised = [
            line.split("# ", 1)[1]
            for line in block.splitlines()
            if line.startswith("print(") and "# " in line
        ]
        printed = out.getvalue().splitlines()
        assert len(printed) == len(promised)
        for text, promise in zip(printed, promised):
            expected = promise.split(":")[0].strip()
            pattern = re.escape(expected).replace(r"\.\.\.", ".*")
            assert re.match(pattern, text), f"README promised {expected!r}, printed {text!r}"
