"""What a TensorFlow 1 graph keeps besides its ops: the control dependencies of the ops
being created (``control_dependencies``) and named collections (``add_to_collection``).
``Graph`` inherits these methods.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> g.add_to_collection("losses", 1.0)
>>> g.get_collection("losses"), g.get_collection("missing")
([1.0], [])
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["GraphState"]


class GraphState:
    """Control dependencies and collections of a graph (``Graph.__init__`` sets
    ``_control_dependencies`` and ``_collections``)."""

    _control_dependencies: list[Any]
    _collections: dict[str, list[Any]]

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: Any) -> Iterator[None]:
        """Ops created inside run only after ``control_inputs`` (ops or tensors) have run;
        ``None`` clears the dependencies for the block."""
        previous = self._control_dependencies
        if control_inputs is None:
            self._control_dependencies = []
        else:
            added = [self._control_op(c) for c in control_inputs]
            self._control_dependencies = previous + [op for op in added if op not in previous]
        try:
            yield
        finally:
            self._control_dependencies = previous

    def _control_op(self, value: Any) -> Any:
        from retrograd.graph.graph import GraphOperation, SymbolicTensor

        if isinstance(value, SymbolicTensor):
            value = value.op
        if not isinstance(value, GraphOperation) or value.graph is not self:
            raise TypeError(
                f"control_dependencies: expected ops or tensors of this graph, got {value!r}"
            )
        return value

    # -- collections (TF1) ---------------------------------------------------------------
    def add_to_collection(self, name: str, value: Any) -> None:
        """Appends ``value`` to the collection ``name``."""
        self._collections.setdefault(name, []).append(value)

    def get_collection(self, name: str, scope: str | None = None) -> list[Any]:
        """A copy of the collection ``name``; with ``scope``, only the items whose name
        starts with it."""
        items = list(self._collections.get(name, ()))
        if scope is None:
            return items
        return [v for v in items if getattr(v, "name", "").startswith(scope)]

    def get_collection_ref(self, name: str) -> list[Any]:
        """The collection ``name`` itself (a list the caller may change)."""
        return self._collections.setdefault(name, [])

    def get_all_collection_keys(self) -> list[str]:
        return sorted(self._collections)
