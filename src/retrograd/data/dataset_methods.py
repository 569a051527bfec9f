"""More of ``tf.data.Dataset``'s transformations, as a base class of ``Dataset``:
``apply``, ``flat_map``, ``interleave``, ``padded_batch``, ``rebatch``, ``window``, ``scan``,
``reduce``, ``shard``, ``take_while``, ``unique``, ``ignore_errors``, ``group_by_window``,
``bucket_by_sequence_length`` and ``get_single_element`` (sources, options and files:
dataset_sources.py).

>>> import retrograd as tf
>>> ds = tf.data.Dataset.range(5).window(2, shift=2).flat_map(lambda w: w.batch(2))
>>> [b.tolist() for b in ds.as_numpy_iterator()]
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.data.structure import UNKNOWN, _leaves, _map, _spec, _to_tensor, peeking
from retrograd.graph.function import TensorSpec
from retrograd.ops import array_ops, pad_ops

__all__ = ["DatasetMethods"]


def _call(fn: Callable, element: Any) -> Any:
    return fn(*element) if isinstance(element, tuple) else fn(element)


def _rebuild(structure: Any, leaves: list) -> Any:
    position = iter(leaves)
    return _map(lambda _: next(position), structure)


def _pad_stack(values: list[Tensor], shape: Any, value: Any) -> Tensor:
    ranks = values[0].shape.rank
    target = [max(int(v.shape[i]) for v in values) for i in range(ranks)]
    if shape is not None:
        given = list(shape.as_list() if hasattr(shape, "as_list") else shape)
        target = [t if g is None or g == -1 else int(g) for t, g in zip(target, given)]
    padded = []
    for v in values:
        amounts = [[0, t - int(d)] for t, d in zip(target, v.shape)]
        if any(a < 0 for _, a in amounts):
            raise InvalidArgumentError(
                f"Attempted to pad to a smaller size than the input element: {list(v.shape)} "
                f"into {target}"
            )
        fill = 0 if value is None else value
        padded.append(pad_ops.pad(v, amounts, constant_values=fill))
    return array_ops.stack(padded)


class DatasetMethods:
    """The transformations above, for ``Dataset`` (see its module)."""

    _element_spec: Any  # (set by Dataset)
    _cardinality: int
    _file_cache: Callable[[str], Any]  # (DatasetSources')

    def _new(self, iterate: Callable[[], Iterator], spec: Any, card: int) -> Any:
        return type(self)(iterate, spec, card)

    def cache(self, filename: str = "", name: str | None = None) -> Any:
        """The same elements, kept in memory (or in ``filename``) after the first full pass."""
        if filename:
            return self._file_cache(filename)
        source: Any = self
        stored: list = []

        def iterate() -> Iterator:
            if stored:
                yield from stored[0]
                return
            seen = []
            for element in source:
                seen.append(element)
                yield element
            stored.append(seen)

        return self._new(iterate, self._element_spec, self._cardinality)

    def _with_spec(self, iterate: Callable[[], Iterator], card: int) -> Any:
        """A dataset of ``iterate``'s elements, its spec read from the first one."""
        with peeking():
            first = next(iter(iterate()), None)
        spec = None if first is None else _map(_spec, first)
        return self._new(iterate, spec, card)

    # -- restructuring ---------------------------------------------------------------------
    def apply(self, transformation_func: Callable) -> Any:
        """``transformation_func(self)``, which must return a dataset."""
        return transformation_func(self)

    def flat_map(self, map_func: Callable, name: str | None = None) -> Any:
        """The elements of the dataset ``map_func`` returns for each element, in order."""
        source = self

        def iterate() -> Iterator:
            for element in source:
                yield from _call(map_func, element)

        return self._with_spec(iterate, UNKNOWN)

    def interleave(self, map_func: Callable, cycle_length: int | None = None,
                   block_length: int | None = None, num_parallel_calls: Any = None,
                   deterministic: Any = None, name: str | None = None) -> Any:  # fmt: skip
        """Cycles over ``cycle_length`` of the datasets ``map_func`` makes (default: the
        number of CPUs), taking ``block_length`` elements from each in turn."""
        cycle = int(cycle_length) if cycle_length not in (None, -1) else (os.cpu_count() or 1)
        block = 1 if block_length is None else int(block_length)
        source = self

        def iterate() -> Iterator:
            inputs, open_ = iter(source), []
            exhausted = False
            while True:
                while not exhausted and len(open_) < cycle:
                    try:
                        open_.append(iter(_call(map_func, next(inputs))))
                    except StopIteration:
                        exhausted = True
                if not open_:
                    return
                index = 0
                while index < len(open_):
                    taken = 0
                    for element in open_[index]:
                        yield element
                        taken += 1
                        if taken == block:
                            break
                    if taken < block:  # this one is done: the next input takes its place
                        open_.pop(index)
                        if not exhausted:
                            try:
                                open_.insert(index, iter(_call(map_func, next(inputs))))
                                index += 1  # (it takes its turn in the next cycle)
                            except StopIteration:
                                exhausted = True
                        continue
                    index += 1

        return self._with_spec(iterate, UNKNOWN)

    def padded_batch(self, batch_size: int, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False, name: str | None = None) -> Any:  # fmt: skip
        """Batches elements of different shapes, each component padded (with
        ``padding_values``, 0 by default) to ``padded_shapes`` (None dimensions: the
        largest in the batch)."""
        batch_size = int(batch_size)
        if batch_size <= 0:
            raise ValueError(f"Dataset.padded_batch: batch_size must be positive, got {batch_size}")
        source, spec = self, self._element_spec
        shapes = _map(lambda _: None, spec) if padded_shapes is None else padded_shapes
        values = _map(lambda _: None, spec) if padding_values is None else padding_values
        if not isinstance(spec, (tuple, dict)):
            shapes, values = (shapes,), (values,)

        def stack(group: list) -> Any:
            flat = [_leaves(e) if isinstance(spec, (tuple, dict)) else [e] for e in group]
            shape_leaves = _leaves(shapes) if isinstance(spec, (tuple, dict)) else list(shapes)
            value_leaves = _leaves(values) if isinstance(spec, (tuple, dict)) else list(values)
            out = [_pad_stack([f[i] for f in flat], shape_leaves[i], value_leaves[i])
                   for i in range(len(flat[0]))]  # fmt: skip
            return _rebuild(spec, out) if isinstance(spec, (tuple, dict)) else out[0]

        def iterate() -> Iterator:
            group = []
            for element in source:
                group.append(element)
                if len(group) == batch_size:
                    yield stack(group)
                    group = []
            if group and not drop_remainder:
                yield stack(group)

        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        return self._with_spec(iterate, card)

    def rebatch(self, batch_size: Any, drop_remainder: bool = False, name=None) -> Any:
        """The batches split and regrouped into batches of ``batch_size`` (or of the sizes
        in a list, cyclically)."""
        sizes = [int(s) for s in np.ravel(batch_size)]
        if len(sizes) == 1:
            return self.unbatch().batch(sizes[0], drop_remainder)
        rows, source = self.unbatch(), sizes

        def iterate() -> Iterator:
            group, turn = [], 0
            for element in rows:
                group.append(element)
                if len(group) == source[turn % len(source)]:
                    yield _stack(group)
                    group, turn = [], turn + 1
            if group and not drop_remainder:
                yield _stack(group)

        def _stack(group: list) -> Any:
            from retrograd.data.structure import _zip_map

            return _zip_map(array_ops.stack, group)

        return self._with_spec(iterate, UNKNOWN)

    def window(self, size: int, shift: int | None = None, stride: int = 1,
               drop_remainder: bool = False, name: str | None = None) -> Any:  # fmt: skip
        """Windows of ``size`` elements (every ``stride``-th), starting every ``shift``:
        each window is the element structure with a dataset at each leaf."""
        size, stride = int(size), int(stride)
        shift = size if shift is None else int(shift)
        source, dataset_type, spec = self, type(self), self._element_spec

        def iterate() -> Iterator:
            elements = list(source)
            start = 0
            while start < len(elements):
                chosen = elements[start : start + size * stride : stride]
                if len(chosen) < size and (drop_remainder or not chosen):
                    return
                leaves = [_leaves(e) for e in chosen]
                datasets = [dataset_type.from_tensor_slices(array_ops.stack([c[i] for c in leaves]))
                            for i in range(len(leaves[0]))]  # fmt: skip
                yield _rebuild(spec, datasets)
                start += shift

        from retrograd.data.iterators import DatasetSpec

        return self._new(iterate, _map(lambda s: DatasetSpec(s), spec), UNKNOWN)

    # -- state and selection ---------------------------------------------------------------
    def scan(self, initial_state: Any, scan_func: Callable, name: str | None = None) -> Any:
        """Outputs of ``scan_func(state, element) -> (new state, output)``, threading the
        state from ``initial_state``."""
        source = self

        def iterate() -> Iterator:
            state = _map(_to_tensor, initial_state)
            for element in source:
                state, output = scan_func(state, element)
                state = _map(_to_tensor, state)
                yield _map(_to_tensor, tuple(output) if isinstance(output, list) else output)

        return self._with_spec(iterate, self._cardinality)

    def reduce(self, initial_state: Any, reduce_func: Callable, name: str | None = None) -> Any:
        """The state after ``reduce_func(state, element)`` over every element."""
        state = _map(_to_tensor, initial_state)
        for element in self:
            state = _map(_to_tensor, reduce_func(state, element))
        return state

    def shard(self, num_shards: int, index: int, name: str | None = None) -> Any:
        """Every ``num_shards``-th element, starting at ``index``."""
        num_shards, index = int(num_shards), int(index)
        if not 0 <= index < num_shards:
            raise InvalidArgumentError(
                f"Index must be between 0 and {num_shards - 1} (currently index = {index})."
            )
        source = self

        def iterate() -> Iterator:
            for i, element in enumerate(source):
                if i % num_shards == index:
                    yield element

        card = self._cardinality
        if card >= 0:
            card = card // num_shards + (1 if index < card % num_shards else 0)
        return self._new(iterate, self._element_spec, card)

    def take_while(self, predicate: Callable, name: str | None = None) -> Any:
        """The elements up to the first for which ``predicate`` is false."""
        source = self

        def iterate() -> Iterator:
            for element in source:
                if not bool(np.asarray(_call(predicate, element))):
                    return
                yield element

        return self._new(iterate, self._element_spec, UNKNOWN)

    def unique(self, name: str | None = None) -> Any:
        """Each distinct element once, in order of first appearance (scalars of int32/int64,
        as TensorFlow)."""
        spec = self._element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype.name not in ("int32", "int64"):
            raise TypeError(f"`tf.data.Dataset.unique` does not support type {spec}.")
        source = self

        def iterate() -> Iterator:
            seen = set()
            for element in source:
                key = element.numpy().item()
                if key not in seen:
                    seen.add(key)
                    yield element

        return self._new(iterate, spec, UNKNOWN)

    def ignore_errors(self, log_warning: bool = False, name: str | None = None) -> Any:
        """The elements whose production raised no error (the others are skipped)."""
        source = self

        def iterate() -> Iterator:
            elements = source._make_iterator()
            elements = iter(elements)
            while True:
                try:
                    yield next(elements)
                except StopIteration:
                    return
                except Exception as error:  # noqa: BLE001 - that is what it is for
                    if log_warning:
                        import logging

                        logging.getLogger("tensorflow").warning("Ignoring error: %s", error)

        return self._new(iterate, self._element_spec, UNKNOWN)

    def group_by_window(self, key_func: Callable, reduce_func: Callable, window_size=None,
                        window_size_func=None, name: str | None = None) -> Any:  # fmt: skip
        """Groups elements by ``key_func`` (an int64 scalar) into windows of ``window_size``
        (or ``window_size_func(key)``); ``reduce_func(key, window dataset)`` makes a dataset
        of each full window (and of the partial ones at the end)."""
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` "
                             "argument must be specified.")  # fmt: skip
        dataset_type, source = type(self), self

        def size_of(key: Tensor) -> int:
            return int(window_size if window_size is not None else window_size_func(key))

        def window(elements: list) -> Any:
            return dataset_type(lambda: iter(elements), source._element_spec, len(elements))

        def iterate() -> Iterator:
            groups: dict = {}
            for element in source:
                key = convert_to_tensor(_call(key_func, element), dtypes.int64)
                groups.setdefault(int(key), []).append(element)
                if len(groups[int(key)]) == size_of(key):
                    yield from reduce_func(key, window(groups.pop(int(key))))
            for k, elements in groups.items():
                yield from reduce_func(convert_to_tensor(np.int64(k)), window(elements))

        return self._with_spec(iterate, UNKNOWN)

    def bucket_by_sequence_length(self, element_length_func: Callable, bucket_boundaries: list,
                                  bucket_batch_sizes: list, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary: bool = False,
                                  no_padding: bool = False, drop_remainder: bool = False,
                                  name: str | None = None) -> Any:  # fmt: skip
        """Batches elements of similar length together: bucket i holds lengths in
        [boundaries[i-1], boundaries[i]) and batches ``bucket_batch_sizes[i]`` of them,
        padded (to the longest, or to the bucket's boundary - 1)."""
        boundaries = [int(b) for b in bucket_boundaries]
        if len(bucket_batch_sizes) != len(boundaries) + 1:
            raise ValueError(
                f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                f"len(bucket_batch_sizes)={len(bucket_batch_sizes)} and "
                f"len(bucket_boundaries)={len(boundaries)}"
            )

        def bucket(*element: Any) -> Tensor:
            length = int(element_length_func(*element))
            return convert_to_tensor(np.int64(int(np.searchsorted(boundaries, length, "right"))))

        def batch(key: Tensor, window: Any) -> Any:
            size = int(bucket_batch_sizes[int(key)])
            if no_padding:
                return window.batch(size, drop_remainder)
            shapes = padded_shapes
            if pad_to_bucket_boundary and shapes is None:
                top = boundaries[int(key)] - 1 if int(key) < len(boundaries) else None
                shapes = _map(lambda s: [top] + [None] * (s.shape.rank - 1), window.element_spec)
            return window.padded_batch(size, shapes, padding_values, drop_remainder)

        def window_size(key: Tensor) -> int:
            return int(bucket_batch_sizes[int(key)])

        return self.group_by_window(bucket, batch, window_size_func=window_size)

    def get_single_element(self, name: str | None = None) -> Any:
        """The dataset's only element (InvalidArgumentError when it has none or more)."""
        elements = iter(self)
        try:
            element = next(elements)
        except StopIteration:
            raise InvalidArgumentError("Dataset was empty.") from None
        try:
            next(elements)
        except StopIteration:
            return element
        raise InvalidArgumentError("Dataset had more than one element.")
