"""The batches ``fit``, ``evaluate`` and ``predict`` run on: arrays (or nested structures of
them) sliced in order or shuffled, or a dataset's elements; steps grouped for
``steps_per_execution``, and ``fit``'s epochs over them; logs turned into Python numbers.

Shuffled arrays are permuted as Keras 3 on TensorFlow permutes them: its array adapter
shuffles the index range with ``tf.random.shuffle`` inside a ``tf.data`` map function,
traced once when ``fit`` starts (so the op takes the seeds (global seed, 0) of a fresh
graph) and run by a new kernel for each new iterator (so each pass starts the kernel's
Philox stream afresh: with a global seed, every epoch has the same permutation, as in
TensorFlow). ``shuffle="batch"`` shuffles each batch's indices in turn from one stream per
pass.

>>> import numpy as np
>>> from retrograd.keras.src import data_batches
>>> [b[0].shape.as_list() for b in data_batches.Batches(np.zeros((5, 2)), batch_size=2)]
[[2, 2], [2, 2], [1, 2]]
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.dimensions import dimension_value
from retrograd.keras.src import tf_ops
from retrograd.ops import philox_random, random_seeding

__all__ = [
    "Batches",
    "Epochs",
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
    """The batches of one pass over the data: arrays sliced in order (or shuffled as Keras
    shuffles them), or a dataset's elements. Without ``batch_size``, ``steps`` batches
    (Keras' default of 32 samples without either)."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False, steps=None):
        self.dataset = x if is_dataset(x) else None
        if self.dataset is not None:
            if y is not None:
                raise ValueError("`y` must not be given when `x` is a dataset")
            self.steps = x.num_batches if hasattr(x, "num_batches") else None  # PyDataset
            self.shuffle = shuffle
            # the batches of a pass, where known (Keras' num_batches: a dataset's cardinality)
            self.known = self.steps
            if hasattr(x, "cardinality") and int(x.cardinality()) >= 0:
                self.known = int(x.cardinality())
            return
        parts = (x,) if y is None else (x, y) if sample_weight is None else (x, y, sample_weight)
        self.data = as_batchable(parts)
        self.samples = num_samples(self.data)
        if not batch_size and steps:
            batch_size = max(1, math.ceil(self.samples / steps))
        self.batch_size = checked_batch_size(batch_size)
        self.steps = self.known = math.ceil(self.samples / self.batch_size)
        self.shuffle = shuffle
        # Keras' permutation function is traced now: its shuffle op takes a graph's first seeds
        self._seeds = random_seeding.function_seeds() if shuffle else (0, 0)

    def __iter__(self) -> Iterator:
        if self.dataset is None:
            return self._arrays()
        # a dataset's iterator is made now (a shuffle in it draws its seeds now, as in Keras)
        epoch = getattr(self.dataset, "epoch", None)  # a PyDataset shuffles its batches
        return iter(epoch(self.shuffle)) if epoch else iter(self.dataset)

    def _arrays(self) -> Iterator:
        order = np.arange(self.samples)
        # a new iterator: a new kernel, its stream from the start
        stream = philox_random.PhiloxStream(*self._seeds) if self.shuffle else None
        if stream is not None and self.shuffle != "batch" and self.samples > 1:
            order = order[philox_random.shuffled_order(self.samples, stream)]
        for start in range(0, self.samples, self.batch_size):
            index = order[start : start + self.batch_size]
            if stream is not None and self.shuffle == "batch" and len(index) > 1:
                index = index[philox_random.shuffled_order(len(index), stream)]
            yield slice_batch(self.data, index)


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


class Epochs:
    """``fit``'s epochs over ``batches``, as Keras' ``EpochIterator`` runs them: each epoch's
    ``(first step, batches)`` groups of ``per_execution``. Without ``steps_per_epoch`` each
    epoch is a new pass; with it, one pass continues across epochs until it has given all
    its batches (or its data ends), then the next epoch starts a new one.

    >>> import numpy as np
    >>> from retrograd.keras.src.data_batches import Batches, Epochs
    >>> epochs = Epochs(Batches(np.arange(4.0), batch_size=1), 2, 1)
    >>> [[int(group[0][0].numpy()[0]) for _, group in epochs.epoch()] for _ in range(3)]
    [[0, 1], [2, 3], [0, 1]]
    """

    def __init__(self, batches: Batches, steps_per_epoch: int | None, per_execution: int):
        self.batches = batches
        self.steps_per_epoch = steps_per_epoch
        self.per_execution = per_execution
        self._current: Any = None
        self._seen = 0

    def epoch(self):
        """The groups of batches of the next epoch."""
        known = self.batches.known
        steps = self.steps_per_epoch or known or -1
        counter: Iterator[int]
        if steps < 0:
            self._current = iter(self.batches)
            counter = itertools.count(0, self.per_execution)
        else:
            if self._current is None or self.steps_per_epoch is None:
                self._current, self._seen = iter(self.batches), 0
            counter = iter(range(0, steps, self.per_execution))
        for step in counter:
            if known and self._seen >= known:
                if self.steps_per_epoch:
                    warnings.warn(
                        "Your input ran out of data; interrupting training. Make sure that "
                        "your dataset or generator can generate at least `steps_per_epoch * "
                        "epochs` batches.",
                        stacklevel=2,
                    )
                break
            self._seen += self.per_execution
            group = list(itertools.islice(self._current, self.per_execution))
            if group:
                yield step, group
            if len(group) < self.per_execution:  # the data ran out
                if known and self._seen >= known:  # at its known end (Keras' last execution)
                    break
                self._current = None  # the next epoch starts a new pass
                return
        if known and self._seen >= known:  # (Keras makes the next pass's iterator now)
            self._current, self._seen = iter(self.batches), 0


def python_logs(logs: dict) -> dict:
    flat = {}
    for key, value in logs.items():
        if isinstance(value, dict):
            flat.update(python_logs(value))
        else:
            array = np.asarray(value)  # a vector metric (F1Score per class) stays an array
            flat[key] = float(array) if array.ndim == 0 else array
    return dict(sorted(flat.items()))
