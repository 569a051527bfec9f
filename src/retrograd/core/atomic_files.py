"""Files written atomically: a temporary file in the target's folder, flushed and fsynced,
then renamed over the target, so a reader (or a crash) sees the previous file whole or the
new one whole, never a torn one. Checkpoints, the saver's state file and trace pages all
write through here. The folder must exist.

A temporary file is named ``.tmp-<host>-<pid>-<random>``: a process killed while writing
leaves it behind, and :func:`remove_stale_temporaries` (called by the savers before they
write) removes those of this machine whose process is gone, and this process's own that no
write holds open any more; other machines' are left alone (their writer may be alive).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "page.html")
>>> write_text(path, "<p>hi</p>")
>>> open(path).read()
'<p>hi</p>'
"""

from __future__ import annotations

import hashlib
import os
import socket
import tempfile
import threading
from collections.abc import Callable
from typing import IO, Any

__all__ = ["write_atomically", "write_text", "remove_stale_temporaries", "TEMPORARY_PREFIX"]

TEMPORARY_PREFIX = ".tmp-"
_HOST = hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]
# The temporary files this process is writing now (shared by its threads by design: a
# cleanup in one thread must not remove another thread's file in progress).
_open_guard = threading.Lock()
_open_now: set[str] = set()


def _temporary_prefix() -> str:
    return f"{TEMPORARY_PREFIX}{_HOST}-{os.getpid()}-"


def write_atomically(
    path: str | os.PathLike, write: Callable[[IO[Any]], Any], binary: bool
) -> None:
    """Calls ``write(stream)`` on a temporary file next to ``path``, then makes it ``path``.
    The file gets the permissions ``open()`` would give it (not ``mkstemp``'s 0600)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=_temporary_prefix(), dir=folder)
    with _open_guard:
        _open_now.add(os.path.abspath(temporary))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    finally:
        with _open_guard:
            _open_now.discard(os.path.abspath(temporary))
    _fsync_folder(folder)


def write_text(path: str | os.PathLike, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically."""
    write_atomically(path, lambda stream: stream.write(text), binary=False)


def remove_stale_temporaries(folder: str | os.PathLike) -> list[str]:
    """Removes the temporary files that writes killed in ``folder`` left behind (see the
    module's docstring); returns their names.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> stale = os.path.join(folder, _temporary_prefix() + "killed")
    >>> open(stale, "w").close()
    >>> remove_stale_temporaries(folder) == [os.path.basename(stale)], os.listdir(folder)
    (True, [])
    """
    folder = os.fspath(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        if not name.startswith(TEMPORARY_PREFIX) or not _stale(folder, name):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except FileNotFoundError:
            continue  # (another cleanup was first)
        removed.append(name)
    return removed


def _stale(folder: str, name: str) -> bool:
    host, _, rest = name[len(TEMPORARY_PREFIX) :].partition("-")
    pid_text, _, _ = rest.partition("-")
    if host != _HOST or not pid_text.isdigit():
        return False  # another machine's (or not ours): its writer may be alive
    pid = int(pid_text)
    if pid == os.getpid():
        with _open_guard:
            return os.path.abspath(os.path.join(folder, name)) not in _open_now
    return not _alive(pid)


def _alive(pid: int) -> bool:
    if os.name != "posix":
        return True  # no harmless way to ask: left alone
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (exists, owned by another user)
    return True


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
