"""TensorFlow's seeded normals in retrograd: speed against NumPy's own ``standard_normal``
and, when TensorFlow is installed, distance in ulps from TensorFlow's numbers.

    python benchmarks/random_speed.py [--size 1000000] [--repeats 7]
    python benchmarks/random_speed.py --accuracy [--tf-python /path/to/python-with-tensorflow]

Speed: ``tf.random.stateless_normal`` (Philox-4x32-10 and Box-Muller in NumPy) for
``--size`` float32 and float64 values, against ``numpy.random.default_rng().standard_normal``
of the same size and dtype, timed alternately in the same process (best of ``--repeats``).

Accuracy (``--accuracy``): TensorFlow draws the same normals and truncated normals in a
process of its own (this file imports neither framework at the top, so TensorFlow's
interpreter can run it alone) and writes them to ``.npy`` files in a temporary folder;
retrograd's are compared with them value by value, in ulps.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

SEEDS = ([1, 2], [123, -7])
KINDS = ("normal", "truncated_normal")
DTYPES = ("float32", "float64")


def _best(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def speed(size: int, repeats: int) -> dict:
    """Seconds for ``size`` normals (best of ``repeats``), retrograd and NumPy, per dtype."""
    import numpy as np

    import retrograd as rg

    results = {}
    for dtype in DTYPES:

        def ours(dtype=dtype):
            return rg.random.stateless_normal([size], seed=[1, 2], dtype=dtype)

        def theirs(dtype=dtype):
            return np.random.default_rng(0).standard_normal(size, dtype=dtype)

        ours(), theirs()  # warm
        mine, numpy = float("inf"), float("inf")
        for _ in range(repeats):  # alternately, so that load from other jobs hits both
            mine, numpy = min(mine, _best(ours, 1)), min(numpy, _best(theirs, 1))
        results[dtype] = {"retrograd_s": mine, "numpy_s": numpy, "ratio": mine / numpy}
        print(
            f"{size} {dtype} normals: retrograd {mine * 1e3:8.2f} ms  NumPy standard_normal "
            f"{numpy * 1e3:7.2f} ms  ratio {mine / numpy:5.2f}x"
        )
    return results


def _draw_tensorflow(folder: str, size: int) -> None:
    """TensorFlow's draws, one ``.npy`` file per seed, kind and dtype (run under TensorFlow)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import numpy as np
    import tensorflow as tf

    for seed in SEEDS:
        for kind in KINDS:
            for dtype in DTYPES:
                draw = getattr(tf.random, "stateless_" + kind)
                values = draw([size], seed=seed, dtype=dtype).numpy()
                np.save(os.path.join(folder, _file(seed, kind, dtype)), values)


def _file(seed: list, kind: str, dtype: str) -> str:
    return f"{kind}_{dtype}_{seed[0]}_{seed[1]}.npy"


def ulps(a, b):
    """How many representable values lie between each pair of ``a`` and ``b`` (one dtype).

    >>> import numpy as np
    >>> ulps(np.float32([1.0, -2.0]), np.nextafter(np.float32([1.0, -2.0]), 0)).tolist()
    [1, 1]
    """
    import numpy as np

    signed = np.dtype(f"i{a.dtype.itemsize}")
    top = np.iinfo(signed).min

    def ordered(x):  # the bit patterns, made monotonic in the value
        bits = x.view(signed).astype(np.int64)
        return np.where(bits < 0, top - bits, bits)

    return np.abs(ordered(a) - ordered(b))


def accuracy(python: str, size: int) -> dict:
    """Histograms of the ulp distance from TensorFlow's draws, per kind and dtype."""
    import numpy as np

    import retrograd as rg

    results = {}
    with tempfile.TemporaryDirectory() as folder:
        command = [python, os.path.abspath(__file__), "--draw-tensorflow", folder]
        subprocess.run(command + ["--size", str(size)], check=True, timeout=1800)
        for kind in KINDS:
            for dtype in DTYPES:
                counts = np.zeros(0, np.int64)
                for seed in SEEDS:
                    theirs = np.load(os.path.join(folder, _file(seed, kind, dtype)))
                    draw = getattr(rg.random, "stateless_" + kind)
                    mine = draw([size], seed=seed, dtype=dtype).numpy()
                    found = np.bincount(ulps(mine, theirs))
                    grown = np.zeros(max(found.size, counts.size), np.int64)
                    grown[: counts.size] += counts
                    grown[: found.size] += found
                    counts = grown
                total = int(counts.sum())
                results[(kind, dtype)] = counts.tolist()
                shares = ", ".join(
                    f"{n} ulp: {c} ({100 * c / total:.3f}%)" for n, c in enumerate(counts) if c
                )
                print(f"{kind} {dtype}, {total} values: {shares}")
    return results


def _tensorflow_python(given: str | None) -> str | None:
    if given:
        return given
    candidate = os.environ.get("RETROGRAD_TF_PYTHON") or "/work/tfenv/bin/python"
    return candidate if shutil.which(candidate) or os.path.exists(candidate) else None


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--accuracy", action="store_true", help="compare with TensorFlow")
    parser.add_argument("--tf-python", default=None, help="a Python that has TensorFlow")
    parser.add_argument("--draw-tensorflow", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.draw_tensorflow:
        _draw_tensorflow(args.draw_tensorflow, args.size)
        return {}
    results = {"speed": speed(args.size, args.repeats)}
    if args.accuracy:
        python = _tensorflow_python(args.tf_python)
        if python is None:
            print("accuracy: no Python with TensorFlow found (give --tf-python)", file=sys.stderr)
        else:
            results["accuracy"] = accuracy(python, args.size)
    return results


if __name__ == "__main__":
    main()
