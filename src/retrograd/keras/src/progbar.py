"""Keras' progress bar: on a terminal a bar redrawn in place (steps, time, metrics), one
summary line per epoch otherwise.

>>> import io
>>> out = io.StringIO()
>>> bar = Progbar(2, verbose=2, stream=out)
>>> bar.update(1, [("loss", 0.5)]); bar.update(2, [("loss", 0.25)])
>>> out.getvalue().split(" - ")[0], out.getvalue().split(" - ")[-1]
('2/2', 'loss: 0.2500\\n')
"""

from __future__ import annotations

import logging
import math
import sys
import time
from typing import Any, TextIO

from retrograd.checking.progress import is_terminal

__all__ = ["Progbar", "format_value", "settings"]


class _Settings:
    """Whether progress goes to standard output (Keras' interactive logging) or to the
    ``retrograd.keras`` logger."""

    interactive = True


settings = _Settings()
_logger = logging.getLogger("retrograd.keras")


class _Stream:
    """The bar's output: its stream, or the logger (one record per finished line) when
    interactive logging is off."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self._pending = stream, ""

    def write(self, text: str) -> None:
        if settings.interactive:
            self.stream.write(text)
            return
        self._pending += text.split("\r")[-1]
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            _logger.info(line)

    def flush(self) -> None:
        if settings.interactive:
            self.stream.flush()


def format_value(value: float) -> str:
    """Four decimals, or scientific notation for magnitudes up to 1e-3 (Keras' rule)."""
    return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"


def _format_time(per_unit: float, unit: str) -> str:
    if per_unit >= 1 or per_unit == 0:
        return f" {per_unit:.0f}s/{unit}"
    if per_unit >= 1e-3:
        return f" {per_unit * 1e3:.0f}ms/{unit}"
    return f" {per_unit * 1e6:.0f}us/{unit}"


class Progbar:
    """``verbose=1``: the bar (redrawn in place when ``stream`` is a terminal, else printed
    once when finished); ``verbose=2``: one line when finished. Metrics show their latest
    value (Keras' metrics are already running means)."""

    def __init__(
        self,
        target: int | None,
        width: int = 20,
        verbose: int = 1,
        interval: float = 0.05,
        unit_name: str = "step",
        stream: TextIO | None = None,
    ) -> None:
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stream = _Stream(stream if stream is not None else sys.stdout)
        self.dynamic = settings.interactive and is_terminal(self.stream.stream)
        self._values: dict[str, float] = {}
        self._start = time.time()
        self._last_update = 0.0
        self._after_first: float | None = None
        self._previous_width = 0

    def _per_step(self, current: int, now: float) -> float:
        if not current:
            return 0.0
        if self._after_first is not None and current > 1:
            return (now - self._after_first) / (current - 1)
        if current == 1:
            self._after_first = now
        return (now - self._start) / current

    def update(
        self,
        current: int,
        values: list[tuple[str, Any]] | None = None,
        finalize: bool | None = None,
    ) -> None:
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            self._values[name] = float(value)
        now = time.time()
        per_step = self._per_step(current, now)
        metrics = "".join(f" - {k}: {format_value(v)}" for k, v in self._values.items())
        if self.verbose == 2:
            if finalize:
                count = self._count(current)
                self.stream.write(
                    f"{count} - {now - self._start:.0f}s -"
                    f"{_format_time(per_step, self.unit_name)}{metrics}\n"
                )
                self.stream.flush()
            return
        if self.verbose != 1:
            return
        if not self.dynamic and not finalize:
            return
        if self.dynamic and now - self._last_update < self.interval and not finalize:
            return
        self._last_update = now
        if self.target:
            done = int(self.width * current / self.target)
            bar = f"\x1b[1m{self._count(current)}\x1b[0m "
            visible = len(self._count(current)) + 1
            if done > 0:
                bar += f"\x1b[32m{'━' * done}\x1b[0m"
            bar += f"\x1b[37m{'━' * (self.width - done)}\x1b[0m"
            visible += self.width
        else:
            bar = f"{current:7d}/Unknown"
            visible = len(bar)
        if self.target and not finalize:
            eta = per_step * (self.target - current)
            if eta > 3600:
                shown = f"{int(eta // 3600)}:{int(eta % 3600 // 60):02d}:{int(eta % 60):02d}"
            elif eta > 60:
                shown = f"{int(eta // 60)}:{int(eta % 60):02d}"
            else:
                shown = f"{int(eta)}s"
        else:
            shown = f"{now - self._start:.0f}s"
        info = f" \x1b[1m{shown}\x1b[0m{_format_time(per_step, self.unit_name)}{metrics}"
        width = visible + len(info) - 8
        message = ("\b" * self._previous_width + "\r") if self.dynamic else ""
        message += bar + info
        if self._previous_width > width:
            message += " " * (self._previous_width - width)
        if finalize:
            message += "\n"
        self.stream.write(message)
        self.stream.flush()
        self._previous_width = width

    def _count(self, current: int) -> str:
        digits = int(math.log10(self.target)) + 1 if self.target else 1
        return f"{current:{digits}d}/{self.target}"
