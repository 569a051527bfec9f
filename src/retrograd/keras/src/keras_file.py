"""Reading a ``.keras`` file (a zip archive, see saving.py) without trusting it: its JSON
members are read up to a size limit (``MAX_CONFIG_BYTES`` for the config, 1 MiB for the
metadata) and may nest at most ``MAX_DEPTH`` deep; its weights member, stored uncompressed,
is read in place through :class:`StoredMember` (never inflated, never copied to a temporary
file) as a checked :class:`~retrograd.training.storage.ArrayFile`. Every problem is a
ValueError naming the file.

>>> import os, tempfile, retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
>>> model.save(path)
>>> with opened(path, "retrograd-keras/1") as (metadata, config, weights):
...     print(config["class_name"], declared_bytes(weights) > 0)
Sequential True
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import zipfile
from collections.abc import Iterator
from typing import IO, Any

from retrograd.training.storage import ArrayFile

__all__ = [
    "CONFIG",
    "METADATA",
    "WEIGHTS",
    "MAX_CONFIG_BYTES",
    "MAX_DEPTH",
    "StoredMember",
    "opened",
    "declared_bytes",
]

CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.npz"
MAX_CONFIG_BYTES = 64 * 2**20
MAX_DEPTH = 64
_LIMITS = {METADATA: 2**20, CONFIG: MAX_CONFIG_BYTES}
_ARCHIVE_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
                   KeyError, NotImplementedError, RuntimeError, OverflowError)  # fmt: skip


class StoredMember(io.RawIOBase):
    """A stored (uncompressed) member of a zip file, read in place as a file of its own."""

    def __init__(self, stream: IO[bytes], start: int, size: int) -> None:
        super().__init__()
        self._stream, self._start, self._size, self._position = stream, start, size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._position, os.SEEK_END: self._size}[whence]
        self._position = min(max(base + offset, 0), self._size)
        return self._position

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self._size - self._position)
        if count <= 0:
            return 0
        self._stream.seek(self._start + self._position)
        done = self._stream.readinto(memoryview(buffer).cast("B")[:count]) or 0
        self._position += done
        return done


def _stored_member(archive: zipfile.ZipFile, stream: IO[bytes], label: str) -> StoredMember:
    info = archive.getinfo(WEIGHTS)
    if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
        raise ValueError(
            f"load_model: {label}: its weights are compressed (retrograd writes them stored "
            "and reads them in place)"
        )
    stream.seek(info.header_offset)
    header = stream.read(30)
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise ValueError(f"load_model: {label} is corrupt (a bad local header)")
    start = info.header_offset + 30 + int.from_bytes(header[26:28], "little")
    start += int.from_bytes(header[28:30], "little")
    stream.seek(0, os.SEEK_END)
    if start + info.file_size > stream.tell():
        raise ValueError(f"load_model: {label} is truncated")
    return StoredMember(stream, start, info.file_size)


def _json_member(archive: zipfile.ZipFile, name: str, label: str) -> Any:
    limit = _LIMITS[name]
    try:
        info = archive.getinfo(name)
        if info.file_size > limit:
            raise ValueError(f"it is {info.file_size} bytes (at most {limit})")
        with archive.open(info) as member:
            text = member.read(limit + 1)
        if len(text) > limit:
            raise ValueError("it is larger than it declares")
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"load_model: {label}: {name} is nested too deeply") from None
    except _ARCHIVE_ERRORS as error:  # (json's and UTF-8's errors are ValueErrors)
        raise ValueError(f"load_model: {label}: {name} cannot be read ({error})") from None
    level = [value]
    for _ in range(MAX_DEPTH):  # rebuilding walks the config recursively: bounded here
        level = [
            child
            for item in level
            if isinstance(item, (dict, list))
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return value
    raise ValueError(f"load_model: {label}: {name} is nested more than {MAX_DEPTH} deep")


@contextlib.contextmanager
def opened(filepath: str, form: str) -> Iterator[tuple[dict, dict, ArrayFile]]:
    """``(metadata, config, weights)`` of the ``.keras`` file at ``filepath`` (whose
    metadata must name format ``form``), checked; ``weights`` is an open ArrayFile."""
    label = repr(filepath)
    if not os.path.isfile(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file exists.")
    with contextlib.ExitStack() as stack:
        try:
            stream = stack.enter_context(open(filepath, "rb"))
            archive = stack.enter_context(zipfile.ZipFile(stream))
            names = set(archive.namelist())
        except _ARCHIVE_ERRORS as error:
            raise ValueError(
                f"load_model: {label} is not a .keras file or is corrupt "
                f"({type(error).__name__}: {error})"
            ) from None
        if "model.weights.h5" in names:
            raise ValueError(
                f"load_model: {label} was written by Keras (its weights are HDF5, which "
                "retrograd does not read); save the model with retrograd"
            )
        missing = {CONFIG, METADATA, WEIGHTS} - names
        if missing:
            raise ValueError(
                f"load_model: {label} is not a retrograd .keras file (missing {sorted(missing)})"
            )
        metadata = _json_member(archive, METADATA, label)
        if not isinstance(metadata, dict) or metadata.get("format") != form:
            found = metadata.get("format") if isinstance(metadata, dict) else metadata
            raise ValueError(f"load_model: {label} has format {found!r}, expected {form!r}")
        config = _json_member(archive, CONFIG, label)
        if not isinstance(config, dict):
            raise ValueError(f"load_model: {label} holds no model config (a JSON object)")
        try:
            member = _stored_member(archive, stream, label)
        except OSError as error:
            raise ValueError(f"load_model: {label}: its weights cannot be read ({error})") from None
        weights = stack.enter_context(ArrayFile(member, f"{label} (its weights)"))
        yield metadata, config, weights


def declared_bytes(weights: ArrayFile) -> int:
    """The bytes the arrays of ``weights`` hold (checked against the file already)."""
    total = 0
    for name in weights.names:
        shape, dtype = weights.spec(name)
        count = 1
        for d in shape:
            count *= d
        total += count * dtype.itemsize
    return total
