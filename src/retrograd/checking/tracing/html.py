"""A trace as one self-contained HTML page: the graph (built-in SVG layout), details of any
op on click (inputs, outputs, upstream, local and downstream gradients per pass), the
table and the rules report. No external resources: it opens offline, from a file."""

from __future__ import annotations

import html
import itertools
import json
import os
from typing import Any

from retrograd.checking.observing import summarize
from retrograd.checking.tracing.graph import COLORS, GRADIENT_COLOR, MAX_NODES, build, layout_svg

__all__ = ["to_html", "fragment"]

_counter = itertools.count()

STYLE = """
.rg-trace { font-family: Helvetica, Arial, sans-serif; color: #222; }
.rg-trace h1 { font-size: 18px; margin: 8px 0; }
.rg-trace h2 { font-size: 15px; margin: 14px 0 6px; }
.rg-trace .rg-main { display: flex; gap: 12px; align-items: flex-start; }
.rg-trace .rg-canvas { flex: 1 1 auto; overflow: auto; border: 1px solid #ccd; max-height: 75vh; }
.rg-trace .rg-details { flex: 0 0 360px; border: 1px solid #ccd; padding: 8px;
  font-size: 12px; max-height: 75vh; overflow: auto; }
.rg-trace .rg-node { cursor: pointer; }
.rg-trace .rg-node:hover rect, .rg-trace .rg-node.rg-selected rect { stroke: #1c7ed6;
  stroke-width: 3; }
.rg-trace .rg-edge:hover path { stroke-width: 3; }
.rg-trace pre { background: #f7f7f9; padding: 8px; overflow: auto; font-size: 12px; }
.rg-trace table { border-collapse: collapse; }
.rg-trace td, .rg-trace th { border: 1px solid #ddd; padding: 2px 5px; text-align: left;
  vertical-align: top; font-family: monospace; }
.rg-trace .rg-key span { display: inline-block; padding: 1px 6px; margin-right: 6px;
  border: 1px solid #999; border-radius: 4px; font-size: 12px; }
"""

SCRIPT = """
(function () {
  var root = document.getElementById("%(root)s");
  var data = JSON.parse(document.getElementById("%(root)s-data").textContent);
  var panel = root.querySelector(".rg-details");
  function cell(text) {
    var td = document.createElement("td");
    td.textContent = text;
    return td;
  }
  function row(table, cells, header) {
    var tr = document.createElement("tr");
    cells.forEach(function (c) {
      var td = header ? document.createElement("th") : cell(c);
      if (header) { td.textContent = c; }
      tr.appendChild(td);
    });
    table.appendChild(tr);
  }
  function show(id) {
    var info = data.nodes[id];
    if (!info) { return; }
    root.querySelectorAll(".rg-selected").forEach(function (el) {
      el.classList.remove("rg-selected");
    });
    var el = root.querySelector('[data-node="' + id + '"]');
    if (el) { el.classList.add("rg-selected"); }
    panel.textContent = "";
    var title = document.createElement("h2");
    title.textContent = info.label;
    panel.appendChild(title);
    var facts = document.createElement("table");
    info.facts.forEach(function (f) { row(facts, f, false); });
    panel.appendChild(facts);
    if (info.gradients.length) {
      var head = document.createElement("h2");
      head.textContent = "Gradient records";
      panel.appendChild(head);
      var grads = document.createElement("table");
      row(grads, ["pass", "input", "x", "upstream", "local", "downstream"], true);
      info.gradients.forEach(function (g) { row(grads, g, false); });
      panel.appendChild(grads);
    }
  }
  root.querySelectorAll("[data-node]").forEach(function (el) {
    el.addEventListener("click", function () { show(el.getAttribute("data-node")); });
    el.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { show(el.getAttribute("data-node")); }
    });
  });
  var wanted = /node=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (wanted) { show(wanted[1]); }
  root.setAttribute("data-ready", "true");
})();
"""


def _node_data(nodes: list) -> dict:
    out = {}
    for n in nodes:
        facts = [["kind", n.kind], ["shown as", n.detail]]
        gradients = []
        r = n.record
        if r is not None:
            facts = [
                ["op type", r.op.type],
                ["name", r.label],
                ["created at", r.created_at],
                ["gradient rule", r.defined_at],
                *[[f"input {i}", summarize(v, 24)] for i, v in enumerate(r.input_values)],
                *[[f"output {i}", summarize(y, 24)] for i, y in enumerate(r.op.outputs)],
            ]
            if r.children:
                facts.append(["ran inside", ", ".join(c.op.type for c in r.children)])
            for g in r.gradients:
                up = "; ".join(summarize(u, 24) for u in g.upstream)
                for i, (x, d, loc) in enumerate(zip(g.inputs, g.downstream, g.local)):
                    if d is not None:
                        local = "-" if loc is None else summarize(loc, 24)
                        gradients.append(
                            [str(g.pass_index), str(i), summarize(x, 24), up, local,
                             summarize(d, 24)]
                        )  # fmt: skip
        else:
            facts.append(["value", n.title])
        out[n.id] = {"label": f"{n.label} ({n.kind})", "facts": facts, "gradients": gradients}
    return out


def fragment(trace: Any) -> str:
    """The page's body: graph, details panel, table and rules report (for Jupyter too)."""
    root = f"rg-trace-{os.getpid()}-{next(_counter)}"
    nodes, edges, cut = build(trace)
    svg = layout_svg(nodes, edges, prefix=f"{root}-")
    # Inside <script>, "<!--" and "</script" would end or bend the element: JSON's \u escapes
    # keep names like "<!--<script>" as data.
    data = json.dumps({"nodes": _node_data(nodes)})
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    esc = html.escape
    summary = (
        f"{len(trace.ops)} ops, {len(trace.gradients)} gradient records, "
        f"{trace.passes} backward pass(es)"
        + (f"; the graph shows the first {MAX_NODES} ops" if cut else "")
    )
    key = (
        "".join(
            f'<span style="background:{COLORS[k]}">{label}</span>'
            for k, label in (
                ("source", "input"),
                ("op", "op (registered rule)"),
                ("custom", "custom gradient"),
                ("backward", "gradient computation"),
                ("output", "output"),
            )
        )
        + f'<span style="color:{GRADIENT_COLOR}">- - ∇ gradient flowing back</span>'
    )
    return f"""<div class="rg-trace" id="{root}">
<style>{STYLE}</style>
<h1>retrograd trace</h1>
<p>{esc(summary)}. Click an op for its values and gradients (or open the page with
<code>#node=ID</code>); hover for a summary.</p>
<p class="rg-key">{key}</p>
<div class="rg-main"><div class="rg-canvas">{svg}</div>
<div class="rg-details">Click an op in the graph.</div></div>
<h2>Backward pass, rule by rule</h2>
<pre class="rg-table">{esc(trace.table())}</pre>
<h2>Rules fired and bypassed</h2>
<pre class="rg-rules">{esc(str(trace.rules()))}</pre>
<script type="application/json" id="{root}-data">{data}</script>
<script>{SCRIPT % {"root": root}}</script>
</div>"""


def to_html(trace: Any, path: Any = None) -> str:
    """The whole page as text; also written to ``path`` (UTF-8) when given."""
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>retrograd trace</title>\n</head>\n<body>\n"
        f"{fragment(trace)}\n</body>\n</html>\n"
    )
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    return page
