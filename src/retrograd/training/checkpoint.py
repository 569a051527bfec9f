"""``tf.train.Checkpoint``: saves and restores the object graph of modules, layers, models,
variables and optimizers (slots and ``iterations`` included) by path, with TensorFlow's
restore rules.

Files are written with :func:`retrograd.training.storage.write_arrays` (atomically, no
pickle): ``save(prefix)`` writes ``prefix-N.npz`` and records it in the folder's
``checkpoint`` state file; ``restore`` matches values to objects by path. A value whose
object does not exist yet (a layer built later) waits on its nearest existing module and
is assigned when the object is attached (deferred restoration); an optimizer's slot value
waits until the slot is created by the first update, so training continues exactly.

>>> import os, tempfile
>>> import retrograd as rg
>>> folder = tempfile.mkdtemp()
>>> v = rg.Variable([1.0, 2.0])
>>> path = rg.train.Checkpoint(v=v).save(os.path.join(folder, "ckpt"))
>>> os.path.basename(path)
'ckpt-1'
>>> w = rg.Variable([0.0, 0.0])
>>> rg.train.Checkpoint(v=w).restore(path).assert_consumed() is not None
True
>>> w.numpy()
array([1., 2.], dtype=float32)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.variables import Variable
from retrograd.training import checkpoint_state, object_graph
from retrograd.training.module import Module
from retrograd.training.object_graph import SLOT_MARK, children, escape, is_trackable, walk
from retrograd.training.optimizers import Optimizer
from retrograd.training.storage import ArrayFile, CheckpointFormatError, write_arrays

__all__ = [
    "Checkpoint",
    "CheckpointLoadStatus",
    "InitializationOnlyStatus",
    "restore_deferred",
    "restore_from",
    "prefix_path",
    "data_file",
]

_SUFFIX = ".npz"
_KIND = "retrograd-checkpoint/1"


def prefix_path(value: Any, what: str) -> str:
    """A checkpoint prefix given by a user: a text path ending in a file name."""
    if not isinstance(value, (str, os.PathLike)) or not isinstance(os.fspath(value), str):
        raise TypeError(f"{what}: expected a path (str or os.PathLike), got {value!r:.80}")
    value = os.fspath(value)
    if not os.path.basename(value):
        raise ValueError(f"{what}: the path must end in a file name, got {value!r}")
    return value


def data_file(prefix: str) -> str:
    """The file a checkpoint prefix (``.../ckpt-3``) is stored in."""
    prefix = os.fspath(prefix)
    return prefix if prefix.endswith(_SUFFIX) else prefix + _SUFFIX


def collect_arrays(roots: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every variable's value by its path, and every optimizer slot under
    ``<optimizer>/.OPTIMIZER_SLOT/<variable path>/<slot name>``."""
    objects = list(walk(roots))
    arrays, variable_paths = {}, {}
    for path, obj in objects:
        if isinstance(obj, Variable):
            arrays[path] = obj._value
            variable_paths[id(obj)] = path
    for path, obj in objects:
        if isinstance(obj, Optimizer):
            for variable, name, slot in obj.slot_variables():
                if id(variable) in variable_paths:
                    arrays[f"{path}/{SLOT_MARK}/{variable_paths[id(variable)]}/{name}"] = (
                        slot._value
                    )
    return arrays


class CheckpointLoadStatus:
    """What a ``restore`` matched, and what waits for objects created later.

    >>> import retrograd as rg
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = rg.train.Checkpoint(v=rg.Variable(1.0)).write(os.path.join(d, 'ckpt'))
    ...     status = rg.train.Checkpoint(v=rg.Variable(0.0)).read(path)
    ...     print(type(status).__name__, status.assert_consumed() is status)
    CheckpointLoadStatus True
    """

    def __init__(self, path: str, arrays: dict[str, np.ndarray], roots: Mapping[str, Any]):
        self._path = path
        self._arrays = arrays
        self._roots = dict(roots)
        self._matched: set[str] = set()
        self._restored: set[int] = set()
        self._slots_waiting: dict[str, list[tuple[Optimizer, str, str]]] = {}
        self._restore_existing()

    # -- matching ------------------------------------------------------------------------
    def _restore_existing(self) -> None:
        """Matches every saved value to the objects that exist now and checks them all
        (shapes, dtypes, slots), then assigns: a restore that fails changes nothing."""
        objects = dict(walk(self._roots))
        matched: list[tuple[Variable, str]] = []
        deferred = []
        for key in self._arrays:
            if f"/{SLOT_MARK}/" in key:
                optimizer_path, variable_path, name = _slot_parts(self._path, key)
                optimizer = objects.get(optimizer_path)
                if isinstance(optimizer, Optimizer):
                    self._slots_waiting.setdefault(variable_path, []).append((optimizer, name, key))
                continue
            obj = objects.get(key)
            if isinstance(obj, Variable):
                self._check(obj, key)
                matched.append((obj, key))
            elif obj is None:
                deferred.append(key)
        for variable, key in matched:
            for optimizer, name, slot_key in self._slots_waiting.get(key, []):
                optimizer.check_slot_value(variable, name, self._arrays[slot_key], slot_key)
        for variable, key in matched:
            self.restore_variable(variable, key)
        for key in deferred:
            self._defer(key, objects)

    def _defer(self, key: str, objects: Mapping[str, Any]) -> None:
        """Leaves ``key``'s value on its nearest existing module, for when it is attached."""
        parts = key.split("/")
        for cut in range(len(parts) - 1, 0, -1):
            owner = objects.get("/".join(parts[:cut]))
            if owner is not None:
                if isinstance(owner, Module):
                    pending = owner.__dict__.setdefault("_checkpoint_pending", {})
                    pending["/".join(parts[cut:])] = (key, self)
                return

    def _check(self, variable: Variable, key: str) -> None:
        value = self._arrays[key]
        if value.shape != variable._value.shape or value.dtype != variable._value.dtype:
            raise ValueError(
                f"Checkpoint {self._path!r}: the value saved for {key!r} is "
                f"{dtypes.from_numpy(value.dtype).name}{list(value.shape)} but variable "
                f"'{variable.name}' at that path is {variable.dtype.name}"
                f"{list(variable._value.shape)}: shapes and dtypes must match"
            )

    def restore_variable(self, variable: Variable, key: str) -> None:
        """Assigns the value saved at ``key`` to ``variable`` (and its waiting slots)."""
        self._check(variable, key)
        for optimizer, name, slot_key in self._slots_waiting.get(key, []):
            optimizer.check_slot_value(variable, name, self._arrays[slot_key], slot_key)
        variable.assign(self._arrays[key])
        self._matched.add(key)
        self._restored.add(id(variable))
        for optimizer, name, slot_key in self._slots_waiting.pop(key, []):
            optimizer.restore_slot(variable, name, self._arrays[slot_key], slot_key)
            self._matched.add(slot_key)

    # -- assertions ----------------------------------------------------------------------
    def _unmatched_objects(self) -> list[Variable]:
        return [
            obj
            for _, obj in walk(self._roots)
            if isinstance(obj, Variable) and id(obj) not in self._restored
        ]

    def assert_existing_objects_matched(self) -> CheckpointLoadStatus:
        """Raises AssertionError if a variable of the object graph got no saved value."""
        unmatched = self._unmatched_objects()
        if unmatched:
            raise AssertionError(
                f"Found {len(unmatched)} Python objects that were not bound to checkpointed "
                f"values, likely due to changes in the Python program: "
                f"{[v.name for v in unmatched]}"
            )
        return self

    def assert_consumed(self) -> CheckpointLoadStatus:
        """Raises AssertionError unless every saved value was restored into an object and
        every variable of the object graph got a value."""
        unused = sorted(set(self._arrays) - self._matched)
        if unused:
            raise AssertionError(
                f"Unresolved values in checkpoint {self._path!r} (their objects do not exist "
                f"yet, or the program changed): {unused}"
            )
        return self.assert_existing_objects_matched()

    def expect_partial(self) -> CheckpointLoadStatus:
        """Declares that not every saved value will be used; ``unused_values`` lists them."""
        self._partial = True
        return self

    @property
    def unused_values(self) -> list[str]:
        """The paths of saved values not (yet) restored into any object."""
        return sorted(set(self._arrays) - self._matched)

    def run_restore_ops(self, session: Any = None) -> None:
        """Eager restoration has already assigned every value: nothing is left to run."""


class InitializationOnlyStatus:
    """``restore(None)``: nothing to restore; assertions other than partial ones fail."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_existing_objects_matched = assert_consumed

    def expect_partial(self):
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Nothing was restored: nothing to run."""


def restore_from(roots: Mapping[str, Any], stored: ArrayFile, label: str) -> CheckpointLoadStatus:
    """Restores the checkpoint ``stored`` (an open :class:`ArrayFile`; ``label`` names it)
    into the objects of ``roots``. The values of variables that exist are checked against
    them before anything is read (a crafted size is refused before it is allocated), then
    every value is read and checked, and only then assigned."""
    if stored.metadata.get("kind") != _KIND:
        raise ValueError(
            f"{stored.label} holds arrays but not a checkpoint (kind "
            f"{stored.metadata.get('kind')!r})"
        )
    objects = dict(walk(roots))
    for name in stored.names:
        variable = objects.get(name)
        if isinstance(variable, Variable):
            shape, dtype = stored.spec(name)
            if shape != variable._value.shape or dtype != variable._value.dtype:
                raise ValueError(
                    f"Checkpoint {label!r}: the value saved for {name!r} is "
                    f"{dtype}{list(shape)} but variable '{variable.name}' at that path is "
                    f"{variable._value.dtype}{list(variable._value.shape)}: shapes and dtypes "
                    f"must match"
                )
    arrays = {name: stored.read(name) for name in stored.names}
    return CheckpointLoadStatus(label, arrays, roots)


def _slot_parts(path: str, key: str) -> tuple[str, str, str]:
    """``(optimizer path, variable path, slot name)`` of a slot value's key."""
    optimizer_path, _, rest = key.partition(f"/{SLOT_MARK}/")
    variable_path, _, name = rest.rpartition("/")
    if not optimizer_path or not variable_path or not name:
        raise CheckpointFormatError(
            f"Checkpoint {path!r}: {key!r} is not a slot key (expected "
            f"'<optimizer>/{SLOT_MARK}/<variable path>/<slot name>')"
        )
    return optimizer_path, variable_path, name


def restore_deferred(owner: Module, name: str, value: Any) -> None:
    """Called when ``owner`` gets a new child ``name``: restores the values that waited for
    it (a variable directly, or deeper ones through the child's own children)."""
    pending = owner.__dict__.get("_checkpoint_pending") or {}
    component = escape(name)
    for relative in [r for r in pending if r == component or r.startswith(component + "/")]:
        key, status = pending.pop(relative)
        obj, rest = value, relative.split("/")[1:]
        while rest:
            named = dict(children(obj))
            if rest[0] not in named:
                break
            obj, rest = named[rest[0]], rest[1:]
        if not rest and isinstance(obj, Variable):
            status.restore_variable(obj, key)
        elif rest and isinstance(obj, Module):
            obj.__dict__.setdefault("_checkpoint_pending", {})["/".join(rest)] = (key, status)
    if not pending:
        owner.__dict__.pop("_checkpoint_pending", None)


class Checkpoint:
    """Saves and restores the objects given as keyword arguments (and their dependencies).

    ``save(prefix)`` numbers files (``prefix-1``, ``prefix-2``, ...) with ``save_counter``;
    ``write(path)`` writes exactly ``path``; ``restore(path)`` / ``read(path)`` load one.

    >>> import retrograd as rg
    >>> import tempfile, os
    >>> v = rg.Variable(1.0)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = rg.train.Checkpoint(v=v).save(os.path.join(d, 'ckpt'))
    ...     _ = v.assign(5.0)
    ...     _ = rg.train.Checkpoint(v=v).restore(path)
    ...     print(os.path.basename(path), v.numpy().tolist())
    ckpt-1 1.0
    """

    def __init__(self, root: Any = None, **kwargs: Any) -> None:
        objects = {}
        if root is not None:
            objects.update(dict(children(root)) if not isinstance(root, Variable) else {})
        for name, value in kwargs.items():
            if not is_trackable(value) and not object_graph._holds_trackables(value):
                raise ValueError(
                    f"Checkpoint was expecting a trackable object (a Module, Layer, Model, "
                    f"Variable or optimizer) for {name!r}, got {value!r}"
                )
            if name == "save_counter":
                raise ValueError("Checkpoint: 'save_counter' is reserved for the save counter")
            objects[name] = value
        object.__setattr__(self, "_objects", objects)
        object.__setattr__(
            self,
            "save_counter",
            Variable(0, trainable=False, dtype=dtypes.int64, name="save_counter"),
        )
        for name, value in objects.items():
            if not hasattr(type(self), name):
                self.__dict__[name] = value

    def __setattr__(self, name: str, value: Any) -> None:
        """An object assigned later (``ckpt.step = tf.Variable(0)``) becomes a dependency."""
        if name == "save_counter":
            raise ValueError("Checkpoint: 'save_counter' is reserved for the save counter")
        object.__setattr__(self, name, value)
        if not name.startswith("_") and (
            is_trackable(value) or object_graph._holds_trackables(value)
        ):
            self._objects[name] = value

    def _checkpoint_children(self) -> dict[str, Any]:
        return {**self._objects, "save_counter": self.save_counter}

    def write(self, file_prefix: str, options: Any = None) -> str:
        """Writes the objects' state to exactly ``file_prefix``; returns it."""
        file_prefix = prefix_path(file_prefix, "Checkpoint.write")
        write_arrays(
            data_file(file_prefix),
            collect_arrays(self._checkpoint_children()),
            {"kind": _KIND},
        )
        return file_prefix

    def save(self, file_prefix: str, options: Any = None) -> str:
        """Increments ``save_counter``, writes ``file_prefix-<save_counter>`` and records it
        as the latest checkpoint of its folder; returns that path."""
        file_prefix = prefix_path(file_prefix, "Checkpoint.save")
        self.save_counter.assign_add(1)
        path = self.write(f"{file_prefix}-{int(self.save_counter.numpy())}")
        checkpoint_state.record(os.path.dirname(path) or ".", path, [path], [], "")
        return path

    def read(self, save_path: str, options: Any = None) -> CheckpointLoadStatus:
        """Restores from a file written by ``write`` (or ``save``)."""
        return self.restore(save_path)

    def sync(self) -> None:
        """Waits for saves in progress (none: retrograd saves synchronously)."""

    def restore(self, save_path: str | None, options: Any = None) -> Any:
        """Assigns saved values to existing objects now, and to objects created later when
        they are attached; returns a status with ``assert_consumed()``,
        ``assert_existing_objects_matched()`` and ``expect_partial()``."""
        if save_path is None:
            return InitializationOnlyStatus()
        if not isinstance(save_path, (str, os.PathLike)):
            raise TypeError(
                f"Checkpoint.restore: save_path must be a path or None, got {save_path!r}"
            )
        with ArrayFile(data_file(save_path)) as stored:
            return restore_from(self._checkpoint_children(), stored, os.fspath(save_path))
