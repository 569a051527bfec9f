"""Reading checkpoints without the objects: ``load_checkpoint`` (a reader), ``load_variable``,
``list_variables``, ``get_checkpoint_state`` (a folder's record of its checkpoints),
``checkpoints_iterator`` (new checkpoints as they appear), and ``CheckpointOptions``.

Variables are named as TensorFlow names them: by the names a TF1 ``Saver`` gave them, and in
an object-based checkpoint
``<path>/.ATTRIBUTES/VARIABLE_VALUE`` (``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE``),
and optimizer slots ``<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot>/...``; the
serialized object graph TensorFlow adds (``_CHECKPOINTABLE_OBJECT_GRAPH``) is not there.

>>> import os, tempfile
>>> import retrograd as tf
>>> with tempfile.TemporaryDirectory() as d:
...     _ = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(d, "ckpt"))
...     print(tf.train.list_variables(d))
...     print(tf.train.load_variable(d, "v/.ATTRIBUTES/VARIABLE_VALUE"))
[('save_counter/.ATTRIBUTES/VARIABLE_VALUE', []), ('v/.ATTRIBUTES/VARIABLE_VALUE', [2])]
[1. 2.]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.errors import NotFoundError
from retrograd.training.checkpoint import data_file
from retrograd.training.object_graph import SLOT_MARK
from retrograd.training.storage import read_arrays

__all__ = [
    "CheckpointOptions", "CheckpointReader", "CheckpointState", "checkpoints_iterator",
    "get_checkpoint_state", "list_variables", "load_checkpoint", "load_variable",
]  # fmt: skip

_VALUE = "/.ATTRIBUTES/VARIABLE_VALUE"


class CheckpointOptions:
    """Options for saving and restoring (accepted; retrograd writes synchronously on the
    one device it has).

    >>> import retrograd as tf
    >>> tf.train.CheckpointOptions(enable_async=True).enable_async
    True
    """

    def __init__(
        self,
        experimental_io_device: str | None = None,
        experimental_enable_async_checkpoint: bool = False,
        experimental_write_callbacks: Any = None,
        enable_async: bool = False,
        experimental_skip_slot_variables: bool = False,
        experimental_sharding_callback: Any = None,
    ) -> None:
        self.experimental_io_device = experimental_io_device
        self.enable_async = bool(enable_async or experimental_enable_async_checkpoint)
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback


def _tensorflow_name(key: str) -> str:
    if f"/{SLOT_MARK}/" in key:
        optimizer, rest = key.split(f"/{SLOT_MARK}/", 1)
        variable, slot = rest.rsplit("/", 1)
        return f"{variable}/{SLOT_MARK}/{optimizer}/{slot}{_VALUE}"
    return key + _VALUE


def _resolve(ckpt_dir_or_file: Any) -> str:
    from retrograd.training.checkpoint_management import latest_checkpoint

    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(
                f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}"
            )
        return latest
    return path


class CheckpointReader:
    """The saved arrays of one checkpoint, by TensorFlow's names.

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = tf.train.Checkpoint(w=tf.Variable(3.0)).save(os.path.join(d, "c"))
    ...     reader = tf.train.load_checkpoint(path)
    ...     print(reader.has_tensor("w/.ATTRIBUTES/VARIABLE_VALUE"), reader.get_tensor(
    ...         "w/.ATTRIBUTES/VARIABLE_VALUE"))
    True 3.0
    """

    def __init__(self, path: str) -> None:
        file = data_file(path)
        if not os.path.isfile(file):
            raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                                f"matching files for {path}")  # fmt: skip
        arrays, metadata = read_arrays(file)
        if metadata.get("kind") == "tf1-saver":  # (name-based: variables by their names)
            self._arrays = dict(arrays)
        else:
            self._arrays = {_tensorflow_name(k): v for k, v in arrays.items()}

    def has_tensor(self, name: str) -> bool:
        return name in self._arrays

    def get_tensor(self, name: str) -> np.ndarray:
        if name not in self._arrays:
            raise NotFoundError(f"Key {name} not found in checkpoint")
        return self._arrays[name].copy()

    def get_variable_to_shape_map(self) -> dict[str, list[int]]:
        return {k: list(v.shape) for k, v in self._arrays.items()}

    def get_variable_to_dtype_map(self) -> dict[str, Any]:
        return {k: dtypes.as_dtype(v.dtype) for k, v in self._arrays.items()}


def load_checkpoint(ckpt_dir_or_file: Any) -> CheckpointReader:
    """A reader of a checkpoint file, or of the latest checkpoint of a folder.

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = tf.train.Checkpoint(v=tf.Variable(2.0)).save(os.path.join(d, "c"))
    ...     print(tf.train.load_checkpoint(d).get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE"))
    2.0
    """
    return CheckpointReader(_resolve(ckpt_dir_or_file))


def load_variable(ckpt_dir_or_file: Any, name: str) -> np.ndarray:
    """The saved value of the variable ``name`` (a trailing ``:0`` is ignored).

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = tf.train.Checkpoint(v=tf.Variable([1, 2])).save(os.path.join(d, "c"))
    ...     print(tf.train.load_variable(d, "v/.ATTRIBUTES/VARIABLE_VALUE:0"))
    [1 2]
    """
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file: Any) -> list[tuple[str, list[int]]]:
    """(name, shape) of every saved variable, sorted by name.

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = tf.train.Checkpoint(w=tf.Variable([[1.0]])).save(os.path.join(d, "c"))
    ...     print(tf.train.list_variables(d)[1])
    ('w/.ATTRIBUTES/VARIABLE_VALUE', [1, 1])
    """
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return sorted(shapes.items())


class CheckpointState:
    """A folder's record of its checkpoints (TensorFlow's CheckpointState fields).

    >>> CheckpointState("a", ["a"], [1.0], 0.0).model_checkpoint_path
    'a'
    """

    def __init__(
        self,
        model_checkpoint_path: str,
        all_model_checkpoint_paths: list,
        all_model_checkpoint_timestamps: list,
        last_preserved_timestamp: float,
    ) -> None:
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __repr__(self) -> str:
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        return "\n".join(lines)


def get_checkpoint_state(checkpoint_dir: Any, latest_filename: str | None = None):
    """The checkpoints a folder records (None when it records none).

    >>> import tempfile
    >>> import retrograd as tf
    >>> print(tf.train.get_checkpoint_state(tempfile.mkdtemp()))
    None
    """
    from retrograd.training import checkpoint_state

    state = checkpoint_state.read_state(os.fspath(checkpoint_dir), latest_filename)
    if state.latest is None:
        return None
    preserved = 0.0 if state.last_preserved is None else state.last_preserved
    return CheckpointState(state.latest, state.paths, state.timestamps, preserved)


def checkpoints_iterator(
    checkpoint_dir: Any,
    min_interval_secs: float = 0,
    timeout: float | None = None,
    timeout_fn: Callable[[], bool] | None = None,
) -> Iterator[str]:
    """Yields each new latest checkpoint of ``checkpoint_dir`` as it appears, at most one
    per ``min_interval_secs``; after ``timeout`` seconds without one, stops (or asks
    ``timeout_fn`` whether to stop).

    >>> import os, tempfile
    >>> import retrograd as tf
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "c"))
    ...     print([os.path.basename(p) for p in tf.train.checkpoints_iterator(d, timeout=0.1)])
    ['c-1']
    """
    from retrograd.training.checkpoint_management import latest_checkpoint

    folder, last = os.fspath(checkpoint_dir), None
    while True:
        start = time.monotonic()
        new = None
        while True:
            found = latest_checkpoint(folder)
            if found is not None and found != last:
                new = found
                break
            if timeout is not None and time.monotonic() - start >= timeout:
                break
            time.sleep(min(1.0, timeout) if timeout is not None else 1.0)
        if new is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        last = new
        yield new
        elapsed = time.monotonic() - start
        if elapsed < min_interval_secs:
            time.sleep(min_interval_secs - elapsed)
