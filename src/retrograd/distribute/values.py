"""Distributed values and the strategy context: ``ReduceOp``, ``PerReplica``, the current
strategy of each thread (``get_strategy``, ``has_strategy``) and the replica context that
``strategy.run`` enters (``get_replica_context``, ``in_cross_replica_context``).

A program runs once per worker (SPMD, as under ``mpiexec`` or ``torchrun``); each worker
holds one replica, so a ``PerReplica`` holds this worker's value, the one that
``strategy.experimental_local_results`` returns.

>>> import retrograd as tf
>>> tf.distribute.has_strategy(), tf.distribute.get_strategy().num_replicas_in_sync
(False, 1)
"""

from __future__ import annotations

import enum
import threading
from typing import Any

from retrograd.core import nest

__all__ = [
    "ReduceOp",
    "PerReplica",
    "ReplicaContext",
    "get_strategy",
    "has_strategy",
    "get_replica_context",
    "in_cross_replica_context",
]


class ReduceOp(enum.Enum):
    """How ``reduce`` and ``all_reduce`` combine the replicas' values.

    >>> ReduceOp.SUM.value, ReduceOp("MEAN") is ReduceOp.MEAN
    ('SUM', True)
    """

    SUM = "SUM"
    MEAN = "MEAN"


class PerReplica:
    """The value of each replica on this worker (one: this worker's); ``strategy.run``
    returns one for each output, and unwraps those it is given.

    >>> PerReplica((3,)).values
    (3,)
    """

    def __init__(self, values: tuple) -> None:
        self.values = tuple(values)

    def __repr__(self) -> str:
        shown = ", ".join(f"{i}: {v!r}" for i, v in enumerate(self.values))
        return f"PerReplica:{{\n  {shown}\n}}"


def local_value(value: Any) -> Any:
    """This worker's replica's value of ``value`` (itself when it is not distributed)."""
    return value.values[0] if isinstance(value, PerReplica) else value


def per_replica(structure: Any) -> Any:
    """Each leaf of ``structure`` as a ``PerReplica`` (one replica: the leaves themselves,
    as TensorFlow's one-replica strategies return)."""
    if _state().size_of_current() == 1:
        return structure
    return nest.map_structure(lambda v: PerReplica((v,)), structure)


class ReplicaContext:
    """What a function that ``strategy.run`` calls sees of its replica.

    >>> import retrograd as tf
    >>> context = tf.distribute.get_replica_context()
    >>> int(context.replica_id_in_sync_group), context.num_replicas_in_sync
    (0, 1)
    """

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self.strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> Any:
        from retrograd.graph.graph import constant

        return constant(self.strategy.extended.worker_index, "int32")

    def all_reduce(self, reduce_op: Any, value: Any) -> Any:
        """``value`` combined over the replicas (a structure of tensors)."""
        return self.strategy.extended.all_reduce(reduce_op, value)

    def all_gather(self, value: Any, axis: int) -> Any:
        """The replicas' ``value`` concatenated along ``axis``."""
        return self.strategy.extended.all_gather(value, axis)


class _State(threading.local):
    def __init__(self) -> None:
        self.scopes: list = []  # strategies entered with scope()
        self.replicas: list = []  # replica contexts entered by run()

    def size_of_current(self) -> int:
        return get_strategy().num_replicas_in_sync


_STATE = _State()


def _state() -> _State:
    return _STATE


_default: list = []


def _default_strategy() -> Any:
    if not _default:
        from retrograd.distribute.strategy import Strategy

        _default.append(Strategy(_default=True))
    return _default[0]


def get_strategy() -> Any:
    """The strategy of the innermost ``scope()`` or ``run()`` (the default strategy, one
    replica, outside them).

    >>> import retrograd as tf
    >>> strategy = tf.distribute.MirroredStrategy()
    >>> with strategy.scope():
    ...     tf.distribute.get_strategy() is strategy
    True
    """
    if _STATE.replicas:
        return _STATE.replicas[-1].strategy
    if _STATE.scopes:
        return _STATE.scopes[-1]
    return _default_strategy()


def has_strategy() -> bool:
    """Whether a strategy other than the default one is current.

    >>> import retrograd as tf
    >>> tf.distribute.has_strategy()
    False
    """
    return bool(_STATE.replicas or _STATE.scopes)


def get_replica_context() -> ReplicaContext | None:
    """The replica context inside ``strategy.run`` (and outside every scope, the default
    strategy's); None in a strategy's scope (the cross-replica context).

    >>> import retrograd as tf
    >>> with tf.distribute.MirroredStrategy().scope():
    ...     tf.distribute.get_replica_context() is None
    True
    """
    if _STATE.replicas:
        return _STATE.replicas[-1]
    if _STATE.scopes:
        return None
    return ReplicaContext(_default_strategy())


def in_cross_replica_context() -> bool:
    """Whether the code runs in a strategy's scope but not inside ``run``.

    >>> import retrograd as tf
    >>> tf.distribute.in_cross_replica_context()
    False
    """
    return bool(_STATE.scopes) and not _STATE.replicas


def entered(strategy: Any, replica: bool) -> Any:
    """Push ``strategy`` (a replica context when ``replica``); returns the undo."""
    stack = _STATE.replicas if replica else _STATE.scopes
    stack.append(ReplicaContext(strategy) if replica else strategy)
    return stack.pop


def all_reducing() -> Any:
    """The strategy whose replicas an optimizer's gradients are summed over, or None."""
    strategy = get_strategy()
    return strategy if strategy.num_replicas_in_sync > 1 else None
