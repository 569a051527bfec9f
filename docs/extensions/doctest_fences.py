"""A griffe extension for the API reference: doctest examples in docstrings become code.

retrograd's docstrings show examples as doctest sessions (``>>>`` lines and their output,
run by pytest). Markdown would read ``>>>`` as nested quotes; this wraps each session, up
to the blank line that ends it, in a ``pycon`` code fence. Some docstrings import
retrograd as ``rg``; the guides and the reference write ``tf`` (``import retrograd as
tf``), so the sessions are shown with ``tf.`` (``as_tf``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_AS_RG = re.compile(r"import retrograd as rg\b")
_RG = re.compile(r"(?<![\w.])rg\.")


def as_tf(text: str) -> str:
    """``text`` with ``import retrograd as rg`` and ``rg.`` written ``tf``'s way."""
    return _RG.sub("tf.", _AS_RG.sub("import retrograd as tf", text))


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
    if docstring is None:
        return
    if ">>>" in docstring.value and "```pycon" not in docstring.value:
        docstring.value = fence_doctests(docstring.value)
    docstring.value = as_tf(docstring.value)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        _fence(obj)

    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        _fence(obj)

    def on_package(self, *, pkg: Any, **kwargs: Any) -> None:
        _fence(pkg)
