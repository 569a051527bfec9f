"""The trace page's style sheet and script, inlined into every page (no network needed).

The script gives each page: a view selector (one view per backward pass, and every op),
a switch that collapses name scopes and custom-gradient functions, pan (drag), zoom
(wheel, ``+``/``-``), fit and 1:1, details of a node on click or Enter, and deep links
(``#node=n12``, ``#view=p2``, ``#collapse``). Opened with ``#selfcheck`` it also measures
every view as drawn (nodes, overlapping texts, text outside its box, smallest text on
screen) into ``.rg-selfcheck``, which the browser test reads.
"""

from __future__ import annotations

__all__ = ["STYLE", "SCRIPT"]

STYLE = """
.rg-trace { font-family: Helvetica, Arial, sans-serif; color: #222; font-size: 14px; }
.rg-trace h1 { font-size: 18px; margin: 6px 0; }
.rg-trace h2 { font-size: 15px; margin: 14px 0 6px; }
.rg-trace .rg-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center;
  margin: 6px 0; }
.rg-trace .rg-bar button, .rg-trace .rg-bar select { font-size: 13px; padding: 2px 8px; }
.rg-trace .rg-main { display: flex; flex-wrap: wrap; gap: 10px; align-items: stretch; }
.rg-trace .rg-canvas { flex: 1 1 480px; min-width: 0; border: 1px solid #ccd;
  height: 540px; position: relative; overflow: hidden; background: #fff; cursor: grab; }
.rg-trace .rg-canvas.rg-dragging { cursor: grabbing; }
.rg-trace .rg-canvas svg { display: block; user-select: none; }
.rg-trace .rg-caption { position: absolute; left: 6px; bottom: 4px; font-size: 12px;
  background: rgba(255,255,255,0.85); padding: 1px 4px; pointer-events: none; }
.rg-trace .rg-details { flex: 0 1 340px; min-width: 240px; max-width: 100%;
  border: 1px solid #ccd; padding: 8px; font-size: 12px; height: 540px;
  box-sizing: border-box; overflow: auto; }
.rg-trace .rg-notes { font-size: 13px; margin: 4px 0; }
.rg-trace .rg-node { cursor: pointer; }
.rg-trace .rg-node:hover path, .rg-trace .rg-node:hover polygon,
.rg-trace .rg-node:hover ellipse, .rg-trace .rg-node:hover rect,
.rg-trace .rg-selected path, .rg-trace .rg-selected polygon,
.rg-trace .rg-selected ellipse, .rg-trace .rg-selected rect {
  stroke: #1c7ed6; stroke-width: 3; }
.rg-trace table.rg-grid, .rg-trace .rg-details table { border-collapse: collapse;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size: 12px; }
.rg-trace .rg-grid td, .rg-trace .rg-grid th, .rg-trace .rg-details td,
.rg-trace .rg-details th { border: 1px solid #ddd; padding: 2px 6px; text-align: left;
  vertical-align: top; white-space: pre; }
.rg-trace .rg-grid th { background: #f1f3f5; }
.rg-trace .rg-tables { max-height: 420px; overflow: auto; }
.rg-trace pre { background: #f7f7f9; padding: 8px; overflow: auto; font-size: 12px;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.rg-trace .rg-key span { display: inline-block; padding: 1px 6px; margin: 2px 6px 2px 0;
  border: 1px solid #999; border-radius: 4px; font-size: 12px; }
.rg-trace [hidden] { display: none !important; }
.rg-trace .rg-details td { white-space: pre-wrap; overflow-wrap: anywhere; }
.rg-trace .rg-details table { width: 100%; table-layout: fixed; }
"""

SCRIPT = r"""
(function () {
  var root = document.getElementById("%(root)s");
  var data = JSON.parse(document.getElementById("%(root)s-data").textContent);
  var canvas = root.querySelector(".rg-canvas");
  var panel = root.querySelector(".rg-details");
  var select = root.querySelector(".rg-view");
  var collapse = root.querySelector(".rg-collapse");
  var state = null;  // {box, svg, x, y, w, h (the original viewBox), scale, vx, vy}

  function visibleBox() {
    var key = select.value + (collapse && collapse.checked ? "-c" : "-e");
    var found = null;
    root.querySelectorAll(".rg-picture").forEach(function (box) {
      var on = box.getAttribute("data-key") === key;
      box.hidden = !on;
      if (on) { found = box; }
    });
    root.querySelectorAll(".rg-rows").forEach(function (t) {
      t.hidden = t.getAttribute("data-view") !== select.value;
    });
    return found;
  }
  function apply() {
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    state.svg.setAttribute("width", cw);
    state.svg.setAttribute("height", ch);
    state.svg.setAttribute("viewBox", [state.vx, state.vy, cw / state.scale,
                                       ch / state.scale].join(" "));
  }
  var LEGIBLE = 0.75;  // 11 px text drawn at 8 px at least
  function fit() {  // the whole picture if its text stays legible, else its width, from the top
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    var s = Math.min(cw / state.w, ch / state.h, 2);
    if (s >= LEGIBLE) {
      state.scale = s;
      state.vx = state.x - (cw / s - state.w) / 2;
      state.vy = state.y - (ch / s - state.h) / 2;
    } else {
      state.scale = Math.max(Math.min(cw / state.w, 2), LEGIBLE);
      state.vx = state.x - Math.max(0, (cw / state.scale - state.w) / 2);
      state.vy = state.y;
    }
    apply();
  }
  function readable() {  // whole picture if its text stays readable, else 1:1 from the top
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    var s = Math.min(cw / state.w, ch / state.h, 1.25);
    if (s >= 0.8) { fit(); return; }
    state.scale = Math.max(s, 0.8);
    state.vx = state.x - Math.max(0, (cw / state.scale - state.w) / 2);
    state.vy = state.y;
    apply();
  }
  function zoom(factor, px, py) {
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    if (px === undefined) { px = cw / 2; py = ch / 2; }
    var ux = state.vx + px / state.scale, uy = state.vy + py / state.scale;
    state.scale = Math.max(0.05, Math.min(8, state.scale * factor));
    state.vx = ux - px / state.scale;
    state.vy = uy - py / state.scale;
    apply();
  }
  function show() {
    var box = visibleBox();
    if (!box) { return; }
    var svg = box.querySelector("svg");
    if (!box.rgState) {
      var vb = (svg.getAttribute("viewBox") || "0 0 100 100").split(/[ ,]+/).map(Number);
      box.rgState = {box: box, svg: svg, x: vb[0], y: vb[1], w: vb[2], h: vb[3]};
      svg.removeAttribute("style");
      state = box.rgState;
      readable();
    } else {
      state = box.rgState;
      apply();
    }
  }
  function cell(tag, text) {
    var td = document.createElement(tag);
    td.textContent = text;
    return td;
  }
  function table(rows, header) {
    var t = document.createElement("table");
    if (header) {
      var tr = document.createElement("tr");
      header.forEach(function (h) { tr.appendChild(cell("th", h)); });
      t.appendChild(tr);
    }
    rows.forEach(function (r) {
      var tr = document.createElement("tr");
      r.forEach(function (c) { tr.appendChild(cell("td", c)); });
      t.appendChild(tr);
    });
    return t;
  }
  function nodeId(el) {
    return el.id.slice(el.closest(".rg-picture").getAttribute("data-prefix").length);
  }
  function details(id, center) {
    var info = data.nodes[id];
    if (!info || !state) { return false; }
    var el = document.getElementById(state.box.getAttribute("data-prefix") + id);
    if (!el) { return false; }
    root.querySelectorAll(".rg-selected").forEach(function (s) {
      s.classList.remove("rg-selected");
    });
    el.classList.add("rg-selected");
    panel.textContent = "";
    panel.appendChild(cell("h2", info.label));
    panel.appendChild(table(info.facts));
    if (info.gradients.length) {
      panel.appendChild(cell("h2", "Gradient records"));
      panel.appendChild(table(info.gradients,
                              ["pass", "input", "x", "upstream", "local", "downstream"]));
    }
    if (center) {
      var r = el.getBoundingClientRect(), c = canvas.getBoundingClientRect();
      state.vx += (r.left + r.width / 2 - c.left - c.width / 2) / state.scale;
      state.vy += (r.top + r.height / 2 - c.top - c.height / 2) / state.scale;
      apply();
    }
    return true;
  }
  root.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target.closest(".rg-node") : null;
    if (el && root.contains(el) && !moved) { details(nodeId(el), false); }
  });
  root.addEventListener("keydown", function (event) {
    var el = event.target.closest ? event.target.closest(".rg-node") : null;
    if (el && event.key === "Enter") { details(nodeId(el), false); }
  });
  root.querySelectorAll(".rg-node").forEach(function (el) { el.setAttribute("tabindex", "0"); });
  var drag = null, moved = false;
  canvas.addEventListener("mousedown", function (event) {
    drag = {x: event.clientX, y: event.clientY, vx: state.vx, vy: state.vy};
    moved = false;
  });
  window.addEventListener("mousemove", function (event) {
    if (!drag) { return; }
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { moved = true; canvas.classList.add("rg-dragging"); }
    state.vx = drag.vx - dx / state.scale;
    state.vy = drag.vy - dy / state.scale;
    apply();
  });
  window.addEventListener("mouseup", function () {
    drag = null;
    canvas.classList.remove("rg-dragging");
  });
  canvas.addEventListener("wheel", function (event) {
    event.preventDefault();
    var c = canvas.getBoundingClientRect();
    zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - c.left, event.clientY - c.top);
  }, {passive: false});
  root.querySelector(".rg-zoom-in").addEventListener("click", function () { zoom(1.25); });
  root.querySelector(".rg-zoom-out").addEventListener("click", function () { zoom(0.8); });
  root.querySelector(".rg-fit").addEventListener("click", fit);
  root.querySelector(".rg-actual").addEventListener("click", function () {
    state.scale = 1; state.vx = state.x; state.vy = state.y; apply();
  });
  select.addEventListener("change", show);
  if (collapse) { collapse.addEventListener("change", show); }
  window.addEventListener("resize", function () { if (state) { apply(); } });

  function overlaps(a, b) {
    return a.left < b.right - 1 && b.left < a.right - 1 &&
           a.top < b.bottom - 1 && b.top < a.bottom - 1;
  }
  function smallestText(box) {
    var smallest = 1e9;
    box.querySelectorAll(".rg-node text").forEach(function (t) {
      smallest = Math.min(smallest, t.getBoundingClientRect().height);
    });
    return Math.round(smallest * 10) / 10;
  }
  function measure() {  // #selfcheck: what each view looks like when first shown, and fit
    var out = {};
    root.querySelectorAll(".rg-picture").forEach(function (box) {
      var key = box.getAttribute("data-key");
      select.value = box.getAttribute("data-view");
      if (collapse) { collapse.checked = key.slice(-2) === "-c"; }
      show();
      var texts = [], outside = 0, smallest = 1e9;
      box.querySelectorAll(".rg-node").forEach(function (node) {
        var shape = node.querySelector("rect, polygon, ellipse, path").getBoundingClientRect();
        node.querySelectorAll("text").forEach(function (t) {
          var r = t.getBoundingClientRect();
          texts.push({node: node, r: r});
          smallest = Math.min(smallest, r.height);
          if (r.left < shape.left - 1 || r.right > shape.right + 1 ||
              r.top < shape.top - 1 || r.bottom > shape.bottom + 1) { outside += 1; }
        });
      });
      var crossing = 0;
      for (var i = 0; i < texts.length; i++) {
        for (var j = i + 1; j < texts.length; j++) {
          if (texts[i].node !== texts[j].node && overlaps(texts[i].r, texts[j].r)) {
            crossing += 1;
          }
        }
      }
      var shownScale = state.scale;
      fit();
      out[key] = {nodes: box.querySelectorAll(".rg-node").length,
                  edges: box.querySelectorAll(".rg-edge").length,
                  caption_nodes: Number(box.getAttribute("data-nodes")),
                  caption_edges: Number(box.getAttribute("data-edges")),
                  overlapping_texts: crossing, texts_outside_nodes: outside,
                  smallest_text_px: Math.round(smallest * 10) / 10, scale: shownScale,
                  fit_smallest_text_px: smallestText(box)};
    });
    var first = root.querySelector(".rg-picture:not([hidden]) .rg-node");
    if (first) { details(nodeId(first), false); }
    var page = document.documentElement.clientWidth;
    var p = panel.getBoundingClientRect();
    out.panel = {right: Math.round(p.right), page: page, width: Math.round(p.width),
                 cut: panel.scrollWidth > panel.clientWidth + 1};
    var pre = document.createElement("pre");
    pre.className = "rg-selfcheck";
    pre.textContent = JSON.stringify(out);
    root.appendChild(pre);
  }

  var hash = window.location.hash;
  var wantedView = /view=([A-Za-z0-9_-]+)/.exec(hash);
  if (/selfcheck/.test(hash)) { measure(); }
  select.value = wantedView ? wantedView[1] : select.options[0].value;
  if (collapse) { collapse.checked = /collapse/.test(hash); }
  show();
  var wanted = /node=([A-Za-z0-9_-]+)/.exec(hash);
  if (wanted && !details(wanted[1], true)) {  // in another view: the first that draws it
    var options = Array.prototype.slice.call(select.options);
    for (var k = 0; k < options.length; k++) {
      select.value = options[k].value;
      show();
      if (details(wanted[1], true)) { break; }
    }
  }
  root.setAttribute("data-ready", "true");
})();
"""
