"""The collective engine under the strategies: MPI through mpi4py, an optional extra
(``pip install 'retrograd[distribute]'``), imported only when a program runs under an MPI
launcher (``python -m retrograd.distribute -n 2 train.py``, or ``mpiexec``).

Each collective is started non-blocking and waited for in a loop that checks the other
workers: a worker on this host whose process has ended is named in an ``UnavailableError``
within a fraction of a second; any collective that waits longer than
``RETROGRAD_DISTRIBUTE_TIMEOUT`` seconds (default 300) raises ``DeadlineExceededError``.
Without a launcher the engine is :class:`Local`: one worker, and every collective returns
its input.

>>> from retrograd.distribute.engine import Local
>>> import numpy as np
>>> Local().all_reduce(np.ones(2, np.float32)).tolist(), Local().size
([1.0, 1.0], 1)
"""

from __future__ import annotations

import atexit
import os
import socket
import time
from typing import Any

import numpy as np

from retrograd.core.errors import DeadlineExceededError, MissingDependencyError, UnavailableError

__all__ = ["Local", "MPIEngine", "launched_by_mpi", "engine"]

# Variables an MPI launcher (MPICH's Hydra, Open MPI, PMIx) sets in each process it starts.
_LAUNCHER_VARIABLES = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE")


def launched_by_mpi() -> bool:
    """Whether this process was started by an MPI launcher.

    >>> import os
    >>> launched_by_mpi() == any(v in os.environ for v in _LAUNCHER_VARIABLES)
    True
    """
    return any(name in os.environ for name in _LAUNCHER_VARIABLES)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (an ended one its launcher has not yet reaped is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True  # (no /proc: the signal said it exists)


class Local:
    """One worker: collectives return their input (the engine without a launcher).

    >>> import numpy as np
    >>> [a.tolist() for a in Local().all_gather(np.arange(2))]
    [[0, 1]]
    """

    rank = 0
    size = 1
    hosts: tuple[str, ...] = (socket.gethostname(),)

    def all_reduce(self, array: Any, op: str = "sum", what: str = "all-reduce") -> Any:
        return array

    def all_gather(self, array: Any, what: str = "all-gather") -> list[Any]:
        return [array]

    def broadcast(self, array: Any, root: int = 0, what: str = "broadcast") -> Any:
        return array

    def barrier(self, what: str = "barrier") -> None:
        return None


class MPIEngine:
    """The workers of ``MPI.COMM_WORLD``; ``rank`` is this worker's index.

    >>> MPIEngine.__name__  # (made by ``engine()`` in a launched program)
    'MPIEngine'
    """

    def __init__(self, timeout: float | None = None) -> None:
        try:
            import mpi4py
        except ImportError as error:
            raise MissingDependencyError(
                "retrograd.distribute: this program was started by an MPI launcher, and the "
                "engine behind tf.distribute needs mpi4py and an MPI library: "
                "pip install 'retrograd[distribute]'"
            ) from error
        mpi4py.rc.finalize = False  # finalized at exit unless a worker failed (see _finalize)
        from mpi4py import MPI

        self._mpi = MPI
        self._comm = MPI.COMM_WORLD.Dup()
        self.rank, self.size = self._comm.Get_rank(), self._comm.Get_size()
        if timeout is None:
            timeout = float(os.environ.get("RETROGRAD_DISTRIBUTE_TIMEOUT", "300"))
        self.timeout = timeout
        self.failed = False
        peers = self._comm.allgather((socket.gethostname(), os.getpid()))
        self.hosts = tuple(host for host, _ in peers)
        self._peers = peers
        atexit.register(self._finalize)

    def _finalize(self) -> None:
        # MPI_Finalize waits for every worker; after a failure it would wait for a dead one.
        if not self.failed and not self._mpi.Is_finalized():
            self._comm.Free()
            self._mpi.Finalize()

    def _describe(self, rank: int) -> str:
        host, pid = self._peers[rank]
        return f"worker {rank} (process {pid} on {host})"

    def _dead(self) -> list[int]:
        here = socket.gethostname()
        dead = []
        for rank, (host, pid) in enumerate(self._peers):
            if rank == self.rank or host != here:
                continue
            if not _alive(pid):
                dead.append(rank)
        return dead

    def _wait(self, request: Any, what: str) -> None:
        """Waits for ``request``, checking the other workers every half second."""
        start = time.monotonic()
        checked, pause = start, 0.0
        while not request.Test():
            now = time.monotonic()
            if now - checked > 0.5:
                checked = now
                dead = self._dead()
                if dead:
                    self.failed = True
                    names = ", ".join(self._describe(r) for r in dead)
                    raise UnavailableError(
                        f"tf.distribute: {names} stopped while worker {self.rank} waited in "
                        f"{what}; the job cannot go on (restart it to resume from the last "
                        "checkpoint)"
                    )
                if now - start > self.timeout:
                    self.failed = True
                    raise DeadlineExceededError(
                        f"tf.distribute: worker {self.rank} waited more than {self.timeout:g} s "
                        f"in {what} for the other {self.size - 1} workers "
                        "(RETROGRAD_DISTRIBUTE_TIMEOUT sets the limit)"
                    )
            if now - start > 0.001:  # spin for the first millisecond, then yield the core
                pause = min(0.002, pause + 0.0001)
                time.sleep(pause)

    def all_reduce(self, array: Any, op: str = "sum", what: str = "all-reduce") -> Any:
        send = np.array(array, order="C")
        out = np.empty_like(send)
        mpi_op = {"sum": self._mpi.SUM, "max": self._mpi.MAX, "min": self._mpi.MIN}[op]
        self._wait(self._comm.Iallreduce(send, out, op=mpi_op), what)
        return out

    def all_gather(self, array: Any, what: str = "all-gather") -> list[Any]:
        """Every worker's array (shapes may differ in the first dimension)."""
        send = np.array(array, order="C")
        rows = np.array([send.shape[0] if send.ndim else 1], np.int64)
        counts = np.empty(self.size, np.int64)
        self._wait(self._comm.Iallgather(rows, counts), what)
        width = max(int(counts.max()), 1)
        padded = np.zeros((width,) + send.shape[1:], send.dtype)
        padded[: rows[0]] = send.reshape((rows[0],) + send.shape[1:])
        out = np.empty((self.size,) + padded.shape, send.dtype)
        self._wait(self._comm.Iallgather(padded, out), what)
        shaped = [out[r, : counts[r]] for r in range(self.size)]
        return [s.reshape(send.shape) if send.ndim == 0 else s for s in shaped]

    def broadcast(self, array: Any, root: int = 0, what: str = "broadcast") -> Any:
        out = np.array(array, copy=True, order="C")
        self._wait(self._comm.Ibcast(out, root=root), what)
        return out

    def barrier(self, what: str = "barrier") -> None:
        self._wait(self._comm.Ibarrier(), what)


_engine: list = []


def engine() -> Local | MPIEngine:
    """The process's engine: MPI's workers when launched by MPI, else one local worker.

    >>> engine().size >= 1
    True
    """
    if not _engine:
        _engine.append(MPIEngine() if launched_by_mpi() else Local())
    return _engine[0]
