"""``name_scope``: graph op names prefixed with ``name/`` while a graph is being built (the
graph's own scopes), eager variable names prefixed otherwise (the thread's eager scope).

>>> import retrograd as rg
>>> with rg.name_scope("a"), rg.name_scope("b") as scope:
...     print(scope)
a/b/
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from retrograd.core.execute import context

__all__ = ["name_scope"]


class name_scope:  # noqa: N801  (TensorFlow's name)
    """Prefixes graph op names with ``name/``; in eager mode it prefixes variable names.

    A name ending in ``/`` is taken as a whole scope, as in TensorFlow. Names follow
    TensorFlow's rule (letters, digits and ``_.\\/>-``), checked when a graph is built.

    >>> import retrograd as rg
    >>> with rg.name_scope("outer") as scope:
    ...     v = rg.Variable(1.0, name="v")
    >>> scope, v.name
    ('outer/', 'outer/v:0')
    """

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._entered: list[contextlib.ExitStack] = []

    @property
    def name(self) -> str:
        """The name this scope was made with."""
        return self._name

    def __enter__(self) -> str:
        stack = contextlib.ExitStack()
        scope = stack.enter_context(_name_scope(self._name))
        self._entered.append(stack)
        return scope

    def __exit__(self, *exc_info: Any) -> None:
        self._entered.pop().close()


@contextlib.contextmanager
def _name_scope(name: str) -> Iterator[str]:
    if context.graph is None:
        previous = context.eager_scope
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = previous + name + "/"
        context.eager_scope = scope
        try:
            yield scope
        finally:
            context.eager_scope = previous
        return
    with context.graph.name_scope(name) as scope:
        yield scope
