"""Files written atomically: a temporary file in the target's folder, flushed and fsynced,
then renamed over the target, so a reader (or a crash) sees the previous file whole or the
new one whole, never a torn one. Checkpoints, the saver's state file and trace pages all
write through here. The folder must exist.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "page.html")
>>> write_text(path, "<p>hi</p>")
>>> open(path).read()
'<p>hi</p>'
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import IO, Any

__all__ = ["write_atomically", "write_text"]


def write_atomically(
    path: str | os.PathLike, write: Callable[[IO[Any]], Any], binary: bool
) -> None:
    """Calls ``write(stream)`` on a temporary file next to ``path``, then makes it ``path``.
    The file gets the permissions ``open()`` would give it (not ``mkstemp``'s 0600)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        with os.fdopen(
            fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})
        ) as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    _fsync_folder(folder)


def write_text(path: str | os.PathLike, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically."""
    write_atomically(path, lambda stream: stream.write(text), binary=False)


def _fsync_folder(folder: str) -> None:
    """Makes the rename itself durable where the platform allows opening a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
