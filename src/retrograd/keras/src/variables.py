"""``keras.Variable``: the variables Keras layers and optimizers make. They are retrograd
variables (tapes watch them, optimizers update them) with Keras 3's face: ``name`` is the
bare name (``'kernel'``, no ``':0'``), ``path`` the layer's path to it
(``'dense/kernel'``), ``value`` a property (the current value as a tensor), and a
``constraint`` applied after each optimizer update.

>>> import retrograd as rg
>>> v = rg.keras.Variable(1.0, name="scale")
>>> v.name, v.path, float(v.value)
('scale', 'scale', 1.0)
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable as _BackendVariable
from retrograd.graph import graph as graph_module
from retrograd.keras.src import backend

__all__ = ["Variable", "scope_path", "AutocastScope", "LayerScope", "weight_path"]

_STATE = threading.local()  # the dtype Keras variables are read in (a layer's compute dtype)


class AutocastScope:
    """Inside, Keras variables made with ``autocast=True`` read as ``dtype`` (a mixed
    precision layer's compute dtype) when they are floats of another dtype."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype).name

    def __enter__(self) -> AutocastScope:
        self._outer = getattr(_STATE, "dtype", None)
        _STATE.dtype = self.dtype
        return self

    def __exit__(self, *exc: Any) -> None:
        _STATE.dtype = self._outer


def scope_path() -> str:
    """The eager name scope now entered (``'model/dense/'``), where Keras' paths start."""
    return context.eager_scope if context.graph is None else ""


class LayerScope:
    """A layer's name scope: enters ``name_scope(layer.name)`` unless the innermost scope
    entered is the layer's own already (Keras 3's rule: a sublayer built during its parent's
    call or build gets ``parent/child/`` paths; a layer re-entering itself adds nothing)."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer

    def __enter__(self) -> str:
        scopes = backend.layer_calls.scopes
        if scopes and scopes[-1][0] is self.layer:
            scopes.append((self.layer, None))
            return context.eager_scope
        manager = graph_module.name_scope(self.layer.name)
        scope = manager.__enter__()
        scopes.append((self.layer, manager))
        return scope

    def __exit__(self, *exc: Any) -> Any:
        _, manager = backend.layer_calls.scopes.pop()
        return None if manager is None else manager.__exit__(*exc)


def weight_path(layer: Any, key: str) -> str:
    """Keras 3's path of ``layer``'s weight named ``key``: in the layer's scope, entered
    unless it is the innermost already (a weight made in ``__init__`` is ``layer/key`` too).

    >>> import retrograd as rg
    >>> rg.keras.layers.Dense(2, name="d").add_weight(shape=(), name="w").path
    'd/w'
    """
    scopes = backend.layer_calls.scopes
    inside = bool(scopes) and scopes[-1][0] is layer
    return scope_path() + ("" if inside else f"{layer.name}/") + key


class Variable(_BackendVariable):
    """A Keras variable (see the module docstring): ``initializer`` is a value, or an
    initializer (a name or a callable of ``shape, dtype``) with ``shape``.

    >>> import retrograd as rg
    >>> v = rg.keras.Variable("ones", shape=(2,), name="w")
    >>> v
    <Variable path=w, shape=(2,), dtype=float32, value=[1. 1.]>
    """

    def __init__(
        self,
        initializer: Any,
        shape: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        autocast: bool = True,
        aggregation: str = "none",
        synchronization: str = "auto",
        name: str | None = None,
        layout: Any = None,
        **kwargs: Any,
    ) -> None:
        constraint = kwargs.pop("constraint", None)
        path = kwargs.pop("path", None)
        if kwargs:
            raise TypeError(f"Variable: unexpected keyword arguments {sorted(kwargs)}")
        name = name or "variable"
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name}"
            )
        dtype = dtypes.as_dtype(dtype or _default_dtype(initializer))
        if callable(initializer) or isinstance(initializer, str):
            if shape is None:
                raise ValueError(
                    "When creating a Variable from an initializer, the `shape` argument "
                    f"should be specified. Received: initializer={initializer} and shape={shape}"
                )
            from retrograd.keras.src import initializers

            value = initializers.get(initializer)(tuple(shape), dtype=dtype)
        else:
            value = initializer
            if isinstance(value, (Tensor, _BackendVariable)):
                value = value.numpy()
            value = np.asarray(value).astype(dtype.as_numpy_dtype)
            if shape is not None and tuple(value.shape) != tuple(shape):
                raise ValueError(
                    "Initial value has shape "
                    f"{tuple(value.shape)}, but the given `shape` is {tuple(shape)}"
                )
        self._keras_path = path if path is not None else scope_path() + name
        with graph_module.name_scope(""):  # (Keras 3 names a variable by itself)
            super().__init__(value, trainable=trainable, name=name, dtype=dtype)
        self._keras_name = name
        self.autocast = bool(autocast)
        self.aggregation, self.synchronization = aggregation, synchronization
        self.constraint = constraint

    @property
    def name(self) -> str:
        return self._keras_name

    @property
    def trainable(self) -> bool:
        """Whether optimizers train it; settable, as Keras 3's (LoRA freezes a kernel)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)

    @property
    def path(self) -> str:
        return self._keras_path

    def read_value(self) -> Tensor:
        """The current value (cast to the compute dtype inside a mixed precision layer; the
        scope's value inside a StatelessScope)."""
        scope = _stateless_scope()
        found = None if scope is None else scope.get_current_value(self)
        value = super().read_value() if found is None else found
        dtype = getattr(_STATE, "dtype", None)
        if dtype and self.autocast and value.dtype.is_floating and value.dtype.name != dtype:
            from retrograd.ops import math_ops

            return math_ops.cast(value, dtype)
        return value

    def _as_tensor(self) -> Tensor:
        return self.read_value()

    def assign(self, value: Any, use_locking: Any = False, name: Any = None, read_value=True):
        scope = _stateless_scope()
        if scope is None:
            return super().assign(value, use_locking, name, read_value)
        from retrograd.ops import math_ops

        new = math_ops.cast(convert_to_tensor(value), self.dtype)
        scope.add_update((self, new))  # (collected, not applied, as Keras does)
        return new

    def assign_add(self, delta: Any, use_locking: Any = False, name: Any = None, read_value=True):
        if _stateless_scope() is None:
            return super().assign_add(delta, use_locking, name, read_value)
        return self.assign(self.read_value() + convert_to_tensor(delta, dtype=self.dtype))

    def assign_sub(self, delta: Any, use_locking: Any = False, name: Any = None, read_value=True):
        if _stateless_scope() is None:
            return super().assign_sub(delta, use_locking, name, read_value)
        return self.assign(self.read_value() - convert_to_tensor(delta, dtype=self.dtype))

    @property
    def value(self) -> Tensor:
        """The current value, as a tensor (a property, as in Keras 3)."""
        return self.read_value()

    def __repr__(self) -> str:
        text = str(self.numpy())
        return (
            f"<Variable path={self.path}, shape={tuple(self._value.shape)}, "
            f"dtype={self.dtype.name}, value={text}>"
        )

    __str__ = __repr__


def _stateless_scope() -> Any:
    from retrograd.keras.src import scopes

    return scopes.get_stateless_scope()


def _default_dtype(initializer: Any) -> Any:
    if callable(initializer) or isinstance(initializer, str):
        return backend.floatx()
    if isinstance(initializer, (Tensor, _BackendVariable, np.ndarray, np.generic)):
        return initializer.dtype
    array = np.asarray(initializer)
    if array.dtype.kind == "f":
        return backend.floatx()
    if array.dtype.kind in "iu":
        return "int32"
    return array.dtype
