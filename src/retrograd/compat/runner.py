"""Running an unmodified TensorFlow program on retrograd: ``python -m retrograd run SCRIPT``.

While the program runs, ``import tensorflow as tf`` (and ``import tensorflow.X`` for the
module paths in :data:`MODULES`) gives retrograd's namespaces: an import hook placed first
on ``sys.meta_path`` answers every ``tensorflow`` module name from the table, and names
retrograd does not have fail with an ImportError that says so. ``tf1=True`` makes
``tensorflow`` itself the TensorFlow 1 namespace (``compat.v1``) in graph mode, as a TF1
program expects.

>>> import sys
>>> with tensorflow_alias():
...     import tensorflow as tf
...     print(tf.constant(2.0) * 3)
retrograd.Tensor(6.0, shape=(), dtype=float32)
>>> "tensorflow" in sys.modules
False
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
from collections.abc import Iterator
from types import ModuleType

__all__ = ["MODULES", "tensorflow_alias", "run_script"]

# TensorFlow module path -> the retrograd module that stands for it.
MODULES: dict[str, str] = {
    "tensorflow": "retrograd",
    "tensorflow.compat": "retrograd.compat",
    "tensorflow.compat.v1": "retrograd.compat.v1",
    "tensorflow.compat.v2": "retrograd",
    "tensorflow.autodiff": "retrograd.autodiff",
    "tensorflow.bitwise": "retrograd.bitwise",
    "tensorflow.debugging": "retrograd.debugging",
    "tensorflow.dtypes": "retrograd.dtypes",
    "tensorflow.errors": "retrograd.errors",
    "tensorflow.keras": "retrograd.keras",
    "tensorflow.keras.optimizers": "retrograd.keras.optimizers",
    "tensorflow.linalg": "retrograd.linalg",
    "tensorflow.math": "retrograd.math",
    "tensorflow.nest": "retrograd.nest",
    "tensorflow.nn": "retrograd.nn",
    "tensorflow.random": "retrograd.random",
    "tensorflow.test": "retrograd.test",
    # issue 12 (Keras, checkpoints, tf.data): one block, kept last
    "tensorflow.train": "retrograd.train",
    "tensorflow.data": "retrograd.data",
    "tensorflow.keras.activations": "retrograd.keras.activations",
    "tensorflow.keras.backend": "retrograd.keras.backend",
    "tensorflow.keras.callbacks": "retrograd.keras.callbacks",
    "tensorflow.keras.initializers": "retrograd.keras.initializers",
    "tensorflow.keras.layers": "retrograd.keras.layers",
    "tensorflow.keras.losses": "retrograd.keras.losses",
    "tensorflow.keras.metrics": "retrograd.keras.metrics",
    "tensorflow.keras.models": "retrograd.keras.models",
    "tensorflow.keras.optimizers.schedules": "retrograd.keras.schedules",
    "tensorflow.keras.regularizers": "retrograd.keras.regularizers",
    "tensorflow.keras.utils": "retrograd.keras.utils",
}

_TF1_MODULES = {"tensorflow": "retrograd.compat.v1"}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        """The module is retrograd's, already executed."""


class _TensorFlowFinder(importlib.abc.MetaPathFinder):
    """Answers imports of ``tensorflow`` and its submodules from a table of aliases."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if fullname != "tensorflow" and not fullname.startswith("tensorflow."):
            return None
        target_name = self.table.get(fullname)
        if target_name is None:
            raise ModuleNotFoundError(
                f"retrograd does not implement the module {fullname!r} (running a TensorFlow "
                f"program on retrograd: see retrograd.compat.runner.MODULES for what is there)",
                name=fullname,
            )
        module = importlib.import_module(target_name)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module), is_package=True)


@contextlib.contextmanager
def tensorflow_alias(tf1: bool = False) -> Iterator[None]:
    """Within the block, ``import tensorflow`` (and its submodules) imports retrograd."""
    table = {**MODULES, **(_TF1_MODULES if tf1 else {})}
    finder = _TensorFlowFinder(table)
    saved = {
        n: m for n, m in sys.modules.items() if n == "tensorflow" or n.startswith("tensorflow.")
    }
    for name in saved:
        del sys.modules[name]
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in _tensorflow_modules():
            del sys.modules[name]
        sys.modules.update(saved)


def _tensorflow_modules() -> list[str]:
    return [n for n in sys.modules if n == "tensorflow" or n.startswith("tensorflow.")]


def run_script(script: str, args: list[str] | None = None, tf1: bool = False) -> None:
    """Runs ``script`` as ``__main__`` with ``tensorflow`` aliased to retrograd (the TF1
    namespace in graph mode with ``tf1=True``); ``sys.argv`` is ``[script, *args]``."""
    from retrograd.graph.graph import disable_eager_execution, enable_eager_execution

    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *(args or [])]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    if tf1:
        disable_eager_execution()
    try:
        with tensorflow_alias(tf1=tf1):
            runpy.run_path(script, run_name="__main__")
    finally:
        if tf1:
            enable_eager_execution()
        sys.argv, sys.path[:] = saved_argv, saved_path
