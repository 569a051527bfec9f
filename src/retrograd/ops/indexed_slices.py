"""IndexedSlices: a sparse gradient, slices ``values[i]`` of a dense tensor at rows ``indices[i]``.

This is what the gradient of ``gather`` along axis 0 (and so of an embedding lookup) is in
TensorFlow: ``values`` holds one slice per index (an index may repeat: its slices add up),
``indices`` the rows, and ``dense_shape`` the shape of the dense tensor it stands for. It
converts to that dense tensor (the slices summed into their rows) wherever a tensor is
expected: ``convert_to_tensor``, any op, ``add_n``.

>>> import retrograd as rg
>>> s = rg.IndexedSlices(rg.constant([[1.0, 2.0], [3.0, 4.0]]), rg.constant([2, 2]),
...                      rg.constant([3, 2]))
>>> rg.convert_to_tensor(s).numpy().tolist()
[[0.0, 0.0], [0.0, 0.0], [4.0, 6.0]]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from retrograd.core import dtypes, nest
from retrograd.core.annotations import TensorLike
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, constant_value, convert_to_tensor
from retrograd.ops import array_ops, gather_ops, math_ops, scatter_ops

__all__ = [
    "IndexedSlicesValue",
    "IndexedSlices",
    "densify",
    "concat_slices",
    "gather_slices",
    "slices_like",
    "dense_gradients",
]


class IndexedSlices:
    """Slices of a dense tensor of shape ``dense_shape``: row ``indices[i]`` gets ``values[i]``
    (repeated rows add up). Converts to that dense tensor wherever a tensor is expected.

    >>> import retrograd as rg
    >>> s = rg.IndexedSlices(rg.constant([[1.0], [2.0]]), rg.constant([0, 0]), rg.constant([2, 1]))
    >>> s.dtype.name, s.shape.as_list(), (-s).values.numpy().tolist()
    ('float32', [2, 1], [[-1.0], [-2.0]])
    """

    def __init__(
        self, values: TensorLike, indices: TensorLike, dense_shape: TensorLike | None = None
    ) -> None:
        values = convert_to_tensor(values)
        indices = convert_to_tensor(indices)
        if not indices.dtype.is_integer:
            raise TypeError(
                f"IndexedSlices: indices must be int32 or int64, got {indices.dtype.name}"
            )
        if indices.shape.rank is not None and indices.shape.rank != 1:
            raise ValueError(f"IndexedSlices: indices must be a vector, got shape {indices.shape}")
        if dense_shape is not None:
            dense_shape = convert_to_tensor(dense_shape)
            if not dense_shape.dtype.is_integer:
                raise TypeError(
                    f"IndexedSlices: dense_shape must be int32 or int64, got "
                    f"{dense_shape.dtype.name}"
                )
        self._values, self._indices, self._dense_shape = values, indices, dense_shape
        self._static_shape: tuple | None = None  # set when dense_shape is known here

    @property
    def values(self) -> Tensor:
        """The slices, one per index: shape ``[len(indices), *dense_shape[1:]]``."""
        return self._values

    @property
    def indices(self) -> Tensor:
        """The row of the dense tensor each slice belongs to (rows may repeat)."""
        return self._indices

    @property
    def dense_shape(self) -> Tensor | None:
        """The shape of the dense tensor these slices stand for (a 1-D integer tensor)."""
        return self._dense_shape

    @property
    def dtype(self) -> Any:
        """The dtype of ``values``."""
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The static shape of the dense tensor (from ``dense_shape`` when it is known)."""
        if self._static_shape is not None:
            return TensorShape(list(self._static_shape))
        if self._dense_shape is None:
            return TensorShape([None, *self._values.shape.as_list()[1:]])
        try:
            return TensorShape([int(d) for d in constant_value(self._dense_shape)])
        except ValueError:  # in a graph, known only when it runs
            known = self._dense_shape.shape.as_list()
            return TensorShape([None] * known[0] if known and known[0] is not None else None)

    @property
    def name(self) -> str:
        return self._values.name

    @property
    def device(self) -> str:
        return self._values.device

    @property
    def op(self) -> Any:
        return self._values.op

    @property
    def graph(self) -> Any:
        return getattr(self._values, "graph", None)

    def __neg__(self) -> IndexedSlices:
        return slices_like(self, -self._values)

    def _nest_components(self) -> list:
        """Its tensors, for ``nest`` with ``expand_composites`` (TensorFlow's order)."""
        parts = [self.values, self.indices]
        return parts if self.dense_shape is None else [*parts, self.dense_shape]

    def _nest_rebuild(self, components: list) -> IndexedSlices:
        return IndexedSlices(*components)

    def _as_tensor(self) -> Tensor:
        return densify(self)

    def __repr__(self) -> str:
        return (
            f"IndexedSlices(indices={self._indices!r}, values={self._values!r}, "
            f"dense_shape={self._dense_shape!r})"
        )


class IndexedSlicesValue(NamedTuple):
    """What ``Session.run`` gives for a fetched IndexedSlices: its three parts as arrays."""

    values: np.ndarray
    indices: np.ndarray
    dense_shape: np.ndarray | None


def _rows(s: IndexedSlices) -> int:
    """The number of rows of the dense tensor ``s`` stands for (known while building)."""
    if s.dense_shape is None:
        raise ValueError("IndexedSlices: cannot convert to a dense tensor without dense_shape")
    rows = s.shape.as_list()
    if rows is None or rows[0] is None:
        raise ValueError(
            f"IndexedSlices: cannot convert to a dense tensor: its dense_shape "
            f"{s.dense_shape!r} is not known while the graph is built"
        )
    return rows[0]


def densify(s: IndexedSlices) -> Tensor:
    """The dense tensor ``s`` stands for: its slices summed into their rows (differentiably)."""
    rows = _rows(s)
    if s.values.shape.is_fully_defined() and s.indices.shape.is_fully_defined():
        return gather_ops.unsorted_segment_sum(s.values, s.indices, rows)
    # In a graph where the number of slices is known only when it runs: a scatter-add.
    zeros = array_ops.zeros(s.shape.as_list(), s.dtype)
    return scatter_ops.tensor_scatter_nd_add(zeros, array_ops.expand_dims(s.indices, -1), s.values)


def concat_slices(parts: list) -> IndexedSlices:
    """Several IndexedSlices of one dense tensor as one: values and indices concatenated (how
    TensorFlow adds sparse gradients)."""
    if len(parts) == 1:
        return parts[0]
    index_dtype = (
        dtypes.int64 if any(p.indices.dtype == dtypes.int64 for p in parts) else dtypes.int32
    )
    values = array_ops.concat([p.values for p in parts], 0)
    indices = array_ops.concat([math_ops.cast(p.indices, index_dtype) for p in parts], 0)
    joined = IndexedSlices(values, indices, parts[0].dense_shape)
    joined._static_shape = parts[0]._static_shape
    return joined


def slices_like(s: IndexedSlices, values: Any) -> IndexedSlices:
    """IndexedSlices with ``s``'s rows and dense shape, and other ``values``."""
    like = IndexedSlices(values, s.indices, s.dense_shape)
    like._static_shape = s._static_shape
    return like


def gather_slices(values: Tensor, indices: Tensor, shape: tuple) -> IndexedSlices:
    """The IndexedSlices of a dense tensor of static ``shape``: ``values`` (one slice per
    index) at rows ``indices``; ``dense_shape`` is an int32 constant, as in TensorFlow."""
    dense_shape = convert_to_tensor(list(shape), dtype=dtypes.int32)
    s = IndexedSlices(values, indices, dense_shape)
    s._static_shape = tuple(shape)
    return s


def dense_gradients(grads: Any) -> Any:
    """Gradients (one, or a nested structure) with each IndexedSlices made dense (None and
    tensors kept): for callers that treat gradients as tensors."""
    return nest.map_structure(_dense_leaf, grads)


def _dense_leaf(g: Any) -> Any:
    return densify(g) if type(g) is IndexedSlices else g
