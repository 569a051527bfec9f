"""Named arrays on disk, for checkpoints: written atomically, read without pickle.

A file is a NumPy ``.npz`` archive holding one array per name plus an index (``__index__``,
JSON text) of each name's shape and dtype, the format's version and any metadata the writer
adds (an object graph, a global step). ``write_arrays`` writes to a temporary name in the
same folder, flushes and fsyncs it, then renames it over the target, so a reader sees either
the previous file whole or the new one whole, never a torn one; ``read_arrays`` loads with
``allow_pickle=False`` semantics (no object arrays, ever) and checks everything before it
allocates: every member must be stored uncompressed (so nothing inflates: a file never
makes more bytes than it holds on disk), the index must name exactly the members there, and
each member's NumPy header must declare the shape and dtype the index gives and a size equal
to the member's. A corrupt, truncated, crafted or foreign file is a
:class:`CheckpointFormatError` naming the file and what is wrong. :class:`ArrayFile` reads
the index first and each array on demand, so a loader can compare shapes with what it needs
before reading any value.

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
import re
import struct
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from retrograd.core import atomic_files, backends
from retrograd.core.atomic_files import write_atomically
from retrograd.core.errors import NotFoundError

__all__ = [
    "CheckpointFormatError",
    "CheckpointNotFoundError",
    "ArrayFile",
    "write_arrays",
    "read_arrays",
    "write_text",
    "FORMAT",
    "MAX_INDEX_BYTES",
]

FORMAT = "retrograd-arrays/1"
_INDEX = "__index__"
# The index (JSON: names, shapes, dtypes, metadata) of a checkpoint is small; a larger one is
# refused before it is read.
MAX_INDEX_BYTES = 64 * 2**20
_MAX_RANK = 32
_CHUNK = 16 * 2**20
_MEMBER = re.compile(r"a_\d+")


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


class CheckpointNotFoundError(CheckpointFormatError, NotFoundError):
    """No checkpoint file where one is read: TensorFlow's ``NotFoundError``, and a
    :class:`CheckpointFormatError` (a ValueError) as retrograd raised before.

    >>> import retrograd as rg
    >>> issubclass(rg.errors.CheckpointNotFoundError, rg.errors.NotFoundError)
    True
    """


CheckpointNotFoundError.__module__ = "retrograd.errors"


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
        array = np.asarray(backends.to_host(value))  # (device arrays copied explicitly)
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
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    atomic_files.remove_stale_temporaries(folder)  # left by saves killed earlier
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


# The errors a crafted archive can make the zip and npy readers raise: each becomes a
# CheckpointFormatError naming the file.
_READ_ERRORS = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    OverflowError,
    NotImplementedError,
    RuntimeError,
    UnicodeDecodeError,
    struct.error,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
)


class ArrayFile:
    """A file written by :func:`write_arrays`, opened and checked (see the module): ``names``
    and ``spec(name)`` (shape, dtype) come from the index, ``metadata`` is the writer's, and
    ``read(name)`` reads one array, allocating exactly the bytes the file holds for it.
    ``source`` is a path or a seekable binary file; ``label`` names it in errors.

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "w.npz")
    >>> write_arrays(path, {"w": np.zeros((2, 3), np.float32)}, {"step": 1})
    >>> with ArrayFile(path) as stored:
    ...     print(stored.names, stored.spec("w"), stored.read("w").sum())
    ['w'] ((2, 3), dtype('float32')) 0.0
    """

    def __init__(self, source: Any, label: str | None = None) -> None:
        self.label = label if label is not None else repr(os.fspath(source))
        if isinstance(source, (str, os.PathLike)) and not os.path.isfile(source):
            raise CheckpointNotFoundError(f"no checkpoint file at {self.label}")
        self._archive: zipfile.ZipFile | None = None
        try:
            self._archive = zipfile.ZipFile(source)
            self._open()
        except CheckpointFormatError:
            self.close()
            raise
        except RecursionError:
            self.close()
            raise self._error("its index nests too deeply") from None
        except _READ_ERRORS as error:
            self.close()
            raise self._error(f"{type(error).__name__}: {error}") from None

    def _error(self, what: str) -> CheckpointFormatError:
        return CheckpointFormatError(
            f"{self.label} is corrupt or not a retrograd checkpoint: {what}"
        )

    def _open(self) -> None:
        archive = self._archive
        assert archive is not None
        infos = {info.filename: info for info in archive.infolist()}
        if len(infos) != len(archive.infolist()):
            raise self._error("it names a member twice")
        archive.fp.seek(0, os.SEEK_END)
        on_disk = archive.fp.tell()
        total = 0
        for info in infos.values():
            if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
                raise self._error(f"member {info.filename!r} is compressed or encrypted")
            if info.file_size != info.compress_size:
                raise self._error(f"member {info.filename!r} declares two sizes")
            total += info.file_size
        if total > on_disk:
            raise self._error(f"its members declare {total} bytes in a file of {on_disk}")
        if _INDEX + ".npy" not in infos:
            raise CheckpointFormatError(
                f"{self.label} is not a retrograd checkpoint (it has no index)"
            )
        self._infos = infos
        self._fortran: dict[str, bool] = {}
        index_info = infos[_INDEX + ".npy"]
        if index_info.file_size > MAX_INDEX_BYTES:
            raise self._error(
                f"its index is {index_info.file_size} bytes (at most {MAX_INDEX_BYTES})"
            )
        shape, dtype, offset = self._header(_INDEX)
        if dtype != np.uint8 or len(shape) != 1:
            raise self._error("its index is not text")
        with archive.open(index_info) as stream:
            stream.seek(offset)
            index = json.loads(stream.read(shape[0]).decode("utf-8"))
        self._check_index(index)

    def _check_index(self, index: Any) -> None:
        if not isinstance(index, dict):
            raise self._error("its index is not a JSON object")
        if index.get("format") != FORMAT:
            raise CheckpointFormatError(
                f"{self.label} has format {index.get('format')!r}, expected {FORMAT!r}"
            )
        members, arrays = index.get("members"), index.get("arrays")
        metadata = index.get("metadata", {})
        if not isinstance(members, dict) or not isinstance(arrays, dict):
            raise self._error("its index has no members or arrays")
        if not isinstance(metadata, dict):
            raise self._error("its metadata is not a JSON object")
        if set(members) != set(arrays):
            raise self._error("its index names different arrays and members")
        wanted = {f"{m}.npy" for m in members.values() if isinstance(m, str)}
        if len(wanted) != len(members) or wanted | {_INDEX + ".npy"} != set(self._infos):
            raise self._error("its members are not those its index names")
        self._specs: dict[str, tuple[tuple[int, ...], np.dtype, str, int]] = {}
        for name, member in members.items():
            spec = arrays[name]
            if not _MEMBER.fullmatch(member) or not isinstance(spec, dict):
                raise self._error(f"the index entry of {name!r} is malformed")
            shape, dtype = _shape(spec.get("shape")), _dtype(spec.get("dtype"))
            if shape is None or dtype is None:
                raise self._error(
                    f"{name!r} has shape {spec.get('shape')!r} and dtype {spec.get('dtype')!r} "
                    f"(expected a list of at most {_MAX_RANK} sizes and a numeric dtype)"
                )
            header_shape, header_dtype, offset = self._header(member)
            if header_shape != shape or header_dtype != dtype:
                raise CheckpointFormatError(
                    f"{self.label}: {name!r} is {header_dtype.str}{list(header_shape)} but the "
                    f"index says {dtype.str}{list(shape)}"
                )
            size = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if offset + size != self._infos[member + ".npy"].file_size:
                raise self._error(f"{name!r} declares {size} bytes its member does not hold")
            self._specs[name] = (shape, dtype, member, offset)
        self.metadata: dict[str, Any] = metadata

    def _header(self, member: str) -> tuple[tuple[int, ...], np.dtype, int]:
        """The shape, dtype and data offset a member's NumPy header declares (read alone)."""
        with self._archive.open(self._infos[member + ".npy"]) as stream:  # type: ignore[union-attr]
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise self._error(f"member {member!r} has NumPy format {version}")
            if dtype.hasobject or dtype.kind not in "biufc":
                raise self._error(f"member {member!r} holds {dtype} (only numeric arrays are read)")
            self._fortran[member] = bool(fortran)
            return tuple(int(d) for d in shape), dtype, stream.tell()

    @property
    def names(self) -> list[str]:
        """The names of the arrays, in the order they were written."""
        return list(self._specs)

    def spec(self, name: str) -> tuple[tuple[int, ...], np.dtype]:
        """``(shape, dtype)`` of the array ``name``, from the checked index."""
        shape, dtype, _, _ = self._specs[name]
        return shape, dtype

    def read(self, name: str) -> np.ndarray:
        """The array ``name``: exactly the bytes its member holds, read into a new array."""
        shape, dtype, member, offset = self._specs[name]
        array = np.empty(shape, dtype, order="F" if self._fortran[member] else "C")
        try:
            with self._archive.open(self._infos[member + ".npy"]) as stream:  # type: ignore[union-attr]
                stream.seek(offset)
                target = array.ravel(order="K").view(np.uint8)  # (a view: its memory order)
                done = 0
                while done < target.size:  # in chunks: no second copy of the whole array
                    chunk = stream.read(min(_CHUNK, target.size - done))
                    if not chunk:
                        raise self._error(f"{name!r} is truncated")
                    target[done : done + len(chunk)] = np.frombuffer(chunk, np.uint8)
                    done += len(chunk)
        except CheckpointFormatError:
            raise
        except _READ_ERRORS as error:
            raise self._error(f"{type(error).__name__}: {error}") from None
        return array

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()
            self._archive = None

    def __enter__(self) -> ArrayFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _shape(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) > _MAX_RANK:
        return None
    if not all(type(d) is int and d >= 0 for d in value):
        return None
    return tuple(value)


def _dtype(value: Any) -> np.dtype | None:
    if not isinstance(value, str) or len(value) > 8:
        return None
    try:
        dtype = np.dtype(value)
    except (TypeError, ValueError):
        return None
    return dtype if dtype.kind in "biufc" and not dtype.fields and not dtype.hasobject else None


def read_arrays(
    path: str | os.PathLike | Any, label: str | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Reads a file written by :func:`write_arrays` (a path, or a seekable binary file):
    ``(arrays, metadata)``. Never unpickles; anything else is a :class:`CheckpointFormatError`
    naming the file."""
    with ArrayFile(path, label) as stored:
        return {name: stored.read(name) for name in stored.names}, stored.metadata
