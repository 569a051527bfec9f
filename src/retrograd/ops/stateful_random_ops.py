"""``retrograd.random.Generator``: a random number generator that owns its state, as
TensorFlow's ``tf.random.Generator``; and the global generator.

Each Generator wraps a NumPy PCG64 generator (whatever ``alg`` asks for: TensorFlow's
Philox and ThreeFry streams cannot be reproduced, so the numbers differ from TensorFlow's
while the distributions and the state semantics match). ``set_seed`` does not touch
generators, as in TensorFlow.

>>> import retrograd as rg
>>> g = rg.random.Generator.from_seed(1)
>>> first = g.normal([2])
>>> g.reset_from_seed(1)
>>> g.normal([2]).numpy().tolist() == first.numpy().tolist()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.tensor import Tensor
from retrograd.ops import random_ops, random_seeding

_ALGORITHMS = (None, "philox", "threefry", "auto_select", 1, 2, 3)
_TAG = 0x52474E  # keeps Generator.from_seed(s) apart from the op streams of seed s


def _check_alg(alg: Any) -> None:
    name = getattr(alg, "name", alg)
    if isinstance(name, str):
        name = name.lower()
    if name not in _ALGORITHMS:
        raise ValueError(
            f"Generator: alg must be one of 'philox', 'threefry', 'auto_select' or None, got "
            f"{alg!r} (retrograd draws from NumPy's PCG64 for all of them)"
        )


def _from_seed(seed: Any) -> np.random.Generator:
    seed = random_seeding.check_seed("Generator.from_seed", seed)
    return np.random.default_rng(np.random.SeedSequence([seed % 2**64, _TAG]))


class Generator:
    """Draws random numbers from a state of its own; calls advance it.

    Create one with :meth:`from_seed` or :meth:`from_non_deterministic_state`, or copy one
    with ``Generator(copy_from=g)``.

    >>> import retrograd as rg
    >>> g = rg.random.Generator.from_seed(42)
    >>> h = rg.random.Generator.from_seed(42)
    >>> g.normal([3]).numpy().tolist() == h.normal([3]).numpy().tolist()
    True
    >>> g.uniform([2], maxval=10, dtype=rg.int32).shape.as_list()
    [2]
    """

    def __init__(
        self, copy_from: Generator | None = None, state: Any = None, alg: str | int | None = None
    ) -> None:
        _check_alg(alg)
        if state is not None:
            raise ValueError(
                "Generator: a TensorFlow state vector cannot be used (retrograd's state is a "
                "NumPy PCG64 state); use Generator.from_seed or copy_from"
            )
        if copy_from is None:
            raise ValueError(
                "Generator: give copy_from, or use Generator.from_seed or "
                "Generator.from_non_deterministic_state"
            )
        self._rng = np.random.Generator(np.random.PCG64())
        self._rng.bit_generator.state = copy_from._rng.bit_generator.state

    @classmethod
    def _wrap(cls, rng: np.random.Generator) -> Generator:
        g = cls.__new__(cls)
        g._rng = rng
        return g

    @classmethod
    def from_seed(cls, seed: int, alg: str | int | None = None) -> Generator:
        """A generator whose numbers are a function of ``seed`` alone."""
        _check_alg(alg)
        return cls._wrap(_from_seed(seed))

    @classmethod
    def from_non_deterministic_state(cls, alg: str | int | None = None) -> Generator:
        """A generator seeded from the operating system's entropy."""
        _check_alg(alg)
        return cls._wrap(np.random.default_rng())

    def reset_from_seed(self, seed: int) -> None:
        """Restarts this generator as ``from_seed(seed)`` would create it."""
        self._rng = _from_seed(seed)

    def _source(self, op_type: str, kind: tuple) -> tuple:
        return self._rng, (0, 0)

    def normal(
        self,
        shape: ShapeLike,
        mean: TensorLike = 0.0,
        stddev: TensorLike = 1.0,
        dtype: DTypeLike = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Samples from the normal distribution (see :func:`retrograd.random.normal`)."""
        return random_ops.normal_from(self._source, shape, mean, stddev, dtype, name)

    def truncated_normal(
        self,
        shape: ShapeLike,
        mean: TensorLike = 0.0,
        stddev: TensorLike = 1.0,
        dtype: DTypeLike = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Samples from the normal distribution cut at two standard deviations."""
        return random_ops.truncated_normal_from(self._source, shape, mean, stddev, dtype, name)

    def uniform(
        self,
        shape: ShapeLike,
        minval: TensorLike = 0,
        maxval: TensorLike | None = None,
        dtype: DTypeLike = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Samples uniformly from ``[minval, maxval)`` (see :func:`retrograd.random.uniform`)."""
        return random_ops.uniform_from(self._source, shape, minval, maxval, dtype, name)

    def make_seeds(self, count: int = 1) -> Tensor:
        """An int64 ``[2, count]`` tensor of seeds drawn from this generator."""
        info = np.iinfo(np.int64)
        return Tensor(
            self._rng.integers(info.min, info.max, (2, count), dtype=np.int64, endpoint=True)
        )

    def split(self, count: int = 1) -> list[Generator]:
        """``count`` new generators with independent streams (this one's stream is kept)."""
        return [Generator._wrap(rng) for rng in self._rng.spawn(count)]


_global: list[Generator] = []


def get_global_generator() -> Generator:
    """The generator shared by the program, created from non-deterministic state on first use.

    >>> import retrograd as rg
    >>> g = rg.random.get_global_generator()
    >>> g.normal([2]).shape.as_list()
    [2]
    """
    if not _global:
        _global.append(Generator.from_non_deterministic_state())
    return _global[0]


def set_global_generator(generator: Generator) -> None:
    """Replaces the global generator.

    >>> import retrograd as rg
    >>> previous = rg.random.get_global_generator()
    >>> rg.random.set_global_generator(rg.random.Generator.from_seed(1))
    >>> first = rg.random.get_global_generator().normal([2]).numpy().tolist()
    >>> rg.random.set_global_generator(rg.random.Generator.from_seed(1))
    >>> rg.random.get_global_generator().normal([2]).numpy().tolist() == first
    True
    >>> rg.random.set_global_generator(previous)
    """
    if not isinstance(generator, Generator):
        raise TypeError(
            f"set_global_generator: expected a Generator, got {type(generator).__name__}"
        )
    _global[:] = [generator]
