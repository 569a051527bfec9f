"""Losses scaled for synchronous training: the gradients of the replicas are summed, so each
replica's loss is divided by the global batch size (``tf.nn.compute_average_loss``) and a
regularization loss by the number of replicas (``tf.nn.scale_regularization_loss``).

>>> import retrograd as tf
>>> float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]), global_batch_size=4))
1.5
"""

from __future__ import annotations

from typing import Any

from retrograd.core.annotations import TensorLike
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.distribute import values
from retrograd.ops import array_ops, math_ops, nn_extra_ops, reduction_ops

__all__ = [
    "compute_average_loss",
    "scale_regularization_loss",
    "scale_loss_for_distribution",
    "unscale_loss_for_distribution",
]


def compute_average_loss(
    per_example_loss: TensorLike,
    sample_weight: TensorLike | None = None,
    global_batch_size: TensorLike | None = None,
) -> Tensor:
    """The sum of the (weighted) per-example losses divided by ``global_batch_size``
    (default: this replica's batch size times the replicas in sync); TensorFlow's checks
    and weighting are those of ``ops.nn_extra_ops.compute_average_loss``.

    >>> import retrograd as tf
    >>> float(tf.nn.compute_average_loss(tf.constant([2.0, 4.0])))
    3.0
    """
    replicas = values.get_strategy().num_replicas_in_sync
    if global_batch_size is None and replicas != 1:
        loss = convert_to_tensor(per_example_loss)
        if loss.shape.rank:  # (a scalar is refused below, as TensorFlow does)
            global_batch_size = array_ops.shape(loss)[0] * replicas
    return nn_extra_ops.compute_average_loss(per_example_loss, sample_weight, global_batch_size)


def scale_regularization_loss(regularization_loss: TensorLike | list[TensorLike]) -> Tensor:
    """The sum of ``regularization_loss`` divided by the replicas in sync.

    >>> import retrograd as tf
    >>> float(tf.nn.scale_regularization_loss([1.0, 2.0]))
    3.0
    """
    total = reduction_ops.reduce_sum(
        math_ops.add_n([convert_to_tensor(v) for v in regularization_loss])
        if isinstance(regularization_loss, (list, tuple))
        else convert_to_tensor(regularization_loss)
    )
    replicas = values.get_strategy().num_replicas_in_sync
    return total / math_ops.cast(replicas, total.dtype)


def scale_loss_for_distribution(value: Any) -> Any:
    """``value`` divided by the replicas in sync (Keras 3 does this to each mean-reduced
    loss, so that summing the replicas' gradients gives the global batch's mean).

    >>> import retrograd as tf
    >>> float(scale_loss_for_distribution(tf.constant(4.0)))  # one replica
    4.0
    """
    replicas = values.get_strategy().num_replicas_in_sync
    if replicas > 1:
        value = value * math_ops.cast(1.0 / replicas, value.dtype)
    return value


def unscale_loss_for_distribution(value: Any) -> Any:
    """``value`` times the replicas in sync (the loss a replica reports).

    >>> import retrograd as tf
    >>> float(unscale_loss_for_distribution(tf.constant(4.0)))
    4.0
    """
    replicas = values.get_strategy().num_replicas_in_sync
    if replicas > 1:
        value = value * math_ops.cast(replicas, value.dtype)
    return value
