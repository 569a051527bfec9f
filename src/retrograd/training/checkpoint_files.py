"""TensorFlow 1's functions on a checkpoint's files (``tf.compat.v1.train``):
``NewCheckpointReader``, ``get_checkpoint_mtimes`` and ``remove_checkpoint``. retrograd keeps
a checkpoint in one file, ``<prefix>.npz``, where TensorFlow writes ``<prefix>.index`` and
data shards; a file named by the prefix itself counts too, as TensorFlow's V1 files do.

>>> import os, tempfile
>>> import retrograd as rg
>>> folder = tempfile.mkdtemp()
>>> prefix = rg.train.Checkpoint(v=rg.Variable(1.0)).save(os.path.join(folder, "c"))
>>> len(get_checkpoint_mtimes([prefix]))
1
>>> remove_checkpoint(prefix)
>>> get_checkpoint_mtimes([prefix])
[]
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from retrograd.training.checkpoint_utils import CheckpointReader, load_checkpoint

__all__ = ["NewCheckpointReader", "get_checkpoint_mtimes", "remove_checkpoint"]

_SUFFIX = ".npz"


def NewCheckpointReader(filepattern: Any) -> CheckpointReader:
    """A reader of the checkpoint at ``filepattern`` (a prefix, or a folder's latest).

    >>> import os, tempfile
    >>> import retrograd as rg
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = rg.train.Checkpoint(v=rg.Variable(2.0)).save(os.path.join(d, "c"))
    ...     print(rg.compat.v1.train.NewCheckpointReader(p).get_tensor(
    ...         "v/.ATTRIBUTES/VARIABLE_VALUE"))
    2.0
    """
    return load_checkpoint(filepattern)


def _files(prefix: str) -> list[str]:
    """The files a checkpoint saved under ``prefix`` has (its own file first)."""
    return [path for path in (prefix + _SUFFIX, prefix) if os.path.isfile(path)]


def get_checkpoint_mtimes(checkpoint_prefixes: Iterable[Any]) -> list[float]:
    """The modification times (seconds since the epoch) of the checkpoints saved under
    ``checkpoint_prefixes``; prefixes with no checkpoint are skipped.

    >>> get_checkpoint_mtimes(["/no/such/checkpoint"])
    []
    """
    mtimes = []
    for prefix in checkpoint_prefixes:
        files = _files(os.fspath(prefix))
        if files:
            mtimes.append(os.stat(files[0]).st_mtime_ns / 1e9)
    return mtimes


def remove_checkpoint(
    checkpoint_prefix: Any, checkpoint_format_version: int = 2, meta_graph_suffix: str = "meta"
) -> None:
    """Deletes the checkpoint saved under ``checkpoint_prefix`` and its meta graph file
    (``<prefix>.<meta_graph_suffix>``); files that are not there are skipped.

    >>> remove_checkpoint("/no/such/checkpoint")
    """
    prefix = os.fspath(checkpoint_prefix)
    paths = [f"{prefix}.{meta_graph_suffix}", prefix + _SUFFIX]
    if checkpoint_format_version != 2:  # a V1 checkpoint is the file the prefix names
        paths.append(prefix)
    for path in paths:
        if os.path.isfile(path):
            os.remove(path)
