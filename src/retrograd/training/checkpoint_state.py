"""The ``checkpoint`` state file of a checkpoint folder, in TensorFlow's text format (as
``tf.train.CheckpointManager``, ``Checkpoint.save`` and ``tf.compat.v1.train.Saver`` write
it)::

    model_checkpoint_path: "ckpt-3"
    all_model_checkpoint_paths: "ckpt-2"
    all_model_checkpoint_paths: "ckpt-3"

Paths are written relative to the folder. Read back, a path is data, never trusted: it must
name a file of the folder itself (a plain name, or an absolute path whose folder is this
one, through no symbolic link out of it); any other entry is ignored with a warning. A
state file that cannot be parsed is ignored with a warning, as TensorFlow does.

:func:`record` writes the state first and deletes old checkpoints after, so that a crash at
any point leaves the state naming complete checkpoints; the names it is about to delete are
written to a journal (``checkpoint.deleting``) first, so that :func:`finish_interrupted`,
called by the next save, deletes exactly the checkpoints an interrupted save meant to and no
others. Only names ``<prefix>-<N>`` of the saver's own prefix are ever deleted.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> record(folder, os.path.join(folder, "ckpt-2"), ["ckpt-1", "ckpt-2"], [], "ckpt")
>>> print(open(os.path.join(folder, "checkpoint")).read().strip())
model_checkpoint_path: "ckpt-2"
all_model_checkpoint_paths: "ckpt-1"
all_model_checkpoint_paths: "ckpt-2"
>>> read_state(folder).latest == os.path.join(folder, "ckpt-2")
True
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from dataclasses import dataclass, field

from retrograd.core import atomic_files

__all__ = [
    "STATE",
    "State",
    "state_file",
    "read_state",
    "format_state",
    "parse_state",
    "record",
    "finish_interrupted",
    "numbered",
    "exists_in",
    "plain_name",
]

STATE = "checkpoint"
_JOURNAL = ".deleting"
_SUFFIX = ".npz"
_MAX_STATE_BYTES = 4 * 2**20
_LINE = re.compile(r"^\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$")
_STRINGS = ("model_checkpoint_path", "all_model_checkpoint_paths")
_NUMBERS = ("all_model_checkpoint_timestamps", "last_preserved_timestamp")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


@dataclass
class State:
    """What a state file records, its paths joined to the folder and checked."""

    latest: str | None = None
    paths: list[str] = field(default_factory=list)
    timestamps: list[float] = field(default_factory=list)
    last_preserved: float | None = None


def state_file(folder: str, filename: str | None = None) -> str:
    """The state file's path; ``filename`` (``latest_filename``) must be a plain name."""
    name = STATE if filename is None else filename
    if not isinstance(name, str) or not _plain(name):
        raise ValueError(
            f"latest_filename must be a file name inside the checkpoint folder, got {name!r}"
        )
    return os.path.join(folder, name)


def plain_name(name: str) -> bool:
    """Whether ``name`` is a file name of a folder (no separator, not ``.``/``..``, not
    hidden)."""
    return not name.startswith(".") and _plain(name)


def _plain(name: str) -> bool:
    return (
        bool(name)
        and name not in (".", "..")
        and os.path.basename(name) == name
        and ("\0" not in name and (os.altsep is None or os.altsep not in name))
    )


# -- the text format --------------------------------------------------------------------------


def _quote(text: str) -> str:
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")  # as TensorFlow's text format escapes
    return '"' + "".join(out) + '"'


def _unquote(token: str) -> str:
    if len(token) < 2 or token[0] not in "\"'" or token[-1] != token[0]:
        raise ValueError(f"expected a quoted string, got {token[:40]!r}")
    body, out, i = token[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char == token[0]:
            raise ValueError("an unescaped quote inside a string")
        if char != "\\":
            out += char.encode("utf-8")
            i += 1
            continue
        code = body[i + 1 : i + 2]
        if code in _ESCAPES:
            out += _ESCAPES[code].encode()
            i += 2
        elif code.isdigit():
            digits = re.match(r"[0-7]{1,3}", body[i + 1 :])
            if digits is None or int(digits.group(), 8) > 255:
                raise ValueError("a bad octal escape")
            out.append(int(digits.group(), 8))
            i += 1 + len(digits.group())
        elif code == "x" and re.match(r"[0-9A-Fa-f]{2}", body[i + 2 : i + 4]):
            out.append(int(body[i + 2 : i + 4], 16))
            i += 4
        else:
            raise ValueError(f"an unknown escape \\{code}")
    return out.decode("utf-8")


def format_state(
    latest: str, paths: list[str], timestamps: list[float] | None = None,
    last_preserved: float | None = None,
) -> str:  # fmt: skip
    """The state file's text (names relative to the folder)."""
    lines = [f"model_checkpoint_path: {_quote(latest)}"]
    lines += [f"all_model_checkpoint_paths: {_quote(p)}" for p in paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps or []]
    if last_preserved is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
    return "\n".join(lines) + "\n"


def parse_state(text: str) -> dict[str, list]:
    """The fields of a state file's text: ``{field: [values]}``; ValueError when it is not
    TensorFlow's text format of a CheckpointState."""
    fields: dict[str, list] = {name: [] for name in (*_STRINGS, *_NUMBERS)}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None or match.group(1) not in fields:
            raise ValueError(f"line {number} is not a field of a checkpoint state: {line[:80]!r}")
        name, value = match.groups()
        try:
            fields[name].append(_unquote(value) if name in _STRINGS else float(value))
        except ValueError as error:
            raise ValueError(f"line {number} ({name}): {error}") from None
    return fields


# -- reading -----------------------------------------------------------------------------------


def _inside(folder: str, recorded: str) -> str | None:
    """``recorded`` as a path of ``folder`` when it names a file of the folder itself."""
    if os.path.isabs(recorded):
        if os.path.realpath(os.path.dirname(os.path.normpath(recorded))) != os.path.realpath(
            folder or "."
        ):
            return None
        recorded = os.path.basename(os.path.normpath(recorded))
    if not plain_name(recorded):
        return None
    return os.path.join(folder, recorded)


def read_state(folder: str, filename: str | None = None) -> State:
    """The state recorded in ``folder`` (empty when there is none or it cannot be read);
    entries that do not name a file of the folder are ignored with a warning."""
    path = state_file(folder, filename)
    try:
        if not os.path.isfile(path):
            return State()
        if os.path.getsize(path) > _MAX_STATE_BYTES:
            raise ValueError(f"it is larger than {_MAX_STATE_BYTES} bytes")
        with open(path, encoding="utf-8") as stream:
            fields = parse_state(stream.read())
    except (OSError, ValueError) as error:  # (UnicodeDecodeError is a ValueError)
        warnings.warn(f"{path}: not a checkpoint state, ignored ({error})", stacklevel=3)
        return State()

    def checked(recorded: str) -> str | None:
        found = _inside(folder, recorded)
        if found is None:
            warnings.warn(
                f"{path}: {recorded!r} does not name a checkpoint in {folder!r}; ignored",
                stacklevel=4,
            )
        return found

    latest = fields["model_checkpoint_path"][-1:] or [None]
    state = State(latest=None if latest[0] is None else checked(latest[0]))
    for recorded in fields["all_model_checkpoint_paths"]:
        found = checked(recorded)
        if found is not None and found not in state.paths:
            state.paths.append(found)
    times = fields["all_model_checkpoint_timestamps"]
    state.timestamps = (
        list(times) if len(times) == len(fields["all_model_checkpoint_paths"]) else []
    )
    if len(state.timestamps) != len(state.paths):
        state.timestamps = []
    preserved = fields["last_preserved_timestamp"]
    state.last_preserved = preserved[-1] if preserved else None
    return state


def numbered(prefix: str, name: str) -> int | None:
    """N when ``name`` is ``<prefix>-<N>``, else None."""
    match = re.fullmatch(re.escape(prefix) + r"-(\d{1,18})", name)
    return None if match is None else int(match.group(1))


# -- writing ----------------------------------------------------------------------------------


def record(
    folder: str,
    latest: str,
    kept: list[str],
    removed: list[str],
    prefix: str,
    filename: str | None = None,
    timestamps: list[float] | None = None,
    last_preserved: float | None = None,
) -> None:
    """Records ``latest`` and ``kept`` (paths or names of ``folder``) in the state file, then
    deletes the checkpoints ``removed`` names (each must be ``<prefix>-<N>`` of the folder),
    through the journal (see the module)."""
    state = state_file(folder, filename)
    names = [
        os.path.basename(p) for p in removed if numbered(prefix, os.path.basename(p)) is not None
    ]
    journal = state + _JOURNAL
    if names:
        atomic_files.write_text(journal, "\n".join(names) + "\n")
    atomic_files.write_text(
        state,
        format_state(
            os.path.basename(latest), [os.path.basename(p) for p in kept], timestamps,
            last_preserved,
        ),
    )  # fmt: skip
    if names:
        _delete(folder, names, set())
        os.unlink(journal)


def finish_interrupted(folder: str, prefix: str, filename: str | None = None) -> None:
    """Completes a save killed between recording its state and deleting old checkpoints:
    deletes the checkpoints its journal names that the state no longer records (never
    another file), then the journal; and removes the temporary files killed writes left."""
    atomic_files.remove_stale_temporaries(folder)
    journal = state_file(folder, filename) + _JOURNAL
    if not os.path.isfile(journal):
        return
    try:
        with open(journal, encoding="utf-8") as stream:
            names = stream.read(_MAX_STATE_BYTES).splitlines()
    except (OSError, ValueError):
        names = []
    state = read_state(folder, filename)
    recorded = {os.path.basename(p) for p in (*state.paths, state.latest) if p}
    _delete(folder, [n for n in names if numbered(prefix, n) is not None], recorded)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)


def _delete(folder: str, names: list[str], keep: set[str]) -> None:
    for name in names:
        if name in keep or not _plain(name):
            continue
        try:
            os.unlink(os.path.join(folder, name + _SUFFIX))
        except FileNotFoundError:
            continue


def exists_in(folder: str, path: str) -> bool:
    """Whether checkpoint ``path`` has its data file in ``folder`` itself (a symbolic link
    that leads out of the folder does not count)."""
    data = path + _SUFFIX
    return os.path.isfile(data) and os.path.dirname(os.path.realpath(data)) == os.path.realpath(
        folder or "."
    )
