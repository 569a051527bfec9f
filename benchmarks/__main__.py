"""Times retrograd's workloads, eagerly and under function, as ratios to hand-written
NumPy doing the same forward and backward work in the same run (timed in alternation with
it); columns for PyTorch, JAX, TensorFlow and HIPS autograd where they are installed, each
measured in a process of its own. Each retrograd column is followed by the issue's target
for it and whether it is met; the peak memory of elementwise (tracemalloc) follows the
table. Progress is shown on stderr (RETROGRAD_PROGRESS=0 silences it); the tables go to
stdout."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

import retrograd
from benchmarks import frameworks
from benchmarks.long_tapes import NAMES, count, median_long_rows, run_long
from benchmarks.measure import Progress, median_rows, merge, run
from benchmarks.report import render, render_long
from benchmarks.workloads import WORKLOADS
from retrograd.checking import progress

ROOT = Path(__file__).resolve().parent.parent
NOTE = "benchmarks note: "  # how a framework's process tells the parent what it measures


class _NoteLines:
    """The progress of a framework's process: each note a line on its stderr, which the
    parent shows on its own display (:func:`run_framework`)."""

    def update(self, steps: int = 1, note: str = "") -> None:
        if note:
            print(NOTE + note, file=sys.stderr, flush=True)


def framework_interpreters(pythons: list[str] | None) -> dict[str, str]:
    """{framework: the interpreter that measures it}: the first of ``pythons``, then this
    interpreter, that can import it."""
    found: dict[str, str] = {}
    for python in [*(pythons or []), sys.executable]:
        for name in frameworks.installed(None if python == sys.executable else python):
            found.setdefault(name, python)
    return found


def run_framework(
    name: str, python: str, names: list[str], args: argparse.Namespace, shown: Progress
) -> list | None:
    """``name``'s rows, measured in a process of its own by the interpreter ``python``
    (importing this retrograd and these benchmarks), its notes shown on ``shown``; None
    (and a line saying why) if it fails there."""
    command = [python, "-m", "benchmarks", "--framework", name, "--only", *names]
    command += ["--quick"] * args.quick + ["--long"] * args.long
    source = str(Path(retrograd.__file__).resolve().parent.parent)
    path = [source, str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    out: list[str] = []
    errors: list[str] = []
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        reader = threading.Thread(target=lambda: out.append(child.stdout.read()))  # type: ignore[union-attr]
        reader.start()
        for line in child.stderr:
            if line.startswith(NOTE):
                shown.update(0, note=line[len(NOTE) :].strip())  # it names the column
            else:
                errors.append(line.strip())
        reader.join()
    lines = "".join(out).strip().splitlines()
    if child.returncode != 0 or not lines:
        why = next((e for e in reversed(errors) if e), f"exit status {child.returncode}")
        print(f"# {name} could not be measured: {why}")
        return None
    return json.loads(lines[-1])


def _progress_enabled() -> bool | None:
    """Progress is on, on a terminal or not, unless RETROGRAD_PROGRESS says otherwise."""
    return None if os.environ.get("RETROGRAD_PROGRESS", "").strip() else True


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    names = [w.name for w in WORKLOADS]
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, one timed round, one run: checks it runs"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=names,
        metavar="NAME",
        help=f"only these workloads: {', '.join(names)} (default: all)",
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--no-frameworks", action="store_true", help="skip PyTorch/JAX/TF/autograd")
    parser.add_argument(
        "--framework-python",
        action="append",
        metavar="PYTHON",
        help="an interpreter that measures the frameworks it can import, e.g. a venv with "
        "TensorFlow (repeatable; the first that has a framework measures it; then this one)",
    )
    parser.add_argument(
        "--runs",
        type=_positive,
        help="repeat everything; report each cell's median (default: 3, as the issue's "
        "targets are stated; 1 with --quick)",
    )
    parser.add_argument(
        "--long",
        action="store_true",
        help="instead of the table: microseconds per step of the eager chain and custom "
        "workloads (those of --only) at 1k, 10k and 100k steps, and the growth 100k/1k "
        "(target <= 1.1x), NumPy's as the control",
    )
    parser.add_argument("--framework", help=argparse.SUPPRESS)  # one framework's rows, as JSON
    args = parser.parse_args(argv)
    chosen = [w for w in WORKLOADS if not args.only or w.name in args.only]
    long_names = tuple(w.name for w in chosen if w.name in NAMES)
    if args.long and not long_names:
        parser.error(f"--long measures {' and '.join(NAMES)}; --only chose neither")
    if args.framework:  # in a framework's process: its rows, as JSON on stdout
        notes = _NoteLines()
        if args.long:
            rows = run_long(args.quick, args.framework, notes, long_names)
        else:
            rows = run(chosen, args.quick, args.framework, notes)
        print(json.dumps(rows))
        return 0
    machine = platform.processor() or platform.machine()
    print(f"# {machine}, Python {platform.python_version()}, NumPy {np.__version__}")
    if os.environ.get("OPENBLAS_CORETYPE"):  # it slows NumPy's matmul, not frameworks' own
        print(f"# OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']}: NumPy's BLAS kernels")
    if args.quick:
        print("# --quick: tiny sizes, one round; the ratios say nothing of the targets")
    runs = args.runs or (1 if args.quick else 3)
    others = {} if args.no_frameworks else framework_interpreters(args.framework_python)
    per_run = count(args.quick, long_names) if args.long else len(chosen)
    with progress.Progress(
        runs * (per_run + len(others)), "benchmarks", enabled=_progress_enabled(), interval=0
    ) as shown:
        if args.long:
            measured = [run_long(args.quick, None, shown, long_names) for _ in range(runs)]
            rows = median_long_rows(measured)
        else:
            rows = median_rows([run(chosen, args.quick, None, shown) for _ in range(runs)])
        for name, python in others.items():
            theirs = []
            for _ in range(runs):
                shown.update(0, note=f"{name}, in a process of its own")
                got = run_framework(name, python, [w.name for w in chosen], args, shown)
                shown.update()
                if got is None:  # said why; the next run would fail the same way
                    break
                theirs.append(got)
            if theirs and args.long:
                rows += median_long_rows(theirs)
            elif theirs:
                merge(rows, median_rows(theirs))
    if args.long:
        print(f"# per-step cost of long eager tapes, median of {runs} run(s) (lower is better)")
        print(render_long(rows, args.markdown))
    else:
        print(
            "# ratios: median time / median time of hand-written NumPy doing the same work, "
            f"median of {runs} run(s) (lower is better)"
        )
        print(render(rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
