"""The batches ``fit``, ``evaluate`` and ``predict`` run on: arrays (or nested structures of
them) sliced in order or shuffled, or a dataset's elements; steps grouped for
``steps_per_execution``; logs turned into Python numbers.

>>> import numpy as np
>>> from retrograd.keras.src import data_batches
>>> [b[0].shape.as_list() for b in data_batches.Batches(np.zeros((5, 2)), batch_size=2)]
[[2, 2], [2, 2], [1, 2]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.dimensions import dimension_value
from retrograd.keras.src import tf_ops

__all__ = [
    "Batches",
    "as_batchable",
    "batch_size_of",
    "checked_batch_size",
    "executions",
    "is_dataset",
    "num_samples",
    "python_logs",
    "slice_batch",
]


def as_batchable(value: Any) -> Any:
    def convert(x: Any) -> Any:
        if x is None:
            return None
        return np.asarray(x)

    return nest.map_structure(convert, value)


def num_samples(data: Any) -> int:
    leaves = [x for x in nest.flatten(data) if x is not None]
    if not leaves:
        raise ValueError("fit/evaluate/predict: no input data was given")
    sizes = {len(x) for x in leaves}
    if len(sizes) != 1:
        raise ValueError(f"Data cardinality is ambiguous: arrays have sizes {sorted(sizes)}")
    return sizes.pop()


def slice_batch(data: Any, index: Any) -> Any:
    return nest.map_structure(lambda x: None if x is None else tf_ops.constant(x[index]), data)


def is_dataset(value: Any) -> bool:
    from retrograd.data.dataset import Dataset
    from retrograd.keras.src.py_dataset import PyDataset

    return isinstance(value, (Dataset, PyDataset))


class Batches:
    """The batches of one pass over the data: arrays sliced in order (or shuffled with
    retrograd's random stream), or a dataset's elements."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False):
        self.dataset = x if is_dataset(x) else None
        if self.dataset is not None:
            if y is not None:
                raise ValueError("`y` must not be given when `x` is a dataset")
            self.steps = x.num_batches if hasattr(x, "num_batches") else None  # PyDataset
            self.shuffle = shuffle
            return
        parts = (x,) if y is None else (x, y) if sample_weight is None else (x, y, sample_weight)
        self.data = as_batchable(parts)
        self.samples = num_samples(self.data)
        self.batch_size = checked_batch_size(batch_size)
        self.steps = math.ceil(self.samples / self.batch_size)
        self.shuffle = shuffle

    def __iter__(self):
        if self.dataset is not None:
            epoch = getattr(self.dataset, "epoch", None)  # a PyDataset shuffles its batches
            yield from epoch(self.shuffle) if epoch else iter(self.dataset)
            return
        order = np.arange(self.samples)
        if self.shuffle:
            from retrograd.graph.device_spec import device
            from retrograd.ops import random_ops

            with device("/device:CPU:0"):  # the order is host data: it indexes host arrays
                order = np.asarray(random_ops.shuffle(tf_ops.constant(order)))
        for start in range(0, self.samples, self.batch_size):
            yield slice_batch(self.data, order[start : start + self.batch_size])


def checked_batch_size(batch_size: Any) -> int:
    """``batch_size`` checked; None or 0 is Keras' default of 32."""
    if batch_size is not None and (
        isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer))
    ):
        raise TypeError(f"batch_size must be an integer or None, got {batch_size!r}")
    if batch_size is not None and batch_size < 0:
        raise ValueError(f"batch_size must be a positive integer or None, got {batch_size}")
    return int(batch_size) if batch_size else 32


def batch_size_of(x: Any) -> int:
    first = next(t for t in nest.flatten(x) if t is not None)
    return int(dimension_value(first.shape[0]))


def executions(batches: Any, steps: int | None, per_execution: int):
    """``(first step, batches)`` for each group of ``per_execution`` batches (the last
    group may be shorter), at most ``steps`` batches in all."""
    group: list = []
    first = 0
    for step, data in enumerate(batches):
        if steps is not None and step >= steps:
            break
        group.append(data)
        if len(group) == per_execution:
            yield first, group
            first, group = step + 1, []
    if group:
        yield first, group


def python_logs(logs: dict) -> dict:
    flat = {}
    for key, value in logs.items():
        if isinstance(value, dict):
            flat.update(python_logs(value))
        else:
            array = np.asarray(value)  # a vector metric (F1Score per class) stays an array
            flat[key] = float(array) if array.ndim == 0 else array
    return dict(sorted(flat.items()))
