"""TensorFlow 1's ``train.Saver``: variables saved by name into one file per checkpoint
(``prefix-STEP.npz``, written atomically by :mod:`retrograd.training.storage`: never pickle),
a ``checkpoint`` state file naming the latest ones (also replaced atomically), and
``restore`` by variable name with clear errors for missing or mis-shaped variables.

>>> import os, tempfile, retrograd as rg
>>> folder = tempfile.mkdtemp()
>>> g = rg.Graph()
>>> with g.as_default():
...     w = rg.compat.v1.Variable([1.0, 2.0], name="w")
...     saver = Saver()
...     init = rg.compat.v1.global_variables_initializer()
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     path = saver.save(sess, os.path.join(folder, "model"), global_step=3)
...     _ = sess.run(w.assign([0.0, 0.0]))
...     saver.restore(sess, latest_checkpoint(folder))
...     print(os.path.basename(path), sess.run(w))
model-3 [1. 2.]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.core.variables import Variable
from retrograd.graph.graph import get_default_graph
from retrograd.graph.variables import GLOBAL_VARIABLES, GraphVariable
from retrograd.training import checkpoint_management, checkpoint_state
from retrograd.training.checkpoint import prefix_path
from retrograd.training.storage import ArrayFile, CheckpointFormatError, write_arrays

__all__ = ["Saver", "latest_checkpoint", "checkpoint_exists"]

_SUFFIX = ".npz"


def _variable_name(var: Any) -> str:
    return var.name.rpartition(":")[0] or var.name


class Saver:
    """Saves and restores variables (``var_list``: a list, or a dict name → variable;
    default: every global variable of the default graph) by name."""

    def __init__(
        self,
        var_list: Any = None,
        reshape: bool = False,
        sharded: bool = False,
        max_to_keep: int | None = 5,
        keep_checkpoint_every_n_hours: float = 10000.0,
        name: str | None = None,
        restore_sequentially: bool = False,
        saver_def: Any = None,
        builder: Any = None,
        defer_build: bool = False,
        allow_empty: bool = False,
        write_version: Any = 2,
        pad_step_number: bool = False,
        save_relative_paths: bool = False,
        filename: Any = None,
    ) -> None:
        if write_version not in (2, None):  # saver_pb2.SaverDef.V2
            raise ValueError(
                f"Saver: write_version={write_version!r} (TensorFlow 1's V1 checkpoint format) is "
                "not supported; retrograd writes V2 checkpoints (write_version=2)"
            )
        if var_list is None:
            var_list = get_default_graph().get_collection(GLOBAL_VARIABLES)
        if isinstance(var_list, dict):
            named = dict(var_list)
        else:
            named = {}
            for var in var_list:
                if not isinstance(var, Variable):
                    raise TypeError(f"Saver: var_list holds a {type(var).__name__}, not a Variable")
                name = _variable_name(var)
                if name in named:
                    raise ValueError(f"Saver: at least two variables have the same name: {name}")
                named[name] = var
        if not named and not allow_empty:
            raise ValueError("No variables to save")
        self._variables = named
        self._max_to_keep = max_to_keep
        self._kept: list[str] = []

    def save(
        self,
        sess: Any,
        save_path: str,
        global_step: Any = None,
        latest_filename: str | None = None,
        meta_graph_suffix: str = "meta",
        write_meta_graph: bool = True,
        write_state: bool = True,
        strip_default_attrs: bool = False,
        save_debug_info: bool = False,
    ) -> str:
        """Writes every variable's current value; returns the checkpoint prefix
        (``save_path-STEP`` with a global step) for ``restore``. With ``write_state``, the
        folder's ``checkpoint`` state file (or ``latest_filename``) records it before the
        checkpoints beyond ``max_to_keep`` are deleted, so that a crash at any point leaves
        the state naming complete checkpoints; a save first finishes what one killed earlier
        left undone."""
        prefix = prefix_path(save_path, "Saver.save")
        folder, base = os.path.dirname(prefix) or ".", os.path.basename(prefix)
        if not checkpoint_state.plain_name(base):
            raise ValueError(f"Saver.save: save_path must end in a file name, got {save_path!r}")
        state_file = checkpoint_state.state_file(folder, latest_filename)  # (checks the name)
        if global_step is not None:
            step = global_step if isinstance(global_step, int) else sess.run(global_step)
            prefix = f"{prefix}-{int(step)}"
        if write_state:
            checkpoint_state.finish_interrupted(folder, base, latest_filename)
        names = list(self._variables)
        values = sess.run([self._variables[n] for n in names]) if names else []
        write_arrays(prefix + _SUFFIX, dict(zip(names, values)), {"kind": "tf1-saver"})
        if write_state:
            kept = [p for p in self._kept if p != prefix] + [prefix]
            removed = []
            if self._max_to_keep and len(kept) > self._max_to_keep:
                removed, kept = kept[: -self._max_to_keep], kept[-self._max_to_keep :]
            self._kept = kept
            checkpoint_state.record(
                folder, prefix, kept, removed, base, os.path.basename(state_file)
            )
        return prefix

    def restore(self, sess: Any, save_path: str) -> None:
        """Assigns each variable the value saved under its name; a variable missing from the
        checkpoint, or saved with another shape or dtype, is an error naming it."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        path = os.fspath(save_path)
        if not path.endswith(_SUFFIX):
            path += _SUFFIX
        if not os.path.exists(path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        assigns = []
        with ArrayFile(path) as stored:
            for name, var in self._variables.items():  # all checked before anything is read
                if name not in stored.names:
                    raise CheckpointFormatError(
                        f"Key {name} not found in checkpoint {path} (it holds: "
                        f"{sorted(stored.names)})"
                    )
                shape, dtype = stored.spec(name)
                if tuple(var.shape.as_list()) != shape:
                    raise CheckpointFormatError(
                        f"Variable {name}: the checkpoint {path} holds shape {list(shape)}, "
                        f"the variable has shape {var.shape}"
                    )
                if np.dtype(var.dtype.as_numpy_dtype) != dtype:
                    raise CheckpointFormatError(
                        f"Variable {name}: the checkpoint {path} holds dtype {dtype}, the "
                        f"variable has dtype {var.dtype.name}"
                    )
            for name, var in self._variables.items():
                assigns.append((var, stored.read(name)))
        for var, value in assigns:
            if isinstance(var, GraphVariable):
                # restoring is the assignment itself (on the variable's device)
                held, array = var._array, np.array(value)
                var._value = (
                    backends.place(array) if held is None else backends.on_device_of(array, held)
                )
            else:
                var.assign(value)

    @property
    def last_checkpoints(self) -> list[str]:
        """The checkpoints this saver keeps (oldest first), as TensorFlow's property."""
        return list(self._kept)


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The prefix of the newest checkpoint recorded in ``checkpoint_dir`` (None if none):
    the same function as ``tf.train.latest_checkpoint``, reading the one state-file format
    that ``Saver``, ``Checkpoint`` and ``CheckpointManager`` write.

    >>> import retrograd as rg, tempfile
    >>> rg.compat.v1.train.latest_checkpoint(tempfile.mkdtemp()) is None
    True
    """
    return checkpoint_management.latest_checkpoint(checkpoint_dir, latest_filename)


def checkpoint_exists(checkpoint_prefix: str) -> bool:
    """Whether a checkpoint was saved under ``checkpoint_prefix``."""
    return os.path.exists(os.fspath(checkpoint_prefix) + _SUFFIX)
