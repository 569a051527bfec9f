"""Distributed input: ``InputContext`` and the datasets that ``experimental_distribute_dataset``
and ``distribute_datasets_from_function`` return.

Each worker reads the same global batches (the same program on the same data) and keeps its
replica's rows: with ``n`` replicas a global batch of ``b`` rows gives replica ``i`` the
``i``-th part of ``numpy.array_split`` (``b // n`` rows, one more for the first ``b % n``).

>>> import retrograd as tf
>>> context = tf.distribute.InputContext(4, 1, 4)
>>> context.get_per_replica_batch_size(64), context.input_pipeline_id
(16, 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from retrograd.core import nest
from retrograd.core.tensor import convert_to_tensor
from retrograd.distribute import values

__all__ = ["InputContext", "DistributedDataset", "shard_batch"]


class InputContext:
    """What ``distribute_datasets_from_function`` tells the dataset function: how many input
    pipelines (workers) there are, which one this is, and how many replicas.

    >>> import retrograd as tf
    >>> tf.distribute.InputContext().num_replicas_in_sync
    1
    """

    def __init__(
        self, num_input_pipelines: int = 1, input_pipeline_id: int = 0, num_replicas_in_sync=1
    ) -> None:
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """``global_batch_size`` divided among the replicas (it must divide evenly)."""
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(
                f"The `global_batch_size` {global_batch_size} is not divisible by "
                f"`num_replicas_in_sync` {self.num_replicas_in_sync}"
            )
        return global_batch_size // self.num_replicas_in_sync

    def __repr__(self) -> str:
        return (
            f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, "
            f"total: {self.num_input_pipelines})"
        )


def shard_batch(batch: Any, index: int, count: int) -> Any:
    """Replica ``index``'s rows of each tensor or array in ``batch`` (of ``count``).

    >>> import numpy as np
    >>> shard_batch((np.arange(5), np.arange(5) * 10), 0, 2)[1].numpy().tolist()
    [0, 10, 20]
    """
    if count == 1:
        return batch

    def one(leaf: Any) -> Any:
        if leaf is None:
            return None
        array = convert_to_tensor(leaf).numpy()
        size, extra = divmod(len(array), count)
        start = index * size + min(index, extra)
        stop = start + size + (1 if index < extra else 0)
        return convert_to_tensor(array[start:stop])

    return nest.map_structure(one, batch)


class DistributedDataset:
    """Iterates a dataset as the replicas see it: ``PerReplica`` elements (plain elements
    with one replica). Made by a strategy.

    >>> import retrograd as tf
    >>> strategy = tf.distribute.MirroredStrategy()
    >>> dataset = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0]).batch(2)
    >>> [b.numpy().tolist() for b in strategy.experimental_distribute_dataset(dataset)]
    [[1.0, 2.0], [3.0]]
    """

    def __init__(self, strategy: Any, dataset: Any, split: bool) -> None:
        self._strategy = strategy
        self._dataset = dataset
        self._split = split

    @property
    def element_spec(self) -> Any:
        return getattr(self._dataset, "element_spec", None)

    def __iter__(self) -> Iterator[Any]:
        count = self._strategy.num_replicas_in_sync
        index = self._strategy.extended.worker_index
        for element in self._dataset:
            if self._split:
                element = shard_batch(element, index, count)
            if count == 1:
                yield element
            else:
                yield nest.map_structure(lambda v: values.PerReplica((v,)), element)
