"""The type specs of composite values (``TensorArraySpec``, ``IndexedSlicesSpec``,
``NoneTensorSpec``, ``OptionalSpec``) and ``type_spec_from_value``; and ``get_static_value``
(what a tensor's value is while a graph is built, when it is known).

>>> import retrograd as tf
>>> tf.type_spec_from_value(tf.constant([1.0]))
TensorSpec(shape=(1,), dtype=tf.float32, name=None)
>>> tf.TensorArraySpec([2], tf.float32).is_compatible_with(tf.TensorArraySpec([None], tf.float32))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import backends, dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.graph.signatures import TensorSpec, TypeSpec
from retrograd.ops.indexed_slices import IndexedSlices
from retrograd.ops.tensor_array import TensorArray

__all__ = [
    "IndexedSlicesSpec", "NoneTensorSpec", "OptionalSpec", "TensorArraySpec",
    "get_static_value", "type_spec_from_value",
]  # fmt: skip


def _shape_key(shape: TensorShape) -> tuple | None:
    return None if shape.rank is None else tuple(shape.as_list())


class TensorArraySpec(TypeSpec):
    """A TensorArray's dtype, element shape, ``dynamic_size`` and ``infer_shape``.

    >>> import retrograd as tf
    >>> tf.TensorArraySpec([2], tf.float32).value_type.__name__
    'TensorArray'
    """

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(
        self,
        element_shape: ShapeLike | None = None,
        dtype: DTypeLike = dtypes.float32,
        dynamic_size: bool = False,
        infer_shape: bool = True,
    ) -> None:
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size, self._infer_shape = bool(dynamic_size), bool(infer_shape)

    @property
    def value_type(self) -> type:
        return TensorArray

    @classmethod
    def from_value(cls, value: TensorArray) -> TensorArraySpec:
        """The spec of a TensorArray."""
        return cls(value.element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    def _key(self) -> tuple:
        return (_shape_key(self._element_shape), self._dtype.name, self._dynamic_size,
                self._infer_shape)  # fmt: skip

    def is_compatible_with(self, other: Any) -> bool:
        if isinstance(other, TensorArray):
            other = TensorArraySpec.from_value(other)
        return (
            isinstance(other, TensorArraySpec)
            and self._dtype == other._dtype
            and self._dynamic_size == other._dynamic_size
            and self._element_shape.is_compatible_with(other._element_shape)
        )

    def __repr__(self) -> str:
        return (
            f"TensorArraySpec({self._element_shape!r}, {self._dtype!r}, {self._dynamic_size}, "
            f"{self._infer_shape})"
        )


class IndexedSlicesSpec(TypeSpec):
    """IndexedSlices' dense shape, dtypes and indices' shape.

    >>> import retrograd as tf
    >>> tf.IndexedSlicesSpec([2, 3]).value_type.__name__
    'IndexedSlices'
    """

    __slots__ = ("_shape", "_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")

    def __init__(
        self,
        shape: ShapeLike | None = None,
        dtype: DTypeLike = dtypes.float32,
        indices_dtype: DTypeLike = dtypes.int64,
        dense_shape_dtype: DTypeLike | None = None,
        indices_shape: ShapeLike | None = None,
    ) -> None:
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(
            dense_shape_dtype
        )  # fmt: skip
        self._indices_shape = TensorShape(indices_shape).merge_with(TensorShape([None]))

    @property
    def value_type(self) -> type:
        return IndexedSlices

    def _key(self) -> tuple:
        dense = None if self._dense_shape_dtype is None else self._dense_shape_dtype.name
        return (_shape_key(self._shape), self._dtype.name, self._indices_dtype.name, dense,
                _shape_key(self._indices_shape))  # fmt: skip

    def __repr__(self) -> str:
        return (
            f"IndexedSlicesSpec({self._shape!r}, {self._dtype!r}, {self._indices_dtype!r}, "
            f"{self._dense_shape_dtype!r}, {self._indices_shape!r})"
        )


class NoneTensorSpec(TypeSpec):
    """The spec of None where a tensor could be (an optional output that is absent).

    >>> import retrograd as tf
    >>> tf.NoneTensorSpec() == tf.NoneTensorSpec()
    True
    """

    __slots__ = ()

    @property
    def value_type(self) -> type:
        return type(None)

    def _key(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return "NoneTensorSpec()"


class OptionalSpec(TypeSpec):
    """The spec of a value that may be absent, ``element_spec`` when present.

    >>> import retrograd as tf
    >>> tf.OptionalSpec(tf.TensorSpec([1])) == tf.OptionalSpec(tf.TensorSpec([1]))
    True
    """

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def value_type(self) -> type:
        return type(self._element_spec)

    def _key(self) -> tuple:
        return (self._element_spec,)

    def __repr__(self) -> str:
        return f"OptionalSpec({self._element_spec!r},)"


def type_spec_from_value(value: object) -> TypeSpec:
    """The spec of ``value``: a tensor's ``TensorSpec`` (Python and NumPy values as the
    tensors they convert to), a TensorArray's or IndexedSlices' spec, ``NoneTensorSpec``
    for None.

    >>> import retrograd as tf
    >>> tf.type_spec_from_value([1, 2])
    TensorSpec(shape=(2,), dtype=tf.int32, name=None)
    """
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    if isinstance(value, IndexedSlices):
        dense = None if value.dense_shape is None else value.dense_shape.dtype
        rows = value.values.shape
        shape = TensorShape([None, *rows[1:]]) if rows.rank else TensorShape(None)
        return IndexedSlicesSpec(shape, value.dtype, value.indices.dtype, dense,
                                 value.indices.shape)  # fmt: skip
    try:
        tensor = convert_to_tensor(value)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}."
        ) from error
    return TensorSpec(tensor.shape, tensor.dtype)


# The ops whose value TensorFlow's constant folding at build time knows from known inputs.
_FOLDED = frozenset(
    {"Cast", "Concat", "ConcatV2", "Pack", "Fill", "Range", "Equal", "NotEqual",
     "StopGradient", "Identity"}
)  # fmt: skip


def _static(t: Any) -> np.ndarray | None:
    op = getattr(t, "op", None)
    if op is None or not hasattr(op, "graph"):
        return t.numpy()  # an eager tensor
    if op.type == "Const":
        return np.array(backends.to_host(op.get_attr("value")))
    if op.type in ("Shape", "Size", "Rank"):
        shape = op.inputs[0].shape
        if op.type == "Rank":
            return None if shape.rank is None else np.array(shape.rank, t.dtype.as_numpy_dtype)
        if not shape.is_fully_defined():
            return None
        dims = shape.as_list()
        known = dims if op.type == "Shape" else int(np.prod(dims, dtype=np.int64))
        return np.array(known, t.dtype.as_numpy_dtype)
    if op.type not in _FOLDED:
        return None
    inputs = []
    for i in op.inputs:
        known = _static(i)
        if known is None:
            return None
        inputs.append(known)
    from retrograd.graph.shape_inference import on_host

    with on_host():  # (host values: what kernels make from nothing stays there too)
        return np.array(op.op_def.kernel(*inputs, **op._attrs))


def get_static_value(tensor: object, partial: bool = False) -> object:
    """The value of ``tensor`` as NumPy if it is known while the graph is built (an eager
    tensor, a graph constant, the shape, size or rank of a tensor of known shape, and casts,
    concatenations, stacks, fills, ranges, comparisons and identities of known values, as
    TensorFlow folds them), else None; values that are not tensors are returned as they are.
    ``partial`` is accepted (a value is known whole or not at all).

    >>> import retrograd as tf
    >>> tf.get_static_value(tf.constant([1, 2])).tolist(), tf.get_static_value(1.5)
    ([1, 2], 1.5)
    """
    if not isinstance(tensor, Tensor):
        return tensor
    return _static(tensor)
