"""Graph tensors and operations: what a graph holds before it runs.

A ``SymbolicTensor`` stands where an eager tensor stands, its ``_value`` a ``TensorMeta``
(shape with unknown dimensions, dtype), so op functions that read ``x._value.shape`` work
on both; it refuses, with a message saying what to use instead, every use that needs a
value (``bool``, ``len``, iteration, NumPy). A ``GraphOperation`` is an eager record plus
its graph, op definition and creation index.

>>> import numpy as np
>>> meta = TensorMeta((None, 3), np.float32)
>>> meta.shape, meta.size
((None, 3), None)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from retrograd.core.dimensions import dimension_value
from retrograd.core.execute import Operation
from retrograd.core.shapes import TensorShape, shape_text
from retrograd.core.tensor import Tensor, next_id
from retrograd.ops import operators

if TYPE_CHECKING:
    from retrograd.graph.graph import Graph

__all__ = ["TensorMeta", "SymbolicTensor", "GraphOperation", "creation_order"]


class TensorMeta:
    """What is known of a graph tensor before it runs: its shape (``None`` for an unknown
    dimension, or for an unknown rank) and its NumPy dtype.

    It stands where an eager tensor holds its array, so op functions that read
    ``x._value.shape``, ``.dtype`` or ``.ndim`` work on graph tensors unchanged.
    """

    __slots__ = ("shape", "dtype", "_tensor_name")

    def __init__(self, shape: tuple | None, dtype: np.dtype) -> None:
        if shape is not None:  # (ints and None: a TensorFlow 1 shape's items are Dimensions)
            shape = tuple(None if d is None else int(d) for d in map(dimension_value, shape))
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self._tensor_name = "a graph tensor"

    @property
    def ndim(self) -> int:
        if self.shape is None:
            raise ValueError(
                f"The rank of {self._tensor_name} is unknown; this op needs it. Give the "
                f"placeholder a shape (None marks an unknown dimension)."
            )
        return len(self.shape)

    @property
    def size(self) -> int | None:
        if self.shape is None or None in self.shape:
            return None
        return math.prod(self.shape)

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype})"


class SymbolicTensor(Tensor):
    """A graph tensor: the output ``value_index`` of ``op``; its value exists only when run."""

    __slots__ = ("op", "value_index")

    def __init__(self, meta: TensorMeta, op: GraphOperation, value_index: int) -> None:
        self._value = meta
        self._id = next_id()
        self.op = op
        self.value_index = value_index
        meta._tensor_name = f"'{self.name}'"

    @property
    def graph(self) -> Graph:
        return self.op.graph

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def device(self) -> str:
        """The device its op was asked to run on (``tf.device``), "" when none."""
        return self.op.device

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    def set_shape(self, shape: Any) -> None:
        """Narrows the static shape with ``shape`` (None: any size), as TensorFlow's: the
        known dimensions of both are kept; incompatible shapes raise ValueError.

        >>> import retrograd as rg
        >>> with rg.Graph().as_default():
        ...     x = rg.compat.v1.placeholder(rg.float32, [None, 3])
        ...     x.set_shape([4, None])
        >>> x.shape
        TensorShape([4, 3])
        """
        given = TensorShape(shape)
        current = TensorShape(self._value.shape)
        if not current.is_compatible_with(given):  # (TensorFlow's words)
            if current.rank != given.rank:
                raise ValueError(
                    f"Shapes must be equal rank, but are {current.rank} and {given.rank}"
                )
            mine, theirs = current.as_list(), given.as_list()
            axis = next(i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b)
            text = lambda dims: "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"  # noqa: E731
            raise ValueError(
                f"Dimension {axis} in both shapes must be equal, but are {mine[axis]} and "
                f"{theirs[axis]}. Shapes are {text(mine)} and {text(theirs)}."
            )
        merged = current.merge_with(given)
        if merged.rank is not None:
            self._value.shape = tuple(merged.as_list())

    def numpy(self):
        raise AttributeError(
            f"Symbolic tensor {self.name} has no value until it runs: use Session.run or "
            f"Tensor.eval(session=...), or run eagerly"
        )

    def eval(self, feed_dict: dict | None = None, session: Any = None) -> Any:
        """Runs the graph to compute this tensor (TF1): ``session.run(self, feed_dict)``."""
        from retrograd.graph.session import get_default_session

        session = session or get_default_session()
        if session is None:
            raise ValueError(
                "Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                "`with compat.v1.Session():` or pass session=sess."
            )
        return session.run(self, feed_dict)

    def _refuse(self, what: str, instead: str) -> TypeError:
        return TypeError(
            f"Using a symbolic tensor ({self.name}) {what} is not allowed: its value is not "
            f"known while the graph is built. {instead}"
        )

    def __bool__(self) -> bool:
        raise self._refuse("as a Python bool", "Use retrograd.cond for a conditional, or "
                           "retrograd.while_loop for a loop.")  # fmt: skip

    def __iter__(self):
        raise self._refuse("as a Python iterable", "Use retrograd.unstack, or "
                           "retrograd.while_loop to loop over it.")  # fmt: skip

    def __len__(self) -> int:
        raise self._refuse("with len()", "Use x.shape for shape information.")

    def __index__(self) -> int:
        raise self._refuse("as a Python index", "Use it as a tensor argument instead.")

    def __float__(self) -> float:
        raise self._refuse("as a Python float", "Evaluate it with Session.run first.")

    def __int__(self) -> int:
        raise self._refuse("as a Python int", "Evaluate it with Session.run first.")

    def __array__(self, dtype: Any = None, copy: Any = None):
        raise self._refuse("as a NumPy array", "Evaluate it with Session.run first.")

    def __format__(self, format_spec: str) -> str:
        return format(repr(self), format_spec)

    def __repr__(self) -> str:
        shape = shape_text(self._value.shape)
        return f"<retrograd.Tensor '{self.name}' shape={shape} dtype={self.dtype.name}>"

    def __str__(self) -> str:  # (TensorFlow's: what print(x) shows of a graph tensor)
        shape = shape_text(self._value.shape)
        return f'Tensor("{self.name}", shape={shape}, dtype={self.dtype.name})'

    def __reduce__(self):
        raise TypeError(f"Symbolic tensor {self.name} cannot be pickled")


# Graph tensors' operators name their ops as TensorFlow does (``x + y`` is ``add:0``).
operators.install(SymbolicTensor, named=True)


class GraphOperation(Operation):
    """An operation in a graph (``tf.Operation``): an eager record's interface plus
    ``graph``, ``op_def`` and the ``device`` it was asked to run on.

    >>> import retrograd as tf
    >>> with tf.Graph().as_default():
    ...     op = tf.constant(1.0, name="one").op
    >>> isinstance(op, tf.Operation), op.name, op.type
    (True, 'one', 'Const')
    """

    __slots__ = ("graph", "_index", "gradient_override", "control_inputs", "device")

    # The gradient name a gradient_override_map gave it: tf.gradients uses that gradient,
    # GradientTape ignores it (as in TensorFlow).
    gradient_override: str | None

    def run(self, feed_dict: dict | None = None, session: Any = None) -> None:
        """Runs this operation (and what it needs) in ``session`` (TF1's ``Operation.run``)."""
        from retrograd.graph.session import get_default_session

        (session or get_default_session()).run(self, feed_dict)

    def values(self) -> tuple:
        return self.outputs

    def colocation_groups(self) -> list:
        """The ops this one is placed with: itself (``[b"loc:@<name>"]``), as TensorFlow's."""
        return [f"loc:@{self.name}".encode()]

    def __repr__(self) -> str:
        return f"<retrograd.Operation '{self.name}' type={self.type}>"


def creation_order(op: GraphOperation) -> int:
    """Orders graph operations by creation, across graphs: an op comes after its inputs'."""
    return op._index
