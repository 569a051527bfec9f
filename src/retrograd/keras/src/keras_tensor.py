"""``KerasTensor``: the symbolic tensor of Keras' functional API — a shape (a tuple, the
batch dimension ``None``), a dtype name, and the layer or operation call (``Node``) that
produced it. Python operators on KerasTensors (``a * a + a``) and ``keras.ops`` calls on them
add operations to the functional graph, as in Keras 3; TensorFlow functions refuse them.

>>> import retrograd as rg
>>> inputs = rg.keras.Input(shape=(3,))
>>> (inputs * 2.0).shape, (inputs * 2.0).dtype
((None, 3), 'float32')
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes, nest
from retrograd.core.shapes import TensorShape
from retrograd.keras.src import backend

__all__ = ["KerasTensor", "Node", "is_keras_tensor", "any_symbolic", "TF_FUNCTION_MESSAGE"]

TF_FUNCTION_MESSAGE = (
    "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
    "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
    "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
    "operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing "
    "something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n```\n\nWhat you "
    "should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n    def "
    "call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n"
)
_NO_VALUE = (
    "A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have "
    "any actual numerical value. You cannot convert it to {}."
)


class _Ops:
    """The keras.ops modules the operators use (imported when first used: they import this
    module)."""

    @property
    def numpy(self) -> Any:
        from retrograd.keras.src.ops import numpy

        return numpy

    @property
    def core(self) -> Any:
        from retrograd.keras.src.ops import core

        return core


_OPS = _Ops()


def _ops() -> _Ops:
    return _OPS


class KerasTensor:
    """A symbolic tensor of the functional API (see the module docstring).

    >>> import retrograd as rg
    >>> rg.keras.KerasTensor((None, 2), name="x")
    <KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False, name=x>
    """

    def __init__(
        self,
        shape: Any,
        dtype: Any = "float32",
        sparse: bool = False,
        ragged: bool = False,
        record_history: bool = True,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        # (node and index: the layer call that made it, when one did)
        node, index = kwargs.pop("node", None), kwargs.pop("index", 0)
        ragged_rank = kwargs.pop("ragged_rank", None)
        self.row_splits_dtype = kwargs.pop("row_splits_dtype", None)
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments: {', '.join(kwargs.keys())}")
        if sparse and ragged:
            raise ValueError(
                "KerasTensor cannot have `sparse=True` and `ragged=True` at the same time."
            )
        self.ragged_rank = None if ragged_rank is None else int(ragged_rank)
        self._shape = tuple(TensorShape(shape).as_list())
        self._dtype = dtypes.as_dtype(dtype).name
        self.sparse, self.ragged = bool(sparse), bool(ragged)
        self.node, self.index = node, index
        self.name = name or backend.unique_name("keras_tensor")

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def reshape(self, newshape: Any) -> KerasTensor:
        return _ops().numpy.reshape(self, newshape)

    def squeeze(self, axis: Any = None) -> KerasTensor:
        return _ops().numpy.squeeze(self, axis)

    def __repr__(self) -> str:
        return (
            f"<KerasTensor shape={self._shape}, dtype={self._dtype}, sparse={self.sparse}, "
            f"ragged={self.ragged}, name={self.name}>"
        )

    # -- no value --------------------------------------------------------------------------
    def _as_tensor(self) -> Any:  # what TensorFlow functions convert their inputs with
        raise ValueError(TF_FUNCTION_MESSAGE)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise ValueError(_NO_VALUE.format("a NumPy array"))

    def __int__(self) -> int:
        raise ValueError(_NO_VALUE.format("an int"))

    def __float__(self) -> float:
        raise ValueError(_NO_VALUE.format("a float"))

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __iter__(self) -> Any:
        raise TypeError("Iterating over a symbolic KerasTensor is not supported.")

    # -- operators: keras.ops on the functional graph ------------------------------------
    def __add__(self, other):
        return _ops().numpy.add(self, other)

    def __radd__(self, other):
        return _ops().numpy.add(other, self)

    def __sub__(self, other):
        return _ops().numpy.subtract(self, other)

    def __rsub__(self, other):
        return _ops().numpy.subtract(other, self)

    def __mul__(self, other):
        return _ops().numpy.multiply(self, other)

    def __rmul__(self, other):
        return _ops().numpy.multiply(other, self)

    def __matmul__(self, other):
        return _ops().numpy.matmul(self, other)

    def __rmatmul__(self, other):
        return _ops().numpy.matmul(other, self)

    def __truediv__(self, other):
        return _ops().numpy.true_divide(self, other)

    def __rtruediv__(self, other):
        return _ops().numpy.true_divide(other, self)

    def __floordiv__(self, other):
        return _ops().numpy.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops().numpy.floor_divide(other, self)

    def __mod__(self, other):
        return _ops().numpy.mod(self, other)

    def __rmod__(self, other):
        return _ops().numpy.mod(other, self)

    def __pow__(self, other):
        return _ops().numpy.power(self, other)

    def __rpow__(self, other):
        return _ops().numpy.power(other, self)

    def __neg__(self):
        return _ops().numpy.negative(self)

    def __abs__(self):
        return _ops().numpy.absolute(self)

    def __lt__(self, other):
        return _ops().numpy.less(self, other)

    def __le__(self, other):
        return _ops().numpy.less_equal(self, other)

    def __gt__(self, other):
        return _ops().numpy.greater(self, other)

    def __ge__(self, other):
        return _ops().numpy.greater_equal(self, other)

    def __ne__(self, other):
        return _ops().numpy.not_equal(self, other)

    __hash__ = object.__hash__

    def __and__(self, other):
        return _ops().numpy.logical_and(self, other)

    def __rand__(self, other):
        return _ops().numpy.logical_and(other, self)

    def __or__(self, other):
        return _ops().numpy.logical_or(self, other)

    def __ror__(self, other):
        return _ops().numpy.logical_or(other, self)

    def __xor__(self, other):
        return _ops().numpy.logical_xor(self, other)

    def __rxor__(self, other):
        return _ops().numpy.logical_xor(other, self)

    def __invert__(self):
        return _ops().numpy.logical_not(self)

    def __getitem__(self, key):
        return _ops().core.get_item(self, key)

    def __round__(self, ndigits=None):
        return _ops().numpy.round(self, ndigits or 0)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``value`` is a symbolic KerasTensor (from ``keras.Input`` and layer calls).

    >>> import retrograd as rg
    >>> rg.keras.utils.is_keras_tensor(rg.keras.Input((2,))), rg.keras.utils.is_keras_tensor(1)
    (True, False)
    """
    return isinstance(x, KerasTensor)


def any_symbolic(*structures: Any) -> bool:
    """Whether any leaf of ``structures`` is a KerasTensor."""
    for structure in structures:
        if isinstance(structure, KerasTensor):
            return True
        if nest.is_nested(structure):
            for leaf in nest.flatten(structure):
                if isinstance(leaf, KerasTensor):
                    return True
    return False


class Node:
    """One symbolic call: the layer or operation, its arguments (KerasTensors inside) and
    outputs."""

    def __init__(self, layer: Any, args: tuple, kwargs: dict) -> None:
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.outputs: Any = None

    def inputs(self) -> list[KerasTensor]:
        return [t for t in nest.flatten((self.args, self.kwargs)) if isinstance(t, KerasTensor)]
