"""``python -m benchmarks --long``: the per-step cost of long eager tapes.

The eager ``chain`` and ``custom`` workloads run at 1k, 10k and 100k steps (10, 100 and 1k
with ``--quick``); each length is timed in alternation with the NumPy reference of the same
length, as the main table is, and reported in microseconds per step. A tape whose cost is
linear in its length has the same per-step cost at every length: the growth (per-step cost
at 100k over that at 1k) is what the issue's target (<= 1.1x) bounds. NumPy's own growth is
reported beside it, as the control (it keeps a list of 100k scalars too), and retrograd's
with the cyclic garbage collector disabled while it runs, which shows how much of the
growth is the collector's walks over records (the target is for the collector on).
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable

from benchmarks import frameworks
from benchmarks.measure import Progress, check, paired_times
from benchmarks.workloads import WORKLOADS

STEPS = (1_000, 10_000, 100_000)
QUICK_STEPS = (10, 100, 1_000)
NAMES = ("chain", "custom")  # the workloads whose tape grows with a length


def run_long(
    quick: bool,
    framework: str | None = None,
    progress: Progress | None = None,
    names: tuple[str, ...] = NAMES,
) -> list[dict]:
    """Rows ``{"workload", "implementation", "per_step_us": {steps (str): microseconds}}``
    for the workloads of ``names`` among :data:`NAMES`: NumPy's and retrograd's eager, or
    ``framework``'s eager column alone."""
    eager = frameworks.builders(framework).get(framework, {}) if framework else {}
    gc.collect()
    if framework is not None:  # its import holds millions of objects: not the tape's cost
        gc.freeze()  # (retrograd's own policy for long tapes is measured as a program has it)
    rows = []
    for w in (w for w in WORKLOADS if w.name in NAMES and w.name in names):
        if framework is not None and w.name not in eager:
            continue
        impl = framework or "retrograd"
        costs: dict[str, dict[str, float]] = {"numpy": {}, impl: {}}
        if framework is None:
            costs[GC_OFF] = {}
        for steps in QUICK_STEPS if quick else STEPS:
            if progress is not None:
                progress.update(0, note=f"{w.name}: {impl}, {steps:,} steps")
            inputs = {**w.make_inputs(False), "steps": steps}
            numpy_run = w.numpy(**inputs)
            fn = eager[w.name](**inputs) if framework else w.eager(**inputs)
            check(w.name, f"{impl} at {steps} steps", fn(), numpy_run(), w.rtol)
            base, took = paired_times(numpy_run, fn, quick, budget=1.0, rounds=3)
            costs["numpy"][str(steps)] = base / steps * 1e6
            costs[impl][str(steps)] = took / steps * 1e6
            if framework is None:  # what of the cost is the cyclic collector's
                took = paired_times(numpy_run, _without_gc(fn), quick, budget=1.0, rounds=3)[1]
                costs[GC_OFF][str(steps)] = took / steps * 1e6
            if progress is not None:
                progress.update()
        if framework is not None:
            del costs["numpy"]
        rows += [
            {"workload": w.name, "implementation": k, "per_step_us": v} for k, v in costs.items()
        ]
    return rows


GC_OFF = "retrograd, gc off"  # a diagnosis beside the target, not the target


def _without_gc(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn`` with the cyclic garbage collector disabled while it runs."""

    def run() -> object:
        gc.disable()
        try:
            return fn()
        finally:
            gc.enable()

    return run


def count(quick: bool, names: tuple[str, ...] = NAMES) -> int:
    """How many measurements :func:`run_long` makes for one implementation (for progress)."""
    return len(set(NAMES) & set(names)) * len(QUICK_STEPS if quick else STEPS)


def median_long_rows(runs: list[list[dict]]) -> list[dict]:
    """The rows of several ``--long`` runs, each per-step cost the median across the runs."""
    merged = []
    for rows in zip(*runs):
        row = dict(rows[0])
        row["per_step_us"] = {
            s: statistics.median(r["per_step_us"][s] for r in rows) for s in rows[0]["per_step_us"]
        }
        merged.append(row)
    return merged
