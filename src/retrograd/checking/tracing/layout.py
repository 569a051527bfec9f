"""The built-in layered layout (used when Graphviz is not installed): top-down, as ``dot``.

Each node goes on the layer one below its lowest producer (inputs and variables just
above their first consumer); the nodes of a layer are ordered by the mean position of
their neighbours (a few sweeps down and up, which untangles most crossings), then placed
left to right without overlapping, each as close as it can get to its neighbours' centre.
An edge between neighbouring layers is a curve through the gap between them; one that
skips layers runs through the gaps and down a lane of its own right of the layers it
skips, so no edge crosses a node.
Node sizes come from their text in a monospace font, so text never leaves its box, and no
text is drawn on edges, so no label can overlap another.

The SVG has Graphviz's structure: ``<g class="node ...">`` and ``<g class="edge">`` with
a ``<title>``, so the page treats both drawings alike.

>>> from retrograd.checking.tracing.graph import Edge, Node, View
>>> view = View(1, False, [Node("a", "source", "x", ["1.0"]), Node("b", "op", "Exp", [])],
...             [Edge("a", "b", gradient=True)])
>>> svg = layout_svg(view)
>>> svg.count('class="node'), svg.count('class="edge'), "stroke-dasharray" in svg
(2, 1, True)
"""

from __future__ import annotations

import html
from typing import Any

from retrograd.checking.tracing.graph import COLORS, GRADIENT_COLOR, View, node_text

__all__ = ["layout_svg", "positions"]

CHAR, LINE, PAD_X, PAD_Y = 6.8, 15.0, 10.0, 7.0  # 11 px monospace: advance and line height
GAP_X, GAP_Y, MARGIN = 26.0, 44.0, 16.0


def _size(lines: list[str]) -> tuple[float, float]:
    width = max(len(s) for s in lines) * CHAR + 2 * PAD_X
    return max(width, 60.0), len(lines) * LINE + 2 * PAD_Y


def _topological(ids: list[str], parents: dict, children: dict) -> list[str]:
    """``ids`` with every node after its parents (Kahn's algorithm, ties in ``ids`` order)."""
    waiting = {i: len(parents[i]) for i in ids}
    ready = [i for i in reversed(ids) if not waiting[i]]
    out: list[str] = []
    while ready:
        i = ready.pop()
        out.append(i)
        for c in reversed(children[i]):
            waiting[c] -= 1
            if not waiting[c]:
                ready.append(c)
    return out + [i for i in ids if waiting[i] > 0]  # a cycle cannot happen; stay total


def positions(view: View) -> dict[str, tuple[float, float, float, float]]:
    """Node id -> (x, y, width, height) of its box."""
    return _layout(view)[0]


def _layout(view: View) -> tuple[dict, dict[str, int], list[tuple[float, float, float]]]:
    """Boxes, each node's layer, and each layer's (top, bottom, right end)."""
    ids = [n.id for n in view.nodes]
    sizes = {n.id: _size(node_text(n)) for n in view.nodes}
    parents: dict[str, list[str]] = {i: [] for i in ids}
    children: dict[str, list[str]] = {i: [] for i in ids}
    for e in view.edges:
        if e.source in parents and e.target in parents:
            parents[e.target].append(e.source)
            children[e.source].append(e.target)
    layer: dict[str, int] = {}
    for i in _topological(ids, parents, children):  # longest path from the top
        layer[i] = 1 + max((layer.get(p, 0) for p in parents[i]), default=-1)
    kinds = {n.id: n.kind for n in view.nodes}
    for i in ids:  # inputs and variables sit just above their first consumer
        if kinds[i] in ("source", "variable") and not parents[i] and children[i]:
            layer[i] = max(0, min(layer[c] for c in children[i]) - 1)
    depth = max(layer.values(), default=-1) + 1
    layers: list[list[str]] = [[] for _ in range(depth)]
    for i in ids:
        layers[layer[i]].append(i)
    order = {i: k for row in layers for k, i in enumerate(row)}
    for sweep in range(6):  # barycentre ordering, alternately downwards and upwards
        rows = layers[1:] if sweep % 2 == 0 else layers[-2::-1]
        for row in rows:
            near = parents if sweep % 2 == 0 else children

            def key(i: str, near: dict = near) -> float:
                around = [order[j] for j in near[i]]
                return sum(around) / len(around) if around else order[i]

            row.sort(key=key)
            for k, i in enumerate(row):
                order[i] = k
    place: dict[str, tuple[float, float, float, float]] = {}
    y = MARGIN
    centres: dict[str, float] = {}
    extents: list[tuple[float, float, float]] = []
    for row in layers:
        height = max((sizes[i][1] for i in row), default=0.0)
        wanted = []
        for i in row:
            above = [centres[p] for p in parents[i] if p in centres]
            wanted.append(sum(above) / len(above) if above else None)
        x = MARGIN
        for i, want in zip(row, wanted):
            w, h = sizes[i]
            left = x if want is None else max(x, want - w / 2)
            place[i] = (left, y + (height - h) / 2, w, h)
            centres[i] = left + w / 2
            x = left + w + GAP_X
        extents.append((y, y + height, x - GAP_X))
        y += height + GAP_Y
    return place, layer, extents


def layout_svg(view: View, prefix: str = "") -> str:
    """The view as SVG without Graphviz (see the module's docstring)."""
    place, layer, extents = _layout(view)
    edges = []
    lanes = 0  # edges that skip layers run down lanes right of the layers they skip
    for k, e in enumerate(view.edges):
        if e.source not in place or e.target not in place:
            continue
        first, last = layer[e.source], layer[e.target]
        points = None
        if last - first > 1:
            lane = max(extents[i][2] for i in range(first + 1, last)) + GAP_X / 2 + 7 * lanes
            lanes += 1
            points = (extents[first][1] + GAP_Y / 2, lane, extents[last][0] - GAP_Y / 2)
        edges.append(_edge(k, e, place[e.source], place[e.target], points, prefix, html.escape))
    right = max((x + w for x, _, w, _ in place.values()), default=0.0)
    width = max(right, max((extents[i][2] for i in range(len(extents))), default=0.0)) + MARGIN
    width += 7 * lanes + GAP_X / 2 if lanes else 0
    height = max((y + h for _, y, _, h in place.values()), default=0.0) + MARGIN
    esc = html.escape
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}pt" height="{height:.0f}pt"'
        f' viewBox="0 0 {width:.1f} {height:.1f}" font-family="monospace" font-size="11">',
        "<defs>",
        f'<marker id="{esc(prefix)}arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#666"/></marker>',
        f'<marker id="{esc(prefix)}garrow" viewBox="0 0 10 10" refX="0" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto"><path d="M10,0 L0,5 L10,10" fill="none" '
        f'stroke="{GRADIENT_COLOR}" stroke-width="1.5"/></marker>',
        "</defs>",
    ]
    parts += edges
    for n in view.nodes:
        x, y, w, h = place[n.id]
        round_ = h / 2 if n.kind in ("source", "output", "variable") else 6
        stroke = GRADIENT_COLOR if n.kind == "custom" else "#5b6b82"
        extra = ' stroke-dasharray="4,2"' if n.kind == "backward" else ""
        sw = 2 if n.kind in ("custom", "scope") else 1
        text = []
        for k, line in enumerate(node_text(n)):
            weight = ' font-weight="bold"' if k == 0 else ' fill="#333"'
            text.append(
                f'<text x="{x + w / 2:.1f}" y="{y + PAD_Y + LINE * (k + 1) - 4:.1f}" '
                f'text-anchor="middle"{weight}>{esc(line)}</text>'
            )
        parts.append(  # every attribute value escaped, ids included (no user text in them)
            f'<g id="{esc(prefix + n.id)}" class="node rg-node rg-{esc(n.kind)}"><title>'
            f'{esc(n.title)}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="{round_:.1f}" fill="{esc(COLORS[n.kind])}" '
            f'stroke="{esc(stroke)}" stroke-width="{sw}"{extra}/>{"".join(text)}</g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _edge(k: int, e: Any, a: tuple, b: tuple, lane: Any, prefix: str, esc: Any) -> str:
    """From the bottom of box ``a`` to the top of box ``b``: a curve between neighbouring
    layers; through the gaps and down ``lane`` = (below a, x, above b) when it skips some."""
    ax, ay = a[0] + a[2] / 2, a[1] + a[3]
    bx, by = b[0] + b[2] / 2, b[1]
    if lane is None:
        bend = max(12.0, (by - ay) / 2)
        path = f"M{ax:.1f},{ay:.1f} C{ax:.1f},{ay + bend:.1f} {bx:.1f},{by - bend:.1f} "
        path += f"{bx:.1f},{by:.1f}"
    else:
        below, x, above = lane
        corners = [(ax, below), (x, below), (x, above), (bx, above), (bx, by)]
        path = f"M{ax:.1f},{ay:.1f} " + " ".join(f"L{px:.1f},{py:.1f}" for px, py in corners)
    if e.gradient:
        style = (
            f'stroke="{GRADIENT_COLOR}" stroke-width="1.6" stroke-dasharray="5,3" '
            f'marker-start="url(#{esc(prefix)}garrow)"'
        )
    else:
        style = 'stroke="#666" stroke-width="1"'
    return (
        f'<g id="{esc(prefix)}e{k}" class="edge rg-edge"><title>{esc(e.title)}</title>'
        f'<path d="{path}" fill="none" {style} marker-end="url(#{esc(prefix)}arrow)"/></g>'
    )
