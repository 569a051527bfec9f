"""Keras' training loops under a ``tf.distribute`` strategy: the strategy a model trains
under (the one current when it was compiled, as Keras records it), each replica's share of
a global batch, and logs computed from the metrics of all replicas (Keras' metric variables
are summed over the replicas when read).

>>> import retrograd as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
>>> with tf.distribute.MirroredStrategy().scope():
...     model.compile(optimizer="sgd", loss="mse")
>>> strategy_of(model).num_replicas_in_sync
1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.distribute import values
from retrograd.distribute.input import shard_batch
from retrograd.distribute.strategy import Strategy

__all__ = ["record_strategy", "strategy_of", "replica_batch", "replica_logs"]


def record_strategy(model: Any) -> None:
    """Keeps the strategy current at ``compile`` (when there is one) for the loops."""
    if values.has_strategy() or not hasattr(model, "_distribute_strategy"):
        model._distribute_strategy = values.get_strategy()


def strategy_of(model: Any) -> Strategy:
    """The strategy ``model`` trains under (the default one if it was never recorded)."""
    return getattr(model, "_distribute_strategy", None) or values.get_strategy()


def replica_batch(strategy: Strategy, data: Any) -> Any:
    """This worker's replica's rows of a global batch."""
    return shard_batch(data, strategy.extended.worker_index, strategy.num_replicas_in_sync)


def replica_logs(model: Any, strategy: Strategy, logs: dict) -> dict:
    """The model's metric results over all replicas (``logs`` with one replica)."""
    if strategy.num_replicas_in_sync == 1:
        return logs
    engine = strategy.extended.engine
    variables = [v for metric in model.metrics for v in metric.variables]
    local = [v.numpy() for v in variables]
    if not local:
        return logs
    flat = np.concatenate([np.ravel(np.asarray(a, np.float64)) for a in local])
    summed = engine.all_reduce(flat, what="reading the metrics")
    offsets = np.cumsum([0] + [np.size(a) for a in local])
    for v, a, lo, hi in zip(variables, local, offsets[:-1], offsets[1:]):
        v.assign(summed[lo:hi].reshape(np.shape(a)).astype(np.asarray(a).dtype))
    try:
        return model.get_metrics_result()
    finally:
        for v, a in zip(variables, local):
            v.assign(a)
