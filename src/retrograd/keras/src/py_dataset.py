"""``keras.utils.PyDataset`` (and its old name ``Sequence``): a Python object that gives
batches by index, which ``fit``, ``evaluate`` and ``predict`` take like a dataset (batches
in order, ``on_epoch_end`` after each pass).

>>> import numpy as np, retrograd as rg
>>> class Batches(rg.keras.utils.PyDataset):
...     def __len__(self):
...         return 2
...     def __getitem__(self, i):
...         return np.full((3, 1), i, "float32"), np.ones((3, 1), "float32")
>>> [x.numpy().ravel().tolist() for x, y in Batches()]
[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
"""

from __future__ import annotations

import random
from typing import Any

from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import constant

__all__ = ["PyDataset", "Sequence"]


class PyDataset:
    """Subclass it with ``__getitem__(index)`` (a batch: ``x``, ``(x, y)`` or ``(x, y,
    sample_weight)``) and ``__len__`` (or ``num_batches``); ``workers`` and
    ``use_multiprocessing`` are accepted and batches are made in this process, in order.

    >>> import retrograd as rg
    >>> class One(rg.keras.utils.PyDataset):
    ...     num_batches = 1
    ...     def __getitem__(self, i):
    ...         return [[1.0]], [[2.0]]
    >>> len(list(One()))
    1
    """

    def __init__(self, workers: int = 1, use_multiprocessing: bool = False,
                 max_queue_size: int = 10) -> None:  # fmt: skip
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    @property
    def workers(self) -> int:
        return getattr(self, "_workers", 1)

    @property
    def use_multiprocessing(self) -> bool:
        return getattr(self, "_use_multiprocessing", False)

    @property
    def max_queue_size(self) -> int:
        return getattr(self, "_max_queue_size", 10)

    def __getitem__(self, index: int) -> Any:
        """The batch at ``index`` (defined by subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__")

    @property
    def num_batches(self) -> int | None:
        """The number of batches (``len(self)`` where ``__len__`` is defined)."""
        if type(self).__len__ is not PyDataset.__len__:
            return len(self)
        return None

    def __len__(self) -> int:
        batches = type(self).num_batches
        count = batches.fget(self) if isinstance(batches, property) else batches
        if count is None:
            raise TypeError(f"{type(self).__name__} defines neither __len__ nor num_batches")
        return int(count)

    def on_epoch_begin(self) -> None:
        """Called before each pass over the batches."""

    def on_epoch_end(self) -> None:
        """Called after each pass over the batches."""

    def __iter__(self):
        return self.epoch()

    def epoch(self, shuffle: bool = False):
        """One pass over the batches, in order or (``shuffle``, as ``fit`` asks) in an order
        drawn with Python's ``random`` as Keras does; ``on_epoch_begin``/``on_epoch_end``
        around it."""
        self.on_epoch_begin()
        order = list(range(len(self)))
        if shuffle:
            random.shuffle(order)
        for index in order:
            batch = self[index]
            yield _tensors(tuple(batch) if isinstance(batch, list) else batch)
        self.on_epoch_end()


def _tensors(value: Any) -> Any:
    """A batch's arrays as tensors: tuples, dicts and lists of arrays are structures, a
    list of numbers is one array."""
    if value is None or isinstance(value, (Tensor, Variable)):
        return value
    if isinstance(value, tuple):
        return tuple(_tensors(v) for v in value)
    if isinstance(value, dict):
        return {k: _tensors(v) for k, v in value.items()}
    if isinstance(value, list) and value and not isinstance(value[0], (int, float, list)):
        return [_tensors(v) for v in value]
    return constant(value)


Sequence = PyDataset
