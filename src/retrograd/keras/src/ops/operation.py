"""``keras.Operation``: a computation that runs eagerly on tensors and, called on
KerasTensors, adds a node to the functional graph. Every ``keras.ops`` function is one
(``ops.sin`` on a KerasTensor makes an operation named ``sin`` of class ``Sin``), and
``keras.Layer`` calls build the same nodes.

The shapes of symbolic outputs are found by running the computation on zeros, twice, with
each unknown dimension set to 2 and then to 3: an output dimension that changes between the
two runs depends on an unknown one and is unknown (``None``) too.

>>> import retrograd as rg
>>> x = rg.keras.Input((3,))
>>> y = rg.keras.ops.sum(x * x, axis=-1)
>>> y.shape, type(y.node.layer).__name__
((None,), 'Sum')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.shapes import TensorShape
from retrograd.keras.src import backend
from retrograd.keras.src.keras_tensor import KerasTensor, Node, any_symbolic

__all__ = ["Operation", "symbolic_call", "output_spec", "any_symbolic"]


class Operation:
    """Base class of Keras operations: ``call`` computes on tensors; calling the operation
    on KerasTensors returns KerasTensors and records the call in the functional graph.

    >>> import retrograd as rg
    >>> class Double(rg.keras.Operation):
    ...     def call(self, x):
    ...         return x * 2.0
    >>> Double()(rg.constant([1.0])).numpy().tolist(), Double()(rg.keras.Input((2,))).shape
    ([2.0], (None, 2))
    """

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = backend.unique_name(backend.snake_case(type(self).__name__))
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name} (of type {type(name)})"
            )
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}: an Operation must define `call`")

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        """KerasTensors (without history) shaped like the outputs of ``call``."""
        return output_spec(self.call, args, kwargs)

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        """The outputs of this operation on KerasTensors, recorded as a node of the graph."""
        specs = self.compute_output_spec(*args, **kwargs)
        node = Node(self, args, kwargs)
        leaves = nest.flatten(specs)
        outputs = [KerasTensor(s.shape, s.dtype, node=node, index=i) for i, s in enumerate(leaves)]
        node.outputs = nest.pack_sequence_as(specs, outputs)
        self._last_output_shape = outputs[0].shape if outputs else None  # (for summary())
        return node.outputs

    def get_config(self) -> dict:
        return {"name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> Operation:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<Operation name={self.name}>"


class _FunctionOperation(Operation):
    """A ``keras.ops`` function as an operation of the graph (its class is named after the
    function: ``Sin``, ``GetItem``, ...)."""

    def __init__(self, fn: Callable, name: str | None = None) -> None:
        self._fn = fn
        super().__init__(name)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)


_CLASSES: dict[str, type] = {}


def _class_for(fn: Callable) -> type:
    name = "".join(part[:1].upper() + part[1:] for part in fn.__name__.split("_"))
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = type(name, (_FunctionOperation,), {"__module__": __name__})
    return cls


def symbolic_call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on KerasTensors: a node of the functional graph.

    >>> import retrograd as rg
    >>> from retrograd.keras.src.ops.operation import symbolic_call
    >>> symbolic_call(rg.keras.ops.square, rg.keras.Input((2,))).shape
    (None, 2)
    """
    return _class_for(fn)(fn)(*args, **kwargs)


def _concrete(structure: Any, unknown: int) -> Any:
    def value(t: Any) -> Any:
        if not isinstance(t, KerasTensor):
            return t
        from retrograd.keras.src.ops import tensors

        shape = [unknown if d is None else d for d in t.shape]
        return tensors.zeros_of(shape, t.dtype)

    return nest.map_structure(value, structure)


def output_spec(fn: Callable, args: tuple, kwargs: dict) -> Any:
    """KerasTensors (without history) for the outputs of ``fn`` on ``args``/``kwargs``
    holding KerasTensors: ``fn`` runs on zeros with unknown dimensions 2, then 3."""
    runs = []
    outer, backend.layer_calls.symbolic = backend.layer_calls.symbolic, True
    try:
        with np.errstate(all="ignore"):
            for unknown in (2, 3):
                c_args, c_kwargs = _concrete((args, kwargs), unknown)
                runs.append(fn(*c_args, **c_kwargs))
    finally:
        backend.layer_calls.symbolic = outer
    first, second = (nest.flatten(r) for r in runs)
    specs = []
    for a, b in zip(first, second):
        shape_a, shape_b = _shape(a), _shape(b)
        if len(shape_a) != len(shape_b):
            raise ValueError(
                f"{getattr(fn, '__name__', fn)}: the rank of the output depends on an unknown "
                "input dimension"
            )
        shape = tuple(None if x != y else x for x, y in zip(shape_a, shape_b))
        specs.append(KerasTensor(shape, a.dtype, record_history=False, name="spec"))
    return nest.pack_sequence_as(runs[0], specs)


def _shape(value: Any) -> tuple:
    return tuple(TensorShape(value.shape).as_list())
