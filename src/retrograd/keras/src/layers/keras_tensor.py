"""The functional API's symbolic values: ``KerasTensor`` (a shape, a dtype and the layer
call that made it) and ``Node`` (one symbolic layer call)."""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes, nest
from retrograd.core.shapes import TensorShape

__all__ = ["KerasTensor", "Node", "is_keras_tensor"]


class KerasTensor:
    """A symbolic tensor of the functional API: a shape (batch dimension None), a dtype, and
    the layer call that produced it (``None`` for an ``Input``).

    >>> import retrograd as rg
    >>> inputs = rg.keras.Input(shape=(3,))
    >>> type(inputs).__name__, inputs.shape.as_list()
    ('KerasTensor', [None, 3])
    """

    def __init__(self, shape: Any, dtype: Any, node: Any = None, index: int = 0, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.node, self.index, self.name = node, index, name

    @property
    def ndim(self) -> int:
        return self.shape.rank

    def __repr__(self) -> str:
        return f"<KerasTensor shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}>"

    def __bool__(self) -> bool:
        raise TypeError(
            "A KerasTensor is symbolic: it has no value. Use Keras layers (or Lambda) to "
            "transform it."
        )


def is_keras_tensor(value: Any) -> bool:
    return isinstance(value, KerasTensor)


class Node:
    """One symbolic layer call: the layer, its arguments (KerasTensors inside) and outputs."""

    def __init__(self, layer: Any, args: tuple, kwargs: dict) -> None:
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.outputs: Any = None

    def inputs(self) -> list[KerasTensor]:
        return [t for t in nest.flatten((self.args, self.kwargs)) if isinstance(t, KerasTensor)]
