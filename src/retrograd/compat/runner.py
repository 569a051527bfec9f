"""Running an unmodified TensorFlow program on retrograd: ``python -m retrograd run SCRIPT``.

While the program runs, ``import tensorflow as tf`` (and ``import tensorflow.X`` for the
module paths in :data:`MODULES`, and Keras 3's own ``import keras``) gives retrograd's
namespaces: an import hook placed first
on ``sys.meta_path`` answers every ``tensorflow`` module name from the table, and modules
retrograd does not have fail with an ImportError that says so. The program sees each module
through an alias whose missing attributes raise ``AttributeError: retrograd does not
implement tf.foo.bar`` (only while it runs: imported directly, retrograd's modules raise
Python's usual AttributeError, except ``compat.v1``, whose own ``__getattr__`` says the
same). ``tf1=True`` makes ``tensorflow`` itself the TensorFlow 1 namespace (``compat.v1``)
in graph mode, as a TF1 program expects.

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
import traceback
from collections.abc import Iterator
from types import ModuleType

from retrograd.core.sites import script_traceback

__all__ = [
    "MODULES",
    "install_module_paths",
    "tensorflow_alias",
    "running",
    "run_script",
    "print_script_error",
    "exit_status",
]

# TensorFlow module path -> the retrograd module that stands for it.
MODULES: dict[str, str] = {
    "tensorflow": "retrograd",
    "tensorflow.compat": "retrograd.compat",
    "tensorflow.compat.v1": "retrograd.compat.v1",
    "tensorflow.compat.v2": "retrograd",
    "tensorflow.autodiff": "retrograd.autodiff",
    "tensorflow.config": "retrograd.config",
    "tensorflow.config.experimental": "retrograd.config.experimental",
    "tensorflow.config.threading": "retrograd.config.threading",
    "tensorflow.config.optimizer": "retrograd.config.optimizer",
    "tensorflow.autograph": "retrograd.autograph",
    "tensorflow.autograph.experimental": "retrograd.autograph.experimental",
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
    # TensorFlow 1 programs (issue 11): the v1 namespace and TensorFlow's private paths.
    "tensorflow.compat.v1.train": "retrograd.compat.v1.train",
    "tensorflow.compat.v1.nn": "retrograd.compat.v1.nn",
    "tensorflow.compat.v1.summary": "retrograd.compat.v1.summary",
    "tensorflow.compat.v1.logging": "retrograd.compat.v1.logging",
    "tensorflow.compat.v1.app": "retrograd.compat.v1.app",
    "tensorflow.compat.v1.math": "retrograd.compat.v1.math",
    "tensorflow.compat.v1.linalg": "retrograd.linalg",
    "tensorflow.compat.v1.random": "retrograd.random",
    "tensorflow.compat.v1.errors": "retrograd.errors",
    "tensorflow.compat.v1.losses": "retrograd.compat.v1.losses",
    "tensorflow.compat.v1.layers": "retrograd.compat.v1.layers",
    "tensorflow.compat.v1.initializers": "retrograd.compat.v1.initializers",
    "tensorflow.python": "retrograd.compat.tf_python",
    "tensorflow.python.framework": "retrograd.compat.tf_python.framework",
    "tensorflow.python.framework.ops": "retrograd.compat.tf_python.framework.ops",
    "tensorflow.python.framework.constant_op": "retrograd.compat.tf_python.framework.constant_op",
    "tensorflow.python.framework.dtypes": "retrograd.compat.tf_python.framework.dtypes",
    "tensorflow.python.framework.tensor_shape": "retrograd.compat.tf_python.framework.tensor_shape",
    "tensorflow.python.framework.errors": "retrograd.compat.tf_python.framework.errors",
    "tensorflow.python.ops": "retrograd.compat.tf_python.ops",
    "tensorflow.python.ops.array_ops": "retrograd.compat.tf_python.ops.array_ops",
    "tensorflow.python.ops.math_ops": "retrograd.compat.tf_python.ops.math_ops",
    "tensorflow.python.ops.nn_ops": "retrograd.compat.tf_python.ops.nn_ops",
    "tensorflow.python.ops.gen_array_ops": "retrograd.compat.tf_python.ops.gen_array_ops",
    "tensorflow.python.ops.gen_math_ops": "retrograd.compat.tf_python.ops.gen_math_ops",
    "tensorflow.python.ops.gen_nn_ops": "retrograd.compat.tf_python.ops.gen_nn_ops",
    # issue 22: the private paths real programs import
    "tensorflow.python.tf2": "retrograd.compat.tf_python.tf2",
    "tensorflow.python.eager": "retrograd.compat.tf_python.eager",
    "tensorflow.python.eager.backprop": "retrograd.compat.tf_python.eager.backprop",
    "tensorflow.python.eager.context": "retrograd.compat.tf_python.eager.context",
    "tensorflow.python.ops.custom_gradient": "retrograd.compat.tf_python.ops.custom_gradient",
    "tensorflow.python.ops.gradients_impl": "retrograd.compat.tf_python.ops.gradients_impl",
    "tensorflow.python.ops.variable_scope": "retrograd.compat.tf_python.ops.variable_scope",
    "tensorflow.python.ops.control_flow_util": ("retrograd.compat.tf_python.ops.control_flow_util"),
    "tensorflow.python.util": "retrograd.compat.tf_python.util",
    "tensorflow.python.util.tf_inspect": "retrograd.compat.tf_python.util.tf_inspect",
    "tensorflow.python.util.nest": "retrograd.compat.tf_python.util.nest",
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
    "tensorflow.keras.optimizers.schedules": "retrograd.keras.optimizers.schedules",
    "tensorflow.keras.regularizers": "retrograd.keras.regularizers",
    "tensorflow.keras.utils": "retrograd.keras.utils",
    "tensorflow.keras.random": "retrograd.keras.random",
    "tensorflow.keras.saving": "retrograd.keras.saving",
}
# Keras 3 imported on its own (`import keras`, as TensorFlow 2.16+ programs do): the same
# namespaces as tf.keras.
MODULES.update(
    {
        "keras" + name[len("tensorflow.keras") :]: target
        for name, target in list(MODULES.items())
        if name == "tensorflow.keras" or name.startswith("tensorflow.keras.")
    }
)
_ROOTS = ("tensorflow", "keras")

# With --tf1, `tensorflow` is the TF1 namespace, and `tensorflow.nn` its nn module.
_TF1_MODULES = {
    "tensorflow": "retrograd.compat.v1",
    "tensorflow.nn": "retrograd.compat.v1.nn",
    "tensorflow.summary": "retrograd.compat.v1.summary",
    "tensorflow.logging": "retrograd.compat.v1.logging",
    "tensorflow.app": "retrograd.compat.v1.app",
    "tensorflow.train": "retrograd.compat.v1.train",
    "tensorflow.losses": "retrograd.compat.v1.losses",
    "tensorflow.math": "retrograd.compat.v1.math",
    "tensorflow.layers": "retrograd.compat.v1.layers",
    "tensorflow.initializers": "retrograd.compat.v1.initializers",
}


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
        if not _aliased(fullname):
            return None
        target_name = self.table.get(fullname)
        if target_name is None:
            raise ModuleNotFoundError(
                f"retrograd does not implement the module {fullname!r} (running a TensorFlow "
                f"program on retrograd: see retrograd.compat.runner.MODULES for what is there)",
                name=fullname,
            )
        module = _Alias(fullname, importlib.import_module(target_name))
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module), is_package=True)


class _Alias(ModuleType):
    """``tensorflow`` (or one of its modules) as the program sees it: every attribute is the
    retrograd module's; a name retrograd lacks is an AttributeError saying so, and a
    submodule reached as an attribute (``tf.nn``) is an alias too, so ``tf.nn.foo`` says so
    as well."""

    def __init__(self, name: str, target: ModuleType) -> None:
        super().__init__(name, target.__doc__)
        self.__dict__["_target"] = target

    def __getattr__(self, attr: str):
        target = self.__dict__["_target"]
        try:
            value = getattr(target, attr)
        except AttributeError:
            if attr.startswith("__"):
                raise
            shown = self.__name__.replace("tensorflow", "tf", 1)
            raise AttributeError(f"retrograd does not implement {shown}.{attr}") from None
        if isinstance(value, ModuleType) and not attr.startswith("_"):
            value = _Alias(f"{self.__name__}.{attr}", value)
            self.__dict__[attr] = value  # the same alias object each time
        return value

    def __dir__(self):
        return dir(self.__dict__["_target"])


@contextlib.contextmanager
def tensorflow_alias(tf1: bool = False) -> Iterator[None]:
    """Within the block, ``import tensorflow`` (and its submodules) imports retrograd."""
    table = {**MODULES, **(_TF1_MODULES if tf1 else {})}
    finder = _TensorFlowFinder(table)
    saved = {n: m for n, m in sys.modules.items() if _aliased(n)}
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


def _aliased(name: str) -> bool:
    """Whether ``name`` is a module the alias answers (tensorflow's or keras')."""
    return any(name == root or name.startswith(root + ".") for root in _ROOTS)


def _tensorflow_modules() -> list[str]:
    return [n for n in sys.modules if _aliased(n)]


@contextlib.contextmanager
def running(
    script: str, args: list[str] | None = None, tf1: bool = False, device: str | None = None
) -> Iterator[None]:
    """What a TensorFlow program sees while it runs on retrograd, restored afterwards:
    ``sys.argv`` is ``[script, *args]``, the script's folder is first on ``sys.path``,
    ``tensorflow`` is aliased to retrograd (the TF1 namespace in graph mode with ``tf1``),
    and with ``device`` (``"/device:GPU:0"``) the program runs inside ``tf.device(device)``."""
    from retrograd.compat.graph_ops import disable_v2_behavior, enable_v2_behavior
    from retrograd.graph.device_spec import device as device_scope

    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *(args or [])]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    if tf1:
        disable_v2_behavior()
    try:
        with tensorflow_alias(tf1=tf1), device_scope(device):
            yield
    finally:
        if tf1:
            enable_v2_behavior()
        sys.argv, sys.path[:] = saved_argv, saved_path


def run_script(
    script: str, args: list[str] | None = None, tf1: bool = False, device: str | None = None
) -> None:
    """Runs ``script`` as ``__main__`` with ``tensorflow`` aliased to retrograd (the TF1
    namespace in graph mode with ``tf1=True``); ``sys.argv`` is ``[script, *args]``; with
    ``device`` (``"/device:GPU:0"``) inside ``tf.device(device)``."""
    with running(script, args, tf1, device):
        runpy.run_path(script, run_name="__main__")


def print_script_error(error: BaseException, script: str) -> None:
    """Prints ``error``'s traceback as Python would, from the script's first frame on: the
    launcher's frames (the command line, ``runpy``, this module) are not the user's."""
    tb = script_traceback(error.__traceback__, script)
    traceback.print_exception(type(error), error, tb, file=sys.stderr)


def exit_status(error: SystemExit) -> int:
    """The status ``sys.exit(code)`` gives the process, as Python computes it (any other
    object is printed on stderr and gives 1).

    >>> exit_status(SystemExit(3)), exit_status(SystemExit()), exit_status(SystemExit(-1))
    (3, 0, 255)
    """
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code % 256
    print(code, file=sys.stderr)
    return 1


class _SubmoduleLoader(importlib.abc.Loader):
    """Makes the import of an aliased path give retrograd's own module: ``exec_module``
    puts it in ``sys.modules``, which the import system returns (the placeholder module
    that ``create_module`` makes keeps nothing). A module that is not a package cannot
    have submodules found below it, so the table's paths below it are entered at once
    (``tensorflow.autograph.experimental`` with ``tensorflow.autograph``)."""

    def __init__(self, module: ModuleType, table: dict[str, str]) -> None:
        self.module, self.table = module, table

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return ModuleType(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        sys.modules[name] = self.module
        if not hasattr(self.module, "__path__"):
            for path, target in self.table.items():
                if path.startswith(name + ".") and path not in sys.modules:
                    sys.modules[path] = importlib.import_module(target)


class _AliasedRootFinder(importlib.abc.MetaPathFinder):
    """Answers ``tensorflow.X`` (and ``keras.X``) when the program made ``tensorflow`` (or
    ``keras``) retrograd itself (``sys.modules["tensorflow"] = retrograd``): the module of
    the table, or an ImportError that says retrograd does not have it. Inert otherwise,
    and while ``retrograd run``'s own finder answers."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        root = fullname.partition(".")[0]
        if root not in _ROOTS or root == fullname:
            return None
        table = _root_table(root)
        if table is None or any(isinstance(f, _TensorFlowFinder) for f in sys.meta_path):
            return None
        target_name = table.get(fullname)
        if target_name is None:
            raise ModuleNotFoundError(
                f"retrograd does not implement the module {fullname!r} ({root} is retrograd "
                f"here: see retrograd.compat.runner.MODULES for what is there)",
                name=fullname,
            )
        module = importlib.import_module(target_name)
        return importlib.machinery.ModuleSpec(
            fullname, _SubmoduleLoader(module, table), is_package=True
        )


def _root_table(root: str) -> dict[str, str] | None:
    """The table for ``root`` when ``sys.modules[root]`` is retrograd's module for it."""
    module = sys.modules.get(root)
    name = getattr(module, "__name__", "")
    if root == "keras":
        return MODULES if name == "retrograd.keras" else None
    if name == "retrograd":
        return MODULES
    if name == "retrograd.compat.v1":
        return {**MODULES, **_TF1_MODULES}
    return None


_FINDER = _AliasedRootFinder()


def install_module_paths() -> None:
    """Lets ``import tensorflow.python.framework.ops`` (every path of :data:`MODULES`) work
    in a program that aliased ``tensorflow`` to retrograd itself; ``import retrograd`` calls
    it. Installed once; it answers nothing unless ``tensorflow`` or ``keras`` is retrograd.

    >>> import sys, retrograd
    >>> sys.modules["tensorflow"] = retrograd
    >>> from tensorflow.python.framework import ops
    >>> ops.get_default_graph is retrograd.get_default_graph
    True
    >>> for name in [n for n in sys.modules if n == "tensorflow" or n.startswith("tensorflow.")]:
    ...     del sys.modules[name]
    >>> del retrograd.python  # the import system set it, as it sets every parent's submodule
    """
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
