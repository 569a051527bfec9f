"""Data parallelism with real worker processes (MPI, the ``distribute`` extra): 2 and 4
workers train to the weights of one process on the same global batches; a worker that dies
is named by the others within seconds; a restarted job resumes from its checkpoints."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import retrograd as tf
from tests.distribute import workers

try:
    import mpi4py  # noqa: F401

    from retrograd.distribute.__main__ import _mpiexec

    _mpiexec()
    MISSING = None
except (ImportError, SystemExit) as error:
    MISSING = f"the distribute extra (mpi4py and mpiexec) is not installed: {error}"

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

SRC = pathlib.Path(tf.__file__).parent.parent
PROGRAM = pathlib.Path(workers.__file__)


def launch(
    n: int, mode: str, out: pathlib.Path, timeout: float = 60
) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC), RETROGRAD_DISTRIBUTE_TIMEOUT="15")
    command = [sys.executable, "-m", "retrograd.distribute", "-n", str(n), str(PROGRAM)]
    return subprocess.run(
        command + [mode, str(out)],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def weights_of(path: pathlib.Path) -> list[np.ndarray]:
    with np.load(path) as saved:
        return [saved[k] for k in sorted(saved.files, key=lambda k: int(k.split("_")[1]))]


def assert_same(found, expected):
    assert len(found) == len(expected)
    for a, b in zip(found, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "mode, n, reference",
    [
        ("loop", 2, lambda s: workers.custom_loop(s)),
        ("loop", 4, lambda s: workers.custom_loop(s)),
        ("fit", 2, lambda s: workers.keras_fit(s)),
        ("custom", 2, lambda s: workers.custom_loop(s, custom=True)),
    ],
    ids=["custom-loop-2", "custom-loop-4", "keras-fit-2", "custom-gradients-2"],
)
def test_workers_reach_the_weights_of_one_process(tmp_path, mode, n, reference):
    done = launch(n, mode, tmp_path / "out")
    assert done.returncode == 0, done.stderr[-3000:]
    expected = reference(tf.distribute.MirroredStrategy())  # one process, one replica
    for rank in range(n):
        assert_same(weights_of(tmp_path / f"out.{rank}.npz"), expected)


def test_a_worker_that_dies_is_named_by_the_others_in_bounded_time(tmp_path):
    start = time.monotonic()
    done = launch(2, "die", tmp_path / "out", timeout=30)
    elapsed = time.monotonic() - start
    assert done.returncode != 0
    assert "UnavailableError" in done.stderr, done.stderr[-3000:]
    assert "worker 1 (process" in done.stderr and "stopped while worker 0 waited" in done.stderr
    assert elapsed < 20


def test_a_restarted_job_resumes_from_its_checkpoints(tmp_path):
    crashed = launch(2, "crash", tmp_path / "out", timeout=30)
    assert crashed.returncode != 0
    assert not (tmp_path / "out.0.npz").exists()
    assert (tmp_path / "out.ckpt" / "worker_0" / "checkpoint").exists()
    resumed = launch(2, "resume", tmp_path / "out")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    uninterrupted = workers.custom_loop(
        tf.distribute.MirroredStrategy(), epochs=3, checkpoint_dir=str(tmp_path / "one")
    )
    for rank in range(2):
        assert_same(weights_of(tmp_path / f"out.{rank}.npz"), uninterrupted)
    shutil.rmtree(tmp_path / "out.ckpt")
