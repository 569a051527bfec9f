"""``tf.Module``: a named container of variables and other modules, found by walking its
attributes with TensorFlow's rules.

A module's variables are the :class:`Variable` objects reachable from its attributes
(attribute names in sorted order; lists, tuples and dicts walked inside, dict keys sorted),
each listed once: first those held directly, then those of each submodule in the order the
submodules were found.

>>> import retrograd as rg
>>> class Scale(rg.Module):
...     def __init__(self, name=None):
...         super().__init__(name=name)
...         with self.name_scope:
...             self.w = rg.Variable(2.0, name="w")
...     @rg.Module.with_name_scope
...     def __call__(self, x):
...         return x * self.w
>>> m = Scale()
>>> m.name, m.w.name, [v.name for v in m.trainable_variables]
('scale', 'scale/w:0', ['scale/w:0'])
>>> print(m(rg.constant(3.0)).numpy())
6.0
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from retrograd.core.execute import context
from retrograd.core.variables import Variable
from retrograd.graph import graph as graph_module

__all__ = ["Module", "flatten_module"]

_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _camel_to_snake(name: str) -> str:
    """``MyDenseLayer`` -> ``my_dense_layer``, TensorFlow's default module name."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


class ModuleNameScope:
    """The scope a module's variables are created in: re-entering it gives the same prefix."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entered: list[Any] = []

    def __enter__(self) -> str:
        manager = graph_module.name_scope(self.name)
        scope = manager.__enter__()
        self._entered.append(manager)
        return scope

    def __exit__(self, *exc: Any) -> Any:
        return self._entered.pop().__exit__(*exc)

    def __repr__(self) -> str:
        return f"<name_scope {self.name!r}>"


class Module:
    """Base class of models and layers: a name, a name scope, and the variables and
    submodules reachable from its attributes (``variables``, ``trainable_variables``,
    ``non_trainable_variables``, ``submodules``).

    >>> import retrograd as rg
    >>> class Scale(rg.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = rg.Variable(2.0)
    ...     def __call__(self, x):
    ...         return self.w * x
    >>> m = Scale()
    >>> m(3.0).numpy().tolist(), [v.numpy().tolist() for v in m.trainable_variables]
    (6.0, [2.0])
    """

    # Attributes never walked when collecting variables and submodules.
    _TF_MODULE_IGNORED_PROPERTIES: frozenset[str] = frozenset()
    # Bookkeeping of the module itself, never walked.
    _INTERNAL_PROPERTIES: frozenset[str] = frozenset({"_checkpoint_pending"})

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _VALID_NAME.match(name):
            raise ValueError(
                f"{name!r} is not a valid module name. Module names must be valid Python "
                f"identifiers (e.g. a valid class name)."
            )
        self._name = name
        outer = context.eager_scope if context.graph is None else ""
        self._name_scope = ModuleNameScope(outer + name + "/")

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if self.__dict__.get("_checkpoint_pending"):
            self._track_child(name, value)

    def _track_child(self, name: str, value: Any) -> None:
        """Gives a new child the values a checkpoint restored for it before it existed."""
        if self.__dict__.get("_checkpoint_pending"):
            from retrograd.training.checkpoint import restore_deferred

            restore_deferred(self, name, value)

    @property
    def name(self) -> str:
        """The module's name (its class name in snake case unless given)."""
        return self._name

    @property
    def name_scope(self) -> ModuleNameScope:
        """The scope to create this module's variables in (``with self.name_scope:``)."""
        return self._name_scope

    @property
    def variables(self) -> tuple[Variable, ...]:
        """Every variable of this module and its submodules, each once."""
        return tuple(flatten_module(self, _is_variable))

    @property
    def trainable_variables(self) -> tuple[Variable, ...]:
        """The variables with ``trainable=True``."""
        return tuple(flatten_module(self, lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple[Variable, ...]:
        """The variables with ``trainable=False``."""
        return tuple(flatten_module(self, lambda v: _is_variable(v) and not v.trainable))

    @property
    def submodules(self) -> tuple[Module, ...]:
        """Every module reachable from this one (not itself), each once."""
        return tuple(flatten_module(self, lambda v: isinstance(v, Module)))

    @classmethod
    def with_name_scope(cls, method: Callable) -> Callable:
        """Decorates a method so that it runs inside the module's name scope."""

        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object '{self._name}'>"


def _is_variable(value: Any) -> bool:
    return isinstance(value, Variable)


def _leaves(value: Any, seen_containers: set[int]) -> Iterator[Any]:
    """The values inside lists, tuples and dicts (dict keys in sorted order), in order."""
    if isinstance(value, dict):
        if id(value) in seen_containers:
            return
        seen_containers.add(id(value))
        try:
            keys = sorted(value)
        except TypeError:
            keys = list(value)
        for key in keys:
            yield from _leaves(value[key], seen_containers)
    elif isinstance(value, (list, tuple)):
        if id(value) in seen_containers:
            return
        seen_containers.add(id(value))
        for item in value:
            yield from _leaves(item, seen_containers)
    else:
        yield value


def flatten_module(module: Module, predicate: Callable[[Any], bool]) -> Iterator[Any]:
    """The objects reachable from ``module``'s attributes that satisfy ``predicate``, each
    once: the module's own attributes first (names sorted), then each submodule's in turn.
    Iterative (a queue of modules), so deep module trees cannot exhaust the stack."""
    seen: set[int] = {id(module)}
    queue = [module]
    while queue:
        current = queue.pop(0)
        found_modules = []
        ignored = current._TF_MODULE_IGNORED_PROPERTIES | Module._INTERNAL_PROPERTIES
        attributes = vars(current)
        for key in sorted(attributes):
            if key in ignored:
                continue
            for leaf in _leaves(attributes[key], set()):
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
                if predicate(leaf):
                    yield leaf
                if isinstance(leaf, Module):
                    found_modules.append(leaf)
        # Depth first as TensorFlow: a submodule's whole subtree comes before its sibling's.
        queue[0:0] = found_modules
