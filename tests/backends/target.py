"""The device the backend tests run on: ``RETROGRAD_TEST_DEVICE`` (default ``STRICT``, the
strict non-NumPy array type of ``strict_array``; ``GPU`` runs the same tests on CuPy where a
GPU is present). ``installed()`` makes the kind usable in this process (registers STRICT;
checks that any other kind is present, so that soft placement cannot quietly run the tests
on the CPU)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from retrograd.core import backends
from tests.backends import strict_array

__all__ = ["KIND", "NAME", "FULL_NAME", "installed"]

KIND = os.environ.get("RETROGRAD_TEST_DEVICE", strict_array.KIND).upper()
NAME = f"/device:{KIND}:0"
FULL_NAME = f"/job:localhost/replica:0/task:0/device:{KIND}:0"


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """The device kind under test usable while the block runs; RuntimeError when absent."""
    if KIND == strict_array.KIND:
        with strict_array.installed():
            yield
        return
    if backends.device_count(KIND) < 1:
        raise RuntimeError(
            f"RETROGRAD_TEST_DEVICE={KIND}: no {KIND} device is present in this process "
            f"(registered kinds: {', '.join(backends.device_kinds())})"
        )
    yield
