"""The tables ``python -m benchmarks`` prints, with the issue's targets and whether each is met.

>>> rows = [{"workload": "chain", "numpy_ms": 0.06, "retrograd": 20.0, "retrograd function": 0.9}]
>>> print(render(rows, markdown=True))  # doctest: +NORMALIZE_WHITESPACE
| workload | NumPy (ms) | retrograd | target | retrograd function | target |
|---|---|---|---|---|---|
| chain | 0.060 | 20.0x | <= 14x: no | 0.900x | <= 1x: yes |
<BLANKLINE>
targets met: 1 of 2
"""

from __future__ import annotations

from benchmarks.workloads import LONG_TAPE_TARGET, MEMORY_TARGET, WORKLOADS

_RETROGRAD = ("retrograd", "retrograd function")
_NOT_COLUMNS = {"workload", "description", "numpy_ms", "memory", *_RETROGRAD}


def _targets(name: str) -> dict[str, float | None]:
    """{retrograd column: the issue's target for workload ``name``} (None: no target)."""
    for w in WORKLOADS:
        if w.name == name:
            return {"retrograd": w.target, "retrograd function": w.target_function}
    return {}


def ratio(value: float) -> str:
    """A ratio with the digits a target needs: ``1.035x`` (which misses 1.03), ``26.1x``.

    >>> ratio(1.0349), ratio(26.06), ratio(0.14)
    ('1.035x', '26.1x', '0.140x')
    """
    return f"{value:.3f}x" if value < 10 else f"{value:.1f}x"


def _target_cell(value: float | None, target: float | None, tally: list) -> str:
    """``<= 14x: yes`` / ``<= 14x: no``, counted in ``tally`` ([met, set]); ``-`` if none."""
    if target is None or value is None:
        return "-"
    met = value <= target
    tally[0] += met
    tally[1] += 1
    return f"<= {target:g}x: {'yes' if met else 'no'}"


def _table(header: list[str], body: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        return [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in body),
        ]
    table = [header, *body]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]


def render(rows: list[dict], markdown: bool) -> str:
    """The ratios table (each retrograd column followed by its target), the peak memory of
    ``elementwise`` against its target, and how many targets are met."""
    others = sorted({k for r in rows for k in r if k not in _NOT_COLUMNS})
    header = ["workload", "NumPy (ms)"]
    for column in _RETROGRAD:
        header += [column, "target"]
    header += others
    tally = [0, 0]
    body = []
    for r in rows:
        targets = _targets(r["workload"])
        cells = [r["workload"], f"{r['numpy_ms']:.3f}"]
        for column in _RETROGRAD:
            value = r.get(column)
            cells.append("-" if value is None else ratio(value))
            cells.append(_target_cell(value, targets.get(column), tally))
        cells += [ratio(r[c]) if c in r else "-" for c in others]
        body.append(cells)
    lines = _table(header, body, markdown)
    for r in rows:
        if "memory" in r:
            parts = []
            for impl, peak in r["memory"].items():
                target = MEMORY_TARGET if impl in _RETROGRAD else None
                mark = _target_cell(peak, target, tally)
                parts.append(f"{impl} {peak:.4f}x" + ("" if mark == "-" else f" ({mark})"))
            lines.append(
                f"\npeak memory of {r['workload']} (tracemalloc), as a multiple of its input: "
                + ", ".join(parts)
            )
    lines.append(f"\ntargets met: {tally[0]} of {tally[1]}")
    return "\n".join(lines)


def render_long(rows: list[dict], markdown: bool) -> str:
    """The ``--long`` table: microseconds per step of each implementation at each length,
    and the growth (per-step cost at the longest over the shortest) against its target."""
    steps = sorted({int(s) for r in rows for s in r["per_step_us"]})
    header = ["workload", "implementation"]
    header += [f"us/step at {s:,}" for s in steps] + [f"{steps[-1]:,}/{steps[0]:,}", "target"]
    tally = [0, 0]
    body = []
    for r in rows:
        per_step = {int(s): us for s, us in r["per_step_us"].items()}
        growth = per_step[steps[-1]] / per_step[steps[0]]
        target = LONG_TAPE_TARGET if r["implementation"] == "retrograd" else None
        body.append(
            [r["workload"], r["implementation"]]
            + [f"{per_step[s]:.2f}" for s in steps]
            + [ratio(growth), _target_cell(growth, target, tally)]
        )
    lines = _table(header, body, markdown)
    lines.append(f"\ntargets met: {tally[0]} of {tally[1]}")
    return "\n".join(lines)
