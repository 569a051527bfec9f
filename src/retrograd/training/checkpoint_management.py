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
from typing import Any

from retrograd.training.checkpoint import Checkpoint, data_file
from retrograd.training.storage import write_text

__all__ = ["CheckpointManager", "latest_checkpoint", "update_checkpoint_state"]

_STATE = "checkpoint"
_FIELD = re.compile(r'^(model_checkpoint_path|all_model_checkpoint_paths):\s*(".*")\s*$')


def _relative(folder: str, path: str) -> str:
    return os.path.relpath(path, folder) if os.path.dirname(path) == folder else path


def update_checkpoint_state(folder: str, latest: str, all_paths: list[str]) -> None:
    """Records ``latest`` and ``all_paths`` in ``folder/checkpoint``, atomically."""
    folder = folder or "."
    lines = [f"model_checkpoint_path: {json.dumps(_relative(folder, latest))}"]
    lines += [f"all_model_checkpoint_paths: {json.dumps(_relative(folder, p))}" for p in all_paths]
    write_text(os.path.join(folder, _STATE), "\n".join(lines) + "\n")


def _read_state(folder: str) -> tuple[str | None, list[str]]:
    path = os.path.join(folder, _STATE)
    if not os.path.isfile(path):
        return None, []
    latest, paths = None, []
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            match = _FIELD.match(line.strip())
            if not match:
                continue
            try:
                value = json.loads(match.group(2))
            except ValueError:
                continue
            value = value if os.path.isabs(value) else os.path.join(folder, value)
            if match.group(1) == "model_checkpoint_path":
                latest = value
            else:
                paths.append(value)
    return latest, paths


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
    latest, _ = _read_state(os.fspath(checkpoint_dir))
    if latest is None or not os.path.isfile(data_file(latest)):
        return None
    return latest


class CheckpointManager:
    """Saves ``checkpoint`` as ``directory/<checkpoint_name>-N``, keeping the newest
    ``max_to_keep`` (all when None) and deleting older ones; picks up the checkpoints an
    earlier run recorded in ``directory``.

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
        keep_checkpoint_every_n_hours: Any = None,
        checkpoint_name: str = "ckpt",
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
        if keep_checkpoint_every_n_hours is not None:
            raise NotImplementedError(
                "CheckpointManager: keep_checkpoint_every_n_hours is not supported by retrograd"
            )
        self._checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self.directory, checkpoint_name)
        latest, paths = _read_state(self.directory)
        self._checkpoints = [p for p in paths if os.path.isfile(data_file(p))]
        self._latest = latest if latest and os.path.isfile(data_file(latest)) else None

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

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

    def save(self, checkpoint_number: int | None = None) -> str:
        """Saves a new checkpoint (numbered by ``save_counter`` unless given), records it
        and deletes those beyond ``max_to_keep``; returns its path."""
        self._checkpoint.save_counter.assign_add(1)
        number = (
            int(self._checkpoint.save_counter.numpy())
            if checkpoint_number is None
            else int(checkpoint_number)
        )
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._checkpoints = [p for p in self._checkpoints if p != path] + [path]
        removed = []
        if self._max_to_keep is not None:
            while len(self._checkpoints) > self._max_to_keep:
                removed.append(self._checkpoints.pop(0))
        self._latest = path
        # Record first, then delete: an interruption never leaves the state naming a
        # checkpoint that is gone.
        update_checkpoint_state(self.directory, path, self._checkpoints)
        for old in removed:
            if os.path.isfile(data_file(old)):
                os.unlink(data_file(old))
        return path

    def restore_or_initialize(self) -> str | None:
        """Restores the latest checkpoint if there is one; returns its path (or None)."""
        if self._latest is None:
            return None
        self._checkpoint.restore(self._latest)
        return self._latest
