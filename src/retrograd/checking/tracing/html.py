"""A trace as one self-contained HTML page: the graph of each backward pass (Graphviz's
layout when ``dot`` is installed, the built-in layered one otherwise) with pan, zoom, fit
and a switch that collapses name scopes and custom-gradient functions; details of any node
on click (inputs, outputs, upstream, local and downstream gradients per pass); the table
of each pass in a monospace grid and the rules report. No external resources: it opens
offline, from a file or in a notebook."""

from __future__ import annotations

import html
import itertools
import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from retrograd.checking.observing import summarize
from retrograd.checking.tracing.assets import SCRIPT, STYLE
from retrograd.checking.tracing.functions import function_view
from retrograd.checking.tracing.graph import (
    COLORS,
    GRADIENT_COLOR,
    KIND_NAMES,
    build,
    dot_svg,
    has_groups,
    records_by_pass,
    view_dot,
)
from retrograd.checking.tracing.layout import layout_svg
from retrograd.checking.tracing.report import HEADER, table_rows
from retrograd.core.atomic_files import write_text

__all__ = ["to_html", "fragment"]

_counter = itertools.count()
MAX_VIEWS = 30  # backward passes with a view of their own; later ones are in "every op"
MAX_ROWS = 2000  # table rows per view on the page
GRAPHVIZ_BUDGET = 3000  # nodes laid out by Graphviz per page; beyond, the built-in layout


def _node_data(nodes: list) -> dict:
    out: dict[str, dict] = {}
    for n in nodes:
        if n.id in out:
            continue
        facts = [["id", n.id], ["kind", KIND_NAMES[n.kind]]]
        gradients = []
        r = n.record
        if r is not None and n.kind != "variable":
            facts += [
                ["op type", r.op.type],
                ["name", r.label],
                ["created at", r.created_at],
                ["gradient rule", r.defined_at],
                *[[f"input {i}", summarize(v, 24)] for i, v in enumerate(r.input_values)],
                *[[f"output {i}", summarize(y, 24)] for i, y in enumerate(r.op.outputs)],
            ]
            if r.children:
                facts.append(["ran inside", ", ".join(c.op.type for c in r.children)])
        else:
            facts.append(["value", n.title])
        for g in [] if r is None else r.gradients:
            up = "; ".join(summarize(u, 24) for u in g.upstream)
            for i, (x, d, loc) in enumerate(zip(g.inputs, g.downstream, g.local)):
                if d is not None:
                    local = "-" if loc is None else summarize(loc, 24)
                    gradients.append(
                        [str(g.pass_index), str(i), summarize(x, 24), up, local,
                         summarize(d, 24)]
                    )  # fmt: skip
        out[n.id] = {"label": n.label, "facts": facts, "gradients": gradients}
    return out


def _views(trace: Any) -> list[tuple[str, str, int | None, Any]]:
    """(key, title, pass index, traced function) of each view: one per backward pass, one
    per traced function (its graph), then every op."""
    views = []
    for p in range(1, min(trace.passes, MAX_VIEWS) + 1):
        note = trace.pass_notes.get(p)
        title = f"backward pass {p}" + (f" ({note.split(':')[0]})" if note else "")
        views.append((f"p{p}", title, p, None))
    for k, record in enumerate(trace.functions()):
        views.append((f"f{k}", f"function '{record.name}': its graph as traced", None, record))
    views.append(("all", "every op recorded (all passes)", None, None))
    return views


def _drawings(root: str, views: list[tuple[str, Any]]) -> list[str]:
    """The SVG of each ``(key, view)``: Graphviz's (several ``dot`` processes at once) for
    the first views up to GRAPHVIZ_BUDGET nodes in all, the built-in layout for the rest
    (a page of many big passes would otherwise take minutes)."""
    budget, chosen = GRAPHVIZ_BUDGET, []
    for _, view in views:
        budget -= len(view.nodes)
        chosen.append(budget >= 0)
    texts = [view_dot(v, f"{root}-{k}-") if c else None for (k, v), c in zip(views, chosen)]
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        drawn = list(pool.map(lambda t: None if t is None else dot_svg(t), texts))
    return [svg or layout_svg(view, f"{root}-{key}-") for (key, view), svg in zip(views, drawn)]


def _picture(root: str, key: str, view: Any, svg: str) -> str:
    prefix = f"{root}-{key}-"
    c = view.counts()
    nodes = sum(v for k, v in c.items() if k not in ("edges", "gradient edges"))
    esc = html.escape
    return (
        f'<div class="rg-picture" data-key="{esc(key)}" data-view="{esc(key[:-2])}" '
        f'data-prefix="{esc(prefix)}" data-nodes="{nodes}" data-edges="{c["edges"]}" hidden>'
        f'{svg}<div class="rg-caption">{esc(view.caption())}</div></div>'
    )


def _rows(trace: Any, key: str, pass_index: int | None, function: Any = None) -> str:
    if function is not None:
        return (
            f'<div class="rg-rows" data-view="{key}" hidden><p>The ops of a traced function '
            f"run inside its compiled runs, not one by one: the graph shows them with their "
            f"shapes; the rules of its backward ops ran while it was traced (symbolic "
            f"passes).</p></div>"
        )
    rows = table_rows(trace, pass_index=pass_index)
    esc = html.escape
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows[:MAX_ROWS]
    )
    more = (
        f"<p>{len(rows) - MAX_ROWS} more rows: see <code>trace.table()</code></p>"
        if len(rows) > MAX_ROWS
        else ""
    )
    head = "".join(f"<th>{h}</th>" for h in HEADER)
    return (
        f'<div class="rg-rows" data-view="{key}" hidden><table class="rg-grid"><tr>{head}</tr>'
        f"{body}</table>{more}</div>"
    )


def fragment(trace: Any) -> str:
    """The page's body: views of the graph, details panel, table and rules report.

    Self-contained (its own style and script, no external resources), so it also serves as
    a notebook cell's output."""
    root = f"rg-trace-{os.getpid()}-{next(_counter)}"
    esc = html.escape
    views = _views(trace)
    records = records_by_pass(trace)
    groups = has_groups(trace)  # the switch is there when something can collapse
    options, tables, drawn = [], [], []
    for key, title, p, function in views:
        options.append(f'<option value="{esc(key)}">{esc(title)}</option>')
        for collapse in (False, True) if groups else (False,):
            if function is None:
                view = build(trace, p, collapse, records)
            else:
                view = function_view(function, int(key[1:]), collapse)
            drawn.append((f"{key}-{'c' if collapse else 'e'}", view))
        tables.append(_rows(trace, key, p, function))
    svgs = _drawings(root, drawn)
    pictures = [_picture(root, key, view, svg) for (key, view), svg in zip(drawn, svgs)]
    all_nodes = [n for _, view in drawn for n in view.nodes]
    # Inside <script>, "<!--" and "</script" would end or bend the element: JSON's \u escapes
    # keep names like "<!--<script>" as data.
    data = json.dumps({"nodes": _node_data(all_nodes)})
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    summary = (
        f"Recorded {len(trace.ops)} ops (inputs and outputs not counted) and "
        f"{len(trace.gradients)} gradient rule calls in {trace.passes} backward pass(es)"
        + (f" (recording stopped at {trace.max_ops} ops)" if trace.truncated else "")
        + (f"; the first {MAX_VIEWS} passes have views" if trace.passes > MAX_VIEWS else "")
    )
    notes = "".join(f"<li>{esc(note)}</li>" for note in trace.notes())
    notes = f'<ul class="rg-notes">{notes}</ul>' if notes else ""
    key = "".join(
        f'<span style="background:{COLORS[k]}">{esc(KIND_NAMES[k])}</span>' for k in COLORS
    ) + (
        f'<span style="color:{GRADIENT_COLOR}; border-style:dashed">- - - a gradient flowed '
        "back along this edge</span>"
    )
    toggle = (
        '<label><input type="checkbox" class="rg-collapse"> collapse name scopes and '
        "custom-gradient functions</label>"
        if groups
        else ""
    )
    return f"""<div class="rg-trace" id="{root}">
<style>{STYLE}</style>
<h1>retrograd trace</h1>
<p>{esc(summary)}. Click a node (or open the page with <code>#node=n12</code>, its id) for its
values and gradient records; hover for a summary; drag to pan, wheel to zoom.</p>{notes}
<div class="rg-bar"><select class="rg-view" aria-label="view">{"".join(options)}</select>
{toggle}<button class="rg-zoom-out" title="zoom out">−</button>
<button class="rg-zoom-in" title="zoom in">+</button><button class="rg-fit">fit</button>
<button class="rg-actual">1:1</button></div>
<p class="rg-key">{key}</p>
<div class="rg-main"><div class="rg-canvas">{"".join(pictures)}</div>
<div class="rg-details">Click a node in the graph.</div></div>
<h2>Backward pass, rule by rule</h2>
<div class="rg-tables">{"".join(tables)}</div>
<h2>Rules fired and bypassed</h2>
<pre class="rg-rules">{esc(str(trace.rules()))}</pre>
<script type="application/json" id="{root}-data">{data}</script>
<script>{SCRIPT % {"root": root}}</script>
</div>"""


def to_html(trace: Any, path: Any = None) -> str:
    """The whole page as text; also written to ``path`` (UTF-8, atomically) when given."""
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>retrograd trace</title>\n</head>\n<body>\n"
        f"{fragment(trace)}\n</body>\n</html>\n"
    )
    if path is not None:
        write_text(path, page)
    return page
