"""Keras 3's paths: where a layer and its weights sit in a model (``sequential/d1/kernel``).

A layer's path is fixed the first time it is built or called: the path of the layer being
built or called around it, then its own name (``sequential/d1``); a weight's path is its
layer's path and its name. ``layer_scope(layer)`` enters a layer for its build and its
calls: the path stack grows by the layer (not twice in a row for the same layer, as Keras
deduplicates), and the ops created inside carry the path as their name scope — in a
graph (a traced function) their names start with it, and eagerly they run under it
(``context.eager_scope``), which is how ``retrograd trace`` groups them by layer. The stack
is per thread.

>>> import retrograd as tf
>>> model = tf.keras.Sequential(
...     [tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d1")], name="net"
... )
>>> [w.path for w in model.weights]
['net/d1/kernel', 'net/d1/bias']
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from retrograd.core.execute import context
from retrograd.graph import graph as graph_module

__all__ = ["layer_scope", "current_path", "layer_path", "weight_parent"]


class _Stack(threading.local):
    def __init__(self) -> None:
        # [layer, its path, the eager scope before, the graph scope entered, re-entries],
        # innermost last
        self.entries: list[list] = []


_stack = _Stack()


def current_path() -> str:
    """The path of the innermost layer being built or called ('' outside every layer)."""
    entries = _stack.entries
    return entries[-1][1] if entries else ""


def layer_path(layer: Any) -> str:
    """``layer``'s path: fixed the first time it is entered (its name until then)."""
    parent = layer.__dict__.get("_parent_path")
    return f"{parent}/{layer.name}" if parent else layer.name


def weight_parent(layer: Any) -> str:
    """The path a weight of ``layer`` made now gets before its name: the layer's path, or,
    outside its build and calls (a weight made in ``__init__``), the path around it and the
    layer's name (Keras 3's rule)."""
    entries = _stack.entries
    if entries and entries[-1][0] is layer:
        return entries[-1][1]
    if layer.__dict__.get("_parent_path") is not None:
        return layer_path(layer)
    around = current_path()
    return f"{around}/{layer.name}" if around else layer.name


class _Scope:
    """Entering one layer (made at each call: small). What an entry changes is kept on the
    per-thread stack, so threads and nested calls of the same layer never share it."""

    __slots__ = ("layer",)

    def __init__(self, layer: Any) -> None:
        self.layer = layer

    def __enter__(self) -> str:
        entries, layer = _stack.entries, self.layer
        if entries and entries[-1][0] is layer:  # the same layer again (build inside call)
            entries[-1][4] += 1
            return entries[-1][1]
        attrs = layer.__dict__
        path = attrs.get("_keras_path")
        if path is None:  # fixed at the first entry, as Keras does
            if attrs.get("_parent_path") is None:
                attrs["_parent_path"] = current_path()
            path = attrs["_keras_path"] = layer_path(layer)
        previous, graph_scope = context.eager_scope, None
        if context.graph is None:  # eager: what name_scope(path + "/") does, directly
            context.eager_scope = path + "/"
        else:
            scope = graph_module.name_scope(path + "/")
            # (a name TensorFlow's rule refuses as a scope: the ops keep plain names)
            with contextlib.suppress(ValueError):
                scope.__enter__()
                graph_scope = scope
        entries.append([layer, path, previous, graph_scope, 0])
        return path

    def __exit__(self, *exc: Any) -> None:
        entry = _stack.entries[-1]
        if entry[4]:
            entry[4] -= 1
            return
        _stack.entries.pop()
        if entry[3] is not None:
            entry[3].__exit__(*exc)
        else:
            context.eager_scope = entry[2]


def layer_scope(layer: Any) -> _Scope:
    """Builds or calls ``layer`` under its path (see the module docstring): ``with
    layer_scope(layer) as path:``."""
    return _Scope(layer)
