"""Framework cost against input count: ``python -m benchmarks.scaling``.

For each operation, the median time at sizes n, 4n, 16n and the slope of log(time) against
log(n) between the smallest and largest size: 1 is linear, 2 quadratic. The arrays are
tiny (scalars or short vectors), so what grows is retrograd's own work: checking and
recording the inputs of ``stack``/``concat``/``add_n`` of n tensors, a ``jacobian`` of an
n-vector function (n rows stacked), and a tape of n recorded ops and its backward walk.
Timed results are printed, never asserted; on a shared machine take the slope from one run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import retrograd as rg


def _stack(n: int) -> Callable[[], object]:
    values = [rg.constant(np.float32(i)) for i in range(n)]
    return lambda: rg.stack(values)


def _concat(n: int) -> Callable[[], object]:
    values = [rg.constant(np.full(2, i, np.float32)) for i in range(n)]
    return lambda: rg.concat(values, axis=0)


def _add_n(n: int) -> Callable[[], object]:
    values = [rg.constant(np.full(2, i, np.float32)) for i in range(n)]
    return lambda: rg.add_n(values)


def _jacobian(n: int) -> Callable[[], object]:
    x = rg.constant(np.linspace(0.1, 1.0, n).astype(np.float32))

    def run():
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = rg.sin(x) * x
        return tape.jacobian(y, x, experimental_use_pfor=False)

    return run


def _tape(n: int) -> Callable[[], object]:
    x = rg.constant(np.float32(0.5))

    def run():
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(n):
                y = rg.sin(y)
        return tape.gradient(y, x)

    return run


OPERATIONS: dict[str, tuple[str, Callable[[int], Callable[[], object]], int]] = {
    # name: (what is measured, builder of run() for size n, the smallest n)
    "stack": ("stack of n scalars", _stack, 100),
    "concat": ("concat of n 2-vectors", _concat, 100),
    "add_n": ("add_n of n 2-vectors", _add_n, 100),
    "jacobian": ("jacobian of sin(x) * x, x of size n (row by row)", _jacobian, 25),
    "tape": ("a tape of n sin ops and its gradient", _tape, 100),
}


def median_seconds(run: Callable[[], object], rounds: int) -> float:
    run()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(names: list[str], quick: bool) -> list[dict]:
    """One row per operation: {name, description, sizes, seconds, slope}."""
    rows = []
    for name in names:
        description, builder, smallest = OPERATIONS[name]
        sizes = [smallest, 4 * smallest] if quick else [smallest, 4 * smallest, 16 * smallest]
        seconds = [median_seconds(builder(n), 1 if quick else 5) for n in sizes]
        slope = math.log(seconds[-1] / seconds[0]) / math.log(sizes[-1] / sizes[0])
        rows.append(
            {
                "name": name,
                "description": description,
                "sizes": sizes,
                "seconds": seconds,
                "slope": slope,
            }
        )
    return rows


def render(rows: list[dict]) -> str:
    lines = ["| operation | sizes | ms | slope (1 linear, 2 quadratic) |", "|---|---|---|---|"]
    for row in rows:
        ms = " / ".join(f"{s * 1e3:.3g}" for s in row["seconds"])
        sizes = " / ".join(str(n) for n in row["sizes"])
        lines.append(f"| {row['description']} | {sizes} | {ms} | {row['slope']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaling", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="two sizes, one round each")
    parser.add_argument("--only", nargs="+", choices=sorted(OPERATIONS), metavar="NAME")
    args = parser.parse_args(argv)
    print(render(measure(args.only or list(OPERATIONS), args.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
