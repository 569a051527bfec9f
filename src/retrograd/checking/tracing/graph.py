"""A trace as a graph: the forward ops left to right, the gradients flowing back on it.

``build(trace)`` gives nodes (sources, ops, custom-gradient calls, outputs) and edges
(forward values; gradients, drawn backwards). ``to_dot`` writes Graphviz DOT; ``layout_svg``
draws the same graph without Graphviz (columns by depth); ``to_svg`` uses Graphviz's
``dot`` when it is installed and the built-in layout otherwise.
"""

from __future__ import annotations

import html
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from retrograd.checking.observing import as_array, summarize
from retrograd.core.variables import Variable

__all__ = ["build", "to_dot", "to_svg", "layout_svg", "Node", "Edge", "MAX_NODES"]

MAX_NODES = 600  # ops drawn at most; a longer trace is drawn up to there
COLORS = {
    "op": "#e7f0fd",
    "custom": "#ffd8a8",
    "backward": "#eeeeee",
    "source": "#e6f4ea",
    "output": "#f3e8fd",
}
GRADIENT_COLOR = "#d9480f"


@dataclass
class Node:
    id: str
    kind: str  # op, custom, backward, source, output
    label: str
    detail: str
    record: Any = None  # the OpRecord of an op node
    title: str = ""


@dataclass
class Edge:
    source: str
    target: str
    kind: str  # forward, gradient
    label: str
    title: str = ""
    values: list = field(default_factory=list)
    input: int = -1  # for gradients: the index of the input they belong to


def _value_text(value: Any) -> str:
    a = as_array(value)
    return f"{a.dtype.name}{list(a.shape)}"


def _short(value: Any) -> str:
    """The value itself when it has at most 3 elements, else dtype and shape."""
    a = as_array(value)
    return summarize(a) if a.size <= 3 else _value_text(a)


def build(trace: Any) -> tuple[list[Node], list[Edge], bool]:
    """Nodes, edges, and whether the drawing stopped at MAX_NODES ops."""
    records = [r for r in trace.ops if r.parent is None and (not r.in_backward or r.gradients)]
    cut = len(records) > MAX_NODES
    records = records[:MAX_NODES]
    nodes: list[Node] = []
    edges: list[Edge] = []
    producer: dict[int, str] = {}  # id(tensor) -> node id
    kept: list[Any] = []  # values whose ids key `producer`
    consumed: set[int] = set()
    for r in records:
        kind = "custom" if r.custom else ("backward" if r.in_backward else "op")
        detail = (
            "custom gradient → "
            if r.custom
            else ("→ " if r.label == r.op.type else f"{r.op.type} → ")
        )
        out = ", ".join(_value_text(y) for y in r.op.outputs)
        node = Node(f"n{r.index}", kind, r.label, detail + out, r, _op_title(r))
        for i, value in enumerate(r.op.inputs):
            src = producer.get(id(value))
            if src is None:
                src = f"s{len(kept)}"
                kept.append(value)
                producer[id(value)] = src
                tracked = r.input_tracked[i] if i < len(r.input_tracked) else False
                nodes.append(_source_node(src, value, r.input_values[i], tracked))
            consumed.add(id(value))
            edges.append(Edge(src, node.id, "forward", _short(r.input_values[i])))
        nodes.append(node)
        for y in r.op.outputs:
            producer[id(y)] = node.id
            kept.append(y)
        _gradient_edges(r, node.id, [producer[id(v)] for v in r.op.inputs], edges)
    _drop_untracked_gradients(records, edges)
    for r in records:
        if not r.gradients:
            continue
        for k, y in enumerate(r.op.outputs):
            if id(y) in consumed:
                continue
            out_id = f"o{r.index}_{k}"
            nodes.append(Node(out_id, "output", "output", _value_text(y), None, summarize(y)))
            edges.append(Edge(f"n{r.index}", out_id, "forward", _short(y)))
            seeds = [g.upstream[k] for g in r.gradients]
            edges.append(_gradient_edge(out_id, f"n{r.index}", seeds, r.gradients))
    return nodes, edges, cut


def _source_node(node_id: str, value: Any, array: Any, tracked: bool) -> Node:
    name = "watched" if tracked else "constant"
    if isinstance(value, Variable):
        name = value.name
    return Node(node_id, "source", name, _short(array), None, summarize(array))


def _drop_untracked_gradients(records: list, edges: list[Edge]) -> None:
    """Gradients a rule computed for inputs no tape tracked (constants) go nowhere: not drawn."""
    untracked = set()
    for r in records:
        for i, tracked in enumerate(r.input_tracked):
            if not tracked:
                untracked.add((f"n{r.index}", i))
    keep = [e for e in edges if not (e.kind == "gradient" and (e.source, e.input) in untracked)]
    edges[:] = keep


def _op_title(r: Any) -> str:
    lines = [f"{r.label} ({r.op.type})", f"created at {r.created_at}"]
    if r.custom:
        lines.append(f"rule defined at {r.defined_at}")
    for i, v in enumerate(r.input_values):
        lines.append(f"input {i}: {summarize(v)}")
    for i, y in enumerate(r.op.outputs):
        lines.append(f"output {i}: {summarize(y)}")
    return "\n".join(lines)


def _gradient_edges(r: Any, node_id: str, input_nodes: list[str], edges: list[Edge]) -> None:
    for i, src in enumerate(input_nodes):
        values = [g.downstream[i] for g in r.gradients if g.downstream[i] is not None]
        if values:
            edges.append(_gradient_edge(node_id, src, values, r.gradients, i))


def _gradient_edge(source: str, target: str, values: list, gradients: list, i: int = -1) -> Edge:
    passes = ", ".join(f"pass {g.pass_index}: {summarize(v)}" for g, v in zip(gradients, values))
    label = "∇ " + _short(values[-1]) + (f" (×{len(values)})" if len(values) > 1 else "")
    return Edge(source, target, "gradient", label, passes, values, i)


# --- Graphviz DOT ---------------------------------------------------------------------


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(trace: Any) -> str:
    """The graph as Graphviz DOT text (forward edges solid, gradients dashed and orange)."""
    nodes, edges, cut = build(trace)
    lines = [
        "digraph trace {",
        "  rankdir=LR;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    if cut:
        lines.append(f'  label="first {MAX_NODES} ops of the trace";')
    for n in nodes:
        shape = ", shape=ellipse" if n.kind in ("source", "output") else ""
        pen = ", penwidth=2" if n.kind == "custom" else ""
        lines.append(
            f'  {n.id} [label="{_dot_text(n.label + chr(10) + n.detail)}", '
            f'fillcolor="{COLORS[n.kind]}"{shape}{pen}, tooltip="{_dot_text(n.title)}"];'
        )
    for e in edges:
        if e.kind == "forward":
            lines.append(f'  {e.source} -> {e.target} [label="{_dot_text(e.label)}"];')
        else:
            lines.append(
                f'  {e.source} -> {e.target} [label="{_dot_text(e.label)}", '
                f'color="{GRADIENT_COLOR}", fontcolor="{GRADIENT_COLOR}", style=dashed, '
                f'constraint=false, tooltip="{_dot_text(e.title)}"];'
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_svg(trace: Any) -> str:
    """SVG through Graphviz's ``dot`` when installed, else :func:`layout_svg`."""
    dot = shutil.which("dot")
    if dot is not None:
        done = subprocess.run(
            [dot, "-Tsvg"], input=to_dot(trace), capture_output=True, text=True, timeout=120
        )
        if done.returncode == 0:
            return done.stdout
    return layout_svg(*build(trace)[:2])


# --- the built-in layout ----------------------------------------------------------------

WIDTH, HEIGHT, COLUMN, ROW, MARGIN = 170, 46, 250, 84, 30


def _positions(nodes: list[Node], edges: list[Edge]) -> dict[str, tuple[float, float]]:
    inputs: dict[str, list[str]] = {}
    for e in edges:
        if e.kind == "forward":
            inputs.setdefault(e.target, []).append(e.source)
    kinds = {n.id: n.kind for n in nodes}
    rank: dict[str, int] = {}
    for n in nodes:  # creation order: producers before consumers; sources placed below
        if n.kind != "source":
            ranks = [rank[s] for s in inputs.get(n.id, []) if kinds[s] != "source"]
            rank[n.id] = 1 + max(ranks, default=0)
    for target, sources in inputs.items():
        for s in sources:
            if kinds[s] == "source":
                rank[s] = min(rank.get(s, rank[target] - 1), rank[target] - 1)
    rows: dict[int, int] = {}
    place = {}
    for n in nodes:
        r = rank[n.id]
        place[n.id] = (MARGIN + r * COLUMN, MARGIN + 20 + rows.get(r, 0) * ROW)
        rows[r] = rows.get(r, 0) + 1
    return place


def layout_svg(nodes: list[Node], edges: list[Edge], prefix: str = "") -> str:
    """The graph drawn without Graphviz: ranks as columns, creation order as rows.

    Every node and edge is a ``<g>`` with ``data-node`` / ``data-edge`` attributes and a
    ``<title>`` (hover text), for pages to attach click handlers to.
    """
    place = _positions(nodes, edges)
    width = max([x for x, _ in place.values()] + [0]) + WIDTH + MARGIN
    height = max([y for _, y in place.values()] + [0]) + HEIGHT + 2 * MARGIN
    esc = html.escape
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rg-graph" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, '
        f'sans-serif" font-size="11">',
        "<defs>",
        f'<marker id="{prefix}arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker>',
        f'<marker id="{prefix}garrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{GRADIENT_COLOR}"/></marker>',
        "</defs>",
    ]
    for k, e in enumerate(edges):
        parts.append(_svg_edge(k, e, place, prefix, esc))
    for n in nodes:
        x, y = place[n.id]
        rx = HEIGHT / 2 if n.kind in ("source", "output") else 8
        stroke = GRADIENT_COLOR if n.kind == "custom" else "#5b6b82"
        sw = 2.5 if n.kind == "custom" else 1
        parts.append(
            f'<g class="rg-node rg-{n.kind}" data-node="{esc(n.id)}" tabindex="0">'
            f"<title>{esc(n.title)}</title>"
            f'<rect x="{x}" y="{y}" width="{WIDTH}" height="{HEIGHT}" rx="{rx}" '
            f'fill="{COLORS[n.kind]}" stroke="{stroke}" stroke-width="{sw}"/>'
            f'<text x="{x + WIDTH / 2}" y="{y + 19}" text-anchor="middle" font-weight="bold">'
            f"{esc(_clip(n.label, 26))}</text>"
            f'<text x="{x + WIDTH / 2}" y="{y + 35}" text-anchor="middle" fill="#444">'
            f"{esc(_clip(n.detail, 30))}</text></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_edge(k: int, e: Edge, place: dict, prefix: str, esc: Any) -> str:
    (x1, y1), (x2, y2) = place[e.source], place[e.target]
    if e.kind == "forward":
        ax, ay, bx, by = x1 + WIDTH, y1 + HEIGHT / 2, x2, y2 + HEIGHT / 2
        bend = max(40.0, abs(bx - ax) / 2)
        path = f"M{ax},{ay} C{ax + bend},{ay} {bx - bend},{by} {bx},{by}"
        style = 'stroke="#555" fill="none"'
        marker, color, ly = f"{prefix}arrow", "#333", (ay + by) / 2 - 4
    else:  # backwards, below the forward edges: from the consumer's left to the producer
        ax, ay, bx, by = x1, y1 + HEIGHT - 6, x2 + WIDTH, y2 + HEIGHT - 6
        drop = 34 if abs(ay - by) < 1 else 18
        path = f"M{ax},{ay} C{ax - 40},{ay + drop} {bx + 40},{by + drop} {bx},{by}"
        style = f'stroke="{GRADIENT_COLOR}" stroke-dasharray="5,3" fill="none"'
        marker, color, ly = f"{prefix}garrow", GRADIENT_COLOR, (ay + by) / 2 + drop + 2
    lx = (ax + bx) / 2
    title = esc(e.title or e.label)
    return (
        f'<g class="rg-edge rg-{e.kind}" data-edge="{k}"><title>{title}</title>'
        f'<path d="{path}" {style} stroke-width="1.4" marker-end="url(#{marker})"/>'
        f'<text x="{lx}" y="{ly}" text-anchor="middle" fill="{color}">'
        f"{esc(_clip(e.label, 34))}</text></g>"
    )


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
