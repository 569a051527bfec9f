"""Candidate engines for ``retrograd.distribute``, measured on this machine with 2 local
workers: start-up (launch until every worker can take part in an all-reduce), all-reduce
latency of a small tensor (8 float32) and all-reduce bandwidth of a 16 MB float32 tensor.

    python -m benchmarks.distribute_engines [--repeats N] [--only mpi4py,ray,dask,shm]

Engines that are not installed are reported as such. ``shm`` (Python's multiprocessing with
shared memory) is only a comparison point: the distribute package builds on an existing
engine. Every all-reduce is checked against the expected sum.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

SMALL = 8
LARGE = 4 * 1024 * 1024  # 16 MB of float32
WORKERS = 2


def _timed(allreduce, n: int, repeats: int) -> float:
    """The median seconds of ``allreduce(n)`` over ``repeats`` runs, after a warm-up."""
    allreduce(n)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        allreduce(n)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


# mpi4py: the script relaunches itself under mpiexec; rank 0 prints the numbers as JSON.
def _mpi_worker(repeats: int, started: float) -> None:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    comm.Barrier()
    ready = time.time() - started

    def allreduce(n):
        send = np.full(n, comm.rank + 1, np.float32)
        out = np.empty_like(send)
        comm.Allreduce(send, out, op=MPI.SUM)
        assert out[0] == sum(range(1, comm.size + 1))

    small = _timed(allreduce, SMALL, repeats * 20)
    large = _timed(allreduce, LARGE, repeats)
    if comm.rank == 0:
        print(json.dumps({"startup": ready, "small": small, "large": large}))


def measure_mpi4py(repeats: int) -> dict:
    import mpi4py  # noqa: F401  (reported as missing when absent)

    mpiexec = shutil.which("mpiexec")
    if mpiexec is None:
        raise ImportError("no mpiexec on PATH")
    started = time.time()
    command = [mpiexec, "-n", str(WORKERS), sys.executable, "-m", __spec__.name]
    command += ["--mpi-worker", str(repeats), str(started)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


# Ray: two actors; an all-reduce puts each actor's array in the object store and hands every
# actor all the references to add up (Ray's collective library needs NCCL or pygloo).
def measure_ray(repeats: int) -> dict:
    import ray

    started = time.time()
    ray.init(num_cpus=WORKERS, include_dashboard=False, logging_level="ERROR")
    try:

        @ray.remote
        class Worker:
            def __init__(self, rank):
                self.rank = rank

            def ready(self):
                return True

            def contribute(self, n):
                return np.full(n, self.rank + 1, np.float32)

            def receive(self, *parts):
                total = np.sum(parts, axis=0)
                assert total[0] == sum(range(1, WORKERS + 1))
                return True

        workers = [Worker.remote(i) for i in range(WORKERS)]
        ray.get([w.ready.remote() for w in workers])
        ready = time.time() - started

        def allreduce(n):
            parts = [w.contribute.remote(n) for w in workers]
            ray.get([w.receive.remote(*parts) for w in workers])

        return {
            "startup": ready,
            "small": _timed(allreduce, SMALL, repeats * 20),
            "large": _timed(allreduce, LARGE, repeats),
        }
    finally:
        ray.shutdown()


# Dask distributed: a local cluster of two worker processes; an all-reduce makes a part on
# each worker, then runs a sum on each worker over both parts (moved between the workers).
def _dask_part(n, rank):
    return np.full(n, rank + 1, np.float32)


def _dask_sum(*parts):
    total = np.sum(parts, axis=0)
    assert total[0] == sum(range(1, WORKERS + 1))
    return True


def measure_dask(repeats: int) -> dict:
    from dask.distributed import Client, LocalCluster

    started = time.time()
    cluster = LocalCluster(
        n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    try:
        client.wait_for_workers(WORKERS)
        addresses = sorted(client.scheduler_info()["workers"])
        ready = time.time() - started
        calls = [0]

        def allreduce(n):
            calls[0] += 1
            parts = [
                client.submit(_dask_part, n, r, workers=[a], pure=False, key=f"p{calls[0]}-{r}")
                for r, a in enumerate(addresses)
            ]
            sums = [client.submit(_dask_sum, *parts, workers=[a], pure=False) for a in addresses]
            client.gather(sums)

        return {
            "startup": ready,
            "small": _timed(allreduce, SMALL, repeats * 5),
            "large": _timed(allreduce, LARGE, repeats),
        }
    finally:
        client.close()
        cluster.close()


# Comparison point: multiprocessing, one shared-memory slot per worker, barriers around sums.
def _shm_worker(rank, name, started, barrier, repeats, queue):
    from multiprocessing import shared_memory

    memory = shared_memory.SharedMemory(name=name)
    slots = np.ndarray((WORKERS, LARGE), np.float32, buffer=memory.buf)
    started.wait()

    def allreduce(n):
        slots[rank, :n] = rank + 1
        barrier.wait()
        total = slots[:, :n].sum(axis=0)
        barrier.wait()  # nobody writes the next round before all have read this one
        assert total[0] == sum(range(1, WORKERS + 1))

    result = {
        "small": _timed(allreduce, SMALL, repeats * 20),
        "large": _timed(allreduce, LARGE, repeats),
    }
    if rank == 0:  # (the parent unlinks the memory)
        queue.put(result)


def measure_shm(repeats: int) -> dict:
    import multiprocessing as mp
    from multiprocessing import shared_memory

    begun = time.time()
    memory = shared_memory.SharedMemory(create=True, size=WORKERS * LARGE * 4)
    context = mp.get_context("spawn")
    started, barrier = context.Barrier(WORKERS + 1), context.Barrier(WORKERS)
    queue = context.Queue()
    procs = [
        context.Process(target=_shm_worker, args=(r, memory.name, started, barrier, repeats, queue))
        for r in range(WORKERS)
    ]
    for p in procs:
        p.start()
    try:
        started.wait()
        ready = time.time() - begun
        result = queue.get(timeout=600)
        return {"startup": ready, **result}
    finally:
        for p in procs:
            p.join()
        memory.close()
        memory.unlink()


ENGINES = {"mpi4py": measure_mpi4py, "ray": measure_ray, "dask": measure_dask, "shm": measure_shm}


def render(rows: dict) -> str:
    lines = [
        f"{'engine':<8} {'start-up':>9} {'all-reduce 8 floats':>20} {'all-reduce 16 MB':>17} "
        f"{'bandwidth':>10}",
    ]
    for name, row in rows.items():
        if "error" in row:
            lines.append(f"{name:<8} not measured: {row['error']}")
            continue
        bandwidth = LARGE * 4 / row["large"] / 1e9
        lines.append(
            f"{name:<8} {row['startup']:>8.2f}s {row['small'] * 1e6:>17.1f} µs "
            f"{row['large'] * 1e3:>14.2f} ms {bandwidth:>6.2f} GB/s"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--only", default=",".join(ENGINES))
    parser.add_argument("--mpi-worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mpi_worker:
        _mpi_worker(int(args.mpi_worker[0]), float(args.mpi_worker[1]))
        return 0
    rows = {}
    for name in args.only.split(","):
        try:
            rows[name] = ENGINES[name](args.repeats)
        except ImportError as error:
            rows[name] = {"error": f"not installed ({error})"}
    print(f"{WORKERS} local workers on {os.cpu_count()} cores; medians of {args.repeats}+ runs")
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
