"""``tf.train.Coordinator`` (threads that stop together) and ``tf.train.ClusterSpec`` (the
jobs and task addresses of a cluster: retrograd runs in one process, so a cluster is only
described, never connected to).

>>> import retrograd as tf
>>> spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": {3: "p:2222"}})
>>> spec.jobs, spec.num_tasks("worker"), spec.task_address("ps", 3)
(['worker', 'ps'], 2, 'p:2222')
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from retrograd.core.errors import OutOfRangeError

__all__ = ["ClusterSpec", "Coordinator"]


class Coordinator:
    """Lets threads ask each other to stop and reports the first exception raised.

    >>> import retrograd as tf
    >>> coord = tf.train.Coordinator()
    >>> coord.should_stop(), coord.request_stop(), coord.should_stop()
    (False, None, True)
    """

    def __init__(self, clean_stop_exception_types: Any = None) -> None:
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise: Any = None
        self._joined = False
        self._registered_threads: set = set()

    def _filter_exception(self, ex: Any) -> Any:
        error = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(error, self._clean_stop_exception_types) else ex

    def request_stop(self, ex: Any = None) -> None:
        """Asks every thread to stop; ``ex`` (an exception or exc_info) is kept to re-raise
        in ``join`` unless it is a clean stop (``OutOfRangeError`` by default)."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1].with_traceback(ex[2])
                if ex is not None:
                    raise ex
            if ex is not None and self._exc_info_to_raise is None:
                if isinstance(ex, tuple):
                    self._exc_info_to_raise = ex
                else:
                    self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
            self._stop_event.set()

    def clear_stop(self) -> None:
        """Clears the stop request, so the coordinator can be used again."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """A block whose exception becomes a stop request (and is not raised there)."""
        try:
            yield
        except Exception:
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Waits until a stop is requested (or ``timeout`` seconds); whether it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads: Any = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:  # fmt: skip
        """Waits for the threads (and registered ones) to end after a stop request; raises
        the exception passed to ``request_stop``, or RuntimeError for threads still alive
        after the grace period (unless ``ignore_live_threads``)."""
        threads = set(threads or []) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()))
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                _, error, traceback = self._exc_info_to_raise
                raise error.with_traceback(traceback)
            if stragglers and not ignore_live_threads:
                raise RuntimeError(f"Coordinator stopped with threads still running: {stragglers}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        """Raises the exception passed to ``request_stop``, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                _, error, traceback = self._exc_info_to_raise
                raise error.with_traceback(traceback)


class ClusterSpec:
    """A cluster's jobs, each a list (task i at position i) or dict of task addresses.

    >>> import retrograd as tf
    >>> tf.train.ClusterSpec({"worker": ["a:1", "b:1"]}).as_dict()
    {'worker': ['a:1', 'b:1']}
    """

    def __init__(self, cluster: Any) -> None:
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterSpec`.")  # fmt: skip
        self._jobs: dict[str, dict[int, str]] = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._jobs[job] = {int(i): address for i, address in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary "
                                f"from integers to strings.")  # fmt: skip

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __repr__(self) -> str:
        return f"ClusterSpec({self.as_dict()})"

    @property
    def jobs(self) -> list[str]:
        """The job names, in the order given."""
        return list(self._jobs)

    def _job(self, job_name: str) -> dict[int, str]:
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def num_tasks(self, job_name: str) -> int:
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> list[int]:
        return sorted(self._job(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name: str) -> list[str | None]:
        """The addresses by task index (None where a sparse job has no task)."""
        tasks = self._job(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def as_dict(self) -> dict[str, Any]:
        """Each job's tasks: a list when dense from 0, else a dict by index."""
        out: dict[str, Any] = {}
        for job in self.jobs:
            tasks = self._jobs[job]
            dense = sorted(tasks) == list(range(len(tasks)))
            out[job] = [tasks[i] for i in range(len(tasks))] if dense else dict(tasks)
        return out

    def as_cluster_def(self) -> dict[str, Any]:
        """The cluster as TensorFlow's ClusterDef fields (a dict: retrograd has no protos)."""
        return {"job": [{"name": j, "tasks": dict(sorted(self._jobs[j].items()))}
                        for j in self.jobs]}  # fmt: skip
