"""Keras 3's top-level helpers: ``keras.Function`` (a graph of operations between
KerasTensors, without the Model machinery), ``InputSpec``, ``name_scope``, ``device``,
``version``, and the scopes ``SymbolicScope`` and ``StatelessScope`` (variables read from a
mapping, assignments collected instead of applied).

>>> import retrograd as rg
>>> x = rg.keras.Input((2,))
>>> f = rg.keras.Function(x, rg.keras.ops.square(x) + 1.0)
>>> f(rg.constant([[1.0, 2.0]])).numpy().tolist()
[[2.0, 5.0]]
"""

from __future__ import annotations

import threading
from typing import Any

from retrograd.core import nest
from retrograd.core.tensor import Reference
from retrograd.graph import graph as graph_module
from retrograd.keras.src.keras_tensor import KerasTensor
from retrograd.keras.src.ops.operation import Operation

__all__ = [
    "Function",
    "InputSpec",
    "name_scope",
    "device",
    "version",
    "SymbolicScope",
    "StatelessScope",
    "in_stateless_scope",
    "get_stateless_scope",
]

_STATE = threading.local()


class Function(Operation):
    """The computation between ``inputs`` and ``outputs`` (KerasTensors), callable on
    tensors (or on KerasTensors, as one operation).

    >>> import retrograd as rg
    >>> a, b = rg.keras.Input((1,)), rg.keras.Input((1,))
    >>> rg.keras.Function([a, b], a * b)([rg.constant([[2.0]]), rg.constant([[3.0]])]).numpy()
    array([[6.]], dtype=float32)
    """

    def __init__(self, inputs: Any, outputs: Any, name: Any = None) -> None:
        super().__init__(name=name)
        from retrograd.keras.src.models import _topological_nodes

        self._inputs_struct, self._outputs_struct = inputs, outputs
        self.inputs, self.outputs = nest.flatten(inputs), nest.flatten(outputs)
        for t in self.inputs + self.outputs:
            if not isinstance(t, KerasTensor):
                raise ValueError(f"Function: inputs and outputs must be KerasTensors, got {t!r}")
        self._nodes = _topological_nodes(self.outputs)

    def call(self, inputs: Any) -> Any:
        flat = nest.flatten(inputs) if len(self.inputs) > 1 else [inputs]
        if len(flat) != len(self.inputs):
            raise ValueError(
                f"Function {self.name} expects {len(self.inputs)} input(s), got {len(flat)}"
            )
        values = {id(t): v for t, v in zip(self.inputs, flat)}
        for node in self._nodes:
            args, kwargs = nest.map_structure(
                lambda t: values[id(t)] if isinstance(t, KerasTensor) else t,
                (node.args, node.kwargs),
            )
            result = node.layer(*args, **kwargs)
            for symbolic, value in zip(nest.flatten(node.outputs), nest.flatten(result)):
                values[id(symbolic)] = value
        return nest.map_structure(lambda t: values[id(t)], self._outputs_struct)


class InputSpec:
    """What a layer accepts: ``dtype``, ``shape`` (``None`` for any size), ``ndim`` or a
    range of ranks, and sizes of given ``axes``.

    >>> import retrograd as rg
    >>> rg.keras.InputSpec(ndim=2, axes={-1: 3})
    InputSpec(ndim=2, axes={-1: 3})
    """

    def __init__(
        self,
        dtype: Any = None,
        shape: Any = None,
        ndim: Any = None,
        max_ndim: Any = None,
        min_ndim: Any = None,
        axes: Any = None,
        allow_last_axis_squeeze: bool = False,
        name: Any = None,
        optional: bool = False,
    ) -> None:
        self.dtype, self.name, self.optional = dtype, name, optional
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            self.axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError) as e:
            raise TypeError(
                f"Argument `axes` must be a dict with integer keys. Received: axes={axes}"
            ) from e
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            top = (self.ndim if self.ndim is not None else self.max_ndim) - 1
            if max(self.axes) > top:
                raise ValueError(
                    f"Axis {max(self.axes)} is greater than the maximum allowed value: {top}"
                )

    def __repr__(self) -> str:
        parts = [
            f"{k}={v}"
            for k, v in (
                ("dtype", self.dtype),
                ("shape", self.shape),
                ("ndim", self.ndim),
                ("max_ndim", self.max_ndim),
                ("min_ndim", self.min_ndim),
                ("axes", self.axes),
            )
            if v
        ]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self) -> dict:
        return {
            "dtype": self.dtype,
            "shape": self.shape,
            "ndim": self.ndim,
            "max_ndim": self.max_ndim,
            "min_ndim": self.min_ndim,
            "axes": self.axes,
            "optional": self.optional,
        }

    @classmethod
    def from_config(cls, config: dict) -> InputSpec:
        return cls(**config)


class name_scope:  # noqa: N801  (Keras' name)
    """Names the variables created inside: their ``path`` starts with ``name/``.

    >>> import retrograd as rg
    >>> with rg.keras.name_scope("block"):
    ...     v = rg.keras.Variable(1.0, name="w")
    >>> v.path
    'block/w'
    """

    def __init__(self, name: str, **kwargs: Any) -> None:
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name}"
            )
        self.name = name
        self._manager: Any = None

    def __enter__(self) -> name_scope:
        self._manager = graph_module.name_scope(self.name)
        self._manager.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._manager.__exit__(*exc)


class _Device:
    """The context ``keras.device`` returns: computation stays on this machine's CPU (the
    only device retrograd has); the name is checked."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> _Device:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def device(device_name: str) -> _Device:
    """A context naming the device to compute on ('cpu', 'gpu:0', ...); retrograd computes
    on the CPU, as TensorFlow does where the named device is absent.

    >>> import retrograd as rg
    >>> with rg.keras.device("cpu"):
    ...     float(rg.keras.ops.add(1.0, 2.0))
    3.0
    """
    if not isinstance(device_name, str):
        raise ValueError(f"Invalid value for argument `device_name`. Received: {device_name}")
    return _Device(device_name)


def version() -> str:
    """The version of Keras whose API this implements.

    >>> import retrograd as rg
    >>> rg.keras.version().split(".")[0]
    '3'
    """
    return "3.15.1"


class SymbolicScope:
    """A scope in which computations are symbolic (``in_symbolic_scope()`` is True).

    >>> import retrograd as rg
    >>> with rg.keras.SymbolicScope() as scope:
    ...     type(scope).__name__
    'SymbolicScope'
    """

    def __enter__(self) -> SymbolicScope:
        self._outer = getattr(_STATE, "symbolic", None)
        _STATE.symbolic = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _STATE.symbolic = self._outer


class StatelessScope:
    """Inside, Keras variables read the values of ``state_mapping`` (pairs of variable and
    value) and assignments are collected (``get_current_value``) instead of applied.

    >>> import retrograd as rg
    >>> v = rg.keras.Variable(1.0)
    >>> with rg.keras.StatelessScope(state_mapping=[(v, 5.0)]) as scope:
    ...     before = float(v.value)
    ...     _ = v.assign(7.0)
    ...     after = float(scope.get_current_value(v))
    >>> before, after, float(v.value)
    (5.0, 7.0, 1.0)
    """

    def __init__(
        self, state_mapping: Any = None, collect_losses: bool = False, initialize_variables=True
    ) -> None:
        from retrograd.keras.src.ops import tensors

        self.collect_losses, self.initialize_variables = collect_losses, initialize_variables
        self.losses: list[Any] = []
        self._values: dict[Reference, Any] = {}
        for variable, value in state_mapping or ():
            self._values[Reference(variable)] = tensors.convert(value, variable.dtype)

    def add_loss(self, loss: Any) -> None:
        self.losses.append(loss)

    def add_update(self, update: Any) -> None:
        variable, value = update
        self._values[Reference(variable)] = value

    def get_current_value(self, variable: Any) -> Any:
        return self._values.get(Reference(variable))

    def __enter__(self) -> StatelessScope:
        self._outer = getattr(_STATE, "stateless", None)
        _STATE.stateless = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _STATE.stateless = self._outer


def get_stateless_scope() -> StatelessScope | None:
    """The innermost StatelessScope entered on this thread, or None."""
    return getattr(_STATE, "stateless", None)


def in_stateless_scope() -> bool:
    """Whether a StatelessScope is entered on this thread.

    >>> from retrograd.keras.src.scopes import in_stateless_scope
    >>> in_stateless_scope()
    False
    """
    return get_stateless_scope() is not None
