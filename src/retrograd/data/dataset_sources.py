"""``tf.data.Dataset``'s sources ``counter``, ``random``, ``choose_from_datasets`` and
``sample_from_datasets``, its options (``options``, ``with_options``) and files (``save``,
``load``, ``snapshot`` and ``cache`` to a file: NumPy files in retrograd's format), as a
base class of ``Dataset``.

>>> import retrograd as tf
>>> [int(x) for x in tf.data.Dataset.counter(5, 2).take(3)]
[5, 7, 9]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.errors import NotFoundError
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.data.structure import INFINITE, UNKNOWN, _leaves, _map
from retrograd.graph.function import TensorSpec

__all__ = ["DatasetSources"]


def _rebuild(structure: Any, leaves: list) -> Any:
    position = iter(leaves)
    return _map(lambda _: next(position), structure)


class DatasetSources:
    """The sources, options and files above, for ``Dataset`` (see its module)."""

    # -- options and persistence -------------------------------------------------------------
    def options(self) -> Any:
        """The options set on this dataset (and those it was made from)."""
        from retrograd.data.iterators import Options

        return getattr(self, "_options", None) or Options()

    def with_options(self, options: Any, name: str | None = None) -> Any:
        """This dataset with ``options`` merged over its own."""
        out = self._new(self._make_iterator, self._element_spec, self._cardinality)
        out._options = self.options().merge(options)
        return out

    def save(self, path: str, compression: Any = None, shard_func: Any = None,
             checkpoint_args: Any = None) -> None:  # fmt: skip
        """Writes the elements to the folder ``path`` (NumPy files; retrograd's format),
        for ``Dataset.load``."""
        os.makedirs(path, exist_ok=True)
        leaves = [[leaf.numpy() for leaf in _leaves(e)] for e in self]
        arrays = {f"e{i}_{j}": a for i, row in enumerate(leaves) for j, a in enumerate(row)}
        np.savez(os.path.join(path, "elements.npz"), **arrays)
        spec = self._element_spec
        np.save(
            os.path.join(path, "spec.npy"),
            np.array(
                repr(
                    _map(
                        lambda s: [
                            s.shape.as_list() if s.shape.rank is not None else None,
                            s.dtype.name,
                        ],
                        spec,
                    )
                )
            ),
        )

    @classmethod
    def load(cls, path: str, element_spec: Any = None, compression: Any = None,
             reader_func: Any = None) -> Any:  # fmt: skip
        """The dataset ``save`` wrote to ``path``."""
        file = os.path.join(path, "elements.npz")
        if not os.path.isfile(file):
            raise NotFoundError(f"Could not find metadata file. [Op:LoadDataset] path: {path}")
        import ast

        structure = ast.literal_eval(str(np.load(os.path.join(path, "spec.npy"))))
        spec = element_spec or _map(lambda s: TensorSpec(s[0], s[1]), _as_specs(structure))
        with np.load(file, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        count = len({k.split("_")[0] for k in arrays})
        width = len(_leaves(spec))

        def iterate() -> Iterator:
            for i in range(count):
                yield _rebuild(spec, [Tensor(arrays[f"e{i}_{j}"]) for j in range(width)])

        return cls(iterate, spec, count)

    def snapshot(self, path: str, compression: Any = "AUTO", reader_func: Any = None,
                 shard_func: Any = None, name: str | None = None) -> Any:  # fmt: skip
        """The same elements, written to ``path`` on the first full pass and read from it
        afterwards (also by later programs)."""
        return self._file_cache(os.path.join(path, "snapshot"))

    def _file_cache(self, filename: str) -> Any:
        source, dataset_type = self, type(self)

        def iterate() -> Iterator:
            folder = os.fspath(filename) + ".cache"
            if os.path.isfile(os.path.join(folder, "elements.npz")):
                yield from dataset_type.load(folder, source._element_spec)
                return
            elements = list(source)
            yield from elements
            cached = dataset_type(lambda: iter(elements), source._element_spec, len(elements))
            cached.save(folder)

        return self._new(iterate, self._element_spec, self._cardinality)

    # -- sources -----------------------------------------------------------------------------
    @classmethod
    def counter(cls, start: int = 0, step: int = 1, dtype: Any = dtypes.int64, name=None) -> Any:
        """start, start + step, ... without end."""
        dtype = dtypes.as_dtype(dtype)

        def iterate() -> Iterator:
            value = start
            while True:
                yield convert_to_tensor(value, dtype)
                value += step

        return cls(iterate, TensorSpec([], dtype), INFINITE)

    @classmethod
    def random(cls, seed: int | None = None, rerandomize_each_iteration: Any = None,
               name: str | None = None) -> Any:  # fmt: skip
        """Random int64 values without end (the same each pass unless
        ``rerandomize_each_iteration``)."""
        from retrograd.ops import random_ops

        if seed is None:
            seed = int(random_ops.uniform((), 0, 2**31 - 1, dtype=dtypes.int64).numpy())
        passes = [0]

        def iterate() -> Iterator:
            number = passes[0] if rerandomize_each_iteration else 0
            passes[0] += 1
            rng = np.random.default_rng(np.random.SeedSequence([seed, number]))
            while True:
                yield convert_to_tensor(rng.integers(-(2**63), 2**63 - 1, dtype=np.int64))

        return cls(iterate, TensorSpec([], dtypes.int64), INFINITE)

    @staticmethod
    def choose_from_datasets(datasets: list, choice_dataset: Any,
                             stop_on_empty_dataset: bool = True) -> Any:  # fmt: skip
        """The next element of ``datasets[i]`` for each ``i`` of ``choice_dataset``."""
        first = datasets[0]

        def iterate() -> Iterator:
            iterators = [iter(d) for d in datasets]
            for choice in choice_dataset:
                try:
                    yield next(iterators[int(choice)])
                except StopIteration:
                    if stop_on_empty_dataset:
                        return

        return type(first)(iterate, first.element_spec, UNKNOWN)

    @staticmethod
    def sample_from_datasets(datasets: list, weights: Any = None, seed: int | None = None,
                             stop_on_empty_dataset: bool = False,
                             rerandomize_each_iteration: Any = None) -> Any:  # fmt: skip
        """Elements drawn from ``datasets`` at random, in proportion to ``weights``."""
        from retrograd.ops import random_ops

        n = len(datasets)
        p = np.full(n, 1.0 / n) if weights is None else np.asarray(weights, np.float64)
        p = p / p.sum()
        if seed is None:
            seed = int(random_ops.uniform((), 0, 2**31 - 1, dtype=dtypes.int64).numpy())
        first, passes = datasets[0], [0]

        def iterate() -> Iterator:
            number = passes[0] if rerandomize_each_iteration else 0
            passes[0] += 1
            rng = np.random.default_rng(np.random.SeedSequence([seed, number]))
            iterators, alive = [iter(d) for d in datasets], p.copy()
            while alive.sum() > 0:
                i = int(rng.choice(n, p=alive / alive.sum()))
                try:
                    yield next(iterators[i])
                except StopIteration:
                    if stop_on_empty_dataset:
                        return
                    alive[i] = 0.0

        return type(first)(iterate, first.element_spec, UNKNOWN)


def _as_specs(structure: Any) -> Any:
    """The saved [shape, dtype] pairs (lists) as leaves of the element structure."""
    if isinstance(structure, list) and len(structure) == 2 and isinstance(structure[1], str):
        return _Pair(structure)
    if isinstance(structure, tuple):
        return tuple(_as_specs(s) for s in structure)
    if isinstance(structure, dict):
        return {k: _as_specs(v) for k, v in structure.items()}
    raise ValueError(f"Unreadable saved dataset structure: {structure!r}")


class _Pair(list):
    """A saved [shape, dtype] leaf (a list, so that _map treats it as a leaf)."""
