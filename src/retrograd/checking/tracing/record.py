"""``trace()``: what ran forward and what each gradient rule received and returned.

A :class:`Trace` is an op observer and a backward observer at once. Forward, it keeps one
:class:`OpRecord` per op (custom-gradient calls included, with the ops of their own
forward attached as children, and ops run by gradient functions marked as such). Backward,
it keeps one :class:`GradientRecord` per rule call: upstream gradients, downstream
gradients per input, and the local derivative where one is defined (every input and output
a scalar, or an elementwise op). Values are the tensors themselves (immutable), so
recording copies nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.backprop import call_rule
from retrograd.autodiff.state import state as autodiff_state
from retrograd.checking.observing import Symbolic, as_array, inside_gradient_rule, paused
from retrograd.checking.tracing.functions import GraphRecord, tracing_name
from retrograd.checking.tracing.graph import variable_name
from retrograd.core import sites
from retrograd.core.display import source_location
from retrograd.core.execute import OP_DEFS, Operation, context, thread_start
from retrograd.core.registry import function_location, gradient_registry
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph.function import functions_tracing

__all__ = ["Trace", "OpRecord", "GradientRecord", "trace"]


class OpRecord:
    """One op seen running forward."""

    def __init__(self, index: int, op: Operation, in_backward: bool, created_at: str) -> None:
        self.index = index
        self.op = op
        self.in_backward = in_backward
        self.created_at = created_at
        self.parent: OpRecord | None = None
        self.children: list[OpRecord] = []
        self.recorded = False  # by some tape
        self.thread = ""  # the name of the thread that ran it, when not the tracing one
        # The name scope it ran in eagerly (a Keras layer's path: sequential/d1); a graph
        # op's scope is in its name.
        self.scope = context.eager_scope.rstrip("/") if op.graph is None else ""
        self.input_tracked: list[bool] = []  # per input: watched or produced by a recorded op
        self.gradients: list[GradientRecord] = []
        # Inputs are summarised now: a variable's value may change later.
        self.input_values = [as_array(v) for v in op.inputs]

    @property
    def custom(self) -> bool:
        return self.op.type == "CustomGradient"

    @property
    def label(self) -> str:
        """The function name for custom gradients, else the op's name (its type by default)."""
        return self.op.name

    @property
    def defined_at(self) -> str:
        """Where the gradient rule comes from: the function, or the registration."""
        rule = self.op.grad_fn
        if rule is not None and hasattr(rule, "_f"):
            return function_location(rule._f)
        if self.op.type in gradient_registry:
            return gradient_registry.location(self.op.type)
        return "no gradient registered"


class GradientRecord:
    """One call of a gradient rule: what came in (upstream) and what went out (downstream)."""

    def __init__(self, index, pass_index, op, rule, record, upstream, downstream) -> None:
        self.index = index
        self.pass_index = pass_index
        self.op: Operation = op
        self.rule = rule
        self.record: OpRecord | None = record
        self.upstream: list[np.ndarray | None] = [as_array(u) for u in upstream]
        self.downstream: list[np.ndarray | None] = [as_array(g) for g in downstream]
        self.inputs: list[np.ndarray] = [as_array(v) for v in op.inputs]
        self._local: list | None = None

    @property
    def custom(self) -> bool:
        return self.op.type == "CustomGradient"

    @property
    def label(self) -> str:
        """The op's name; a variable's read is named after the variable."""
        op = self.op
        if op.type == "ReadVariableOp" and op.inputs and isinstance(op.inputs[0], Variable):
            return variable_name(op.inputs[0])
        return op.name

    @property
    def local(self) -> list[np.ndarray | None]:
        """d output / d input per input where defined (scalars, elementwise ops), else None."""
        if self._local is None:
            self._local = _local_derivatives(self)
        return self._local


def _local_derivatives(g: GradientRecord) -> list[np.ndarray | None]:
    op = g.op
    outputs = [as_array(y) for y in op.outputs]
    none = [None] * len(g.inputs)
    symbolic = [*outputs, *g.inputs, *g.upstream, *g.downstream]
    if any(isinstance(v, Symbolic) for v in symbolic):
        return none  # a graph's values exist only when it runs
    if len(outputs) != 1 or outputs[0].dtype.kind != "f":
        return none
    scalar = all(a.size == 1 for a in [*g.inputs, outputs[0]])
    definition = OP_DEFS.get(op.type)
    elementwise = definition is not None and definition.elementwise
    if not (scalar or elementwise):
        return none
    up = g.upstream[0]
    if up is not None and np.all(up != 0):
        # downstream = upstream * local, elementwise, for inputs of the output's shape
        return [None if d is None or d.shape != up.shape else d / up for d in g.downstream]
    if g.custom:  # calling a user's grad_fn again could print or count: leave it unknown
        return none
    with paused():
        ones = Tensor(np.ones_like(outputs[0]))
        result = call_rule(g.rule, op, [ones])
    return [
        None if r is None or as_array(r).shape != outputs[0].shape else as_array(r) for r in result
    ]


class Trace:
    """Records forward ops and gradient rule calls while active (``with retrograd.trace()``).

    ``table()`` gives the backward pass as seed 000's table, ``rules()`` which rules fired and
    which custom functions were bypassed, ``to_dot()``, ``to_svg()`` and ``to_html(path)``
    the picture.

    >>> import retrograd as rg
    >>> x = rg.constant(2.0)
    >>> with rg.trace() as t:
    ...     with rg.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = rg.square(x)
    ...     dx = tape.gradient(y, x)
    >>> t
    <retrograd.Trace: 3 ops, 1 gradient records, 1 backward passes>
    >>> [r.op.type for r in t.forward_ops()]
    ['Square']
    """

    def __init__(self, max_ops: int = 20_000) -> None:
        self.max_ops = int(max_ops)
        self.ops: list[OpRecord] = []
        self.gradients: list[GradientRecord] = []
        self.truncated = False
        self._by_op: dict[int, OpRecord] = {}
        # (thread, custom_gradient nesting depth) -> the ops seen inside that call so far
        self._open: dict[tuple[int, int], list[OpRecord]] = {}
        self._passes: dict[int, int] = {}  # the engine's backward-walk number -> this trace's
        self._pass_count = 0
        self._active = False
        self._lock = threading.Lock()  # threads the program starts record here too
        self._home = 0  # the thread that entered the trace
        self.threads: dict[str, int] = {}  # other threads' names -> ops recorded from them
        self.graphs: dict[int, GraphRecord] = {}  # id(graph) -> its traced function's record
        self.pass_notes: dict[int, str] = {}  # pass -> what it was when not an eager pass

    # -- as a context manager ------------------------------------------------------------
    def __enter__(self) -> Trace:
        if self._active:
            raise RuntimeError("this trace is already recording")
        self._active = True
        self._home = threading.get_ident()
        context.push_observer(self)
        autodiff_state.backward_observers.append(self)
        thread_start.hooks.append(self._join_thread)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._active = False
        thread_start.hooks.remove(self._join_thread)
        context.pop_observer(self)
        autodiff_state.backward_observers.remove(self)

    def _join_thread(self, thread_context: Any) -> None:
        """Called in each thread started while recording, when it first uses retrograd: its
        ops and gradients are recorded too (each record says which thread ran it)."""
        thread_context.push_observer(self)
        autodiff_state.backward_observers.append(self)  # (this thread's, as the context is)
        with self._lock:
            self.threads.setdefault(threading.current_thread().name, 0)

    def _left(self) -> bool:
        """True (and this thread stops reporting to the trace) once recording has ended: a
        thread started while recording may outlive it."""
        if self._active:
            return False
        if self in context.observers:
            context.pop_observer(self)
        if self in autodiff_state.backward_observers:
            autodiff_state.backward_observers.remove(self)
        return True

    # -- observing -----------------------------------------------------------------------
    def observe(self, op: Operation) -> None:
        if self._left():
            return
        with self._lock:
            self._observe(op)

    def _observe(self, op: Operation) -> None:
        if len(self.ops) >= self.max_ops:
            self.truncated = True
            return
        # Made by a backward pass: inside a gradient function, or by the walk itself (the
        # zeros it gives outputs that no gradient reached).
        backward = inside_gradient_rule() or autodiff_state.backward_pass > 0
        record = OpRecord(len(self.ops), op, backward, _user_line())
        if threading.get_ident() != self._home:
            record.thread = threading.current_thread().name
            self.threads[record.thread] = self.threads.get(record.thread, 0) + 1
        record.recorded = any(_tape_holds(t, op) for t in context.tapes)
        record.input_tracked = [any(t.tracks(v) for t in context.tapes) for v in op.inputs]
        depth = len(context.variable_watchers)  # custom_gradient calls being run, nested
        thread = threading.get_ident()
        if record.custom:
            for child in self._open.pop((thread, depth + 1), []):
                child.parent = record
                record.children.append(child)
        if depth:
            self._open.setdefault((thread, depth), []).append(record)
        self.ops.append(record)
        self._by_op[id(op)] = record
        concrete = op.attrs.get("f") if op.type == "PartitionedCall" else None
        graph = getattr(concrete, "graph", None)
        if graph is not None:  # a compiled run of a traced function
            self._graph_record(graph, concrete.name).add_call(concrete, record)

    def _graph_record(self, graph: Any, name: str) -> GraphRecord:
        found = self.graphs.get(id(graph))
        if found is None or found.graph is not graph:
            found = self.graphs[id(graph)] = GraphRecord(graph, name)
        return found

    def observe_backward(self, op: Operation, rule: Any, upstream: list, downstream: list) -> None:
        if self._left():
            return
        with self._lock:
            self._observe_backward(op, rule, upstream, downstream)

    def _observe_backward(self, op: Operation, rule: Any, upstream: list, downstream: list):
        pass_index = self._pass_of(autodiff_state.backward_pass)
        record = self._by_op.get(id(op))
        if record is not None and record.op is not op:
            record = None
        graph = getattr(op, "graph", None)
        if graph is not None:  # a gradient built in a graph: a function being traced, or TF1
            tracing = functions_tracing()
            name = tracing_name(tracing[-1]) if tracing else ""
            graph_record = self._graph_record(graph, name)
            graph_record.passes.add(pass_index)
            if tracing or not graph_record.is_function:
                graph_record.note_gradient(op, downstream)
            self.pass_notes.setdefault(pass_index, graph_record.pass_note(bool(tracing)))
            if record is None:  # drawn like a forward op, its values symbolic
                record = OpRecord(len(self.ops), op, False, graph_record.where())
                record.recorded = True
                record.input_tracked = [True] * len(op.inputs)
                self.ops.append(record)
                self._by_op[id(op)] = record
        g = GradientRecord(len(self.gradients), pass_index, op, rule, record, upstream, downstream)
        self.gradients.append(g)
        if record is not None:
            record.gradients.append(g)

    def _pass_of(self, walk: int) -> int:
        """This trace's number for the backward walk numbered ``walk`` by the engine."""
        number = self._passes.get(walk)
        if number is None:
            self._pass_count += 1
            number = self._passes[walk] = self._pass_count
        return number

    # -- queries -------------------------------------------------------------------------
    @property
    def passes(self) -> int:
        """How many backward passes ran while recording."""
        return self._pass_count

    def functions(self) -> list[GraphRecord]:
        """The traced functions (``@function``) that ran or were traced while recording."""
        return [g for g in self.graphs.values() if g.concrete is not None or g.is_function]

    def forward_ops(self) -> Iterator[OpRecord]:
        """Ops of the program itself: not run by a gradient function, not inside a custom one."""
        return (r for r in self.ops if not r.in_backward and r.parent is None)

    def record_of(self, op: Operation) -> OpRecord | None:
        record = self._by_op.get(id(op))
        return record if record is not None and record.op is op else None

    # -- output (see report.py, graph.py, html.py) ----------------------------------------
    def table(
        self, custom_only: bool = False, pass_index: int | None = None, width: int | None = None
    ) -> str:
        """The gradient records as a table: op, x, upstream, local, downstream per input
        (``width``: lines cut to fit that many characters)."""
        from retrograd.checking.tracing.report import table

        return table(self, custom_only=custom_only, pass_index=pass_index, width=width)

    def notes(self) -> list[str]:
        """What the table cannot show: other threads recorded, traced functions that ran."""
        from retrograd.checking.tracing.report import notes

        return notes(self)

    def rules(self) -> Any:
        """Which rules fired, how often, and which custom functions were never reached."""
        from retrograd.checking.tracing.report import RulesReport

        return RulesReport(self)

    def to_dot(self, pass_index: int | None = None, collapse: bool = False) -> str:
        """Graphviz DOT text of the forward graph, marked where gradients flowed back: of
        backward pass ``pass_index`` (from 1), or of every op recorded (``None``)."""
        from retrograd.checking.tracing.graph import to_dot

        return to_dot(self, pass_index, collapse)

    def to_svg(self, pass_index: int | None = None, collapse: bool = False) -> str:
        """SVG of the same view: Graphviz's layout when ``dot`` is installed, else retrograd's
        own layered layout."""
        from retrograd.checking.tracing.graph import to_svg

        return to_svg(self, pass_index, collapse)

    def to_html(self, path: Any = None) -> str:
        """One self-contained page (no external resources); written to ``path`` if given."""
        from retrograd.checking.tracing.html import to_html

        return to_html(self, path)

    def _repr_html_(self) -> str:
        from retrograd.checking.tracing.html import fragment

        return fragment(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """Jupyter's rich output: the interactive page, an SVG of the last backward pass for
        front ends that show no HTML, and the plain repr."""
        from retrograd.checking.tracing.graph import to_svg
        from retrograd.checking.tracing.html import fragment

        return {
            "text/html": fragment(self),
            "image/svg+xml": to_svg(self, self.passes or None),
            "text/plain": repr(self),
        }

    def __repr__(self) -> str:
        return (
            f"<retrograd.Trace: {len(self.ops)} ops, {len(self.gradients)} gradient records, "
            f"{self.passes} backward passes>"
        )


def trace(max_ops: int = 20_000) -> Trace:
    """Records the forward ops and gradient rule calls of a ``with`` block.

    >>> import retrograd as rg
    >>> x = rg.constant(3.0)
    >>> with rg.trace() as tr:
    ...     with rg.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = rg.square(x) * 2.0
    ...     _ = tape.gradient(y, x)
    >>> print(tr.table())
    step  op      x    upstream  local  downstream
    1     Mul[0]  9.0  1.0       2.0    2.0
    2     Square  3.0  2.0       6.0    12.0
    """
    return Trace(max_ops)


def _tape_holds(tape: Any, op: Operation) -> bool:
    return any(tape.producer(y) is op for y in op.outputs)


def _user_line() -> str:
    """``file:line`` of the innermost frame outside retrograd (where the op was created)."""
    found = sites.user_location(3)
    return "retrograd" if found is None else source_location(found[0], found[1])
