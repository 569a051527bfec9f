"""Scaling of ``tf.distribute`` on this machine: one small MLP trained with a fixed global
batch by 1, 2 and 4 local workers (``python -m retrograd.distribute -n N``), as time per step
and speed-up over one worker.

    python -m benchmarks.distribute_scaling [--steps 30] [--workers 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

GLOBAL_BATCH = 1024


def _worker(steps: int) -> None:
    import retrograd as tf

    strategy = tf.distribute.MirroredStrategy()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(GLOBAL_BATCH, 64)).astype("float32")
    y = rng.integers(0, 10, size=GLOBAL_BATCH)
    with strategy.scope():
        model = tf.keras.Sequential(
            [
                tf.keras.Input((64,)),
                tf.keras.layers.Dense(512, activation="relu"),
                tf.keras.layers.Dense(512, activation="relu"),
                tf.keras.layers.Dense(10),
            ]
        )
        optimizer = tf.keras.optimizers.SGD(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    batch = next(iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    )))  # fmt: skip

    def replica_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            per_example = loss_fn(labels, model(features, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def step(inputs):
        return strategy.reduce("SUM", strategy.run(replica_step, args=(inputs,)), axis=None)

    for _ in range(3):
        step(batch)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step(batch)
        times.append(time.perf_counter() - start)
    if strategy.extended.worker_index == 0:
        print(json.dumps({"step": float(np.median(times))}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.steps)
        return 0
    rows = []
    for n in [int(w) for w in args.workers.split(",")]:
        command = [sys.executable, "-m", "retrograd.distribute", "-n", str(n), __file__]
        out = subprocess.run(
            command + ["--worker", "--steps", str(args.steps)],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        rows.append((n, json.loads(out.strip().splitlines()[-1])["step"]))
    print(f"MLP 64-512-512-10, global batch {GLOBAL_BATCH}, SGD; {os.cpu_count()} cores")
    print(f"{'workers':>7} {'ms/step':>9} {'samples/s':>10} {'speed-up':>9}")
    for n, seconds in rows:
        print(
            f"{n:>7} {seconds * 1e3:>9.1f} {GLOBAL_BATCH / seconds:>10.0f} "
            f"{rows[0][1] / seconds:>8.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
