"""``python -m benchmarks [--quick] [--only NAME ...] [--markdown] [--no-frameworks]``"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks import frameworks
from benchmarks.workloads import WORKLOADS, Workload
from retrograd.checking.progress import Progress


def paired_times(
    reference: Callable[[], object], fn: Callable[[], object], quick: bool, budget: float = 1.0
) -> tuple[float, float]:
    """Median seconds of ``reference()`` and of ``fn()``, timed in alternation (after one
    warm-up run of each) so that both see the same machine: on a shared machine the speed
    drifts, and timing one after the other would put the drift into the ratio.

    The garbage collector stays on, as in real programs; :func:`run` freezes what exists
    before timing starts (imported frameworks hold millions of objects) so that collections
    cost each implementation only its own garbage.
    """
    reference()
    fn()
    rounds = 1 if quick else 5
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
    for g, w in zip(got, want):
        scale = float(np.max(np.abs(w))) or 1.0
        if not np.allclose(g, w, rtol=rtol, atol=rtol * scale):
            raise AssertionError(f"{name}: {impl} disagrees with the NumPy reference")


def peak_memory(fn: Callable[[], object]) -> int:
    """Peak bytes allocated while ``fn()`` runs (NumPy allocations are traced)."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run(
    workloads: list[Workload],
    quick: bool,
    framework: str | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """One row per workload: retrograd's columns, or those of ``framework``."""
    others = frameworks.builders(framework) if framework else {}
    gc.collect()
    gc.freeze()
    rows = []
    for w in workloads:
        if progress is not None:
            progress.update(0, note=w.name)
        inputs = w.make_inputs(quick)
        reference = w.numpy(**inputs)
        # Each implementation converts the inputs to its tensors once, untimed.
        impls: dict[str, Callable] = {}
        if framework is None:
            impls["retrograd"] = w.eager(**inputs)
            if w.traced is not None:
                impls["retrograd function"] = w.traced(**inputs)
        elif w.name in others:
            impls[framework] = others[w.name](**inputs)
        for impl, fn in impls.items():
            check(w.name, impl, fn(), reference, w.rtol)
        numpy_run = lambda w=w, i=inputs: w.numpy(**i)  # noqa: E731
        row = {"workload": w.name, "description": w.description}
        bases = []
        for impl, fn in impls.items():
            base, took = paired_times(numpy_run, fn, quick)
            bases.append(base)
            row[impl] = took / base
        row["numpy_ms"] = statistics.median(bases) * 1e3
        if w.name == "elementwise":  # tracemalloc sees NumPy's allocations only
            size = inputs["e"].nbytes
            row["memory"] = {
                impl: peak_memory(fn) / size
                for impl, fn in impls.items()
                if impl.startswith("retrograd") or impl in frameworks.NUMPY_BACKED
            }
            row["memory"]["numpy"] = peak_memory(lambda w=w, i=inputs: w.numpy(**i)) / size
        rows.append(row)
        if progress is not None:
            progress.update()
    return rows


def median_rows(runs: list[list[dict]]) -> list[dict]:
    """The rows of several runs, each number the median of its values across the runs."""
    merged = []
    for rows in zip(*runs):
        row = dict(rows[0])
        for key, value in rows[0].items():
            if isinstance(value, float):
                row[key] = statistics.median(r[key] for r in rows)
        merged.append(row)
    return merged


def run_framework(name: str, names: list[str], quick: bool) -> list[dict]:
    """``framework``'s rows, measured in a process of its own; [] if it fails there."""
    command = [sys.executable, "-m", "benchmarks", "--framework", name, "--only", *names]
    done = subprocess.run(
        command + (["--quick"] if quick else []),
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if done.returncode != 0:
        print(f"# {name} could not be measured: {done.stderr.strip().splitlines()[-1:]}")
        return []
    return json.loads(done.stdout.strip().splitlines()[-1])


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


def render(rows: list[dict], markdown: bool) -> str:
    columns = ["retrograd", "retrograd function"] + sorted(
        {
            k
            for r in rows
            for k in r
            if k
            not in (
                "workload",
                "description",
                "numpy_ms",
                "memory",
                "retrograd",
                "retrograd function",
            )
        }
    )
    header = ["workload", "NumPy (ms)", *columns]
    lines = []
    table = [header] + [
        [
            r["workload"],
            f"{r['numpy_ms']:.3f}",
            *(f"{r[c]:.2f}x" if c in r else "-" for c in columns),
        ]
        for r in rows
    ]
    if markdown:
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        lines += ["| " + " | ".join(row) + " |" for row in table[1:]]
    else:
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in table]
    for r in rows:
        if "memory" in r:
            parts = ", ".join(f"{k} {v:.1f}x" for k, v in r["memory"].items())
            lines.append(f"\npeak memory of elementwise, as a multiple of its input: {parts}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, one timed run: checks it runs"
    )
    parser.add_argument("--only", nargs="*", help="workload names")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--no-frameworks", action="store_true", help="skip PyTorch/JAX/TF/autograd")
    parser.add_argument(
        "--runs", type=int, default=1, help="repeat everything; report each cell's median"
    )
    parser.add_argument("--framework", help=argparse.SUPPRESS)  # one framework's rows, as JSON
    args = parser.parse_args(argv)
    chosen = [w for w in WORKLOADS if not args.only or w.name in args.only]
    if args.framework:
        print(json.dumps(median_rows([run(chosen, args.quick, args.framework)])))
        return 0
    print(
        f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, NumPy {np.__version__}"
    )
    print(
        "# ratios: median time / median time of hand-written NumPy doing the same work (lower is better)"
    )
    runs = max(1, args.runs)
    others = [] if args.no_frameworks else frameworks.installed()
    # On stderr, where a terminal shows it (RETROGRAD_PROGRESS=1/0 forces it on or off).
    with Progress(runs * (len(chosen) + len(others)), "benchmarks") as shown:
        rows = median_rows([run(chosen, args.quick, progress=shown) for _ in range(runs)])
        for name in others:
            measured = []
            for _ in range(runs):
                shown.update(0, note=f"{name}, in a process of its own")
                measured.append(run_framework(name, [w.name for w in chosen], args.quick))
                shown.update()
            merge(rows, median_rows([m for m in measured if m]) if any(measured) else [])
    print(render(rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
