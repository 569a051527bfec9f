"""A trace as a graph: the forward ops top-down, marked where gradients flowed back.

``build(trace, pass_index, collapse)`` gives one *view*: the nodes (inputs, variables by
name, ops, custom-gradient calls, outputs) and the forward edges of one backward pass (or
of every op recorded, ``pass_index=None``). A gradient flows back along exactly the forward
edges it came by, so an edge is drawn once, orange and dashed where a gradient went back
along it in this view; each node says the gradient its output received (``∇``). Nothing is
written on the edges (values are in the nodes and the hover text), so no label can
overlap another. ``collapse=True`` draws each name scope (an op name ``scope/op``) and each
custom-gradient function as one node; expanded, the ops a custom-gradient function ran
forward are drawn inside it.

``to_dot`` writes Graphviz DOT; ``to_svg`` uses Graphviz's ``dot`` when it is installed
and :mod:`~retrograd.checking.tracing.layout` (layered, top-down) otherwise.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from retrograd.checking.observing import Symbolic, as_array, summarize
from retrograd.core.variables import Variable

__all__ = [
    "build",
    "records_by_pass",
    "has_groups",
    "to_dot",
    "to_svg",
    "dot_svg",
    "graphviz",
    "View",
    "Node",
    "Edge",
    "MAX_NODES",
    "COLORS",
    "GRADIENT_COLOR",
]

MAX_NODES = 600  # nodes drawn at most in one view; a bigger view is drawn up to there
COLORS = {
    "op": "#e7f0fd",
    "custom": "#ffd8a8",
    "backward": "#e9e9e9",
    "source": "#e6f4ea",
    "variable": "#fff3bf",
    "output": "#f3e8fd",
    "scope": "#dbe4ff",
}
GRADIENT_COLOR = "#d9480f"
KIND_NAMES = {
    "op": "op",
    "custom": "custom gradient",
    "backward": "made by a backward pass",
    "source": "input",
    "variable": "variable",
    "output": "output",
    "scope": "collapsed group",
}


@dataclass
class Node:
    id: str
    kind: str  # op, custom, backward, source, variable, output, scope
    label: str
    lines: list[str]  # the text drawn under the label
    record: Any = None  # the OpRecord of an op node
    title: str = ""  # hover text
    group: str = ""  # the cluster (custom-gradient call) it is drawn inside, expanded


@dataclass
class Edge:
    source: str
    target: str
    title: str = ""
    gradient: bool = False  # a gradient flowed back along it in this view


@dataclass
class View:
    """One picture: the nodes and edges of one backward pass (or of all ops)."""

    pass_index: int | None
    collapse: bool
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    groups: dict[str, str] = field(default_factory=dict)  # cluster id -> its title
    cut: bool = False  # stopped at MAX_NODES
    title: str = ""  # what it shows when not a backward pass or every op (a function's graph)
    note: str = ""  # said after the counts (what is symbolic)

    def counts(self) -> dict[str, int]:
        """What is drawn: nodes by kind, edges, and edges that carried a gradient back."""
        out: dict[str, int] = {}
        for n in self.nodes:
            out[n.kind] = out.get(n.kind, 0) + 1
        out["edges"] = len(self.edges)
        out["gradient edges"] = sum(e.gradient for e in self.edges)
        return out

    def caption(self) -> str:
        c = self.counts()
        ops = sum(c.get(k, 0) for k in ("op", "custom", "backward"))
        parts = [_count(ops, "op")]
        if self.title and c.get("backward"):
            parts[0] += f" ({c['backward']} backward)"
        for kind, word in (
            ("scope", "group"),
            ("variable", "variable"),
            ("source", "input"),
            ("output", "output"),
        ):
            if c.get(kind):
                parts.append(_count(c[kind], word))
        parts.append(f"{_count(c['edges'], 'edge')} ({c['gradient edges']} carried gradients back)")
        where = "every op recorded" if self.pass_index is None else f"pass {self.pass_index}"
        cut = f"; stopped at {MAX_NODES} nodes" if self.cut else ""
        note = f"; {self.note}" if self.note else ""
        return f"{self.title or where}: {', '.join(parts)} drawn{cut}{note}"


_TEXTS: dict[int, tuple[Any, str]] = {}  # id(array) -> (array, summary), per build


def _text(value: Any) -> str:
    """``summarize(value)``, once per array while a view is built (values repeat a lot)."""
    found = _TEXTS.get(id(value))
    if found is None or found[0] is not value:
        found = _TEXTS[id(value)] = (value, summarize(value))
    return found[1]


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _shape_text(a: Any) -> str:
    if isinstance(a, Symbolic):
        return str(a)
    return f"{a.dtype.name}[{','.join(str(d) for d in a.shape)}]"


def _short(value: Any, limit: int = 3) -> str:
    """The value itself when it has at most ``limit`` elements, else dtype and shape."""
    a = as_array(value)
    if a is None:
        return "None"
    if isinstance(a, Symbolic):
        return str(a)
    text = summarize(a) if a.size <= limit else _shape_text(a)
    return text if len(text) <= 28 else text[:27] + "…"


def records_by_pass(trace: Any) -> dict[int | None, list]:
    """The top-level records of each view, in execution order (``None``: every op)."""
    out: dict[int | None, list] = {None: []}
    for r in trace.ops:
        if r.parent is not None:
            continue
        if not r.in_backward or r.gradients:
            out[None].append(r)
        for p in dict.fromkeys(g.pass_index for g in r.gradients):
            out.setdefault(p, []).append(r)
    return out


def has_groups(trace: Any) -> bool:
    """Whether collapsing changes anything: a name scope, or a custom gradient's own ops
    (in the ops recorded, or in a traced function's graph)."""
    return any(
        "/" in r.label
        or r.scope
        or (r.custom and r.children)
        or (r.op.type == "ReadVariableOp" and "/" in variable_name(r.op.inputs[0]))
        for r in trace.ops
    ) or any("/" in op.name for f in trace.functions() for op in f.graph.get_operations())


def _descendants(record: Any) -> list:
    out, stack = [], list(reversed(record.children))
    while stack:
        r = stack.pop()
        out.append(r)
        stack.extend(reversed(r.children))
    return out


def _scope(record: Any) -> str:
    """The name scope (a Keras layer's path) the op ran in: recorded eagerly, else its name's."""
    if record.scope:
        return record.scope
    name = record.label
    return name.rsplit("/", 1)[0] if "/" in name else ""


def variable_name(v: Any) -> str:
    """A variable as the trace names it: its Keras path (``sequential/d1/kernel``), else its
    name without ``:0``."""
    path = getattr(v, "path", None)
    if path:
        return path
    return v.name[:-2] if v.name.endswith(":0") else v.name


def _gradients(record: Any, pass_index: int | None) -> list:
    return [g for g in record.gradients if pass_index is None or g.pass_index == pass_index]


def _upstream_text(gradients: list) -> str:
    if not gradients:
        return "∇ -"
    ups = gradients[-1].upstream
    text = "; ".join(_short(u) for u in ups if u is not None) or "-"
    many = f" (×{len(gradients)})" if len(gradients) > 1 else ""
    return f"∇ {text}{many}"


class _Builder:
    def __init__(self, trace: Any, pass_index: int | None, collapse: bool) -> None:
        self.view = View(pass_index, collapse)
        self.pass_index = pass_index
        self.producer: dict[int, str] = {}  # id(tensor) -> node id
        self.kept: list[Any] = []  # values whose ids key `producer`
        self.consumed: set[int] = set()
        self.variable_nodes: dict[int, Node] = {}
        self.edge_at: dict[tuple[str, str], Edge] = {}
        self.scope_nodes: dict[str, Node] = {}
        self.scope_members: dict[str, dict[str, int]] = {}
        self.received: dict[str, list] = {}  # input node id -> gradients that reached it

    def add_node(self, node: Node) -> bool:
        if len(self.view.nodes) >= MAX_NODES:
            self.view.cut = True
            return False
        self.view.nodes.append(node)
        return True

    def edge(self, source: str, target: str, title: str, gradient: bool) -> None:
        if source == target:
            return
        found = self.edge_at.get((source, target))
        if found is None:
            found = self.edge_at[(source, target)] = Edge(source, target, title, gradient)
            self.view.edges.append(found)
        else:
            found.gradient = found.gradient or gradient
            if title not in found.title:
                found.title += "\n" + title

    def source(self, value: Any, array: Any, tracked: bool) -> str:
        node_id = f"s{len(self.kept)}"
        self.kept.append(value)
        shown = as_array(array)
        # A scalar constant: a copy per use, as in TensorBoard, instead of edges from afar.
        if tracked or isinstance(shown, Symbolic) or shown.size > 1:
            self.producer[id(value)] = node_id
        name = "watched" if tracked else "constant"
        self.add_node(Node(node_id, "source", name, [_short(array)], None, _text(array)))
        return node_id

    def variable(self, record: Any) -> None:
        """A read of a variable is drawn as the variable, by name (one node per variable)."""
        v = record.op.inputs[0]
        name = variable_name(v)
        if self.view.collapse and "/" in name:  # a variable of a name scope joins its group
            node_id = self._scope_node(name.rsplit("/", 1)[0], name, "variable")
            self.producer[id(record.op.outputs[0])] = node_id
            self.kept.append(record.op.outputs[0])
            return
        node = self.variable_nodes.get(id(v))
        if node is None:
            value = as_array(record.op.outputs[0])
            node = Node(
                f"v{record.index}",
                "variable",
                name,
                [_shape_text(value)],
                record,
                f"Variable {name} ({v.name})\nvalue read: {_text(value)}",
            )
            self.variable_nodes[id(v)] = node
            self.add_node(node)
        self.producer[id(record.op.outputs[0])] = node.id
        self.kept.append(record.op.outputs[0])
        gradients = _gradients(record, self.pass_index)
        if gradients:
            node.lines = [node.lines[0], _upstream_text(gradients)]

    def op(self, r: Any, group: str = "") -> None:
        if r.op.type == "ReadVariableOp" and r.op.inputs and isinstance(r.op.inputs[0], Variable):
            self.variable(r)
            return
        scope = _scope(r) if self.view.collapse else ""
        if scope:
            node_id = self._scope_node(scope, f"{r.label} ({r.op.type}) n{r.index}", "op")
        else:
            kind = "custom" if r.custom else ("backward" if r.in_backward else "op")
            label = r.label if r.label == r.op.type else f"{r.label} ({r.op.type})"
            if r.custom:
                label = f"{r.label} (custom gradient)"
            outputs = ", ".join(_short(y) for y in r.op.outputs)
            lines = [f"→ {outputs}", _upstream_text(_gradients(r, self.pass_index))]
            if r.custom and not self.view.collapse and r.children:
                group = f"n{r.index}"  # the call is drawn in the box of its forward ops
            elif not group and _scope(r):  # a layer's (name scope's) ops: in its box
                group = self._layer_group(_scope(r))
            node = Node(f"n{r.index}", kind, label, lines, r, _op_title(r), group)
            node_id = node.id
        sources = []
        for i, value in enumerate(r.op.inputs):  # inputs first: nodes in an order of use
            src = self.producer.get(id(value))
            if src is None:
                tracked = r.input_tracked[i] if i < len(r.input_tracked) else False
                src = self.source(value, r.input_values[i], tracked)
            sources.append(src)
        if not scope and not self.add_node(node):
            return
        for i, (value, src) in enumerate(zip(r.op.inputs, sources)):
            self.consumed.add(id(value))
            grads = [
                g.downstream[i]
                for g in _gradients(r, self.pass_index)
                if i < len(g.downstream) and g.downstream[i] is not None
            ]
            tracked = i < len(r.input_tracked) and r.input_tracked[i]
            title = f"value {_text(r.input_values[i])}"
            if grads and tracked:
                title += f"\ngradient back: {_text(grads[-1])}"
                if src.startswith("s"):
                    self.received.setdefault(src, []).append(as_array(grads[-1]))
            self.edge(src, node_id, title, bool(grads) and tracked)
        for y in r.op.outputs:
            self.producer[id(y)] = node_id
            self.kept.append(y)
        if r.custom and not self.view.collapse and r.children:
            self.view.groups[f"n{r.index}"] = f"{r.label}: its forward ops"
            inner = _descendants(r)
            for child in inner:
                self.op(child, group=f"n{r.index}")
            ends = [c for c in inner if not any(id(y) in self.consumed for y in c.op.outputs)]
            for c in ends[-1:]:  # what the function returned (as the call's outputs)
                self.edge(self.producer[id(c.op.outputs[0])], node_id, "returned", False)

    def _layer_group(self, scope: str) -> str:
        """The cluster of name scope ``scope`` in the expanded view (ids from a counter:
        user names never become ids)."""
        for key, title in self.view.groups.items():
            if title == f"{scope}/":
                return key
        key = f"l{len(self.view.groups)}"
        self.view.groups[key] = f"{scope}/"
        return key

    def _scope_node(self, scope: str, member: str, kind: str) -> str:
        node = self.scope_nodes.get(scope)
        if node is None:
            node_id = f"g{len(self.scope_nodes)}"
            node = Node(node_id, "scope", f"{scope}/", [], None, f"name scope {scope}")
            self.scope_members[scope] = {"op": 0, "variable": 0}
            self.scope_nodes[scope] = node
            self.add_node(node)
        if member in node.title.splitlines():
            return node.id
        node.title += f"\n{member}"
        members = self.scope_members[scope]
        members[kind] += 1
        counts = [f"{k} {w}{'s' if k > 1 else ''}" for w, k in members.items() if k]
        node.lines = [", ".join(counts) + " (name scope)"]
        return node.id

    def outputs(self, records: list) -> None:
        for r in records:
            if not _gradients(r, self.pass_index) or r.op.type == "ReadVariableOp":
                continue
            for k, y in enumerate(r.op.outputs):
                if id(y) in self.consumed or id(y) not in self.producer:
                    continue
                seeds = [g.upstream[k] for g in _gradients(r, self.pass_index)]
                seeds = [s for s in seeds if s is not None]
                out_id = f"o{r.index}_{k}"
                lines = [_short(y), f"∇ {_short(seeds[-1])}" if seeds else "∇ -"]
                if not self.add_node(Node(out_id, "output", "output", lines, None, _text(y))):
                    return
                self.edge(self.producer[id(y)], out_id, f"value {_text(y)}", bool(seeds))


def build(
    trace: Any, pass_index: int | None = None, collapse: bool = False, records: Any = None
) -> View:
    """The view of one backward pass (``pass_index``, from 1) or of every op (``None``).

    ``records``: :func:`records_by_pass` of the trace, when several views are built."""
    b = _Builder(trace, pass_index, collapse)
    records = (records or records_by_pass(trace)).get(pass_index, [])
    _TEXTS.clear()
    for r in records:
        b.op(r)
    b.outputs(records)
    _TEXTS.clear()
    for n in b.view.nodes:  # what reached each input, summed over the ops that used it
        parts = b.received.get(n.id)
        if parts and all(not isinstance(p, Symbolic) and p.shape == parts[0].shape for p in parts):
            n.lines = [n.lines[0], f"∇ {_short(sum(parts[1:], parts[0]))}"]
    return b.view


def _op_title(r: Any) -> str:
    lines = [f"{r.label} ({r.op.type}) n{r.index}", f"created at {r.created_at}"]
    if r.in_backward:
        lines.append("made by a backward pass (a gradient computation)")
    if r.custom:
        lines.append(f"rule defined at {r.defined_at}")
    for i, v in enumerate(r.input_values):
        lines.append(f"input {i}: {_text(v)}")
    for i, y in enumerate(r.op.outputs):
        lines.append(f"output {i}: {_text(y)}")
    return "\n".join(lines)


# --- Graphviz DOT ---------------------------------------------------------------------


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def node_text(n: Node) -> list[str]:
    """The lines drawn in a node: the label with the node's id, then its values."""
    return [f"{n.label}  {n.id}" if n.record is not None else n.label, *n.lines]


def view_dot(view: View, prefix: str = "") -> str:
    """One view as DOT, top-down; ``prefix`` starts every SVG element id Graphviz writes."""
    lines = [
        "digraph trace {",
        "  rankdir=TB; nodesep=0.25; ranksep=0.35;",
        '  node [shape=box, style="rounded,filled", fontname="monospace", fontsize=11, '
        'margin="0.12,0.05"];',
        '  edge [color="#666666", arrowsize=0.7];',
    ]
    groups: dict[str, list[Node]] = {}
    for n in view.nodes:
        groups.setdefault(n.group, []).append(n)
    for group, members in groups.items():
        indent = "  "
        if group:
            lines.append(f"  subgraph cluster_{group} {{")
            lines.append(
                f'    label="{_dot_text(view.groups[group])}"; style="dashed,rounded"; '
                f'color="{GRADIENT_COLOR}"; fontname="monospace"; fontsize=10;'
            )
            indent = "    "
        for n in members:
            shape = ", shape=ellipse" if n.kind in ("source", "output", "variable") else ""
            pen = ", penwidth=2" if n.kind in ("custom", "scope") else ""
            dashed = ', style="rounded,filled,dashed"' if n.kind == "backward" else ""
            lines.append(
                f'{indent}{n.id} [id="{prefix}{n.id}", class="rg-node rg-{n.kind}", '
                f'label="{_dot_text(chr(10).join(node_text(n)))}", '
                f'fillcolor="{COLORS[n.kind]}"{shape}{pen}{dashed}, '
                f'tooltip="{_dot_text(n.title)}"];'
            )
        if group:
            lines.append("  }")
    for k, e in enumerate(view.edges):
        style = (
            f', color="{GRADIENT_COLOR}", style=dashed, penwidth=1.6, dir=both, arrowtail=onormal'
            if e.gradient
            else ""
        )
        lines.append(
            f'  {e.source} -> {e.target} [id="{prefix}e{k}", class="rg-edge", '
            f'tooltip="{_dot_text(e.title)}"{style}];'
        )
    if view.cut:
        lines.append(f'  label="drawn up to {MAX_NODES} nodes";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_dot(trace: Any, pass_index: int | None = None, collapse: bool = False) -> str:
    """The trace (one backward pass, or every op) as Graphviz DOT text."""
    return view_dot(build(trace, pass_index, collapse))


def graphviz() -> str | None:
    """The path of Graphviz's ``dot`` program, None when it is not installed."""
    return shutil.which("dot")


def dot_svg(dot_text: str) -> str | None:
    """SVG from Graphviz's ``dot`` (None when it is not installed or fails)."""
    dot = graphviz()
    if dot is None:
        return None
    try:
        done = subprocess.run(
            [dot, "-Tsvg"], input=dot_text, capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or "<svg" not in done.stdout:
        return None
    # Graphviz escapes every '-' as a character reference; the same text, made readable.
    return done.stdout[done.stdout.index("<svg") :].replace("&#45;", "-")


def to_svg(trace: Any, pass_index: int | None = None, collapse: bool = False) -> str:
    """SVG through Graphviz's ``dot`` when installed, else the built-in layered layout."""
    from retrograd.checking.tracing.layout import layout_svg

    view = build(trace, pass_index, collapse)
    return dot_svg(view_dot(view)) or layout_svg(view)
