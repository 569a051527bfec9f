"""Measuring the workloads: times paired with the NumPy reference, results checked against
it, peak memory where tracemalloc can see it.

A row per workload: ``{"workload", "description", "numpy_ms", <column>: ratio to NumPy ...,
"memory": {<column>: peak / input size}}``; the columns are retrograd's (``retrograd``,
``retrograd function``) or those of one framework (see ``frameworks``).
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Protocol

import numpy as np

from benchmarks import frameworks
from benchmarks.workloads import Workload


class Progress(Protocol):
    """What measuring reports progress to: ``retrograd.checking.progress.Progress``, or a
    framework's process passing its notes to the parent's display."""

    def update(self, steps: int = 1, note: str = "") -> None: ...


def paired_times(
    reference: Callable[[], object],
    fn: Callable[[], object],
    quick: bool,
    budget: float = 1.0,
    rounds: int = 5,
) -> tuple[float, float]:
    """Median seconds of ``reference()`` and of ``fn()``, timed in alternation (after one
    warm-up run of each) so that both see the same machine: on a shared machine the speed
    drifts, and timing one after the other would put the drift into the ratio. At least
    ``rounds`` rounds (one when ``quick``), more while ``fn`` has spent under ``budget``
    seconds (at most 200).

    The garbage collector stays on, as in real programs; :func:`run` freezes what exists
    before timing starts (imported frameworks hold millions of objects) so that collections
    cost each implementation only its own garbage.
    """
    reference()
    fn()
    rounds = 1 if quick else rounds
    ref_times: list[float] = []
    times: list[float] = []
    spent = 0.0
    while len(times) < rounds or (not quick and spent < budget and len(times) < 200):
        for call, kept in ((reference, ref_times), (fn, times)):
            start = time.perf_counter()
            call()
            kept.append(time.perf_counter() - start)
        spent += times[-1]
    return statistics.median(ref_times), statistics.median(times)


def check(name: str, impl: str, got: tuple, want: tuple, rtol: float) -> None:
    """Raises AssertionError unless ``got`` (value, gradients) matches the reference's."""
    if len(got) != len(want):
        raise AssertionError(f"{name}: {impl} returned {len(got)} results, NumPy {len(want)}")
    for g, w in zip(got, want):
        scale = float(np.max(np.abs(w))) or 1.0
        # Values below the dtype's smallest normal number count as zero: frameworks that
        # flush subnormals to zero (TensorFlow, JAX) agree with NumPy's subnormal results.
        tiny = float(np.finfo(w.dtype).tiny) if np.issubdtype(w.dtype, np.floating) else 0.0
        if not np.allclose(g, w, rtol=rtol, atol=max(rtol * scale, tiny)):
            raise AssertionError(f"{name}: {impl} disagrees with the NumPy reference")


def peak_memory(fn: Callable[[], object]) -> int:
    """Peak bytes allocated while ``fn()`` runs (NumPy allocations are traced); run ``fn``
    once before, so that a function's first call (tracing, compiling) is not measured."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def elementwise_memory(w: Workload, impls: dict[str, Callable], inputs: dict) -> dict:
    """{column: peak memory / input size} of ``elementwise``, for NumPy and each column whose
    arrays tracemalloc sees (retrograd's, NumPy-backed frameworks'); ``impls`` warmed up."""
    size = inputs["e"].nbytes
    memory = {
        impl: peak_memory(fn) / size
        for impl, fn in impls.items()
        if impl.startswith("retrograd") or impl in frameworks.NUMPY_BACKED
    }
    memory["numpy"] = peak_memory(w.numpy(**inputs)) / size
    return memory


def implementations(w: Workload, inputs: dict, framework: str | None) -> dict[str, Callable]:
    """{column: run()} of workload ``w`` on ``inputs``: retrograd's (eager, and under
    ``function`` when ``w`` has a traced form), or the columns of ``framework``."""
    if framework is None:
        impls = {"retrograd": w.eager(**inputs)}
        if w.traced is not None:
            impls["retrograd function"] = w.traced()(**inputs)
        return impls
    return {
        column: workloads[w.name](**inputs)
        for column, workloads in frameworks.builders(framework).items()
        if w.name in workloads
    }


def run(
    workloads: list[Workload],
    quick: bool,
    framework: str | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """One row per workload: retrograd's columns, or those of ``framework``."""
    gc.collect()
    gc.freeze()
    rows = []
    for w in workloads:
        inputs = w.make_inputs(quick)
        numpy_run = w.numpy(**inputs)
        reference = numpy_run()
        # Each implementation converts the inputs to its tensors once, untimed.
        impls = implementations(w, inputs, framework)
        row: dict = {"workload": w.name, "description": w.description}
        bases = []
        for impl, fn in impls.items():
            _note(progress, f"{w.name}: {impl}")
            check(w.name, impl, fn(), reference, w.rtol)
            base, took = paired_times(numpy_run, fn, quick)
            bases.append(base)
            row[impl] = took / base
        row["numpy_ms"] = statistics.median(bases) * 1e3 if bases else float("nan")
        if w.name == "elementwise" and impls:  # tracemalloc sees NumPy's allocations only
            _note(progress, f"{w.name}: peak memory")
            row["memory"] = elementwise_memory(w, impls, inputs)
        rows.append(row)
        if progress is not None:
            progress.update(note=f"{w.name}: measured")
    return rows


def _note(progress: Progress | None, note: str) -> None:
    if progress is not None:
        progress.update(0, note=note)


def median_rows(runs: list[list[dict]]) -> list[dict]:
    """The rows of several runs, each number (memory figures included) the median of its
    values across the runs."""
    merged = []
    for rows in zip(*runs):
        row = dict(rows[0])
        for key, value in rows[0].items():
            if isinstance(value, float):
                row[key] = statistics.median(r[key] for r in rows)
            elif isinstance(value, dict):
                row[key] = {k: statistics.median(r[key][k] for r in rows) for k in value}
        merged.append(row)
    return merged


def merge(rows: list[dict], framework_rows: list[dict]) -> None:
    """Adds a framework's columns (and its memory figure) to the rows of the same workloads."""
    by_name = {r["workload"]: r for r in rows}
    for extra in framework_rows:
        row = by_name.get(extra["workload"])
        if row is None:
            continue
        for key, value in extra.items():
            if key == "memory":
                row.setdefault("memory", {}).update(
                    {k: v for k, v in value.items() if k != "numpy"}
                )
            elif key not in ("workload", "description", "numpy_ms"):
                row[key] = value
