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

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.training import checkpoint_state
from retrograd.training.checkpoint import Checkpoint

__all__ = ["CheckpointManager", "latest_checkpoint", "update_checkpoint_state"]


def update_checkpoint_state(
    folder: str,
    latest: str,
    all_paths: list[str],
    timestamps: list[float] | None = None,
    last_preserved: float | None = None,
) -> None:
    """Records ``latest`` and ``all_paths`` (checkpoints of ``folder``, and their timestamps)
    in ``folder/checkpoint``, atomically, in TensorFlow's text format.

    >>> import os, tempfile
    >>> import retrograd as rg
    >>> folder = tempfile.mkdtemp()
    >>> update_checkpoint_state(folder, os.path.join(folder, "ckpt-1"), ["ckpt-1"], [1.0])
    >>> rg.train.get_checkpoint_state(folder).all_model_checkpoint_timestamps
    [1.0]
    """
    checkpoint_state.record(
        folder or ".", latest, all_paths, [], "", timestamps=timestamps,
        last_preserved=last_preserved,
    )  # fmt: skip


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The path of the newest checkpoint recorded in ``checkpoint_dir``, or None (also when
    the state names a file outside the folder, or one whose data is gone). It reads the state
    file that ``CheckpointManager``, ``Checkpoint.save`` and ``compat.v1.train.Saver`` write
    (``latest_filename`` names another than ``checkpoint``).

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
    if not isinstance(checkpoint_dir, (str, os.PathLike)) or not isinstance(
        os.fspath(checkpoint_dir), str
    ):
        raise TypeError(f"latest_checkpoint: expected a folder path, got {checkpoint_dir!r:.80}")
    folder = os.fspath(checkpoint_dir)
    latest = checkpoint_state.read_state(folder, latest_filename).latest
    if latest is None or not checkpoint_state.exists_in(folder, latest):
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
        if not isinstance(checkpoint_name, str) or not checkpoint_state.plain_name(checkpoint_name):
            raise ValueError(
                f"CheckpointManager: checkpoint_name must be a file name, got {checkpoint_name!r}"
            )
        self._checkpoint = checkpoint
        if not isinstance(directory, (str, os.PathLike)) or not isinstance(
            os.fspath(directory), str
        ):
            raise TypeError(f"CheckpointManager: directory must be a path, got {directory!r:.80}")
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every = (
            None
            if keep_checkpoint_every_n_hours is None
            else float(keep_checkpoint_every_n_hours) * 3600.0
        )
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = last_checkpoint_step
        self._name = checkpoint_name
        self._prefix = os.path.join(self.directory, checkpoint_name)
        # The checkpoints an earlier run recorded (only the manager's own <name>-<N>; paths
        # the state names outside the folder were ignored with a warning).
        state = checkpoint_state.read_state(self.directory)
        found = [
            (p, t)
            for p, t in zip(state.paths, state.timestamps or [None] * len(state.paths))
            if checkpoint_state.numbered(checkpoint_name, os.path.basename(p)) is not None
            and checkpoint_state.exists_in(self.directory, p)
        ]
        now = time.time()
        self._checkpoints = [p for p, _ in found]
        self._timestamps = [now if t is None else t for _, t in found]
        self._last_preserved = now if state.last_preserved is None else state.last_preserved
        latest = state.latest
        self._latest = (
            latest if latest and checkpoint_state.exists_in(self.directory, latest) else None
        )

    @property
    def directory(self) -> str:
        """The folder the checkpoints are saved in."""
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
        self, checkpoint_number: Any = None, check_interval: bool = True, options: Any = None
    ) -> str | None:
        """Saves a new checkpoint (numbered by ``save_counter`` unless given), records it
        and deletes those beyond ``max_to_keep``; returns its path (None when the step has
        not advanced by ``checkpoint_interval`` since the last save). It first finishes what
        a save killed earlier left undone (checkpoints it meant to delete, temporary files)."""
        if hasattr(checkpoint_number, "numpy"):  # (a step variable or tensor)
            checkpoint_number = np.asarray(checkpoint_number.numpy()).item()
        if checkpoint_number is not None and (
            isinstance(checkpoint_number, bool)
            or not isinstance(checkpoint_number, (int, np.integer))
            or checkpoint_number < 0
        ):
            raise ValueError(
                f"CheckpointManager.save: checkpoint_number must be a non-negative integer, "
                f"got {checkpoint_number!r}"
            )
        if self._checkpoint_interval is not None:
            step = int(
                np.asarray(getattr(self._step_counter, "numpy", lambda: self._step_counter)())
            )
            last = self._last_checkpoint_step
            if check_interval and last is not None and step < last + self._checkpoint_interval:
                return None
            self._last_checkpoint_step = step
        checkpoint_state.finish_interrupted(self.directory, self._name)
        self._checkpoint.save_counter.assign_add(1)
        number = (
            int(self._checkpoint.save_counter.numpy())
            if checkpoint_number is None
            else int(checkpoint_number)
        )
        path = self._checkpoint.write(f"{self._prefix}-{number}", options=options)
        kept = [(p, t) for p, t in zip(self._checkpoints, self._timestamps) if p != path]
        kept.append((path, time.time()))
        removed = []
        if self._max_to_keep is not None:
            while len(kept) > self._max_to_keep:
                old, stamp = kept.pop(0)
                if self._keep_every is not None and stamp - self._keep_every > self._last_preserved:
                    self._last_preserved = stamp  # preserved: no longer managed, never deleted
                    continue
                removed.append(old)
        self._checkpoints = [p for p, _ in kept]
        self._timestamps = [t for _, t in kept]
        self._latest = path
        # Record first, then delete: an interruption never leaves the state naming a
        # checkpoint that is gone (checkpoint_state.record journals what it deletes).
        checkpoint_state.record(
            self.directory,
            path,
            self._checkpoints,
            removed,
            self._name,
            timestamps=self._timestamps,
            last_preserved=self._last_preserved,
        )
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
