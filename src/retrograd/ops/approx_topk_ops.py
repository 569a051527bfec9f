"""The approximate top-k functions (``approx_top_k``, ``approx_max_k``, ``approx_min_k``):
exact here (TensorFlow's are exact on a CPU too, where it has kernels), along any dimension,
built on ``top_k`` so that gradients reach the chosen values.

>>> import retrograd as tf
>>> tf.math.approx_max_k([[1.0, 5.0, 3.0]], 2)[0].numpy().tolist()
[[5.0, 3.0]]
"""

from __future__ import annotations

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, reduction_ops
from retrograd.ops.define import FLOAT, tensor_arg

__all__ = ["approx_max_k", "approx_min_k", "approx_top_k"]


def _approx_k(operand, k, dim, is_max, name):
    from retrograd.ops.sort_ops import top_k

    x = tensor_arg("ApproxTopK", operand, FLOAT, "operand")
    if x.dtype.name not in ("float16", "float32"):
        kind = {"float64": "double"}.get(x.dtype.name, x.dtype.name)
        raise InvalidArgumentError(
            f"Value for attr 'T' of {kind} is not in the list of allowed values: half, "
            f"bfloat16, float"
        )
    ndim = x._value.ndim
    (dim,) = reduction_ops.normalize_axes("ApproxTopK", dim, ndim)
    perm = [i for i in range(ndim) if i != dim] + [dim]
    back = list(np.argsort(perm))
    moved = array_ops.transpose(x, perm) if dim != ndim - 1 else x
    values, indices = top_k(moved if is_max else -moved, k, name=name)
    if not is_max:
        values = -values
    if dim != ndim - 1:
        values, indices = array_ops.transpose(values, back), array_ops.transpose(indices, back)
    return values, indices


def approx_top_k(
    input: TensorLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    is_max_k: bool = True,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (``is_max_k``) or smallest values along ``reduction_dimension`` and
    their indices; exact here.

    >>> import retrograd as tf
    >>> tf.approx_top_k([[1.0, 5.0, 3.0]], 1, is_max_k=False)[0].numpy().tolist()
    [[1.0]]
    """
    return _approx_k(input, k, reduction_dimension, bool(is_max_k), name)


def approx_max_k(
    operand: TensorLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The ``k`` largest values along ``reduction_dimension`` and their indices; exact here
    (``recall_target`` and the other tuning arguments are accepted).

    >>> import retrograd as tf
    >>> tf.math.approx_max_k([[1.0, 5.0, 3.0]], 2)[1].numpy().tolist()
    [[1, 2]]
    """
    return _approx_k(operand, k, reduction_dimension, True, name)


def approx_min_k(
    operand: TensorLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The ``k`` smallest values along ``reduction_dimension`` and their indices (exact).

    >>> import retrograd as tf
    >>> tf.math.approx_min_k([[1.0, 5.0, 3.0]], 2)[0].numpy().tolist()
    [[1.0, 3.0]]
    """
    return _approx_k(operand, k, reduction_dimension, False, name)
