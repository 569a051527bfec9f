"""Named arrays on disk, for checkpoints: written atomically, read without pickle.

A file is a NumPy ``.npz`` archive holding one array per name plus an index (``__index__``,
JSON text) of each name's shape and dtype, the format's version and any metadata the writer
adds (an object graph, a global step). ``write_arrays`` writes to a temporary name in the
same folder, flushes and fsyncs it, then renames it over the target, so a reader sees either
the previous file whole or the new one whole, never a torn one; ``read_arrays`` loads with
``allow_pickle=False`` and checks every array against the index, so a corrupt, truncated or
foreign file is a :class:`CheckpointFormatError` that names the file and what is wrong.

>>> import os, tempfile, numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "weights.npz")
>>> write_arrays(path, {"dense/kernel": np.ones((2, 3), np.float32)}, {"step": 7})
>>> arrays, metadata = read_arrays(path)
>>> arrays["dense/kernel"].shape, metadata
((2, 3), {'step': 7})
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from retrograd.core import atomic_files
from retrograd.core.atomic_files import write_atomically

__all__ = ["CheckpointFormatError", "write_arrays", "read_arrays", "write_text", "FORMAT"]

FORMAT = "retrograd-arrays/1"
_INDEX = "__index__"


class CheckpointFormatError(ValueError):
    """A checkpoint file that cannot be read: missing, truncated, corrupt or not ours.

    >>> import retrograd as rg
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, 'not-a-checkpoint')
    ...     with open(path, 'w') as f:
    ...         _ = f.write('hello')
    ...     try:
    ...         rg.train.Checkpoint(v=rg.Variable(1.0)).read(path)
    ...     except rg.errors.CheckpointFormatError:
    ...         caught = True
    >>> caught, issubclass(rg.errors.CheckpointFormatError, ValueError)
    (True, True)
    """


CheckpointFormatError.__module__ = "retrograd.errors"


def write_arrays(
    path: str | os.PathLike, arrays: Mapping[str, Any], metadata: Mapping[str, Any] | None = None
) -> None:
    """Writes ``arrays`` (name → array) and JSON-serialisable ``metadata`` to ``path``
    atomically: a temporary file in the same folder, fsync, then rename over ``path``."""
    path = os.fspath(path)
    named = {}
    for name, value in arrays.items():
        if not isinstance(name, str) or not name or name == _INDEX:
            raise ValueError(f"write_arrays: array names must be non-empty strings, got {name!r}")
        array = np.asarray(value)
        if array.dtype.kind not in "biufc":
            raise TypeError(
                f"write_arrays: {name!r} has dtype {array.dtype}; only numeric and bool arrays "
                f"are stored (no objects, so reading never needs pickle)"
            )
        named[name] = array
    # Members are addressed by position (a_0, a_1, ...) so that no user text becomes a file
    # name inside the archive; the index maps names to members, shapes and dtypes.
    members = {f"a_{i}": array for i, array in enumerate(named.values())}
    index = {
        "format": FORMAT,
        "members": {name: f"a_{i}" for i, name in enumerate(named)},
        "arrays": {n: {"shape": list(a.shape), "dtype": a.dtype.str} for n, a in named.items()},
        "metadata": dict(metadata or {}),
    }
    index_bytes = np.frombuffer(json.dumps(index).encode(), np.uint8)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomically(
        path, lambda stream: np.savez(stream, **members, **{_INDEX: index_bytes}), True
    )


def write_text(path: str | os.PathLike, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically, as :func:`write_arrays` does (the
    folder is made if missing).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "checkpoint")
    >>> write_text(path, "hello")
    >>> open(path).read()
    'hello'
    """
    os.makedirs(os.path.dirname(os.path.abspath(os.fspath(path))), exist_ok=True)
    atomic_files.write_text(path, text)


def read_arrays(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Reads a file written by :func:`write_arrays`: ``(arrays, metadata)``. Never unpickles;
    anything else is a :class:`CheckpointFormatError` naming the file."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise CheckpointFormatError(f"no checkpoint file at {path!r}")
    try:
        with np.load(path, allow_pickle=False) as archive:
            if _INDEX not in archive.files:
                raise CheckpointFormatError(
                    f"{path!r} is not a retrograd checkpoint (it has no index)"
                )
            index = json.loads(archive[_INDEX].tobytes().decode())
            if not isinstance(index, dict) or index.get("format") != FORMAT:
                raise CheckpointFormatError(
                    f"{path!r} has format {index.get('format')!r}, expected {FORMAT!r}"
                )
            arrays = {}
            for name, member in index["members"].items():
                array = archive[member]
                expected = index["arrays"][name]
                if list(array.shape) != expected["shape"] or array.dtype.str != expected["dtype"]:
                    raise CheckpointFormatError(
                        f"{path!r}: {name!r} is {array.dtype.str}{list(array.shape)} but the "
                        f"index says {expected['dtype']}{expected['shape']}"
                    )
                arrays[name] = array
    except CheckpointFormatError:
        raise
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError) as error:
        raise CheckpointFormatError(
            f"{path!r} is corrupt or not a retrograd checkpoint: {type(error).__name__}: {error}"
        ) from None
    return arrays, index.get("metadata", {})
