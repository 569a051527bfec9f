"""TensorFlow's naming of composite functions in graphs: the ops a function such as
``reduce_logsumexp`` builds go under a name scope named after it, and its last op takes the
scope's name itself, so the result prints as ``ReduceLogSumExp:0`` with its parts under
``ReduceLogSumExp/``. Eagerly nothing is named.

>>> import retrograd as rg
>>> with rg.Graph().as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [2])
...     with op_scope("Halve") as name:
...         y = rg.multiply(x, 0.5, name=name)
>>> y.name
'Halve:0'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from retrograd.core.execute import context

__all__ = ["op_scope"]


@contextlib.contextmanager
def op_scope(name: str) -> Iterator[str | None]:
    """Inside, new graph ops are named ``name/...``; the value is the name to give the last
    op (the scope itself), or None outside graphs."""
    graph = context.graph
    if graph is None:
        yield None
        return
    with graph.name_scope(name) as scope:
        yield scope
