"""``tf.keras.backend``'s tensor functions (Keras 2's backend, kept by TF 2.21): making,
shaping, joining and indexing tensors, ``batch_dot``, ``switch`` and the folds.

>>> import retrograd as rg
>>> K = rg.keras.backend
>>> K.int_shape(K.batch_flatten(rg.zeros([2, 3, 4])))
(2, 12)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import constant as tf_constant
from retrograd.keras.src import backend
from retrograd.keras.src.layers.merge import batch_contract
from retrograd.keras.src.variables import Variable as KerasVariable
from retrograd.ops import (
    array_ops,
    creation_ops,
    gather_ops,
    join_ops,
    linalg_ops,
    math_ops,
    matrix_diag_ops,
    rearrange_ops,
)

__all__ = [
    "arange",
    "batch_dot",
    "batch_flatten",
    "cast",
    "cast_to_floatx",
    "concatenate",
    "constant",
    "count_params",
    "dot",
    "dtype",
    "expand_dims",
    "eye",
    "flatten",
    "gather",
    "int_shape",
    "is_sparse",
    "ndim",
    "one_hot",
    "ones",
    "ones_like",
    "permute_dimensions",
    "repeat",
    "repeat_elements",
    "reshape",
    "reverse",
    "shape",
    "squeeze",
    "stack",
    "tile",
    "to_dense",
    "transpose",
    "variable",
    "zeros",
    "zeros_like",
]


def variable(value: Any, dtype: Any = None, name: str | None = None, constraint: Any = None):
    """A ``tf.Variable`` of ``value`` (floatx by default).

    >>> import retrograd as rg
    >>> v = rg.keras.backend.variable([1.0, 2.0])
    >>> v.numpy().tolist(), v.dtype.name
    ([1.0, 2.0], 'float32')
    """
    dtype = dtypes.as_dtype(dtype or backend.floatx())
    value = math_ops.cast(convert_to_tensor(value), dtype)
    return KerasVariable(value, dtype=dtype, name=name or "variable", constraint=constraint)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = "int32") -> Any:
    """``range(start, stop, step)`` as a tensor (a negative lone ``start`` gives nothing).

    >>> import retrograd as rg
    >>> rg.keras.backend.arange(4).numpy().tolist()
    [0, 1, 2, 3]
    """
    if stop is None and start < 0:
        start = 0
    result = creation_ops.range(start, limit=stop, delta=step)
    return result if dtype == "int32" else math_ops.cast(result, dtype)


def batch_dot(x: Any, y: Any, axes: Any = None) -> Any:
    """The dot product of each batch entry of ``x`` and ``y`` along ``axes`` (by default
    the last axis of ``x`` and the last (2-D ``y``) or second to last axis of ``y``).

    >>> import retrograd as rg
    >>> x, y = rg.ones([2, 3]), rg.ones([2, 3])
    >>> rg.keras.backend.batch_dot(x, y, axes=1).numpy().tolist()
    [[3.0], [3.0]]
    """
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    xr, yr = x.shape.rank, y.shape.rank
    if xr < 2 or yr < 2:
        raise ValueError(
            "Cannot do batch_dot on inputs with rank < 2. Received inputs with tf.shapes "
            f"{x.shape} and {y.shape}."
        )
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [xr - 1, yr - 1] if yr == 2 else [xr - 1, yr - 2]
    return batch_contract(x, y, tuple(axes))


def batch_flatten(x: Any) -> Any:
    """``[batch, ...]`` to ``[batch, -1]``.

    >>> import retrograd as rg
    >>> rg.keras.backend.batch_flatten(rg.zeros([2, 3, 4])).shape.as_list()
    [2, 12]
    """
    x = convert_to_tensor(x)
    return array_ops.reshape(x, [-1, math.prod(x.shape.as_list()[1:])])


def cast(x: Any, dtype: Any) -> Any:
    """``x`` in ``dtype``.

    >>> import retrograd as rg
    >>> rg.keras.backend.cast(rg.constant([1.7]), 'int32').numpy().tolist()
    [1]
    """
    return math_ops.cast(x, dtype)


def cast_to_floatx(x: Any) -> Any:
    """A tensor cast to floatx, anything else as a NumPy array of floatx.

    >>> import retrograd as rg
    >>> rg.keras.backend.cast_to_floatx([1, 2]).dtype
    dtype('float32')
    """
    if isinstance(x, (Tensor, Variable)):
        return math_ops.cast(x, backend.floatx())
    return np.asarray(x, dtype=backend.floatx())


def concatenate(tensors: list, axis: int = -1) -> Any:
    """The tensors joined along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.concatenate([rg.ones([1, 2]), rg.zeros([1, 1])]).numpy().tolist()
    [[1.0, 1.0, 0.0]]
    """
    if axis < 0:
        rank = convert_to_tensor(tensors[0]).shape.rank
        axis = axis % rank if rank else 0
    return join_ops.concat(list(tensors), axis)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Any:
    """A constant tensor (floatx by default).

    >>> import retrograd as rg
    >>> rg.keras.backend.constant(1, shape=(2,)).numpy().tolist()
    [1.0, 1.0]
    """
    return tf_constant(value, dtype=dtype or backend.floatx(), shape=shape, name=name)


def count_params(x: Any) -> int:
    """The number of entries of ``x``.

    >>> import retrograd as rg
    >>> rg.keras.backend.count_params(rg.zeros([2, 3]))
    6
    """
    return math.prod(x.shape.as_list())


def dot(x: Any, y: Any) -> Any:
    """NumPy's ``dot`` for tensors: the last axis of ``x`` with the second to last of
    ``y``.

    >>> import retrograd as rg
    >>> rg.keras.backend.dot(rg.ones([2, 3]), rg.ones([4, 3, 5])).shape.as_list()
    [2, 4, 5]
    """
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.shape.rank > 2 or y.shape.rank > 2:
        return linalg_ops.tensordot(x, y, [[x.shape.rank - 1], [y.shape.rank - 2]])
    return linalg_ops.matmul(x, y)


def dtype(x: Any) -> str:
    """The name of ``x``'s dtype.

    >>> import retrograd as rg
    >>> rg.keras.backend.dtype(rg.zeros([1]))
    'float32'
    """
    return x.dtype.name


def expand_dims(x: Any, axis: int = -1) -> Any:
    """``x`` with a new axis of size 1.

    >>> import retrograd as rg
    >>> rg.keras.backend.expand_dims(rg.zeros([2])).shape.as_list()
    [2, 1]
    """
    return array_ops.expand_dims(x, axis)


def eye(size: Any, dtype: Any = None, name: str | None = None) -> Any:
    """An identity matrix, as a variable.

    >>> import retrograd as rg
    >>> rg.keras.backend.eye(2).numpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    dtype = dtype or backend.floatx()
    return variable(matrix_diag_ops.eye(size, dtype=dtype), dtype, name)


def flatten(x: Any) -> Any:
    """``x`` as one axis.

    >>> import retrograd as rg
    >>> rg.keras.backend.flatten(rg.zeros([2, 3])).shape.as_list()
    [6]
    """
    return array_ops.reshape(x, [-1])


def gather(reference: Any, indices: Any) -> Any:
    """Rows of ``reference`` by index.

    >>> import retrograd as rg
    >>> rg.keras.backend.gather(rg.constant([[1.0], [2.0]]), [1]).numpy().tolist()
    [[2.0]]
    """
    return gather_ops.gather(reference, indices)


def int_shape(x: Any) -> tuple:
    """``x``'s shape as a tuple of ints (None where unknown).

    >>> import retrograd as rg
    >>> rg.keras.backend.int_shape(rg.zeros([2, 3]))
    (2, 3)
    """
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def is_sparse(tensor: Any) -> bool:
    """Whether ``tensor`` is sparse (retrograd's tensors are all dense).

    >>> import retrograd as rg
    >>> rg.keras.backend.is_sparse(rg.zeros([2]))
    False
    """
    return False


def to_dense(tensor: Any) -> Any:
    """The dense form of ``tensor`` (itself: retrograd's tensors are all dense).

    >>> import retrograd as rg
    >>> rg.keras.backend.to_dense(rg.ones([2])).numpy().tolist()
    [1.0, 1.0]
    """
    return tensor


def ndim(x: Any) -> int:
    """The rank of ``x``.

    >>> import retrograd as rg
    >>> rg.keras.backend.ndim(rg.zeros([2, 3]))
    2
    """
    return len(x.shape)


def one_hot(indices: Any, num_classes: int) -> Any:
    """One-hot rows for integer ``indices``.

    >>> import retrograd as rg
    >>> rg.keras.backend.one_hot(rg.constant([1]), 3).numpy().tolist()
    [[0.0, 1.0, 0.0]]
    """
    return creation_ops.one_hot(indices, depth=num_classes, axis=-1)


def ones(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Ones, as a variable when the shape is fully known.

    >>> import retrograd as rg
    >>> rg.keras.backend.ones((2,)).numpy().tolist()
    [1.0, 1.0]
    """
    dtype = dtype or backend.floatx()
    return variable(array_ops.ones(shape, dtype=dtype), dtype, name)


def zeros(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Zeros, as a variable when the shape is fully known.

    >>> import retrograd as rg
    >>> rg.keras.backend.zeros((2,)).numpy().tolist()
    [0.0, 0.0]
    """
    dtype = dtype or backend.floatx()
    return variable(array_ops.zeros(shape, dtype=dtype), dtype, name)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Ones of ``x``'s shape.

    >>> import retrograd as rg
    >>> rg.keras.backend.ones_like(rg.zeros([2])).numpy().tolist()
    [1.0, 1.0]
    """
    return array_ops.ones_like(x, dtype=dtype)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Zeros of ``x``'s shape.

    >>> import retrograd as rg
    >>> rg.keras.backend.zeros_like(rg.ones([2])).numpy().tolist()
    [0.0, 0.0]
    """
    return array_ops.zeros_like(x, dtype=dtype)


def permute_dimensions(x: Any, pattern: Any) -> Any:
    """The axes of ``x`` reordered by ``pattern``.

    >>> import retrograd as rg
    >>> rg.keras.backend.permute_dimensions(rg.zeros([2, 3, 4]), (0, 2, 1)).shape.as_list()
    [2, 4, 3]
    """
    return array_ops.transpose(x, perm=pattern)


def repeat(x: Any, n: int) -> Any:
    """``[batch, dim]`` to ``[batch, n, dim]``.

    >>> import retrograd as rg
    >>> rg.keras.backend.repeat(rg.ones([2, 3]), 4).shape.as_list()
    [2, 4, 3]
    """
    x = convert_to_tensor(x)
    if x.shape.rank != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={x.shape.rank}")
    return rearrange_ops.tile(array_ops.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x: Any, rep: int, axis: int) -> Any:
    """Each entry along ``axis`` repeated ``rep`` times (``np.repeat``).

    >>> import retrograd as rg
    >>> rg.keras.backend.repeat_elements(rg.constant([1.0, 2.0]), 2, 0).numpy().tolist()
    [1.0, 1.0, 2.0, 2.0]
    """
    x = convert_to_tensor(x)
    pieces = join_ops.unstack(x, axis=axis)
    return join_ops.stack([p for p in pieces for _ in range(rep)], axis=axis)


def reshape(x: Any, shape: Any) -> Any:
    """``x`` reshaped.

    >>> import retrograd as rg
    >>> rg.keras.backend.reshape(rg.zeros([6]), (2, 3)).shape.as_list()
    [2, 3]
    """
    return array_ops.reshape(x, shape)


def reverse(x: Any, axes: Any) -> Any:
    """``x`` reversed along ``axes``.

    >>> import retrograd as rg
    >>> rg.keras.backend.reverse(rg.constant([1.0, 2.0]), 0).numpy().tolist()
    [2.0, 1.0]
    """
    return rearrange_ops.reverse(x, [axes] if isinstance(axes, int) else list(axes))


def shape(x: Any) -> Any:
    """``x``'s shape as an int32 tensor.

    >>> import retrograd as rg
    >>> rg.keras.backend.shape(rg.zeros([2, 3])).numpy().tolist()
    [2, 3]
    """
    return array_ops.shape(x)


def squeeze(x: Any, axis: int) -> Any:
    """``x`` without its size-1 ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.squeeze(rg.zeros([2, 1]), 1).shape.as_list()
    [2]
    """
    return array_ops.squeeze(x, [axis])


def stack(x: list, axis: int = 0) -> Any:
    """The tensors stacked along a new ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.stack([rg.zeros([2]), rg.ones([2])]).shape.as_list()
    [2, 2]
    """
    return join_ops.stack(list(x), axis=axis)


def tile(x: Any, n: Any) -> Any:
    """``x`` tiled ``n`` times per axis.

    >>> import retrograd as rg
    >>> rg.keras.backend.tile(rg.constant([1.0, 2.0]), 2).numpy().tolist()
    [1.0, 2.0, 1.0, 2.0]
    """
    return rearrange_ops.tile(x, [n] if isinstance(n, int) else n)


def transpose(x: Any) -> Any:
    """``x`` with its axes reversed.

    >>> import retrograd as rg
    >>> rg.keras.backend.transpose(rg.zeros([2, 3])).shape.as_list()
    [3, 2]
    """
    return array_ops.transpose(x)
