"""TensorFlow 1's thread coordination and global-step helpers (``compat.v1.train``):
``Coordinator`` (threads that stop together and report the first exception),
``LooperThread``, ``global_step`` and ``assert_global_step``.

>>> coord = Coordinator()
>>> with coord.stop_on_exception():
...     raise RuntimeError("reader failed")
>>> coord.should_stop()
True
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from retrograd.core import errors
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = ["Coordinator", "LooperThread", "assert_global_step", "global_step"]


# TensorFlow's input pipelines end with OutOfRangeError, a clean stop for a Coordinator;
# retrograd's errors module defines it once an input pipeline of retrograd raises it.
_CLEAN_STOPS = tuple(e for e in [getattr(errors, "OutOfRangeError", None)] if e is not None)


class Coordinator:
    """Threads that stop together: each loops ``while not coord.should_stop()``; any may
    ``request_stop`` (with the exception that ended it); ``join`` waits for the registered
    threads and re-raises that exception. The types in ``clean_stop_exception_types``
    (``OutOfRangeError`` by default) stop without being an error.

    >>> import threading
    >>> coord = Coordinator()
    >>> def work():
    ...     while not coord.should_stop():
    ...         coord.request_stop()
    >>> threads = [threading.Thread(target=work) for _ in range(2)]
    >>> for t in threads: t.start()
    >>> coord.join(threads)
    >>> coord.joined
    True
    """

    def __init__(self, clean_stop_exception_types: Sequence[type] | None = None) -> None:
        if clean_stop_exception_types is None:
            clean_stop_exception_types = _CLEAN_STOPS
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info: Any = None
        self._registered: set[threading.Thread] = set()
        self._joined = False

    def request_stop(self, ex: BaseException | tuple | None = None) -> None:
        """Asks the threads to stop; ``ex`` (an exception or ``sys.exc_info()``) is kept to
        be raised by ``join``, unless it is a clean stop or one was kept before."""
        with self._lock:
            if ex is not None and not self._joined:
                info = ex if isinstance(ex, tuple) else (type(ex), ex, ex.__traceback__)
                clean = issubclass(info[0], self._clean_stop_exception_types)
                if not clean and self._exc_info is None:
                    self._exc_info = info
            self._stop_event.set()

    def clear_stop(self) -> None:
        """Forgets a stop request and its exception, so the coordinator can run again."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        """Whether a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """A block whose exception requests a stop (and is kept) instead of propagating."""
        try:
            yield
        except Exception:  # noqa: BLE001 (kept for join, as TensorFlow does)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Waits until a stop is requested (at most ``timeout`` seconds); True if it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        """A thread for ``join`` to wait for."""
        with self._lock:
            self._registered.add(thread)

    def join(
        self,
        threads: Sequence[threading.Thread] | None = None,
        stop_grace_period_secs: float = 120,
        ignore_live_threads: bool = False,
    ) -> None:
        """Waits for a stop request, then for ``threads`` and the registered threads (at
        most ``stop_grace_period_secs`` more); raises the kept exception, or a
        RuntimeError naming threads still running (unless ``ignore_live_threads``)."""
        with self._lock:
            waiting = set(threads or ()) | self._registered
        while any(t.is_alive() for t in waiting) and not self.wait_for_stop(1.0):
            pass
        for thread in waiting:
            thread.join(stop_grace_period_secs)
        with self._lock:
            self._joined = True
            self._registered = set()
            info, self._exc_info = self._exc_info, None
        if info is not None:
            raise info[1].with_traceback(info[2])
        alive = sorted(t.name for t in waiting if t.is_alive())
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {alive}")

    @property
    def joined(self) -> bool:
        """Whether ``join`` has finished."""
        return self._joined

    def raise_requested_exception(self) -> None:
        """Raises the kept exception, if any."""
        with self._lock:
            info = self._exc_info
        if info is not None:
            raise info[1].with_traceback(info[2])


class LooperThread(threading.Thread):
    """A thread calling ``target(*args, **kwargs)`` (or its ``run_loop``) every
    ``timer_interval_secs`` seconds (or back to back with None) until the coordinator
    stops; an exception requests the stop.

    >>> coord = Coordinator()
    >>> calls = []
    >>> def tick():
    ...     calls.append(1)
    ...     if len(calls) == 3:
    ...         coord.request_stop()
    >>> t = LooperThread.loop(coord, None, tick)
    >>> coord.join([t])
    >>> len(calls)
    3
    """

    def __init__(
        self,
        coord: Coordinator,
        timer_interval_secs: float | None,
        target: Callable | None = None,
        args: Sequence | None = None,
        kwargs: dict | None = None,
    ) -> None:
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__()
        self.daemon = True
        self._coord, self._interval = coord, timer_interval_secs
        self._target_fn, self._args, self._kwargs = target, tuple(args or ()), kwargs or {}
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None) -> LooperThread:
        """Starts a LooperThread calling ``target`` and returns it."""
        thread = LooperThread(coord, timer_interval_secs, target, args, kwargs)
        thread.start()
        return thread

    def run(self) -> None:
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._interval is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                while not self._coord.wait_for_stop(self._interval):
                    self.run_loop()
            self.stop_loop()

    def start_loop(self) -> None:
        """Called once before the loop."""

    def stop_loop(self) -> None:
        """Called once after the loop."""

    def run_loop(self) -> None:
        """One iteration: calls the target."""
        if self._target_fn is not None:
            self._target_fn(*self._args, **self._kwargs)


def global_step(sess: Any, global_step_tensor: Any) -> int:
    """The value of the global step as an int (eagerly without a session).

    >>> import retrograd as rg
    >>> global_step(None, rg.Variable(7, dtype=rg.int64))
    7
    """
    if context.graph is None and sess is None:
        return int(global_step_tensor.numpy())
    return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor: Any) -> None:
    """A TypeError unless ``global_step_tensor`` is an integer scalar variable or tensor.

    >>> import retrograd as rg
    >>> assert_global_step(rg.Variable(1.5))
    Traceback (most recent call last):
    ...
    TypeError: Existing "global_step" does not have integer type: tf.float32
    """
    if not isinstance(global_step_tensor, (Variable, Tensor)):
        raise TypeError(
            f'Existing "global_step" must be a Variable or Tensor: {global_step_tensor}.'
        )
    if not global_step_tensor.dtype.is_integer:
        raise TypeError(
            f'Existing "global_step" does not have integer type: {global_step_tensor.dtype!r}'
        )
    shape = global_step_tensor.get_shape()
    if shape.rank != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')
