"""TensorFlow 1's argument orders of ops retrograd has in TensorFlow 2's: ``name`` before
``axis``/``out_type``/``conjugate`` (``gather``, ``shape``, ``transpose``...), the 4-D
``batch_to_space``/``space_to_batch`` with their ``block_size``, ``reverse_sequence``'s
``seq_dim``/``batch_dim``, ``assert_rank``'s ``data``, ``device`` of a name or function, and
``math.nextafter``'s ``x1``/``x2``. A call written for TensorFlow 1 (positional or by
keyword) means here what it means there.

>>> import retrograd as rg
>>> gather([[1, 2], [3, 4]], [1], None, "g", 1).numpy().tolist()
[[2], [4]]
>>> shape([[1.0, 2.0]], None, rg.int64).dtype.name
'int64'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.compat.v1_asserts import _with_data
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.graph import control_ops, device_spec
from retrograd.ops import (
    array_ops,
    debug_ops,
    gather_ops,
    math_extra_ops,
    pad_ops,
    partition_ops,
    space_batch_ops,
)

__all__ = [
    "assert_rank",
    "batch_to_space",
    "boolean_mask",
    "confusion_matrix",
    "device",
    "gather",
    "gather_nd",
    "pad",
    "reverse_sequence",
    "shape",
    "size",
    "space_to_batch",
    "transpose",
    "tuple",
]


def either(new: Any, old: Any, new_name: str, old_name: str) -> Any:
    """TensorFlow's ``deprecated_argument_lookup``: the value given under either name;
    ValueError when both are."""
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return old if new is None else new


def boolean_mask(tensor, mask, name="boolean_mask", axis=None) -> Tensor:
    """TF1's ``boolean_mask`` (``name`` before ``axis``).

    >>> boolean_mask([1, 2, 3], [True, False, True]).numpy().tolist()
    [1, 3]
    """
    return gather_ops.boolean_mask(tensor, mask, axis=axis, name=name)


def confusion_matrix(
    labels, predictions, num_classes=None, dtype: DTypeLike = "int32", name=None, weights=None
) -> Tensor:
    """TF1's ``confusion_matrix`` (``dtype`` and ``name`` before ``weights``).

    >>> confusion_matrix([0, 1, 1], [0, 1, 0]).numpy().tolist()
    [[1, 0], [1, 1]]
    """
    return math_extra_ops.confusion_matrix(
        labels, predictions, num_classes=num_classes, weights=weights, dtype=dtype, name=name
    )


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0) -> Tensor:
    """TF1's ``gather`` (``name`` before ``axis`` and ``batch_dims``).

    >>> gather([10, 20, 30], [2, 0]).numpy().tolist()
    [30, 10]
    """
    return gather_ops.gather(
        params, indices, validate_indices, axis=axis, batch_dims=batch_dims, name=name
    )


def gather_nd(params, indices, name=None, batch_dims=0, bad_indices_policy="") -> Tensor:
    """TF1's ``gather_nd`` (``name`` before ``batch_dims``).

    >>> gather_nd([[1, 2], [3, 4]], [[1, 0]]).numpy().tolist()
    [3]
    """
    return gather_ops.gather_nd(
        params, indices, batch_dims=batch_dims, name=name, bad_indices_policy=bad_indices_policy
    )


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0) -> Tensor:
    """TF1's ``pad`` (``name`` before ``constant_values``).

    >>> pad([1, 2], [[1, 0]], "CONSTANT", None, 9).numpy().tolist()
    [9, 1, 2]
    """
    return pad_ops.pad(tensor, paddings, mode=mode, constant_values=constant_values, name=name)


def shape(input: TensorLike, name=None, out_type: DTypeLike | None = None) -> Tensor:
    """TF1's ``shape`` (``name`` before ``out_type``; int32 by default).

    >>> shape([[1.0, 2.0, 3.0]]).numpy().tolist()
    [1, 3]
    """
    return array_ops.shape(input, out_type=out_type, name=name)


def size(input: TensorLike, name=None, out_type: DTypeLike | None = None) -> Tensor:
    """TF1's ``size`` (``name`` before ``out_type``).

    >>> int(size([[1.0, 2.0, 3.0]]))
    3
    """
    return array_ops.size(input, out_type=out_type, name=name)


def transpose(a, perm=None, name="transpose", conjugate=False) -> Tensor:
    """TF1's ``transpose`` (``name`` before ``conjugate``).

    >>> transpose([[1, 2]]).numpy().tolist()
    [[1], [2]]
    """
    return array_ops.transpose(a, perm, conjugate=conjugate, name=name)


def tuple(tensors, name=None, control_inputs=None) -> list:  # noqa: A001  (TensorFlow's name)
    """TF1's ``tuple`` (``name`` before ``control_inputs``).

    >>> [int(t) for t in tuple([1, 2])]
    [1, 2]
    """
    return control_ops.tuple(tensors, control_inputs, name)


def _block(block_size: Any, block_shape: Any, who: str) -> Any:
    size = either(block_shape, block_size, "block_shape", "block_size")
    if size is None:
        raise TypeError(f"{who}() missing required argument: 'block_size'")
    return np.array([size, size], dtype=np.int64)


def _rank_4(result: Tensor, who: str) -> Tensor:
    if result.shape.rank is not None and result.shape.rank != 4:
        raise ValueError(f"{who}: Shape {result.shape} must have rank 4")
    return result


def batch_to_space(input, crops, block_size, name=None, block_shape=None) -> Tensor:
    """TF1's 4-D ``batch_to_space``: the batch split into ``block_size`` x ``block_size``
    blocks of height and width, then ``crops`` cut off.

    >>> import retrograd as rg
    >>> batch_to_space(rg.reshape(rg.range(4.0), [4, 1, 1, 1]), [[0, 0], [0, 0]], 2).shape
    TensorShape([1, 2, 2, 1])
    """
    blocks = _block(block_size, block_shape, "batch_to_space")
    return _rank_4(space_batch_ops.batch_to_space(input, blocks, crops, name), "batch_to_space")


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None) -> Tensor:
    """TF1's 4-D ``space_to_batch`` (also ``nn.space_to_batch``): height and width padded,
    then split into ``block_size`` x ``block_size`` blocks moved into the batch.

    >>> import retrograd as rg
    >>> space_to_batch(rg.zeros([1, 4, 4, 1]), [[0, 0], [0, 0]], 2).shape
    TensorShape([4, 2, 2, 1])
    """
    blocks = _block(block_size, block_shape, "space_to_batch")
    return _rank_4(space_batch_ops.space_to_batch(input, blocks, paddings, name), "space_to_batch")


def reverse_sequence(
    input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None, batch_dim=None
) -> Tensor:
    """TF1's ``reverse_sequence`` (``seq_dim``/``batch_dim`` are the old names of the axes).

    >>> reverse_sequence([[1, 2, 3]], [2], seq_dim=1, batch_dim=0).numpy().tolist()
    [[2, 1, 3]]
    """
    seq_axis = either(seq_axis, seq_dim, "seq_axis", "seq_dim")
    batch_axis = either(batch_axis, batch_dim, "batch_axis", "batch_dim")
    return partition_ops.reverse_sequence(input, seq_lengths, seq_axis, batch_axis, name)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None) -> Any:
    """TF1's ``assert_rank``: a ValueError while the graph is built when the rank is known
    and wrong; with ``data``, a rank known only when it runs fails there with the message and
    each item of ``data``.

    >>> assert_rank([[1.0]], 2)
    """
    t = convert_to_tensor(x)
    if t.shape.rank is not None or data is None:
        return debug_ops.assert_rank(t, rank, message, name)
    condition = array_ops.rank(t) == int(rank)
    return _with_data(condition, list(data), summarize, message, name)


def device(device_name_or_function: Any) -> Any:
    """TF1's ``device``: the ops made inside ask for a device (a name or ``DeviceSpec``;
    retrograd runs them on the CPU). A device function is refused, as TensorFlow 2 refuses
    one while executing eagerly.

    >>> with device("/cpu:0"):
    ...     pass
    """
    return device_spec.device(device_name_or_function)
