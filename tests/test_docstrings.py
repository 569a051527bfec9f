"""Every public function and class has a runnable example in its docstring (issue 17).

The examples are doctest sessions (``>>>`` lines and the output they print). pytest runs
them through ``--doctest-modules`` on src/; this checks that every public function and
class has one, and that the doctest finder reaches each (ops made by a factory such as
``unary_op`` name the module that defines them, where the finder looks for them).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from functools import cache

import retrograd

# Public namespaces whose every function and class must show an example.
NAMESPACES = [
    "retrograd",
    "retrograd.math",
    "retrograd.nn",
    "retrograd.linalg",
    "retrograd.random",
    "retrograd.debugging",
    "retrograd.test",
    "retrograd.nest",
    "retrograd.functional",
    "retrograd.autodiff",
    "retrograd.bitwise",
    "retrograd.dtypes",
    "retrograd.data",
    "retrograd.train",
    "retrograd.compat.v1",
    "retrograd.keras.activations",
    "retrograd.keras.losses",
    "retrograd.keras.initializers",
    "retrograd.keras.metrics",
    "retrograd.keras.layers",
    "retrograd.keras.callbacks",
    "retrograd.keras.models",
    "retrograd.keras",
    "retrograd.keras.optimizers",
    "retrograd.keras.optimizers.schedules",
    "retrograd.keras.constraints",
    "retrograd.keras.mixed_precision",
    "retrograd.keras.ops",
    "retrograd.keras.backend",
    "retrograd.keras.regularizers",
    "retrograd.keras.utils",
    "retrograd.autograph",
    "retrograd.errors",
    "retrograd.optimizers",
]


# Callables whose example is still to be written, with the reason (none today: keep it so).
PENDING: dict[str, set[str]] = {}


def _pending(obj: object) -> bool:
    return getattr(obj, "__name__", None) in PENDING.get(getattr(obj, "__module__", ""), ())


def _public_callables() -> list[tuple[str, object]]:
    found = []
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.append((f"{namespace}.{name}", obj))
    return found


PUBLIC = _public_callables()


def test_the_namespaces_export_functions_and_classes():
    assert len(PUBLIC) > 300


def test_every_public_function_and_class_has_an_example():
    missing = [
        qualified
        for qualified, obj in PUBLIC
        if not _pending(obj) and ">>>" not in (inspect.getdoc(obj) or "")
    ]
    assert not missing, f"{len(missing)} public callables without a >>> example: {missing}"


def test_pending_names_are_public_and_still_without_examples():
    pending = [(qualified, obj) for qualified, obj in PUBLIC if _pending(obj)]
    names = {obj.__name__ for _, obj in pending}
    assert names == set().union(*PENDING.values()), "a pending name is not public"
    assert not [q for q, obj in pending if ">>>" in (obj.__doc__ or "")], "drop it from PENDING"


@cache
def _docstrings_run_by_doctest_modules() -> frozenset[int]:
    """ids of the docstrings that ``pytest --doctest-modules`` on src/retrograd runs."""
    finder = doctest.DocTestFinder()
    seen: set[int] = set()
    modules = [retrograd.__name__] + [
        info.name
        for info in pkgutil.walk_packages(retrograd.__path__, "retrograd.")
        if not info.name.endswith("__main__")
    ]
    for name in modules:
        module = importlib.import_module(name)
        for test in finder.find(module):
            if test.examples:
                seen.add(id(test.docstring))
    return frozenset(seen)


def test_every_public_example_is_run_by_the_module_doctests():
    # An object whose docstring the doctest finder of its module does not reach (say, one
    # whose __module__ names a module that does not hold it) would show an unchecked example.
    run = _docstrings_run_by_doctest_modules()
    unrun = sorted(
        qualified
        for qualified, obj in PUBLIC
        if ">>>" in (obj.__doc__ or "") and id(obj.__doc__) not in run
    )
    assert not unrun, unrun
