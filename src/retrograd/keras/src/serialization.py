"""``keras.saving``'s object serialization: classes and functions registered by name, and
objects turned into JSON-ready dicts and back.

An object is serialized as Keras 3 does, ``{"module", "class_name", "config",
"registered_name"}``, with ``config`` from its ``get_config()``; built-in functions
(activations, losses) by their name. Deserialization finds a class only among Keras' own
classes, the classes registered with :func:`register_keras_serializable` and the
``custom_objects`` given: nothing is imported by name and no code is ever loaded.

>>> import retrograd as rg
>>> config = rg.keras.saving.serialize_keras_object(rg.keras.initializers.HeNormal(seed=3))
>>> config["class_name"], config["config"]
('HeNormal', {'seed': 3, 'input_axes': None, 'output_axes': None})
>>> rg.keras.saving.deserialize_keras_object(config).seed
3
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from retrograd.keras.src.layers.base import Layer

__all__ = [
    "register_keras_serializable",
    "get_registered_name",
    "get_registered_object",
    "serialize_keras_object",
    "deserialize_keras_object",
    "is_serialized_object",
    "config_value",
    "registered_name_of",
    "CustomObjectScope",
    "custom_object_scope",
    "get_custom_objects",
]

# Classes and functions registered by users: "package>name" -> object, and back. Filled at
# import time by decorators (as Keras' global registry), never during execution.
_REGISTERED: dict[str, Any] = {}
_NAMES: dict[Any, str] = {}
# Keras' global custom objects (get_custom_objects()) and the active custom_object_scope()s.
_GLOBAL_CUSTOM_OBJECTS: dict[str, Any] = {}
_SCOPES: list[dict[str, Any]] = []


def get_custom_objects() -> dict:
    """Keras' global dict of custom objects: what is put in it is found by name when
    deserializing, as if given in ``custom_objects``.

    >>> import retrograd as rg
    >>> isinstance(rg.keras.utils.get_custom_objects(), dict)
    True
    """
    return _GLOBAL_CUSTOM_OBJECTS


class CustomObjectScope:
    """A ``with`` block in which the given ``{name: object}`` dicts are found by name when
    deserializing (``custom_object_scope`` is the same).

    >>> import retrograd as rg
    >>> class Twice(rg.keras.layers.Layer):
    ...     def call(self, x):
    ...         return 2.0 * x
    >>> config = {"class_name": "Twice", "config": {"name": "t"}}
    >>> with rg.keras.utils.custom_object_scope({"Twice": Twice}):
    ...     layer = rg.keras.layers.deserialize(config)
    >>> type(layer).__name__
    'Twice'
    """

    def __init__(self, custom_objects: Any) -> None:
        objects = custom_objects if isinstance(custom_objects, (list, tuple)) else [custom_objects]
        self.custom_objects: dict[str, Any] = {}
        for entry in objects:
            if not isinstance(entry, dict):
                raise TypeError(
                    "Expected `custom_objects` to be a `dict`. Received: "
                    f"custom_objects={custom_objects!r}"
                )
            self.custom_objects.update(entry)

    def __enter__(self) -> CustomObjectScope:
        _SCOPES.append(self.custom_objects)
        return self

    def __exit__(self, *exc: Any) -> None:
        _SCOPES.remove(self.custom_objects)


custom_object_scope = CustomObjectScope


def _scoped(name: str) -> Any:
    """``name`` in the innermost custom_object_scope that has it, else the global dict."""
    for scope in reversed(_SCOPES):
        if name in scope:
            return scope[name]
    return _GLOBAL_CUSTOM_OBJECTS.get(name)


def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Callable:
    """Registers a class or function as ``package>name`` (``name`` defaults to its own), so
    that saved models holding it load without ``custom_objects``.

    >>> import retrograd as rg
    >>> @rg.keras.saving.register_keras_serializable(package="Docs")
    ... class Twice(rg.keras.layers.Layer):
    ...     def call(self, x):
    ...         return 2.0 * x
    >>> rg.keras.saving.get_registered_name(Twice)
    'Docs>Twice'
    """
    if not isinstance(package, str) or ">" in package:
        raise ValueError(f"register_keras_serializable: invalid package {package!r}")

    def decorator(obj: Any) -> Any:
        key = f"{package}>{name or obj.__name__}"
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise ValueError(
                f"Cannot register {obj!r}: the class must define `get_config()`, which "
                "saving uses to rebuild it"
            )
        _REGISTERED[key] = obj
        _NAMES[obj] = key
        return obj

    return decorator


def get_registered_name(obj: Any) -> str:
    """``package>name`` of a registered class or function, else its own name.

    >>> import retrograd as rg
    >>> rg.keras.saving.get_registered_name(rg.keras.layers.Dense)
    'Dense'
    """
    return _NAMES.get(obj, getattr(obj, "__name__", type(obj).__name__))


def registered_name_of(obj: Any) -> str | None:
    """``package>name`` of a registered class or function, None for others."""
    return _NAMES.get(obj)


def get_registered_object(
    name: str, custom_objects: dict | None = None, module_objects: dict | None = None
) -> Any:
    """The class or function registered (or given in ``custom_objects``) as ``name``.

    >>> import retrograd as rg
    >>> rg.keras.saving.get_registered_object("Nothing>Here") is None
    True
    """
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    scoped = _scoped(name)
    if scoped is not None:
        return scoped
    if name in _REGISTERED:
        return _REGISTERED[name]
    return module_objects[name] if module_objects and name in module_objects else None


def _builtin_tables() -> list[tuple[str, Any]]:
    """Keras' own classes and functions, by public namespace (imported when first needed)."""
    from retrograd.keras import (
        activations,
        constraints,
        initializers,
        layers,
        losses,
        metrics,
        optimizers,
        regularizers,
    )

    return [
        ("keras.layers", (layers,)),
        ("keras.initializers", (initializers,)),
        ("keras.regularizers", (regularizers,)),
        ("keras.constraints", (constraints,)),
        ("keras.losses", (losses,)),
        ("keras.metrics", (metrics,)),
        ("keras.optimizers.schedules", (optimizers.schedules,)),
        ("keras.optimizers", (optimizers,)),
        ("keras.activations", (activations,)),
    ]


def _builtin(name: str, module: str | None = None) -> Any:
    """A public class or function of Keras' own modules named ``name`` (``module`` first)."""
    tables = _builtin_tables()
    if module:
        tables.sort(key=lambda entry: entry[0] != module)
    for _, modules in tables:
        for mod in modules:
            found = getattr(mod, name, None)
            if found is not None and name in getattr(mod, "__all__", ()):
                return found
    from retrograd.keras.src import models

    return getattr(models, name, None) if name in models.__all__ else None


def _builtin_module(obj: Any) -> str | None:
    """The Keras namespace an object of Keras' own is found in, or None for foreign ones."""
    target = obj if inspect.isclass(obj) or inspect.isfunction(obj) else type(obj)
    name = getattr(target, "__name__", None)
    for namespace, modules in _builtin_tables():
        for mod in modules:
            if getattr(mod, name or "", None) is target and name in getattr(mod, "__all__", ()):
                return namespace
    return "keras" if name in ("Model", "Sequential", "Functional") else None


def serialize_keras_object(obj: Any) -> Any:
    """A JSON-ready form of ``obj``: numbers, strings, None, lists and dicts as they are
    (tuples as lists), objects with ``get_config`` as Keras' dict, functions by name.

    >>> import retrograd as rg
    >>> rg.keras.saving.serialize_keras_object(rg.keras.activations.relu)
    'relu'
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if type(obj).__module__ == "numpy" and hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): serialize_keras_object(v) for k, v in obj.items()}
    registered = _NAMES.get(obj if not hasattr(obj, "get_config") else type(obj))
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        module = _builtin_module(obj)
        if registered is None and module is None:
            raise ValueError(
                f"Cannot serialize the function {getattr(obj, '__qualname__', obj)!r}: "
                "retrograd never saves code. Register it with "
                "keras.saving.register_keras_serializable (and pass it by that name when "
                "loading), or use a Layer subclass"
            )
        if module == "keras.activations" and registered is None:
            return obj.__name__
        return {
            "module": module or obj.__module__,
            "class_name": "function",
            "config": obj.__name__,
            "registered_name": registered or obj.__name__,
        }
    if not hasattr(obj, "get_config"):
        raise ValueError(
            f"Cannot serialize {obj!r}: it has no get_config() (and is not a number, string, "
            "list, dict or registered function)"
        )
    cls = type(obj)
    return {
        "module": _builtin_module(obj) or cls.__module__,
        "class_name": cls.__name__,
        "config": serialize_keras_object(obj.get_config()),
        "registered_name": registered,
    }


def config_value(obj: Any) -> Any:
    """What a layer's ``get_config`` shows for an initializer, regularizer or activation:
    its serialized form when it has one, else the object itself (a plain function, which
    saving refuses unless it is registered)."""
    if obj is None or hasattr(obj, "get_config"):
        return serialize_keras_object(obj)
    return obj


def is_serialized_object(value: Any) -> bool:
    """Whether ``value`` has the form :func:`serialize_keras_object` gives an object."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("class_name"), str)
        and "config" in value
        and set(value) <= {"module", "class_name", "config", "registered_name", "build_config"}
    )


def find_class(config: dict, custom_objects: dict | None, what: str = "object") -> Any:
    """The class or function a serialized object names: ``custom_objects`` (by registered
    or class name), the registry, then Keras' own; a clear error otherwise."""
    registered = config.get("registered_name")
    name = config["config"] if config["class_name"] == "function" else config["class_name"]
    for key in (registered, name):
        if key and custom_objects and key in custom_objects:
            return custom_objects[key]
    for key in (registered, name):
        if key and _scoped(key) is not None:
            return _scoped(key)
    if registered and registered in _REGISTERED:
        return _REGISTERED[registered]
    module = config.get("module")
    if module is None or str(module).startswith("keras"):
        found = _builtin(name, module)
        if found is not None:
            return found
    raise ValueError(
        f"Could not locate {what} '{registered or name}' (module {module!r}). Pass it in "
        f"`custom_objects` ({{'{name}': {name}}}) or register it with "
        "keras.saving.register_keras_serializable"
    )


def deserialize_keras_object(
    config: Any, custom_objects: dict | None = None, safe_mode: bool = True, **kwargs: Any
) -> Any:
    """The object a :func:`serialize_keras_object` result describes (classes are rebuilt
    with ``from_config``, or their constructor). ``safe_mode`` refuses Python lambdas in
    Keras; retrograd never loads code, so it has nothing more to refuse.

    >>> import retrograd as rg
    >>> rg.keras.saving.deserialize_keras_object('relu') is rg.keras.activations.relu
    True
    """
    # (Keras' module_objects name objects of its own modules, which _builtin finds)
    kwargs.pop("module_objects", None)
    if isinstance(config, str):
        found = get_registered_object(config, custom_objects) or _builtin(config)
        if found is None:
            raise ValueError(f"Could not interpret serialized object {config!r}")
        return found
    if isinstance(config, list):
        return [deserialize_keras_object(v, custom_objects) for v in config]
    if not is_serialized_object(config):
        return config
    target = find_class(config, custom_objects)
    if config["class_name"] == "function":
        return target
    inner = {
        k: deserialize_keras_object(v, custom_objects) if is_serialized_object(v) else v
        for k, v in (config.get("config") or {}).items()
    }
    return build_from_config(target, inner)


def build_from_config(cls: Any, config: dict) -> Any:
    """``cls.from_config(config)`` (or ``cls(**config)``), with an error that says what to
    do when the class cannot take its own config."""
    config = _accepted(cls, config)
    try:
        if hasattr(cls, "from_config"):
            return cls.from_config(config)
        return cls(**config)
    except TypeError as error:
        raise TypeError(
            f"{cls.__name__} could not be rebuilt from its config {config}: {error}. Define "
            f"`get_config()` on {cls.__name__} returning the arguments of its __init__ (and "
            "`from_config` if they need converting)"
        ) from None


def _accepted(cls: Any, config: dict) -> dict:
    """The base layer's config keys (name, trainable, dtype) that ``cls.__init__`` cannot
    take are left out when the class keeps the base ``get_config``/``from_config`` (a
    subclass whose ``__init__`` takes no such arguments)."""
    if not (inspect.isclass(cls) and issubclass(cls, Layer)):
        return config
    if cls.get_config is not Layer.get_config or cls.from_config.__func__ is not _FROM_CONFIG:
        return config
    parameters = inspect.signature(cls.__init__).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return config
    names = {p.name for p in parameters}
    return {k: v for k, v in config.items() if k in names}


_FROM_CONFIG = Layer.from_config.__func__
