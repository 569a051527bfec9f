"""How values and places look to people: tensors in notebooks, source lines in messages.

``value_html`` is the compact rich view Jupyter shows for a tensor or variable (a header
with shape and dtype, the values summarised as NumPy prints big arrays, and min / max /
mean for big ones). ``source_location(filename, line)`` is ``file:line``, or
``In [3], line 2`` for the cells of an IPython session or Jupyter notebook, whose files are
temporary names nobody can open (``core.sites`` finds the user's lines).

>>> import numpy as np
>>> view = value_html("retrograd.Tensor", np.arange(3.0, dtype=np.float32))
>>> view.split("</code>")[1]
'<pre>[0. 1. 2.]</pre></div>'
>>> source_location("/home/me/train.py", 12)
'/home/me/train.py:12'
"""

from __future__ import annotations

import html
import re
import sys
from typing import Any

import numpy as np

from retrograd.core import backends

__all__ = ["value_html", "source_location", "notebook_cell"]

SUMMARY_THRESHOLD = 100  # more elements than this: NumPy's "..." summary and statistics


def value_html(kind: str, array: Any, name: str | None = None) -> str:
    """A compact HTML view of ``array``: ``kind`` (and ``name``), shape, dtype, values."""
    a = np.asarray(backends.to_host(array))
    title = f"{kind}{f' {name!r}' if name else ''} shape={a.shape} dtype={a.dtype.name}"
    with np.printoptions(threshold=SUMMARY_THRESHOLD, edgeitems=3, precision=4, linewidth=100):
        text = np.array2string(a) if a.ndim else str(a[()])
    stats = ""
    if a.size > SUMMARY_THRESHOLD and a.dtype.kind in "iuf":
        finite = a[np.isfinite(a)] if a.dtype.kind == "f" else a
        if finite.size:
            stats = (
                f"<br><small>min {float(finite.min()):.4g}, max {float(finite.max()):.4g}, "
                f"mean {float(finite.mean()):.4g}"
                + (f", {a.size - finite.size} not finite" if finite.size < a.size else "")
                + "</small>"
            )
    return (
        f'<div class="rg-value"><code>{html.escape(title)}</code>'
        f"<pre>{html.escape(text)}</pre>{stats}</div>"
    )


def notebook_cell(filename: str) -> int | None:
    """The execution count of the IPython cell compiled under ``filename``, if it is one."""
    ipython = sys.modules.get("IPython")
    shell = None
    if ipython is not None:
        try:
            shell = ipython.get_ipython()
        except Exception:  # an IPython too old or half imported: no cell numbers
            shell = None
    mapping = getattr(getattr(shell, "compile", None), "_filename_map", None)
    if isinstance(mapping, dict) and isinstance(mapping.get(filename), int):
        return mapping[filename]
    found = re.fullmatch(r"<ipython-input-(\d+)-[0-9a-f]+>", filename)
    return int(found.group(1)) if found else None


def source_location(filename: str, line: int) -> str:
    """``file:line``, or ``In [3], line 2`` for a notebook cell."""
    number = notebook_cell(filename)
    return f"{filename}:{line}" if number is None else f"In [{number}], line {line}"
