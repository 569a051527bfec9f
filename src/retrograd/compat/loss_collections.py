"""The ``losses`` collection of TensorFlow 1's ``tf.losses``: ``add_loss`` puts a loss there
(in a graph; eagerly TensorFlow keeps none), ``get_total_loss`` adds the losses up with the
regularization losses that ``get_variable`` collected.

>>> import retrograd as rg
>>> with rg.Graph().as_default():
...     add_loss(rg.constant(2.0))
...     add_loss(rg.constant(3.0))
...     print(len(get_losses()), get_total_loss().op.type)
2 AddN
"""

from __future__ import annotations

from typing import Any

from retrograd.compat.graph_collections import add_to_collection, get_collection
from retrograd.compat.variable_scopes import GraphKeys
from retrograd.core.execute import context
from retrograd.graph.graph import constant
from retrograd.ops import math_ops

__all__ = [
    "LOSSES",
    "add_loss",
    "get_losses",
    "get_regularization_loss",
    "get_regularization_losses",
    "get_total_loss",
]

LOSSES = GraphKeys.LOSSES


def add_loss(loss: Any, loss_collection: str = LOSSES) -> None:
    """Adds ``loss`` to ``loss_collection`` of the default graph (eagerly: nothing, as in
    TensorFlow).

    >>> import retrograd as rg
    >>> with rg.Graph().as_default():
    ...     add_loss(rg.constant(2.0))
    ...     print(len(get_losses()))
    1
    """
    if loss_collection and context.graph is not None:
        add_to_collection(loss_collection, loss)


def get_losses(scope: str | None = None, loss_collection: str = LOSSES) -> list:
    """The losses in ``loss_collection`` (those under ``scope`` with a scope).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     loss = tf1.losses.absolute_difference([1.0], [3.0])
    ...     print(get_losses() == [loss])
    True
    """
    return get_collection(loss_collection, scope)


def get_regularization_losses(scope: str | None = None) -> list:
    """The regularization losses ``get_variable`` added (those under ``scope``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     w = tf1.get_variable('w', [2], regularizer=lambda v: rg.reduce_sum(v))
    ...     print(len(get_regularization_losses()))
    1
    """
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: str | None = None, name: str = "total_regularization_loss"):
    """The sum of the regularization losses (a scalar 0.0 when there is none).

    >>> import retrograd as rg
    >>> with rg.Graph().as_default():
    ...     print(get_regularization_loss().op.type)
    Const
    """
    losses = get_regularization_losses(scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(
    add_regularization_losses: bool = True, name: str = "total_loss", scope: str | None = None
):
    """The sum of the losses and (by default) the regularization losses; a ValueError when
    there is none, as in TensorFlow.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     total = get_total_loss() if get_losses() else None
    ...     loss = tf1.losses.mean_squared_error([0.0], [2.0])
    ...     with tf1.Session() as sess:
    ...         print(sess.run(get_total_loss()))
    4.0
    """
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope=scope)
    if not losses:
        raise ValueError("get_total_loss: there are no losses in the collections to add up")
    return math_ops.add_n(losses, name=name)
