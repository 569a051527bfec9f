"""The training workloads on each array backend: ``python -m benchmarks.devices``.

Runs the real workloads of ``benchmarks.training`` (MLP ``fit``, CNN eager and traced,
LSTM/GRU ``fit``, PINN, DANN, the TF1 Session loop) with retrograd on the CPU (NumPy arrays)
and on the GPU (CuPy arrays, under ``tf.device("/GPU:0")``), and, as a peer, the same
PyTorch loops as ``benchmarks.training_peers`` on the CPU and on CUDA. Every cell runs in a
fresh process; a unit (an epoch of ``fit`` or a number of steps) is timed after an untimed
warm-up unit, and the device is synchronised before the clock stops. A row gives the median
seconds of ``--runs`` units per backend and retrograd's GPU speed-up over its own CPU run in
the same run. Where no GPU is present (no CuPy, or CuPy finds no device), the GPU cells say
so and the CPU cells still run. Nothing here is needed by the tests or by CI.

Example (a seconds-long run that checks the script works)::

    python -m benchmarks.devices --quick --only mlp_fit --runs 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CELLS = ("retrograd CPU", "retrograd GPU", "pytorch CPU", "pytorch GPU")


def _synchronizer(framework: str, device: str):
    """A function that waits for the device's queued work (a no-op on the CPU)."""
    if device == "CPU":
        return lambda: None
    if framework == "pytorch":
        import torch

        return torch.cuda.synchronize
    import cupy

    return cupy.cuda.Device().synchronize


def _gpu_present(framework: str) -> bool:
    if framework == "pytorch":
        import torch

        return bool(torch.cuda.is_available())
    import retrograd

    return bool(retrograd.config.list_physical_devices("GPU"))


def measure_one(framework: str, device: str, workload: str, quick: bool, runs: int) -> dict:
    """{seconds: [...], first: seconds of the warm-up unit}; None seconds and an error when
    the framework or the device is absent here, or the workload has no form for it."""
    from benchmarks import training

    size = training._sizes(quick)[training.WORKLOADS[workload][1]]
    if device == "GPU" and not _gpu_present(framework):
        return {"seconds": None, "error": "no GPU here"}
    if framework == "retrograd":
        import retrograd as tf

        with tf.device(f"/{device}:0"):
            unit = training.WORKLOADS[workload][0](tf, size)
        scope = lambda: tf.device(f"/{device}:0")  # noqa: E731
    else:
        import contextlib

        import torch

        from benchmarks import training_peers

        torch.set_default_device("cuda" if device == "GPU" else "cpu")
        unit = training_peers.build(framework, workload, size, one_thread=False)
        if unit is None:
            return {"seconds": None, "error": "no PyTorch form of this workload"}
        scope = contextlib.nullcontext
    synchronize = _synchronizer(framework, device)

    def timed() -> float:
        start = time.perf_counter()
        with scope():
            unit()
        synchronize()
        return time.perf_counter() - start

    first = timed()
    return {"seconds": [timed() for _ in range(runs)], "first": first}


def run_child(framework: str, device: str, workload: str, args) -> dict:
    env = dict(os.environ)
    source = str(Path(__import__("retrograd").__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([source, str(ROOT)])
    command = [sys.executable, "-m", "benchmarks.devices", "--child", framework, device]
    command += [workload, "--runs", str(args.runs)] + ["--quick"] * args.quick
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return {"seconds": None, "error": why}
    return json.loads(lines[-1])


def render(rows: list[dict]) -> str:
    """The Markdown table: median seconds per cell, and retrograd's GPU/CPU speed-up."""
    head = [
        "workload",
        *(f"{c} (s)" for c in CELLS),
        "retrograd CPU / GPU",
        "GPU: retrograd / pytorch",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        medians = {c: row[c]["median"] for c in CELLS if row[c].get("median")}
        cells = [row["workload"], *(f"{medians[c]:.3g}" if c in medians else "-" for c in CELLS)]
        cpu, gpu, torch_gpu = (
            medians.get(c) for c in ("retrograd CPU", "retrograd GPU", "pytorch GPU")
        )
        cells.append(f"{cpu / gpu:.2f}x" if cpu and gpu else "-")
        cells.append(f"{gpu / torch_gpu:.2f}x" if gpu and torch_gpu else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.training import WORKLOADS

    parser = argparse.ArgumentParser(prog="python -m benchmarks.devices", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks it runs")
    parser.add_argument("--runs", type=int, default=3, help="timed units per cell (median)")
    parser.add_argument("--only", nargs="+", choices=sorted(WORKLOADS), metavar="NAME")
    parser.add_argument("--no-pytorch", action="store_true", help="retrograd alone")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure_one(*args.child[:2], args.child[2], args.quick, args.runs)))
        return 0
    has_torch = not args.no_pytorch and _importable("torch")
    rows = []
    for workload in args.only or list(WORKLOADS):
        row: dict = {"workload": workload}
        for cell in CELLS:
            framework, device = cell.split()
            if framework == "pytorch" and not has_torch:
                row[cell] = {"seconds": None, "error": "PyTorch is not installed"}
                continue
            got = run_child(framework, device, workload, args)
            if got.get("seconds"):
                got["median"] = statistics.median(got["seconds"])
            elif got.get("error"):
                print(f"# {cell} {workload}: {got['error']}", file=sys.stderr)
            row[cell] = got
            median = f" {got['median']:.4g} s" if got.get("median") else ""
            print(f"# {workload}: {cell} done{median}", file=sys.stderr, flush=True)
        rows.append(row)
    print(render(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


if __name__ == "__main__":
    sys.exit(main())
