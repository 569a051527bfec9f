"""Running one call in a forked child: with its address space capped (a load that tries to
allocate beyond the cap fails there, not in the test process), or killed (``os._exit``) just
before its k-th file-system step, as a SIGKILL would stop it.

POSIX only (``os.fork``): the tests that use it are skipped where processes cannot fork."""

from __future__ import annotations

import json
import os
import resource
import sys
import traceback
from collections.abc import Callable
from typing import Any

import pytest

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")

# The file-system steps of a save: what a kill can fall between.
STEPS = ("replace", "rename", "unlink", "remove", "fsync")


def _address_space() -> int:
    with open("/proc/self/statm") as f:  # (Linux; elsewhere the cap is only the extra)
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def run_forked(call: Callable[[], Any], memory: int | None = None, kill_at: int | None = None):
    """Runs ``call()`` in a forked child. ``memory``: bytes the child may allocate beyond
    what it has at the fork. ``kill_at``: the child exits (status 9, nothing cleaned up)
    just before its ``kill_at``-th file-system step. Returns ``("value", repr)``,
    ``("error", type name, message)``, ``("killed", steps)`` or, with ``kill_at`` None,
    also the number of steps it made (``("value", repr, steps)``)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        steps = [0]
        try:
            if memory is not None:
                try:
                    base = _address_space()
                except OSError:
                    base = 0
                resource.setrlimit(resource.RLIMIT_AS, (base + memory, base + memory))
            for name in STEPS:
                original = getattr(os, name)

                def counted(*args, _original=original, **kwargs):
                    steps[0] += 1
                    if kill_at is not None and steps[0] == kill_at:
                        os._exit(9)
                    return _original(*args, **kwargs)

                setattr(os, name, counted)
            outcome = ["value", repr(call())[:2000], steps[0]]
        except BaseException as error:  # noqa: BLE001 (reported to the parent)
            outcome = ["error", type(error).__name__, str(error)[:2000]]
            if isinstance(error, AssertionError):
                outcome.append(traceback.format_exc()[-2000:])
        try:
            os.write(write, json.dumps(outcome).encode())
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 9 and not chunks:
        return ("killed", kill_at)
    if not chunks:
        sys.stderr.write(f"forked child ended with status {status} and no report\n")
        return ("crashed", status)
    return tuple(json.loads(b"".join(chunks)))
