"""Peak memory of a training step with and without ``recompute_grad``.

A deep stack of blocks (each several tanh layers on a [batch, width] activation) is run
under a tape and differentiated; tracemalloc measures the peak of traced memory (NumPy
reports its array buffers to it). Without recomputation the tape keeps every layer's
activations until the backward pass; with each block wrapped in ``recompute_grad`` it keeps
only the blocks' inputs and outputs, plus one block's activations while that block is
recomputed. Also reports the time ratio (recomputation runs each block forward twice).

    python benchmarks/recompute_memory.py [--blocks 8] [--layers 8] [--width 128] [--batch 1024]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import retrograd as rg


def make_model(blocks: int, layers: int, width: int, recompute: bool):
    rng = np.random.default_rng(0)
    weights = [
        [rg.Variable(rng.standard_normal((width, width)) / np.sqrt(width)) for _ in range(layers)]
        for _ in range(blocks)
    ]

    def block_fn(ws):
        def block(h):
            for w in ws:
                h = rg.tanh(rg.matmul(h, w))
            return h

        return rg.recompute_grad(block) if recompute else block

    block_fns = [block_fn(ws) for ws in weights]

    def model(x):
        h = x
        for fn in block_fns:
            h = fn(h)
        return rg.reduce_sum(h * h)

    return model, [w for ws in weights for w in ws]


def step(model, variables, x):
    with rg.GradientTape() as tape:
        loss = model(x)
    return loss, tape.gradient(loss, variables)


def measure(
    blocks: int, layers: int, width: int, batch: int, recompute: bool, repeats: int = 3
) -> dict:
    """Peak traced memory of one step (beyond what existed before it) and its best time."""
    model, variables = make_model(blocks, layers, width, recompute)
    x = rg.constant(np.random.default_rng(1).standard_normal((batch, width)))
    times = []
    for _ in range(repeats):  # timed without tracemalloc, which slows allocation down
        start = time.perf_counter()
        step(model, variables, x)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    loss, grads = step(model, variables, x)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return {"peak": peak, "time": min(times), "loss": float(loss), "grads": grads}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args(argv)
    sizes = (args.blocks, args.layers, args.width, args.batch)
    plain = measure(*sizes, recompute=False)
    recomputed = measure(*sizes, recompute=True)
    for g, h in zip(plain["grads"], recomputed["grads"]):
        np.testing.assert_allclose(g.numpy(), h.numpy(), rtol=1e-10, atol=1e-12)
    activation = args.batch * args.width * 8
    print(
        f"{args.blocks} blocks x {args.layers} layers, activations [{args.batch}, {args.width}] "
        f"float64 ({activation / 2**20:.2f} MiB each)"
    )
    for name, r in (("plain", plain), ("recompute_grad", recomputed)):
        print(f"  {name:15s} peak {r['peak'] / 2**20:8.1f} MiB   time {r['time'] * 1e3:8.1f} ms")
    ratio = plain["peak"] / recomputed["peak"]
    print(
        f"  peak memory: plain / recompute_grad = {ratio:.2f}x; "
        f"time: recompute_grad / plain = {recomputed['time'] / plain['time']:.2f}x"
    )
    return {"memory_ratio": ratio, "time_ratio": recomputed["time"] / plain["time"]}


if __name__ == "__main__":
    main()
