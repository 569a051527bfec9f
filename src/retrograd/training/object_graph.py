"""The object graph a checkpoint saves: which objects are reachable from its roots, and the
path (``model/dense/kernel``) that names each one.

Trackable objects are :class:`Module` (and so Keras layers and models), :class:`Variable`,
optimizers, and the lists, tuples and dicts that hold them. A Module's children are its
attributes (or what its ``_checkpoint_children()`` returns); an optimizer's child is
``iterations`` (its slots are saved beside the variables they belong to). Each object is
named by its first path in breadth-first order (attribute names sorted), so the shortest
path wins.

>>> import retrograd as rg
>>> class Net(rg.Module):
...     def __init__(self):
...         super().__init__()
...         self.layers = [rg.Variable(1.0), {"b": rg.Variable(2.0)}]
>>> [path for path, _ in walk({"net": Net()}) if isinstance(_, rg.Variable)]
['net/layers/0', 'net/layers/1/b']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from retrograd.core.variables import Variable
from retrograd.training.module import Module
from retrograd.training.optimizers import Optimizer

__all__ = ["walk", "children", "is_trackable", "escape", "SLOT_MARK"]

SLOT_MARK = ".OPTIMIZER_SLOT"


def escape(key: Any) -> str:
    """A dict key or attribute name as one path component (``/`` and ``%`` escaped)."""
    return str(key).replace("%", "%25").replace("/", "%2F")


def is_trackable(value: Any) -> bool:
    return isinstance(value, (Module, Variable, Optimizer)) or hasattr(
        value, "_checkpoint_children"
    )


def _holds_trackables(value: Any, depth: int = 0) -> bool:
    if is_trackable(value):
        return True
    if depth > 50:
        return False
    if isinstance(value, Mapping):
        return any(_holds_trackables(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_trackables(v, depth + 1) for v in value)
    return False


def children(value: Any) -> list[tuple[str, Any]]:
    """The named children of one object of the graph, in a fixed order."""
    if isinstance(value, Variable):
        return []
    if isinstance(value, Optimizer):
        return [("iterations", value.iterations)]
    if hasattr(value, "_checkpoint_children"):
        items = list(value._checkpoint_children().items())
    elif isinstance(value, Module):
        ignored = value._TF_MODULE_IGNORED_PROPERTIES | Module._INTERNAL_PROPERTIES
        items = sorted((k, v) for k, v in vars(value).items() if k not in ignored)
    elif isinstance(value, Mapping):
        try:
            items = sorted(value.items())
        except TypeError:
            items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = list(enumerate(value))
    else:
        return []
    return [(escape(k), v) for k, v in items if _holds_trackables(v)]


def walk(roots: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(path, object)`` for every object reachable from ``roots``, each once, breadth
    first. Iterative, so deep graphs cannot exhaust the stack."""
    seen: set[int] = set()
    level = [(escape(name), value) for name, value in roots.items()]
    while level:
        following = []
        for path, value in level:
            if id(value) in seen:
                continue
            seen.add(id(value))
            yield path, value
            following += [(f"{path}/{name}", child) for name, child in children(value)]
        level = following
