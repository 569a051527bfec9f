"""Long tapes and Python's cyclic garbage collector.

A tape keeps every op it records, and each record is a few objects that the cyclic garbage
collector tracks (the record, its tuples of inputs and outputs, its output tensors). All
of them are reachable while the tape records, yet every full collection walks them again:
at 100,000 recorded steps, full collections took a third of the time, so the cost of a
step grew with the length of the tape.

So when a full collection ends while a tape of this thread holds at least ``LONG`` values,
the objects that survived it (all alive: the garbage was just collected) are frozen
(``gc.freeze()``): later collections skip them, and a step costs the same at any length.
Frozen objects are still freed as soon as nothing refers to them; only cyclic garbage
among them waits. Once no long tape records, ``thaw()`` unfreezes them (``gc.unfreeze()``).
A process that froze objects itself (``gc.get_freeze_count()`` nonzero before) is left
alone.

>>> import gc
>>> from retrograd.autodiff import long_tapes
>>> long_tapes.LONG
10000
>>> long_tapes.thaw()  # nothing frozen by retrograd: nothing to do
>>> long_tapes.frozen
False
"""

from __future__ import annotations

import gc
import threading
from typing import Any

from retrograd.core.execute import context

__all__ = ["LONG", "thaw", "frozen"]

LONG = 10_000  # values tracked by one tape
frozen = False  # whether objects frozen by retrograd are in the permanent generation
_lock = threading.Lock()


def _long_tape_recording() -> bool:
    return any(len(tape._tracked) >= LONG for tape in context.tapes)


def _after_collection(phase: str, info: dict[str, Any]) -> None:
    global frozen
    if phase != "stop" or info.get("generation") != 2 or not context.tapes:
        return
    if not _long_tape_recording():
        return
    with _lock:
        if frozen or gc.get_freeze_count() == 0:  # (another's freeze: leave it alone)
            gc.freeze()
            frozen = True


def thaw() -> None:
    """Unfreezes what retrograd froze, unless a long tape of this thread still records."""
    global frozen
    if not frozen or _long_tape_recording():
        return
    with _lock:
        if frozen:
            gc.unfreeze()
            frozen = False


gc.callbacks.append(_after_collection)
