"""A griffe extension for the API reference: doctest examples in docstrings become code.

retrograd's docstrings show examples as doctest sessions (``>>>`` lines and their output,
run by pytest). Markdown would read ``>>>`` as nested quotes; this wraps each session, up
to the blank line that ends it, in a ``pycon`` code fence.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each doctest session (from a ``>>>`` line to a blank line) fenced."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not line.strip():
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


def _fence(obj: Any) -> None:
    docstring = getattr(obj, "docstring", None)
    if docstring is not None and ">>>" in docstring.value and "```pycon" not in docstring.value:
        docstring.value = fence_doctests(docstring.value)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        _fence(obj)

    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        _fence(obj)

    def on_package(self, *, pkg: Any, **kwargs: Any) -> None:
        _fence(pkg)
