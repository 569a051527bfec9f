"""Runs the Python examples of a Markdown file and checks what they print (README, docs).

A ``print(...)  # text`` line promises ``text`` (``...`` matches anything; what follows a
``:`` is commentary); a block whose last line prints without a comment is followed in the
file by a plain block showing its output exactly. Each block runs alone, in a namespace of
its own, as a reader who copies one would run it.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

__all__ = ["blocks", "run_block"]


def blocks(path: Path) -> list[tuple[str, str]]:
    """(code, shown output or "") for each ```python block of ``path``."""
    text = path.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```\n(?:\n[^`]*?```\n(.*?)```)?", text, flags=re.DOTALL)


def run_block(code: str, shown: str, where: str) -> None:
    """Runs ``code`` alone and asserts it printed what the file promises."""
    namespace: dict = {"__name__": "__example__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), namespace)
    lines = code.strip().splitlines()
    if lines[-1].startswith("print(") and "# " not in lines[-1]:
        assert out.getvalue() == shown, (
            f"{where} shows {shown!r}, the code printed {out.getvalue()!r}"
        )
        return
    promised = [
        ln.split("# ", 1)[1] for ln in lines if ln.strip().startswith("print(") and "# " in ln
    ]
    printed = out.getvalue().splitlines()
    assert len(printed) == len(promised), (where, printed, promised)
    for text, promise in zip(printed, promised):
        expected = promise.split(":")[0].strip()
        pattern = re.escape(expected).replace(r"\.\.\.", ".*")
        assert re.match(pattern, text), f"{where} promised {expected!r}, printed {text!r}"
