"""``tf.data.Dataset``, the in-memory part: datasets of nested structures (tuples and
dicts) of tensors, built from tensors and transformed lazily; each iteration starts over.

Lists are values, not structure (as in tf.data): ``from_tensor_slices([1, 2])`` gives two
scalars. ``shuffle`` gives TensorFlow's orders: its seeds are TensorFlow's (from ``seed`` and
``tf.random.set_seed``) and its buffer is drawn from as TensorFlow's ShuffleDataset draws.
Functions given to ``map`` and ``filter`` run eagerly on each element.

>>> import retrograd as rg
>>> ds = rg.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [0, 1, 0])).batch(2)
>>> [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ds]
[([1.0, 2.0], [0, 1]), ([3.0], [0])]
>>> [int(i) for i in rg.data.Dataset.range(6).filter(lambda i: i % 2 == 0)]
[0, 2, 4]
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from retrograd.core import dtypes, nest
from retrograd.core.dimensions import dimension_value
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.data.dataset_methods import DatasetMethods
from retrograd.data.dataset_sources import DatasetSources
from retrograd.data.structure import (
    INFINITE,
    PEEKING,
    UNKNOWN,
    _leaves,
    _map,
    _spec,
    _to_tensor,
    _zip_map,
    peeking,
)
from retrograd.graph.function import TensorSpec
from retrograd.ops import array_ops, philox_random, random_seeding

__all__ = ["Dataset", "AUTOTUNE", "INFINITE", "UNKNOWN"]

AUTOTUNE = -1


def _int64(value: Any, op: str, name: str) -> int:
    """An integer argument, as TensorFlow's int64 scalars: TypeError for another type,
    ValueError beyond int64."""
    if isinstance(value, Tensor):
        value = value.numpy()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"Dataset.{op}: `{name}` must be an integer, got {value!r:.60}")
    if not -(2**63) <= int(value) < 2**63:
        raise ValueError(f"Dataset.{op}: `{name}` = {value} does not fit an int64")
    return int(value)


def _concatenated_spec(a: Any, b: Any) -> Any:
    """The element spec of ``a``'s elements followed by ``b``'s: the same structure and
    dtypes, the dimensions both have (None where they differ)."""
    incompatible = TypeError(f"Incompatible dataset elements:\n  {a} vs. {b}")
    try:
        nest.assert_same_structure(a, b)
    except (TypeError, ValueError):
        raise incompatible from None
    merged = []
    for x, y in zip(nest.flatten(a), nest.flatten(b)):
        if x.dtype != y.dtype:
            raise incompatible
        if x.shape.rank is None or y.shape.rank is None or x.shape.rank != y.shape.rank:
            merged.append(TensorSpec(None, x.dtype))
        else:
            dims = [d if d == e else None for d, e in zip(x.shape.as_list(), y.shape.as_list())]
            merged.append(TensorSpec(dims, x.dtype))
    return nest.pack_sequence_as(a, merged)


class Dataset(DatasetMethods, DatasetSources):
    """A re-iterable sequence of elements (nested tuples/dicts of tensors).

    >>> import retrograd as rg
    >>> ds = rg.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5]).map(lambda x: x * 10).batch(2)
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[10, 20], [30, 40], [50]]
    """

    def __init__(
        self, make_iterator: Callable[[], Iterator], element_spec: Any, cardinality: int
    ) -> None:
        self._make_iterator = make_iterator
        self._element_spec = element_spec
        self._cardinality = cardinality

    # -- sources -------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors: Any, name: str | None = None) -> Dataset:
        """One element per index of the first dimension of every component."""
        tensors = _map(_to_tensor, tensors)
        leaves = _leaves(tensors)
        sizes = {dimension_value(t.shape[0]) if t.shape.rank else None for t in leaves}
        if None in sizes:
            raise ValueError("from_tensor_slices: components must have at least one dimension")
        if len(sizes) != 1:
            raise ValueError(
                f"from_tensor_slices: all components must have the same size in their first "
                f"dimension, got {sorted(sizes)}"
            )
        count = sizes.pop()
        arrays = _map(lambda t: np.asarray(t), tensors)

        def iterate() -> Iterator:
            for i in range(count):
                yield _map(lambda a, i=i: convert_to_tensor(a[i]), arrays)

        spec = _map(lambda t: TensorSpec(plain_dims(t.shape)[1:], t.dtype), tensors)
        return Dataset(iterate, spec, count)

    @staticmethod
    def from_generator(
        generator: Callable,
        output_types: Any = None,
        output_shapes: Any = None,
        args: Any = None,
        output_signature: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """The elements ``generator(*args)`` yields (called afresh for every pass), each
        converted to the dtypes of ``output_signature`` (TensorSpecs) or ``output_types``
        and checked against its shapes."""
        if not callable(generator):
            raise TypeError("Dataset.from_generator: `generator` must be callable")
        if output_signature is None:
            if output_types is None:
                raise TypeError("Dataset.from_generator: give output_signature (or output_types)")
            shapes = output_shapes
            if shapes is None:
                shapes = _map(lambda _: None, output_types)
            position = iter(_leaves(shapes))
            output_signature = _map(lambda t: TensorSpec(next(position), t), output_types)
        specs = output_signature
        arguments = tuple(args or ())

        def convert(value: Any, spec: TensorSpec) -> Tensor:
            t = convert_to_tensor(np.asarray(value, spec.dtype.as_numpy_dtype))
            if not spec.shape.is_compatible_with(t.shape):
                raise TypeError(
                    f"Dataset.from_generator: the generator yielded an element of shape "
                    f"{plain_dims(t.shape)} where {spec.shape} was expected"
                )
            return t

        def iterate() -> Iterator:
            for element in generator(*arguments):
                if isinstance(specs, tuple):
                    element = tuple(element)
                    if len(element) != len(specs):
                        raise TypeError(
                            f"Dataset.from_generator: the generator yielded {len(element)} "
                            f"values where {len(specs)} were expected"
                        )
                yield _zip_map(lambda pair: convert(*pair), [element, specs])

        return Dataset(iterate, specs, UNKNOWN)

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> Dataset:
        """One element: the tensors themselves."""
        tensors = _map(_to_tensor, tensors)
        return Dataset(lambda: iter([tensors]), _map(_spec, tensors), 1)

    @staticmethod
    def range(*args: int, output_type: Any = dtypes.int64, name: str | None = None) -> Dataset:
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)``."""
        numbers = range(*(_int64(a, "range", "argument") for a in args))
        dtype = dtypes.as_dtype(output_type)

        def iterate() -> Iterator:
            for i in numbers:
                yield convert_to_tensor(np.asarray(i, dtype.as_numpy_dtype))

        return Dataset(iterate, TensorSpec([], dtype), len(numbers))

    @staticmethod
    def zip(*datasets: Any, name: str | None = None) -> Dataset:
        """Elements of several datasets side by side (a tuple or dict of datasets)."""
        structure = datasets[0] if len(datasets) == 1 else datasets
        if isinstance(structure, Dataset):
            structure = (structure,)
        members = _leaves(structure)
        if not all(isinstance(d, Dataset) for d in members):
            raise TypeError("Dataset.zip: expected datasets (in a tuple or dict)")

        def iterate() -> Iterator:
            return run([iter(d) for d in members])  # (made at once: see _opened)

        def run(iterators: list) -> Iterator:
            while True:
                try:
                    values = [next(it) for it in iterators]
                except StopIteration:
                    return
                position = iter(values)
                yield _map(lambda _, p=position: next(p), structure)

        cards = [d._cardinality for d in members]
        finite = [c for c in cards if c >= 0]
        card = (
            min(finite) if finite else (INFINITE if all(c == INFINITE for c in cards) else UNKNOWN)
        )
        position_spec = iter([d.element_spec for d in members])
        return Dataset(iterate, _map(lambda _: next(position_spec), structure), card)

    # -- iteration -----------------------------------------------------------------------
    def __iter__(self) -> Iterator:
        from retrograd.data.iterators import OwnedIterator

        return OwnedIterator(self)

    def as_numpy_iterator(self) -> Iterator:
        """The elements with NumPy arrays in place of tensors (a ``NumpyIterator``)."""
        from retrograd.data.iterators import NumpyIterator

        return NumpyIterator(self)

    @property
    def element_spec(self) -> Any:
        """The structure of ``TensorSpec``s of an element."""
        return self._element_spec

    def cardinality(self) -> Tensor:
        """The number of elements, ``INFINITE`` (-1) or ``UNKNOWN`` (-2), as a tensor."""
        return convert_to_tensor(np.int64(self._cardinality))

    def __len__(self) -> int:
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality < 0:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<Dataset element_spec={self._element_spec!r}>"

    # -- transformations -----------------------------------------------------------------
    def batch(
        self,
        batch_size: int,
        drop_remainder: bool = False,
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """Stacks ``batch_size`` consecutive elements (the last batch may be smaller)."""
        batch_size = _int64(batch_size, "batch", "batch_size")
        if batch_size <= 0:
            raise InvalidArgumentError(  # (TensorFlow's type; a ValueError too)
                f"Dataset.batch: batch_size must be greater than zero, got {batch_size}"
            )

        def run(elements: Iterator) -> Iterator:
            group = []
            for element in elements:
                group.append(element)
                if len(group) == batch_size:
                    yield _zip_map(array_ops.stack, group)
                    group = []
            if group and not drop_remainder:
                yield _zip_map(array_ops.stack, group)

        leading = batch_size if drop_remainder else None
        spec = _map(
            lambda s: TensorSpec([leading, *s.shape.as_list()], s.dtype), self._element_spec
        )
        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        return Dataset(_opened(self, run), spec, card)

    def unbatch(self, name: str | None = None) -> Dataset:
        """Splits each element along its first dimension."""

        def run(elements: Iterator) -> Iterator:
            for element in elements:
                size = int(_leaves(element)[0].shape[0])
                for i in range(size):
                    yield _map(lambda t, i=i: t[i], element)

        spec = _map(lambda s: TensorSpec(s.shape[1:], s.dtype), self._element_spec)
        return Dataset(_opened(self, run), spec, UNKNOWN)

    def shuffle(
        self,
        buffer_size: int,
        seed: int | None = None,
        reshuffle_each_iteration: bool = True,
        name: str | None = None,
    ) -> Dataset:
        """Shuffles with a buffer of ``buffer_size`` elements, in TensorFlow's order: the
        buffer is kept full, and each element comes from a random place among those waiting,
        whose place takes the oldest one's. Each pass draws from a Philox stream of its own,
        whose seeds come from a stream of ``seed`` and the op seed (TensorFlow's seed
        generator), or every pass from the same one with ``reshuffle_each_iteration=False``.

        >>> import retrograd as rg
        >>> ds = rg.data.Dataset.range(10).shuffle(4, seed=3)
        >>> [int(i) for i in ds], [int(i) for i in ds]  # TensorFlow's orders
        ([0, 3, 2, 1, 4, 7, 6, 5, 8, 9], [0, 4, 1, 2, 5, 3, 6, 8, 9, 7])
        """
        buffer_size = _int64(buffer_size, "shuffle", "buffer_size")
        if buffer_size <= 0:
            raise ValueError(f"Dataset.shuffle: buffer_size must be positive, got {buffer_size}")
        seed1, seed2 = random_seeding.get_seed(seed)
        if seed1 is None or seed2 is None:  # (random seeds, drawn once)
            seed1, seed2 = secrets.randbits(63) | 1, secrets.randbits(63)
        generator = philox_random.single_words(seed1, seed2)  # TensorFlow's seed generator
        peeked: list = []  # the seeds a peek (``map``'s) drew for the next pass

        def iterate() -> Iterator:  # a new pass: its seeds are drawn now, as TensorFlow's
            if not reshuffle_each_iteration:
                seeds = (seed1, seed2)
            elif peeked:
                seeds = peeked[0] if PEEKING.get() else peeked.pop()
            else:
                seeds = (next(generator), next(generator))
                if PEEKING.get():
                    peeked.append(seeds)
            return run(iter(self), philox_random.single_words(*seeds))

        def run(elements: Iterator, words: Iterator[int]) -> Iterator:
            buffer: list = []
            start = end = 0  # the elements waiting are those from start to end (mod size)
            for element in elements:
                if end < buffer_size:
                    buffer.append(element)
                else:
                    buffer[end % buffer_size] = element
                end += 1
                if end - start < buffer_size:
                    continue
                yield _shuffle_take(buffer, start, end, next(words))
                start += 1
            while start < end:
                yield _shuffle_take(buffer, start, end, next(words))
                start += 1

        return Dataset(iterate, self._element_spec, self._cardinality)

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """Passes over the data ``count`` times (forever when None or -1)."""
        source = self
        passes = -1 if count is None else _int64(count, "repeat", "count")
        forever = passes == -1

        def iterate() -> Iterator:  # the first pass is made at once (see _opened)
            return run(iter(source)) if forever or passes > 0 else iter(())

        def run(elements: Iterator) -> Iterator:
            done = 0
            while forever or done < passes:
                empty = True
                for element in elements:
                    empty = False
                    yield element
                if empty:
                    return
                done += 1
                elements = iter(source)  # (after the last pass too, as TensorFlow's)

        card = self._cardinality
        if forever:
            card = INFINITE if card != 0 else 0
        elif card >= 0:
            card *= passes
        return Dataset(iterate, self._element_spec, card)

    def map(
        self,
        map_func: Callable,
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """``map_func`` of each element (a tuple element is passed as arguments). Its random
        ops are seeded as in TensorFlow's traced function (``random_seeding.TracedSeeds``)."""
        source, traced = self, random_seeding.TracedSeeds()

        def apply(element: Any, kernels: dict) -> Any:
            with traced.call(kernels):
                result = map_func(*element) if isinstance(element, tuple) else map_func(element)
            if isinstance(result, list):
                result = tuple(result)
            return _map(_to_tensor, result)

        def run(elements: Iterator) -> Iterator:
            kernels: dict = {}  # (each iterator runs the function's kernels afresh)
            for element in elements:
                yield apply(element, kernels)

        spec = None
        if self._cardinality != 0:
            with peeking():  # (the passes after it are as without it)
                first = next(iter(self), None)
            spec = _map(_spec, apply(first, {})) if first is not None else None
        return Dataset(_opened(source, run), spec, self._cardinality)

    def filter(self, predicate: Callable, name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` is true (a scalar boolean); seeded as ``map``."""
        source, traced = self, random_seeding.TracedSeeds()

        def keep(element: Any, kernels: dict) -> bool:
            with traced.call(kernels):
                result = predicate(*element) if isinstance(element, tuple) else predicate(element)
            value = np.asarray(result)
            if value.shape != () or value.dtype != np.bool_:
                raise TypeError(
                    f"Dataset.filter: the predicate must return a scalar bool, got "
                    f"{value.dtype}{list(value.shape)}"
                )
            return bool(value)

        def iterate() -> Iterator:
            kernels: dict = {}
            return (element for element in source if keep(element, kernels))

        return Dataset(iterate, self._element_spec, UNKNOWN)

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (all when -1)."""
        count = _int64(count, "take", "count")

        def run(elements: Iterator) -> Iterator:
            for i, element in enumerate(elements):
                if 0 <= count <= i:
                    return
                yield element

        card = self._cardinality
        if count >= 0:
            card = count if card == INFINITE else (min(card, count) if card >= 0 else UNKNOWN)
        return Dataset(_opened(self, run), self._element_spec, card)

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements."""
        count = _int64(count, "skip", "count")

        def run(elements: Iterator) -> Iterator:
            for i, element in enumerate(elements):
                if i >= count:
                    yield element

        card = self._cardinality
        if card >= 0:
            card = max(card - count, 0)
        return Dataset(_opened(self, run), self._element_spec, card)

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:
        """``(index, element)`` pairs, the index an int64 scalar."""
        counter = Dataset.range(start, 2**62)
        return Dataset.zip((counter, self))

    def prefetch(self, buffer_size: int, name: str | None = None) -> Dataset:
        """The same elements (in memory there is nothing to overlap)."""
        return Dataset(self._make_iterator, self._element_spec, self._cardinality)

    def concatenate(self, dataset: Dataset, name: str | None = None) -> Dataset:
        """This dataset's elements, then ``dataset``'s; their elements must have the same
        structure and dtypes (TypeError otherwise, as TensorFlow); shapes that differ
        become unknown dimensions of the result's ``element_spec``."""
        if not isinstance(dataset, Dataset):
            raise TypeError(f"concatenate: expected a Dataset, got {type(dataset).__name__}")
        spec = _concatenated_spec(self._element_spec, dataset._element_spec)
        first, second = self, dataset

        def iterate() -> Iterator:  # (the first's pass is made at once: see _opened)
            return run(iter(first))

        def run(elements: Iterator) -> Iterator:
            yield from elements
            yield from second

        a, b = self._cardinality, dataset._cardinality
        card = a + b if a >= 0 and b >= 0 else (INFINITE if INFINITE in (a, b) else UNKNOWN)
        return Dataset(iterate, spec, card)


def _shuffle_take(buffer: list, start: int, end: int, word: int) -> Any:
    """The element a shuffle gives: the one at a random place among those waiting (from
    ``start`` to ``end``, places taken modulo the buffer's size), whose place takes the
    oldest one's (TensorFlow's ShuffleDataset)."""
    size = len(buffer)
    index, first = (start + word % (end - start)) % size, start % size
    element = buffer[index]
    buffer[index], buffer[first] = buffer[first], None
    return element


def _opened(source: Dataset, run: Callable[[Iterator], Iterator]) -> Callable[[], Iterator]:
    """How a transformation makes its iterator: ``run`` over a new iterator of ``source``,
    made at once, as TensorFlow makes an iterator's inputs when it makes the iterator (a
    shuffle below draws the seeds of its pass then, even if the iterator is never used)."""
    return lambda: run(iter(source))
