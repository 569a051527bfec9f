"""Speed of ``tf.vectorized_map``: one batched pass over the traced function against its
fallback (one call per element, ``map_fn``), forward and forward + backward, for three
functions: elementwise math, a dense layer with a reduction, and per-example gradients.

    OMP_NUM_THREADS=1 python benchmarks/vectorized_map_speed.py [--batch 256] [--repeats 10]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import retrograd as rg


def best_time(fn, repeats: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def workloads(batch: int):
    rng = np.random.default_rng(0)
    x = rg.constant(rng.normal(size=(batch, 32)).astype("float32"))
    w = rg.Variable(rng.normal(size=(32, 16)).astype("float32") * 0.1)
    b = rg.Variable(np.zeros(16, np.float32))

    def elementwise(row):
        return rg.sin(row) * rg.exp(-row * row) + rg.tanh(row)

    def dense(row):
        h = rg.tanh(rg.matmul(row[None], w) + b)
        return rg.reduce_sum(h * h)

    def per_example_gradient(row):
        with rg.GradientTape() as tape:
            loss = rg.reduce_sum(rg.square(rg.tanh(rg.matmul(row[None], w) + b)))
        return tape.gradient(loss, w)

    return (
        x,
        [w, b],
        {"elementwise": elementwise, "dense": dense, "per_example": per_example_gradient},
    )


def forward_backward(mapper, fn, x, variables):
    with rg.GradientTape() as tape:
        tape.watch(x)
        loss = rg.reduce_sum(mapper(fn, x))
    return tape.gradient(loss, [x, *variables])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    x, variables, functions = workloads(args.batch)
    results = {}
    print(f"batch {args.batch}: vectorised / per-element loop (best of {args.repeats})")
    for name, fn in functions.items():
        row = {}
        for label, run in (
            ("forward", lambda m, f=fn: m(f, x)),
            ("forward+backward", lambda m, f=fn: forward_backward(m, f, x, variables)),
        ):
            if name == "per_example" and label != "forward":
                continue
            vectorised = best_time(lambda r=run: r(rg.vectorized_map), args.repeats)
            loop = best_time(lambda r=run: r(rg.map_fn), args.repeats)
            row[label] = {"vectorized_s": vectorised, "loop_s": loop, "speedup": loop / vectorised}
            print(
                f"  {name:12s} {label:17s} {vectorised * 1e3:8.2f} ms vs {loop * 1e3:8.2f} ms"
                f"  ({loop / vectorised:5.1f}x)"
            )
        results[name] = row
    return results


if __name__ == "__main__":
    main()
