"""``tf.train.CheckpointManager`` and ``tf.train.latest_checkpoint``: numbered checkpoints in
a folder, the newest few kept, recorded in the folder's ``checkpoint`` state file (written
atomically, in TensorFlow's text format).

>>> import tempfile
>>> import retrograd as rg
>>> folder = tempfile.mkdtemp()
>>> manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=rg.Variable(1.0)), folder, 2)
>>> paths = [manager.save() for _ in range(3)]
>>> [p[len(folder) + 1:] for p in manager.checkpoints]
['ckpt-2', 'ckpt-3']
>>> rg.train.latest_checkpoint(folder) == manager.latest_checkpoint == paths[-1]
True
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.training.checkpoint import Checkpoint, data_file
from retrograd.training.storage import write_text

__all__ = ["CheckpointManager", "latest_checkpoint", "read_state", "update_checkpoint_state"]

_STATE = "checkpoint"
_FIELD = re.compile(
    r"^(model_checkpoint_path|all_model_checkpoint_paths|all_model_checkpoint_timestamps|"
    r"last_preserved_timestamp):\s*(\S.*)\s*$"
)


def _relative(folder: str, path: str) -> str:
    return os.path.relpath(path, folder) if os.path.dirname(path) == folder else path


def update_checkpoint_state(
    folder: str,
    latest: str,
    all_paths: list[str],
    timestamps: list[float] | None = None,
    last_preserved: float | None = None,
) -> None:
    """Records ``latest``, ``all_paths`` (and their timestamps) in ``folder/checkpoint``,
    atomically, in TensorFlow's text format."""
    folder = folder or "."
    lines = [f"model_checkpoint_path: {json.dumps(_relative(folder, latest))}"]
    lines += [f"all_model_checkpoint_paths: {json.dumps(_relative(folder, p))}" for p in all_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps or []]
    if last_preserved is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
    write_text(os.path.join(folder, _STATE), "\n".join(lines) + "\n")


def read_state(folder: str) -> tuple[str | None, list[str], list[float], float]:
    """(latest path, all paths, their timestamps, last preserved timestamp) recorded in
    ``folder/checkpoint`` (None and empty lists when there is no record)."""
    path = os.path.join(folder, _STATE)
    latest, paths, stamps, preserved = None, [], [], 0.0
    if not os.path.isfile(path):
        return latest, paths, stamps, preserved
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            match = _FIELD.match(line.strip())
            if not match:
                continue
            try:
                value = json.loads(match.group(2))
            except ValueError:
                continue
            field = match.group(1)
            if field == "all_model_checkpoint_timestamps":
                stamps.append(float(value))
            elif field == "last_preserved_timestamp":
                preserved = float(value)
            elif isinstance(value, str):
                value = value if os.path.isabs(value) else os.path.join(folder, value)
                if field == "model_checkpoint_path":
                    latest = value
                else:
                    paths.append(value)
    return latest, paths, stamps, preserved


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The path of the newest checkpoint recorded in ``checkpoint_dir``, or None.

    >>> import retrograd as rg
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     print(rg.train.latest_checkpoint(d))
    ...     checkpoint = rg.train.Checkpoint(v=rg.Variable(1.0))
    ...     saved = rg.train.CheckpointManager(checkpoint, d, max_to_keep=1).save()
    ...     print(rg.train.latest_checkpoint(d) == saved)
    None
    True
    """
    latest = read_state(os.fspath(checkpoint_dir))[0]
    if latest is None or not os.path.isfile(data_file(latest)):
        return None
    return latest


class CheckpointManager:
    """Saves ``checkpoint`` as ``directory/<checkpoint_name>-N``, keeping the newest
    ``max_to_keep`` (all when None) and deleting older ones, except one every
    ``keep_checkpoint_every_n_hours``; picks up the checkpoints an earlier run recorded in
    ``directory``. With ``step_counter`` and ``checkpoint_interval``, ``save`` saves only
    when the step has advanced by the interval; ``init_fn`` initializes when there is
    nothing to restore.

    >>> import retrograd as rg
    >>> import tempfile
    >>> v = rg.Variable(0.0)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=v), d, max_to_keep=2)
    ...     for step in range(3):
    ...         _ = v.assign(float(step))
    ...         _ = manager.save()
    ...     print(len(manager.checkpoints), manager.latest_checkpoint.endswith('ckpt-3'))
    2 True
    """

    def __init__(
        self,
        checkpoint: Checkpoint,
        directory: str,
        max_to_keep: int | None,
        keep_checkpoint_every_n_hours: float | None = None,
        checkpoint_name: str = "ckpt",
        step_counter: Any = None,
        checkpoint_interval: int | None = None,
        init_fn: Callable[[], Any] | None = None,
        last_checkpoint_step: int | None = None,
    ) -> None:
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError(
                f"CheckpointManager: expected a Checkpoint, got {type(checkpoint).__name__}"
            )
        if max_to_keep is not None and (not isinstance(max_to_keep, int) or max_to_keep < 1):
            raise ValueError(
                f"CheckpointManager: max_to_keep must be a positive integer or None, got "
                f"{max_to_keep!r}"
            )
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError(
                "`step_counter` should be passed if `checkpoint_interval` is not None."
            )
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every = None if keep_checkpoint_every_n_hours is None else float(
            keep_checkpoint_every_n_hours
        ) * 3600.0  # fmt: skip
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = last_checkpoint_step
        latest, paths, stamps, preserved = read_state(self._directory)
        stamps = stamps if len(stamps) == len(paths) else [time.time()] * len(paths)
        kept = [(p, t) for p, t in zip(paths, stamps) if os.path.isfile(data_file(p))]
        self._checkpoints = [p for p, _ in kept]
        self._timestamps = [t for _, t in kept]
        self._last_preserved = preserved or time.time()
        self._latest = latest if latest and os.path.isfile(data_file(latest)) else None

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    @property
    def checkpoint_interval(self) -> int | None:
        return self._checkpoint_interval

    @property
    def max_to_keep(self) -> int | None:
        return self._max_to_keep

    @property
    def checkpoints(self) -> list[str]:
        """The kept checkpoints, oldest first."""
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self) -> str | None:
        """The newest checkpoint saved, or None."""
        return self._latest

    def save(
        self, checkpoint_number: int | None = None, check_interval: bool = True, options=None
    ) -> str | None:
        """Saves a new checkpoint (numbered by ``save_counter`` unless given), records it
        and deletes those beyond ``max_to_keep``; returns its path (None when the step has
        not advanced by ``checkpoint_interval`` since the last save)."""
        if self._checkpoint_interval is not None:
            step = int(
                np.asarray(getattr(self._step_counter, "numpy", lambda: self._step_counter)())
            )
            if (
                check_interval
                and self._last_checkpoint_step is not None
                and step < self._last_checkpoint_step + self._checkpoint_interval
            ):
                return None
            self._last_checkpoint_step = step
        self._checkpoint.save_counter.assign_add(1)
        number = (
            int(self._checkpoint.save_counter.numpy())
            if checkpoint_number is None
            else int(np.asarray(getattr(checkpoint_number, "numpy", lambda: checkpoint_number)()))
        )
        path = self._checkpoint.write(f"{self._prefix}-{number}", options=options)
        now = time.time()
        pairs = [(p, t) for p, t in zip(self._checkpoints, self._timestamps) if p != path]
        pairs.append((path, now))
        removed = []
        if self._max_to_keep is not None:
            while len(pairs) > self._max_to_keep:
                old, stamp = pairs.pop(0)
                if self._keep_every is not None and stamp - self._keep_every > self._last_preserved:
                    self._last_preserved = stamp  # preserved: no longer managed, never deleted
                    continue
                removed.append(old)
        self._checkpoints = [p for p, _ in pairs]
        self._timestamps = [t for _, t in pairs]
        self._latest = path
        # Record first, then delete: an interruption never leaves the state naming a
        # checkpoint that is gone.
        update_checkpoint_state(self._directory, path, self._checkpoints, self._timestamps,
                                self._last_preserved)  # fmt: skip
        for old in removed:
            if os.path.isfile(data_file(old)):
                os.unlink(data_file(old))
        return path

    def sync(self) -> None:
        """Waits for saves in progress (retrograd saves synchronously: nothing to wait for)."""

    def restore_or_initialize(self) -> str | None:
        """Restores the latest checkpoint if there is one and returns its path; otherwise
        calls ``init_fn`` (if given) and returns None."""
        if self._latest is None:
            if self._init_fn is not None:
                self._init_fn()
            return None
        self._checkpoint.restore(self._latest)
        return self._latest
