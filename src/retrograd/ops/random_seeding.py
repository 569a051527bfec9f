"""The seeds of TensorFlow's stateful random ops and the streams their kernels draw from.

Seeds work as in TensorFlow 2 (``tensorflow/python/framework/random_seed.py``):

- no global seed and no op seed: fresh randomness every call;
- ``set_seed(g)`` then ops without a seed: eagerly, each op call takes the next op seed from
  ``random.Random(g).randint(0, 2**31 - 1)``, which ``set_seed`` restarts; in a graph (a
  ``function``'s included) the op seeds are 0, 1, 2... in the order the graph's random ops
  are made;
- an op seed ``s`` (with the global seed, or TensorFlow's default global seed 87654321 when
  none is set): one stream per (op type, dtype, global seed, op seed) continues across
  calls, and ``set_seed`` restarts it;
- both seeds are taken modulo 2**31 - 1, and the pair (0, 0) becomes (0, 2**31 - 1);
- in a graph (or ``function``), each random op owns its stream from those seeds, which
  continues from one run to the next, and each Session starts it afresh. Graph construction
  draws nothing.

``shuffle`` draws TensorFlow's permutations from its kernel's Philox stream, keyed by the
seed and the op seed (``philox_stream``). The other stateful ops draw from NumPy's
PCG64 seeded with (global seed, op seed, op type), so their numbers differ from
TensorFlow's; the distributions and the seeding semantics are the same.

>>> import retrograd as rg
>>> rg.random.set_seed(5)
>>> get_seed(None), get_seed(None), get_seed(3)  # TensorFlow's eager op seeds
((5, 1097127993), (5, 1539898300), (5, 3))
>>> rg.random.set_seed(None)
"""

from __future__ import annotations

import contextlib
import contextvars
import random
import weakref
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core.execute import context
from retrograd.core.tensor import Tensor
from retrograd.ops import philox_random

__all__ = [
    "DEFAULT_GRAPH_SEED",
    "GraphStream",
    "TracedSeeds",
    "check_seed",
    "function_seeds",
    "generator",
    "get_seed",
    "philox_stream",
    "set_seed",
]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


class _SeedState:
    """The global seed, the generator of the eager op seeds it implies, and the seeded
    streams (eager kernels, as TensorFlow caches them by their seed attributes)."""

    def __init__(self) -> None:
        self.global_seed: int | None = None
        self.op_seeds = random.Random(None)
        self.streams: dict[tuple, Any] = {}
        self.unseeded: np.random.Generator | None = None
        self.unseeded_philox: dict[tuple, philox_random.PhiloxStream] = {}


_state = _SeedState()
_graph_op_seeds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> next


def check_seed(where: str, seed: Any) -> int:
    if isinstance(seed, Tensor):
        seed = seed.numpy()
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{where}: a seed must be an int, got {seed!r}")
    return int(seed)


def set_seed(seed: int | None) -> None:
    """Sets the global random seed (None clears it) and restarts every seeded stream.

    >>> import retrograd as rg
    >>> rg.random.set_seed(3); first = rg.random.normal([3])
    >>> rg.random.set_seed(3); again = rg.random.normal([3])
    >>> first.numpy().tolist() == again.numpy().tolist()
    True
    >>> rg.random.set_seed(None)
    """
    _state.global_seed = None if seed is None else check_seed("set_seed", seed)
    _state.op_seeds = random.Random(_state.global_seed)
    _state.streams.clear()


def get_seed(op_seed: int | None) -> tuple[int | None, int | None]:
    """The (global seed, op seed) pair an op uses, as ``tf.compat.v1.random.get_seed``:
    TensorFlow's pair, bit for bit (see the module's docstring)."""
    if op_seed is not None:
        op_seed = check_seed("seed", op_seed)
    graph, traced = context.graph, _traced_call()
    global_seed = _state.global_seed if traced is None else traced.global_seed
    if global_seed is not None:
        if op_seed is None:
            if traced is not None:  # a traced function's op seeds count from 0, per call
                op_seed, traced.unseeded = traced.unseeded, traced.unseeded + 1
            elif graph is None:
                op_seed = _state.op_seeds.randint(0, _MAXINT32)
            else:
                op_seed = _graph_op_seeds.get(graph, 0)
                _graph_op_seeds[graph] = op_seed + 1
        seeds = global_seed % _MAXINT32, op_seed % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, op_seed % _MAXINT32
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


class _TracedCall:
    """One call of a traced function (``TracedSeeds.call``): its op seeds and random ops
    counted so far, and the streams of its iterator's kernels."""

    __slots__ = ("global_seed", "kernels", "unseeded", "ops")

    def __init__(self, global_seed: int | None, kernels: dict) -> None:
        self.global_seed, self.kernels = global_seed, kernels
        self.unseeded = self.ops = 0

    def kernel(self, start: Any) -> Any:
        """The stream of this call's next random op: its kernel's, made by ``start`` at its
        first call."""
        slot, self.ops = self.ops, self.ops + 1
        if slot not in self.kernels:
            self.kernels[slot] = start()
        return self.kernels[slot]


_TRACED: contextvars.ContextVar[_TracedCall | None] = contextvars.ContextVar(
    "traced_random_call", default=None
)


def _traced_call() -> _TracedCall | None:
    return _TRACED.get() if context.graph is None else None


class TracedSeeds:
    """The seeds of the random ops of a function that TensorFlow traces once and runs for
    every element (a ``tf.data`` function), which retrograd runs eagerly inside ``call``:
    the global seed when it was made, op seeds 0, 1, ... for its unseeded random ops in the
    order a call runs them, and one stream per random op and per ``kernels`` table (an
    iterator's: TensorFlow makes the function's kernels for each iterator), continued from
    call to call. Eager op seeds are not drawn.

    >>> import retrograd as rg
    >>> rg.random.set_seed(1)
    >>> traced, kernels = TracedSeeds(), {}
    >>> for _ in range(2):
    ...     with traced.call(kernels):  # TensorFlow's seeds (1, 0), the stream continuing
    ...         print(rg.random.shuffle(rg.range(6)).numpy().tolist())
    [4, 2, 1, 0, 5, 3]
    [0, 2, 4, 5, 3, 1]
    >>> rg.random.set_seed(None)
    """

    def __init__(self) -> None:
        self.global_seed = _state.global_seed

    @contextlib.contextmanager
    def call(self, kernels: dict) -> Iterator[None]:
        """Runs one call: its random ops take the function's seeds and ``kernels``' streams."""
        token = _TRACED.set(_TracedCall(self.global_seed, kernels))
        try:
            yield
        finally:
            _TRACED.reset(token)


class GraphStream:
    """The random stream of a seeded op in a graph: each Session running the op draws from
    a stream of its own, started afresh from the seed (``Session.random_stream``), as a
    TensorFlow kernel's state belongs to its session: a new session replays the values.
    Run outside a session (a traced ``function``), it draws from one stream that continues
    from call to call.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     tf1.set_random_seed(1)
    ...     r = tf1.random_uniform([2])
    ...     with tf1.Session() as first:
    ...         a, b = first.run(r), first.run(r)
    ...     with tf1.Session() as second:
    ...         c = second.run(r)
    >>> rg.random.set_seed(None)
    >>> bool((a == c).all()), bool((a == b).all())
    (True, False)
    """

    __slots__ = ("_start", "_continuing")

    def __init__(self, start: Any) -> None:
        self._start = start  # makes a generator at the start of the stream
        self._continuing: Any = None

    def new_generator(self) -> Any:
        """A generator at the start of this stream."""
        return self._start()

    def __getattr__(self, name: str) -> Any:  # outside a session: the continuing stream
        if name.startswith("_"):
            raise AttributeError(name)
        if self._continuing is None:
            self._continuing = self.new_generator()
        return getattr(self._continuing, name)

    def __repr__(self) -> str:
        return "GraphStream(seeded)"


def _seed_pair(seed: int | None) -> tuple[int, int] | None:
    """The (global seed, op seed) of an op with ``seed``; None when neither is set."""
    global_seed, op_seed = get_seed(seed)
    return None if global_seed is None or op_seed is None else (global_seed, op_seed)


def generator(op_type: str, kind: tuple, seed: int | None) -> tuple[Any, tuple]:
    """The NumPy generator an op call draws from, and its (seed, seed2) attributes."""
    pair = _seed_pair(seed)
    traced = _traced_call()
    if pair is None:
        if traced is not None:
            return traced.kernel(np.random.default_rng), (0, 0)
        if _state.unseeded is None:
            _state.unseeded = np.random.default_rng()
        return _state.unseeded, (0, 0)
    global_seed, op_seed = pair
    words = [global_seed % 2**64, op_seed % 2**64, zlib.crc32(op_type.encode())]
    sequence = np.random.SeedSequence([*words, 1 if seed is None else 0])
    if traced is not None:
        return traced.kernel(lambda: np.random.default_rng(sequence)), pair
    if context.graph is not None:  # a graph op owns its stream, as a TensorFlow kernel does
        return GraphStream(lambda: np.random.default_rng(sequence)), (global_seed, op_seed)
    if seed is None:  # a counter seed: a fresh stream for this one call
        return np.random.default_rng(np.random.SeedSequence([*words, 1])), (global_seed, op_seed)
    key = (op_type, kind, global_seed, op_seed)
    if key not in _state.streams:
        _state.streams[key] = np.random.default_rng(np.random.SeedSequence([*words, 0]))
    return _state.streams[key], (global_seed, op_seed)


def function_seeds() -> tuple[int, int]:
    """The (seed, seed2) attributes that the first unseeded random op of a graph traced now
    takes (a ``function``'s, or a ``tf.data`` function's in TensorFlow): (global seed, 0), or
    (0, 0), random seeds, without a global seed.

    >>> import retrograd as rg
    >>> rg.random.set_seed(5); function_seeds()
    (5, 0)
    >>> rg.random.set_seed(None)
    """
    if _state.global_seed is None:
        return 0, 0
    seeds = _state.global_seed % _MAXINT32, 0
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def philox_stream(op_type: str, kind: tuple, seed: int | None) -> tuple[Any, tuple]:
    """The Philox stream a TensorFlow kernel of ``op_type`` draws from (its
    ``GuardedPhiloxRandom``), and its (seed, seed2) attributes: one per graph op, one per
    (op type, dtype, seeds) eagerly (TensorFlow's kernel cache), random seeds without any."""
    pair = _seed_pair(seed)
    seeds = pair or (0, 0)
    traced = _traced_call()
    if traced is not None:
        return traced.kernel(lambda: philox_random.PhiloxStream(*seeds)), seeds
    if context.graph is not None:
        return GraphStream(lambda: philox_random.PhiloxStream(*seeds)), seeds
    if pair is None:
        streams = _state.unseeded_philox
    elif seed is None:  # a fresh op seed: a fresh kernel
        return philox_random.PhiloxStream(*seeds), seeds
    else:
        streams = _state.streams
    key = (op_type, kind, *seeds)
    if key not in streams:
        streams[key] = philox_random.PhiloxStream(*seeds)
    return streams[key], seeds
