"""A trace in words: seed 000's table (x, upstream, local, downstream per rule call) and the
report of which rules fired and which custom-gradient functions were bypassed."""

from __future__ import annotations

from typing import Any

from retrograd.checking.observing import summarize
from retrograd.core.registry import function_location, gradient_registry

__all__ = ["table", "table_rows", "fit_widths", "notes", "RulesReport"]

HEADER = ("step", "op", "x", "upstream", "local", "downstream")


def table_rows(trace: Any, custom_only: bool = False, pass_index: int | None = None) -> list:
    """One row per (rule call, input with a gradient): the cells of ``table`` as text."""
    rows = []
    several_passes = trace.passes > 1 and pass_index is None
    steps: dict[int, int] = {}  # pass -> rule calls so far
    for g in _selected(trace, custom_only, pass_index):
        step = steps[g.pass_index] = steps.get(g.pass_index, 0) + 1
        upstream = "; ".join(summarize(u) for u in g.upstream)
        many = len(g.inputs) > 1
        for i, (x, d, local) in enumerate(zip(g.inputs, g.downstream, g.local)):
            if d is None:
                continue
            label = f"{g.label}[{i}]" if many else g.label
            number = f"{g.pass_index}.{step}" if several_passes else str(step)
            local_text = "-" if local is None else summarize(local)
            rows.append((number, label, summarize(x), upstream, local_text, summarize(d)))
    return rows


def _selected(trace: Any, custom_only: bool, pass_index: int | None) -> list:
    return [
        g
        for g in trace.gradients
        if (not custom_only or g.custom) and (pass_index is None or g.pass_index == pass_index)
    ]


def table(
    trace: Any, custom_only: bool = False, pass_index: int | None = None, width: int | None = None
) -> str:
    """The rows of ``table_rows`` under a header, in aligned columns.

    With several backward passes, steps are numbered ``pass.step``. ``width``: the lines
    fit in that many characters (a terminal's), the widest columns cut first, each cut
    cell ending in ``…``.
    """
    rows = [HEADER, *table_rows(trace, custom_only, pass_index)]
    widths = [max(len(r[k]) for r in rows) for k in range(len(HEADER))]
    if width is not None:
        widths = fit_widths(widths, [len(h) for h in HEADER], width)
    lines = ["  ".join(_cut(cell, w).ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    if trace.truncated:
        lines.append(f"(recording stopped after {trace.max_ops} ops)")
    return "\n".join(lines)


def fit_widths(widths: list[int], floors: list[int], width: int, gap: int = 2) -> list[int]:
    """Column widths whose sum (with ``gap`` between columns) fits ``width``: the widest
    column narrowed first, none below its floor (its header's length).

    >>> fit_widths([4, 30, 10], [4, 2, 2], 30)
    [4, 12, 10]
    """
    widths = list(widths)
    excess = sum(widths) + gap * (len(widths) - 1) - width
    while excess > 0:
        k = max(range(len(widths)), key=lambda c: (widths[c] - floors[c] > 0, widths[c]))
        if widths[k] <= floors[k]:
            break
        widths[k] -= 1
        excess -= 1
    return widths


def _cut(cell: str, w: int) -> str:
    """``cell`` in ``w`` characters: cut at a word's end where one fits (``float32[8,4] …``
    rather than ``float32[8,4] min=-…``), ending in ``…``."""
    if len(cell) <= w:
        return cell
    head = cell[: max(w - 1, 0)]
    space = head.rfind(" ")
    return head[:space] + " …" if space > 0 else head + "…"


def notes(trace: Any) -> list[str]:
    """What the table cannot show by itself: ops recorded from other threads, the traced
    functions (``@function``) that ran, truncation."""
    out = [f"Backward pass {p}: {note}" for p, note in sorted(trace.pass_notes.items())]
    for f in trace.functions():
        runs = len(f.calls)
        out.append(
            f"Function '{f.name}': {runs} compiled run{'s' if runs != 1 else ''}, each recorded "
            f"as one op with its input and output values; the ops inside a compiled run are "
            f"not recorded one by one: the page's view \"function '{f.name}'\" draws them from "
            f"the traced graph, with shapes"
        )
    if trace.threads:
        named = ", ".join(f"{name} ({count} ops)" for name, count in trace.threads.items())
        out.append(f"Recorded from threads the program started, beside its own: {named}")
    return out


class RulesReport:
    """Which gradient rules ran (custom and registered, with counts and where they are
    defined), and which custom-gradient functions a tape recorded (or that ran inside
    another's forward) but no gradient ever reached.

    ``fired``: list of ``(kind, name, calls, defined_at)``; ``bypassed``: list of
    ``(name, called_at, reason)``; ``unrecorded``: how many calls ran where no tape
    recorded, which are not counted as bypassed.
    """

    def __init__(self, trace: Any) -> None:
        counts: dict[tuple, int] = {}
        for g in trace.gradients:
            if g.custom:
                key = ("custom", g.label, function_location(g.rule._f))
            else:
                key = ("registered", g.op.type, _registered_at(g.op.type))
            counts[key] = counts.get(key, 0) + 1
        self.passes = trace.passes
        self.fired = [(kind, name, n, where) for (kind, name, where), n in counts.items()]
        # Only forward calls a tape recorded (or that ran inside another custom function's
        # forward) count: a call no tape watched (a model built on zeros, inference) was
        # never meant to be differentiated.
        unused = [r for r in trace.ops if r.custom and not r.in_backward and not r.gradients]
        self.bypassed = [
            (r.label, r.created_at, _why_bypassed(r))
            for r in unused
            if r.recorded or r.parent is not None
        ]
        self.unrecorded = len(unused) - len(self.bypassed)

    def __str__(self) -> str:
        lines = [f"Rules fired in {self.passes} backward pass(es):"]
        if not self.fired:
            lines.append("  none")
        width = max([len(name) for _, name, _, _ in self.fired] + [4])
        for kind, name, calls, where in self.fired:
            what = "custom    " if kind == "custom" else "registered"
            lines.append(
                f"  {what}  {name.ljust(width)}  {calls:>4} call{'s' if calls != 1 else ' '}  "
                f"{'defined' if kind == 'custom' else 'registered'} at {where}"
            )
        if self.bypassed:
            lines.append("Custom-gradient functions that a tape recorded but whose rule never ran:")
            for name, called_at, reason in self.bypassed:
                lines.append(f"  {name} (called at {called_at}): {reason}")
        else:
            lines.append("Every custom-gradient function that a tape recorded had its rule called.")
        if self.unrecorded:
            lines.append(
                f"({self.unrecorded} call{'s' if self.unrecorded != 1 else ''} of "
                f"custom-gradient functions ran where no tape recorded (building a model, "
                f"inference): not counted.)"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<RulesReport: {len(self.fired)} rules fired, {len(self.bypassed)} bypassed>"


def _registered_at(op_type: str) -> str:
    return gradient_registry.location(op_type) if op_type in gradient_registry else "?"


def _why_bypassed(record: Any) -> str:
    if record.parent is not None:
        return (
            f"it ran inside the forward of custom function '{record.parent.label}', whose own "
            f"rule gives the gradient instead"
        )
    if not record.recorded:
        return (
            "no tape recorded it: none of its inputs was watched (tape.watch, a trainable "
            "Variable) or it ran outside every GradientTape"
        )
    return (
        "a tape recorded it, but no gradient passed through it: it is not between the "
        "targets and the sources of any gradient call (or its output was not used)"
    )
