"""Tracing cost per op: how long ``function`` takes to trace a long chain of ops (shape
inference, graph building and the compiled plan), for retrograd and, when it is installed,
TensorFlow (measured in a process of its own: this file imports neither framework at the
top, so TensorFlow's interpreter can run it alone).

    python benchmarks/tracing_speed.py [--ops 10000 100000] [--repeats 3]
    python benchmarks/tracing_speed.py --framework tensorflow   # TensorFlow alone
    python benchmarks/tracing_speed.py --tf-python /path/to/python-with-tensorflow

The function is ``y = sin(y) * 1.01`` repeated (two ops a step) on a scalar. Reported: the
best of ``--repeats`` traces of a fresh function (``get_concrete_function``), in
microseconds per op of the traced graph, and the first call after it (TensorFlow builds its
runtime function then).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def _chain(tf, steps: int):
    def chain(x):
        y = x
        for _ in range(steps):
            y = tf.sin(y) * 1.01
        return y

    return chain


def measure(framework: str, ops: int, repeats: int) -> dict:
    """Seconds to trace a fresh ``ops``-op function (best of ``repeats``) and to call it
    once after, and the op count of the traced graph."""
    if framework == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
        import tensorflow as tf
    else:
        import retrograd as tf
    chain = _chain(tf, ops // 2)
    spec = tf.TensorSpec([], tf.float32)
    best_trace, best_call, count = float("inf"), float("inf"), 0
    for _ in range(repeats):
        f = tf.function(chain, autograph=False)
        start = time.perf_counter()
        concrete = f.get_concrete_function(spec)
        traced = time.perf_counter() - start
        start = time.perf_counter()
        y = concrete(tf.constant(0.5))
        called = time.perf_counter() - start
        best_trace, best_call = min(best_trace, traced), min(best_call, called)
        count = len(concrete.graph.get_operations())
    expected = _reference(ops // 2)
    if abs(float(y.numpy()) - expected) > 1e-4 * max(1.0, abs(expected)):
        raise AssertionError(f"{framework}: chain gave {float(y.numpy())}, expected {expected}")
    return {"framework": framework, "ops": count, "trace_s": best_trace, "first_call_s": best_call}


def _reference(steps: int) -> float:
    import numpy as np

    y = np.float32(0.5)
    for _ in range(steps):
        y = np.float32(np.sin(y)) * np.float32(1.01)
    return float(y)


def _tensorflow_python(given: str | None) -> str | None:
    if given:
        return given
    try:
        import importlib.util

        if importlib.util.find_spec("tensorflow") is not None:
            return sys.executable
    except (ImportError, ValueError):
        pass
    candidate = os.environ.get("RETROGRAD_TF_PYTHON") or "/work/tfenv/bin/python"
    return candidate if shutil.which(candidate) or os.path.exists(candidate) else None


def _in_process_of_its_own(python: str, ops: int, repeats: int) -> dict | None:
    command = [python, os.path.abspath(__file__), "--framework", "tensorflow", "--json"]
    command += ["--ops", str(ops), "--repeats", str(repeats)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        print(f"tensorflow: failed ({done.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def _line(result: dict) -> str:
    per_op = result["trace_s"] / result["ops"] * 1e6
    return (
        f"{result['framework']:>10}  {result['ops']:>7} ops  trace {result['trace_s']:8.3f} s"
        f"  ({per_op:6.1f} us/op)  first call {result['first_call_s']:7.3f} s"
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--framework", choices=["retrograd", "tensorflow", "both"], default="both")
    parser.add_argument("--tf-python", default=None, help="a Python that has TensorFlow")
    parser.add_argument("--json", action="store_true", help="print one JSON result per line")
    args = parser.parse_args(argv)
    results: dict = {}
    for ops in args.ops:
        found = []
        if args.framework in ("retrograd", "both"):
            found.append(measure("retrograd", ops, args.repeats))
        if args.framework == "tensorflow":
            found.append(measure("tensorflow", ops, args.repeats))
        elif args.framework == "both":
            python = _tensorflow_python(args.tf_python)
            tf_result = _in_process_of_its_own(python, ops, args.repeats) if python else None
            if tf_result is not None:
                found.append(tf_result)
        for result in found:
            print(json.dumps(result) if args.json else _line(result))
            results[(result["framework"], ops)] = result
        if len(found) == 2 and not args.json:
            ratio = (found[0]["trace_s"] / found[0]["ops"]) / (
                found[1]["trace_s"] / found[1]["ops"]
            )
            print(f"{'':>10}  retrograd / tensorflow per op: {ratio:.2f}x")
    return results


if __name__ == "__main__":
    main()
