"""The per-thread execution context of the core: the graph ops go to, the recording tapes,
the observers, the gradient overrides, the eager name scope — each thread its own, as in
TensorFlow — and the two process-wide settings a new thread starts from.

>>> from retrograd.core.context import context
>>> context.graph is None, context.active is None  # eager, and nothing records
(True, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["Watching", "context", "graph_mode_by_default", "thread_start"]


class Watching:
    """What watches execution in one thread while anything does (``context.active``): the
    graph ops are added to (None: eager), the recording tapes, the observers and the
    gradient overrides, mirrored from the thread's ``_Context`` by its setters.

    A plain object, so that an op reads the thread-local context once (``context.active``)
    and everything else from here: each read of a ``threading.local`` attribute costs about
    as much as a small function call, a slot read a fifth of that.
    """

    __slots__ = ("graph", "tapes", "observers", "gradient_overrides")

    graph: Any
    tapes: list
    observers: list
    gradient_overrides: dict | None


class _Context(threading.local):
    """What watches execution in this thread (as TensorFlow keeps it, per thread): each
    thread sees its own attributes, initialised by ``__init__`` the first time it looks.

    ``graph``: while not None, ops are added to this graph instead of run.
    ``tapes``: the recording GradientTapes, innermost last.
    ``observers``: objects shown every op that runs (``observe(operation)``: forward
    accumulators, traces, numeric checks).
    ``recording``: whether any tape or observer is active (kept by the push/pop methods;
    set it after replacing ``tapes`` or ``observers``).
    ``active``: None while no graph is current and nothing records — the one attribute
    ``execute`` reads for an op that just runs — else this thread's :class:`Watching`
    (kept by the setters of ``graph``, ``recording`` and ``gradient_overrides``).
    ``variable_watchers``: lists collecting the trainable variables read (custom gradients).
    ``rule_depth``: how many gradient functions are running now (nested backward passes
    count again), so that ops and tools can tell gradient work from the program's.
    ``eager_scope``: the name scope entered eagerly ("outer/inner/"), prefixing variable
    names.
    ``gradient_overrides``: the gradient functions by op type that replace the op's own in
    this thread (``retrograd.gradient_override``; None: none) — records made meanwhile keep
    every value, since another rule may read any.

    A thread started after ``disable_eager_execution`` starts in graph mode, on a default
    graph of its own (``graph_mode_by_default``, the one process-wide setting).
    """

    def __init__(self) -> None:
        self._graph: Any = None
        self._recording = False
        self._gradient_overrides: dict | None = None
        self._watching = Watching()
        self.active: Watching | None = None
        self.default_graph: Any = None
        self.tapes: list = []
        self.observers: list = []
        self.variable_watchers: list[list] = []
        self.rule_depth = 0
        self.eager_scope = ""
        self._update()
        factory = graph_mode_by_default.factory
        if factory is not None:
            self.default_graph = self.graph = factory()
        for hook in list(thread_start.hooks):  # tools that follow a program into its threads
            hook(self)

    def _update(self) -> None:
        watching = self._watching
        watching.graph = self._graph
        watching.tapes = self.tapes
        watching.observers = self.observers
        watching.gradient_overrides = self._gradient_overrides
        self.active = watching if self._graph is not None or self._recording else None

    @property
    def graph(self) -> Any:
        """The Graph ops are added to; None: eager execution."""
        return self._graph

    @graph.setter
    def graph(self, graph: Any) -> None:
        self._graph = graph
        self._update()

    @property
    def recording(self) -> bool:
        return self._recording

    @recording.setter
    def recording(self, recording: bool) -> None:
        self._recording = recording
        self._update()

    @property
    def gradient_overrides(self) -> dict | None:
        return self._gradient_overrides

    @gradient_overrides.setter
    def gradient_overrides(self, overrides: dict | None) -> None:
        self._gradient_overrides = overrides
        self._update()

    def push_tape(self, tape: Any) -> None:
        self.tapes.append(tape)
        self.recording = True

    def pop_tape(self, tape: Any) -> None:
        self.tapes.remove(tape)
        self.recording = bool(self.tapes or self.observers)

    def push_observer(self, observer: Any) -> None:
        """Adds an object whose ``observe(operation)`` sees every op until it is popped."""
        self.observers.append(observer)
        self.recording = True

    def pop_observer(self, observer: Any) -> None:
        self.observers.remove(observer)
        self.recording = bool(self.tapes or self.observers)


class _GraphModeByDefault:
    """Process-wide: ``factory`` makes a new thread's default graph and puts the thread in
    graph mode (set by ``disable_eager_execution``, cleared by ``enable_eager_execution``,
    as TensorFlow's default execution mode); None: threads start eager."""

    factory: Callable[[], Any] | None = None


graph_mode_by_default = _GraphModeByDefault()


class _ThreadStart:
    """Process-wide: ``hooks`` are called with each thread's context when that thread first
    uses retrograd (``retrograd trace`` adds its observers to the threads a script starts)."""

    hooks: list = []


thread_start = _ThreadStart()
context = _Context()
