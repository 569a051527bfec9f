"""Where the user is: the one place that reads the call stack, for messages only.

Diagnostics point at the user's code, not at retrograd's: ``user_site()`` is the
``file:line`` of the innermost calling frame outside the retrograd package (and outside
``contextlib``, which runs ``with`` blocks); ``user_stack`` the user's frames, for a
traceback-like message; ``warn_at_user`` issues a warning attributed to that line, so
Python's filters show it once per site of the user's code (not once per line of
retrograd); ``script_traceback`` cuts a traceback to the frames from a script's own on,
dropping the launcher's (``retrograd run``, ``retrograd trace``).

Nothing here decides what a program computes: these only choose what a message shows.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warn_at_user("look here", UserWarning)
>>> caught[0].filename.startswith("<doctest")  # the caller's line, not retrograd's
True
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from types import FrameType, TracebackType
from typing import Any

__all__ = ["user_location", "user_site", "user_stack", "warn_at_user", "script_traceback"]

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_LIBRARY_FILES = (contextlib.__file__,)


def _outside(filename: str) -> bool:
    return not filename.startswith(PACKAGE) and filename not in _LIBRARY_FILES


def user_location(depth: int = 1) -> tuple[str, int, dict] | None:
    """``(file, line, module globals)`` of the innermost frame, ``depth`` frames up from the
    caller or further, outside retrograd (None when there is none)."""
    frame: FrameType | None = sys._getframe(depth)
    while frame is not None and not _outside(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_globals


def user_site(depth: int = 1) -> str:
    """``file:line`` of the user's code that called into retrograd (``?`` if none)."""
    found = user_location(depth + 1)
    return "?" if found is None else f"{found[0]}:{found[1]}"


def user_stack(limit: int, depth: int = 1) -> list[tuple[Any, int]]:
    """``(code, line)`` of up to ``limit`` calling frames outside retrograd, innermost last
    (source lines are read only when a message is made)."""
    frames: list[tuple[Any, int]] = []
    frame: FrameType | None = sys._getframe(depth)
    while frame is not None and len(frames) < limit:
        if _outside(frame.f_code.co_filename):
            frames.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    frames.reverse()
    return frames


def warn_at_user(message: str, category: type[Warning]) -> None:
    """Warns with ``message`` at the user's line: the warning names that line, and Python's
    filters (``default``: once per site and text) count it there."""
    found = user_location(2)
    if found is None:
        warnings.warn(message, category, stacklevel=2)
        return
    filename, line, module_globals = found
    registry = module_globals.setdefault("__warningregistry__", {})
    module = module_globals.get("__name__", "<unknown>")
    warnings.warn_explicit(message, category, filename, line, module, registry, module_globals)


def script_traceback(tb: TracebackType | None, script: str) -> TracebackType | None:
    """``tb`` from the first frame of ``script`` on (the launcher's frames dropped); all of
    it when no frame is the script's (it failed before running any of its lines)."""
    target = os.path.realpath(script)
    t = tb
    while t is not None and os.path.realpath(t.tb_frame.f_code.co_filename) != target:
        t = t.tb_next
    return tb if t is None else t
