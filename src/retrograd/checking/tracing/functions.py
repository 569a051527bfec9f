"""Traced functions in a trace: what ``@function`` builds, drawn from its graph.

A ``@function`` training step runs in two ways, and a trace sees each as it is. Its first
call *traces* it: the Python body runs once on symbolic tensors, building a graph — the
forward ops, the backward ops that ``tape.gradient`` adds, the optimizer's updates — and
any backward pass made then is a *tracing* pass, whose values are symbolic (dtype and
shape, no numbers). Every call after that is a *compiled run*: one ``PartitionedCall`` op
with real input and output values; the ops inside it run from a compiled plan, not one by
one, so a trace records the call, not its inner ops. :class:`GraphRecord` keeps, per
graph, the passes made while it was built and the compiled runs; :func:`function_view`
draws the function's graph (ops, shapes, the backward ops marked) as a view of its own.

>>> import retrograd as tf
>>> w = tf.Variable([1.0, 2.0], name="w")
>>> @tf.function
... def step(x):
...     with tf.GradientTape() as tape:
...         loss = tf.reduce_sum(w * x)
...     return tape.gradient(loss, w)
>>> with tf.trace() as tr:
...     for _ in range(3):
...         _ = step(tf.constant([3.0, 4.0]))
>>> [(f.name, len(f.calls)) for f in tr.functions()]
[('step', 3)]
>>> print(tr.pass_notes[1])
made while tracing function 'step': symbolic (shapes, no values)
>>> view = function_view(tr.functions()[0], 0, False)
>>> print(view.caption().split(", 1 variable")[0])
function 'step' as traced: 5 ops (3 backward)
>>> print(view.note)
symbolic: shapes, no values; 3 compiled runs
"""

from __future__ import annotations

from typing import Any

from retrograd.checking.observing import summarize
from retrograd.checking.tracing.graph import MAX_NODES, Edge, Node, View
from retrograd.core.variables import Variable

__all__ = ["GraphRecord", "tracing_name", "function_view"]


def tracing_name(function: Any) -> str:
    """The name of a ``retrograd.function`` being traced."""
    return str(getattr(function, "name", "function"))


class GraphRecord:
    """A graph that gradients were built in, or a traced function that ran: the passes made
    while it was built, its compiled runs (``calls``: the ``PartitionedCall`` op records),
    and what its gradients were computed from."""

    def __init__(self, graph: Any, name: str) -> None:
        self.graph = graph
        self.name = name
        self.is_function = bool(name)  # built by tracing a function (else a TF1 graph)
        self.concrete: Any = None  # the ConcreteFunction, once a compiled run is seen
        self.calls: list = []
        self.passes: set[int] = set()
        self.rule_ops: list = []  # forward ops of this graph whose rule ran while building
        self.gradients: list = []  # the symbolic gradients those rules returned

    def add_call(self, concrete: Any, record: Any) -> None:
        self.concrete, self.is_function = concrete, True
        self.name = self.name or concrete.name
        self.calls.append(record)

    def note_gradient(self, op: Any, downstream: list) -> None:
        self.rule_ops.append(op)
        self.gradients.extend(g for g in downstream if getattr(g, "op", None) is not None)

    def where(self) -> str:
        return f"traced in function '{self.name}'" if self.is_function else "built in a graph"

    def pass_note(self, tracing: bool) -> str:
        """What a backward pass in this graph was: made while tracing the function, the
        function's own gradient (built when a call may be differentiated), or TF1's."""
        if self.is_function and tracing:
            return f"made while tracing function '{self.name}': symbolic (shapes, no values)"
        if self.is_function:
            return (
                f"the gradient of function '{self.name}', built for calls a tape may "
                f"differentiate: symbolic (shapes, no values)"
            )
        return "built in a graph (tf.gradients, TensorFlow 1): symbolic (shapes, no values)"

    def backward_ops(self) -> set[int]:
        """ids of the ops that compute gradients: ancestors of the gradients the rules
        returned that are not ancestors of the forward ops whose rules ran."""
        forward = _ancestors([y for op in self.rule_ops for y in op.outputs])
        return _ancestors(self.gradients) - forward


def _ancestors(tensors: list) -> set[int]:
    seen: set[int] = set()
    stack = [t.op for t in tensors if getattr(t, "op", None) is not None]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        stack.extend(t.op for t in op.inputs if getattr(t, "op", None) is not None)
    return seen


def _shapes(op: Any) -> str:
    return ", ".join(summarize(y).replace(" symbolic", "") for y in op.outputs) or "-"


class _FunctionBuilder:
    def __init__(self, record: GraphRecord, index: int, collapse: bool) -> None:
        counts = f"{len(record.calls)} compiled run{'s' if len(record.calls) != 1 else ''}"
        title = f"function '{record.name}' as traced"
        self.view = View(None, collapse, title=title)
        self.note = f"symbolic: shapes, no values; {counts}"
        self.prefix = f"g{index}_"
        self.record, self.collapse = record, collapse
        self.producer: dict[tuple[int, int], str] = {}  # (id(op), output index) -> node id
        self.variables: dict[int, str] = {}
        self.scopes: dict[str, Node] = {}

    def add(self, node: Node) -> bool:
        if len(self.view.nodes) >= MAX_NODES:
            self.view.cut = True
            return False
        self.view.nodes.append(node)
        return True

    def scope_node(self, scope: str, member: str) -> str:
        node = self.scopes.get(scope)
        if node is None:
            node = Node(f"{self.prefix}s{len(self.scopes)}", "scope", f"{scope}/", [], None,
                        f"name scope {scope}")  # fmt: skip
            self.scopes[scope] = node
            self.add(node)
        node.title += f"\n{member}"
        node.lines = [f"{node.title.count(chr(10))} ops (name scope)"]
        return node.id

    def variable(self, v: Variable) -> str:
        found = self.variables.get(id(v))
        if found is None:
            path = getattr(v, "path", None) or v.name.removesuffix(":0")
            scope = path.rsplit("/", 1)[0] if "/" in path else ""
            if self.collapse and scope:
                found = self.scope_node(scope, f"variable {path}")
            else:
                found = f"{self.prefix}v{len(self.variables)}"
                self.add(Node(found, "variable", path, [_vshape(v)], None, f"Variable {path}"))
            self.variables[id(v)] = found
        return found

    def op(self, k: int, op: Any, backward: set[int]) -> None:
        if op.type == "ReadVariableOp" and op.inputs and isinstance(op.inputs[0], Variable):
            self.producer[(id(op), 0)] = self.variable(op.inputs[0])
            return
        scope = op.name.rsplit("/", 1)[0] if "/" in op.name else ""
        kind = "backward" if id(op) in backward else "op"
        title = f"{op.name} ({op.type}) in function '{self.record.name}'\noutputs: {_shapes(op)}"
        if op.type == "Placeholder":
            node = Node(f"{self.prefix}{k}", "source", op.name, [_shapes(op)], None, title)
        elif self.collapse and scope:
            node = None
            node_id = self.scope_node(scope, f"{op.name} ({op.type})")
        else:
            label = op.type if op.name == op.type else f"{op.name} ({op.type})"
            node = Node(f"{self.prefix}{k}", kind, label, [f"→ {_shapes(op)}"], None, title)
        if node is not None:
            if not self.add(node):
                return
            node_id = node.id
        for i in range(len(op.outputs)):
            self.producer[(id(op), i)] = node_id
        for value in op.inputs:
            if isinstance(value, Variable):
                source = self.variable(value)
            else:
                source = self.producer.get((id(getattr(value, "op", None)), value.value_index))
            if source is not None and source != node_id:
                # a gradient flows between backward ops (not where they read forward values)
                carried = kind == "backward" and id(getattr(value, "op", None)) in backward
                self.edge(source, node_id, f"{summarize(value)}", carried)

    def edge(self, source: str, target: str, title: str, gradient: bool) -> None:
        for e in self.view.edges:
            if e.source == source and e.target == target:
                return
        self.view.edges.append(Edge(source, target, title, gradient))

    def outputs(self) -> None:
        concrete = self.record.concrete
        for k, y in enumerate([] if concrete is None else concrete.outputs):
            source = self.producer.get((id(getattr(y, "op", None)), getattr(y, "value_index", 0)))
            if source is None:
                continue
            out = Node(f"{self.prefix}o{k}", "output", f"output {k}", [summarize(y)], None,
                       f"output {k} of '{self.record.name}': {summarize(y)}")  # fmt: skip
            if self.add(out):
                self.edge(source, out.id, summarize(y), False)


def _vshape(v: Variable) -> str:
    return f"{v.dtype.name}[{','.join(str(d) for d in v.shape.as_list())}]"


def function_view(record: GraphRecord, index: int, collapse: bool) -> View:
    """The graph ``record`` holds (a traced function's) as one view: its ops in creation
    order with their output shapes, variables by path, inputs and outputs; ops computing
    gradients are marked as made by a backward pass. ``index`` makes its node ids unique
    on a page; ``collapse`` draws each name scope as one node."""
    b = _FunctionBuilder(record, index, collapse)
    backward = record.backward_ops()
    concrete = record.concrete
    ops = record.graph.get_operations() if concrete is None else concrete.forward_operations
    for k, op in enumerate(ops):
        b.op(k, op, backward)
    b.outputs()
    b.view.note = b.note
    return b.view
