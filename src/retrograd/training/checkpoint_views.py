"""``tf.train.TrackableView`` (the object graph of live objects, as checkpoints walk it) and
``tf.train.CheckpointView`` (the object graph a checkpoint file holds, read from its saved
paths; its node ids number the nodes breadth first in retrograd's order, the root 0).

>>> import retrograd as tf
>>> m = tf.Module()
>>> m.w = tf.Variable(1.0)
>>> list(tf.train.TrackableView(m).children(m))
['w']
"""

from __future__ import annotations

from typing import Any

from retrograd.training.checkpoint import data_file
from retrograd.training.object_graph import SLOT_MARK, children, walk
from retrograd.training.storage import read_arrays

__all__ = ["CheckpointView", "TrackableView"]


class TrackableView:
    """The objects reachable from ``root`` through checkpoint dependencies.

    >>> import retrograd as tf
    >>> m = tf.Module()
    >>> m.sub = tf.Module()
    >>> m.sub.v = tf.Variable(1.0)
    >>> len(tf.train.TrackableView(m).descendants())
    3
    """

    def __init__(self, root: Any) -> None:
        self._root = root

    @property
    def root(self) -> Any:
        return self._root

    def children(self, obj: Any, save_type: Any = None, **kwargs: Any) -> dict[str, Any]:
        """The named dependencies of ``obj``."""
        return dict(children(obj))

    def descendants(self) -> list[Any]:
        """The root and every object reachable from it, breadth first, each once."""
        return [self._root] + [obj for _, obj in walk(dict(children(self._root)))
                               if obj is not self._root]  # fmt: skip


class CheckpointView:
    """The object graph saved in the checkpoint ``save_path``.

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "c"))
    ...     print(tf.train.CheckpointView(path).children(0))
    {'save_counter': 1, 'v': 2}
    """

    def __init__(self, save_path: str) -> None:
        arrays, _ = read_arrays(data_file(save_path))
        paths = [k for k in arrays if f"/{SLOT_MARK}/" not in k]
        self._children: list[dict[str, int]] = [{}]
        level = {"": 0}
        depth = 0
        while True:
            found = sorted({"/".join(p.split("/")[: depth + 1]) for p in paths
                            if p.count("/") >= depth})  # fmt: skip
            if not found:
                break
            following = {}
            for path in found:
                parent = level["/".join(path.split("/")[:-1])]
                node = len(self._children)
                self._children.append({})
                self._children[parent][path.split("/")[-1]] = node
                following[path] = node
            level, depth = following, depth + 1

    def children(self, node_id: int) -> dict[str, int]:
        """The named children of node ``node_id``: ``{name: node id}``."""
        return dict(self._children[node_id])

    def descendants(self) -> list[int]:
        """Every node id (the root and what it reaches)."""
        return list(range(len(self._children)))

    def match(self, obj: Any) -> dict[int, Any]:
        """The live objects of ``obj``'s graph at the checkpoint's nodes: ``{id: object}``."""
        return self.diff(obj)[0]

    def diff(self, obj: Any) -> tuple:
        """(the matches ``{id: object}``, the checkpoint's node ids with no object, the
        objects with no node)."""
        matches, queue = {0: obj}, [(0, obj)]
        while queue:
            node, live = queue.pop(0)
            named = dict(children(live))
            for name, child in self._children[node].items():
                if name in named:
                    matches[child] = named[name]
                    queue.append((child, named[name]))
        unmatched_nodes = [n for n in self.descendants() if n not in matches]
        found = {id(o) for o in matches.values()}
        unmatched = [o for o in TrackableView(obj).descendants() if id(o) not in found]
        return matches, unmatched_nodes, unmatched
