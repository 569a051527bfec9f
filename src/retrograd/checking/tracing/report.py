"""A trace in words: seed 000's table (x, upstream, local, downstream per rule call) and the
report of which rules fired and which custom-gradient functions were bypassed."""

from __future__ import annotations

from typing import Any

from retrograd.checking.observing import summarize
from retrograd.core.registry import function_location, gradient_registry

__all__ = ["table", "table_rows", "RulesReport"]

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


def table(trace: Any, custom_only: bool = False, pass_index: int | None = None) -> str:
    """The rows of ``table_rows`` under a header, in aligned columns.

    With several backward passes, steps are numbered ``pass.step``.
    """
    rows = [HEADER, *table_rows(trace, custom_only, pass_index)]
    widths = [max(len(r[k]) for r in rows) for k in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    if trace.truncated:
        lines.append(f"(recording stopped after {trace.max_ops} ops)")
    return "\n".join(lines)


class RulesReport:
    """Which gradient rules ran (custom and registered, with counts and where they are
    defined), and which custom-gradient functions ran forward but no gradient ever reached.

    ``fired``: list of ``(kind, name, calls, defined_at)``; ``bypassed``: list of
    ``(name, called_at, reason)``.
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
        self.bypassed = [
            (r.label, r.created_at, _why_bypassed(r))
            for r in trace.ops
            if r.custom and not r.in_backward and not r.gradients
        ]

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
            lines.append("Custom-gradient functions that ran forward but whose rule never ran:")
            for name, called_at, reason in self.bypassed:
                lines.append(f"  {name} (called at {called_at}): {reason}")
        else:
            lines.append("Every custom-gradient function that ran forward had its rule called.")
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
