"""Progress of long work on one line of stderr: benchmarks, big gradient checks, ``check``.

``Progress(total, label)`` counts steps (``update``) and redraws one line at most every
``interval`` seconds: ``label  12/40 [######------] 30%  3.1 s, about 7 s left  note``
(without a total: the count and the time). It draws only where someone watches: on a
terminal, or wherever ``RETROGRAD_PROGRESS=1`` asks for it (``0`` silences it everywhere);
``enabled=`` decides for one display, and ``delay=`` keeps it silent until the work has
lasted that many seconds (short work shows nothing). Off a terminal each redraw is a line of
its own.
:func:`progress` wraps an iterable. Tools that run long loops (Keras ``fit``,
``check_gradients``) take a ``Progress`` or build one from here, so there is one way to
show progress.

>>> import io
>>> out = io.StringIO()
>>> with Progress(3, "checking", stream=out, enabled=True, interval=0) as p:
...     for step in range(3):
...         p.update(note=f"direction {step + 1}")
>>> print(out.getvalue().splitlines()[-1])
checking  3/3 [########################] 100%  0.0 s  direction 3
>>> [x * 2 for x in progress([1, 2], "doubling", enabled=False)]
[2, 4]
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, Any, TypeVar

__all__ = ["Progress", "progress", "wanted", "is_terminal"]

_T = TypeVar("_T")
BAR = 24  # characters of the bar


def wanted(stream: IO[str]) -> bool:
    """Whether to draw progress on ``stream``: ``RETROGRAD_PROGRESS`` (1 or 0), else whether
    ``stream`` is a terminal."""
    setting = os.environ.get("RETROGRAD_PROGRESS", "").strip().lower()
    if setting in ("1", "true", "yes", "on"):
        return True
    if setting in ("0", "false", "no", "off"):
        return False
    return is_terminal(stream)


class Progress:
    """Counts steps of long work and shows them on one line (see the module docstring)."""

    def __init__(
        self,
        total: int | None = None,
        label: str = "",
        stream: IO[str] | None = None,
        enabled: bool | None = None,
        interval: float = 0.2,
        delay: float = 0.0,
    ) -> None:
        if total is not None and (not isinstance(total, int) or total < 0):
            raise ValueError(f"Progress: total must be a non-negative int or None, got {total!r}")
        self.total = total
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = wanted(self.stream) if enabled is None else bool(enabled)
        self.interval = float(interval)
        self.delay = float(delay)
        self.done = 0
        self.note = ""
        self._start = time.perf_counter()
        self._drawn = -float("inf")
        self._width = 0
        self._terminal = is_terminal(self.stream)  # redraw in place; elsewhere, line by line

    def update(self, steps: int = 1, note: str = "") -> None:
        """``steps`` more are done; ``note`` says what is being done now."""
        self.done += steps
        self.note = note or self.note
        now = time.perf_counter()
        if self.enabled and now - self._drawn >= self.interval and now - self._start >= self.delay:
            self._drawn = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The text of the display as it stands."""
        elapsed = (time.perf_counter() if now is None else now) - self._start
        parts = [self.label] if self.label else []
        if self.total:
            fraction = min(1.0, self.done / self.total)
            filled = int(round(fraction * BAR))
            parts.append(f"  {self.done}/{self.total} [{'#' * filled}{'-' * (BAR - filled)}]")
            parts.append(f" {fraction:4.0%}")
            timing = f"  {elapsed:.1f} s"
            if 0 < self.done < self.total:
                timing += f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
            parts.append(timing)
        else:
            parts.append(f"  {self.done}  {elapsed:.1f} s")
        if self.note:
            parts.append(f"  {self.note}")
        return "".join(parts).lstrip()

    def _draw(self, now: float) -> None:
        text = self.line(now)
        try:
            if self._terminal:
                self.stream.write("\r" + text.ljust(self._width))
                self._width = len(text)
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # the stream went away: progress is not worth failing
            self.enabled = False

    def close(self) -> None:
        """Draws the final state and ends the line (nothing if nothing was drawn yet because
        of ``delay``)."""
        shown = self._drawn > -float("inf") or time.perf_counter() - self._start >= self.delay
        if self.enabled and shown:
            self._draw(time.perf_counter())
            if self._terminal:
                try:
                    self.stream.write("\n")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
            self.enabled = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (False for anything without a working ``isatty``).

    >>> import io
    >>> is_terminal(io.StringIO())
    False
    """
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def progress(
    items: Iterable[_T],
    label: str = "",
    total: int | None = None,
    stream: IO[str] | None = None,
    enabled: bool | None = None,
) -> Iterator[_T]:
    """Yields ``items``, counting them on a :class:`Progress` line (total: ``len(items)``
    when it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(total, label, stream, enabled) as p:
        for item in items:
            yield item
            p.update()
