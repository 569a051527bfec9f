"""``keras.random``: Keras 3's random functions on TensorFlow's stateless ops, with Keras'
seeds, so that they (and ``Dropout``) give Keras' numbers.

A ``seed`` is an int (the same numbers at every call), a :class:`SeedGenerator` (a state
``[seed, counter]`` whose counter advances at each call) or None (a generator shared by the
module, seeded from Python's ``random``). Keras' TensorFlow backend hands the state to
TensorFlow modulo ``2**31 - 2`` as int32.

>>> import retrograd as rg
>>> rg.keras.random.uniform((3,), seed=1).numpy().tolist()
[0.8784881830215454, 0.4599802494049072, 0.6002912521362305]
"""

from __future__ import annotations

import random as python_random
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, constant
from retrograd.core.variables import Variable
from retrograd.keras.src import backend
from retrograd.ops import array_ops, comparison_ops, math_ops, stateless_random_ops

__all__ = [
    "SeedGenerator",
    "draw_seed",
    "dropout",
    "normal",
    "randint",
    "shuffle",
    "truncated_normal",
    "uniform",
]

_SEED_MODULUS = 2**31 - 2  # Keras' tf backend: floormod(seed, int32.max - 1), cast to int32


def make_default_seed() -> int:
    """A seed from Python's ``random`` module, as Keras draws one (1 to 10**9)."""
    return python_random.randint(1, 10**9)


class SeedGenerator:
    """A random state ``[seed, counter]`` (an int64 variable); each :meth:`next` returns it
    and advances the counter, so the random calls that use it differ from one another.

    >>> import retrograd as rg
    >>> gen = rg.keras.random.SeedGenerator(42)
    >>> a = rg.keras.random.normal((2,), seed=gen)
    >>> b = rg.keras.random.normal((2,), seed=gen)
    >>> a.numpy().tolist() != b.numpy().tolist(), gen.state.numpy().tolist()
    (True, [42, 2])
    """

    def __init__(self, seed: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        if kwargs.pop("backend", None) is not None:  # (Keras' only other keyword)
            raise ValueError(
                "SeedGenerator: `backend` draws with another Keras backend's ops; retrograd "
                "has its own only"
            )
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed!r}")
        self._initial_seed = seed
        self.name = name or "seed_generator"
        value = make_default_seed() if seed is None else seed
        self.state = Variable(
            np.array([value, 0], np.int64), trainable=False, name="seed_generator_state"
        )

    def next(self) -> Tensor:
        """The current state (a copy), then the counter advanced by one (not in a symbolic
        layer call, where Keras' state does not change)."""
        value = math_ops.multiply(self.state.read_value(), constant(np.int64(1)))
        if not backend.layer_calls.symbolic:
            self.state.assign_add(constant(np.array([0, 1], np.int64)))
        return value

    def get_config(self) -> dict:
        return {"seed": self._initial_seed, "name": self.name}


def _global_generator() -> SeedGenerator:
    """Keras' process-wide generator (reset by set_random_seed and clear_session)."""
    config = backend._config
    if config.seed_generator is None:
        config.seed_generator = SeedGenerator()
    return config.seed_generator


def draw_seed(seed: Any) -> Tensor:
    """The int32 seed pair TensorFlow's stateless ops get for a Keras ``seed``.

    >>> from retrograd.keras.src.random import draw_seed
    >>> draw_seed(2**31 + 5).numpy().tolist()
    [7, 0]
    """
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif isinstance(seed, int) and not isinstance(seed, bool):
        pair = constant(np.array([seed, 0], np.int64))
    elif seed is None:
        generator = _global_generator()
        pair = generator.state.read_value()  # Keras: (state + 1) * 5387 % 933199 afterwards
        if not backend.layer_calls.symbolic:
            generator.state.assign((pair + 1) * 5387 % 933199)
    else:
        raise ValueError(
            "Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
            f"Received: seed={seed!r} (of type {type(seed)})"
        )
    return math_ops.cast(math_ops.floormod(pair, np.int64(_SEED_MODULUS)), dtypes.int32)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None) -> Tensor:
    """Normal samples (Keras' numbers for the seed).

    >>> import retrograd as rg
    >>> rg.keras.random.normal((2,), seed=1).numpy().tolist()
    [0.12665030360221863, -0.4930165708065033]
    """
    return stateless_random_ops.stateless_normal(
        shape, draw_seed(seed), mean, stddev, dtype or backend.floatx()
    )


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None) -> Tensor:
    """Normal samples redrawn beyond two standard deviations (Keras' numbers).

    >>> import retrograd as rg
    >>> bool(rg.reduce_max(rg.abs(rg.keras.random.truncated_normal((99,), seed=1))) < 2)
    True
    """
    return stateless_random_ops.stateless_truncated_normal(
        shape, draw_seed(seed), mean, stddev, dtype or backend.floatx()
    )


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None) -> Tensor:
    """Uniform samples in ``[minval, maxval)`` (Keras' numbers; the bounds go through
    float32 as Keras' ``tf.cast`` takes them).

    >>> import retrograd as rg
    >>> x = rg.keras.random.uniform((100,), minval=2.0, maxval=3.0, seed=1)
    >>> bool(rg.reduce_min(x) >= 2.0)
    True
    """
    dtype = dtypes.as_dtype(dtype or backend.floatx())
    low, high = (_bound(v, dtype) for v in (minval, maxval))
    return stateless_random_ops.stateless_uniform(shape, draw_seed(seed), low, high, dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None) -> Tensor:
    """Integers in ``[minval, maxval)`` (Keras' numbers; drawn as int32 or int64, then cast).

    >>> import retrograd as rg
    >>> rg.keras.random.randint((5,), 0, 10, seed=3).numpy().tolist()
    [8, 7, 2, 2, 5]
    """
    dtype = dtypes.as_dtype(dtype)
    draw = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    out = stateless_random_ops.stateless_uniform(shape, draw_seed(seed), minval, maxval, draw)
    return out if draw == dtype else math_ops.cast(out, dtype)


def shuffle(x, axis=0, seed=None) -> Tensor:
    """``x`` permuted along ``axis``: the order that sorts one uniform draw per position.

    >>> import retrograd as rg
    >>> rg.keras.random.shuffle(rg.range(6), seed=2).numpy().tolist()
    [4, 5, 2, 1, 3, 0]
    """
    from retrograd.ops import gather_ops, sort_ops

    x = x if isinstance(x, Tensor) else constant(x)
    draws = stateless_random_ops.stateless_uniform([x.shape[axis]], draw_seed(seed))
    return gather_ops.gather(x, sort_ops.argsort(draws), axis=axis)


def _bound(value: Any, dtype) -> Any:
    if isinstance(value, (int, float)):
        return Tensor(np.float32(value).astype(dtype.as_numpy_dtype))  # (a scalar: any device)
    return math_ops.cast(value, dtype)


def dropout(inputs, rate, noise_shape=None, seed=None) -> Tensor:
    """Zeroes each value with probability ``rate`` and scales the others by
    ``1 / (1 - rate)``, as TensorFlow's ``stateless_dropout`` with Keras' seed.

    >>> import retrograd as rg
    >>> rg.keras.random.dropout(rg.ones([6]), 0.5, seed=3).numpy().tolist()
    [0.0, 2.0, 2.0, 2.0, 0.0, 0.0]
    """
    x = inputs if isinstance(inputs, Tensor) else constant(inputs)
    if rate == 1.0:
        return array_ops.zeros_like(x)
    if rate == 0.0:
        return x
    if not 0 < rate < 1:
        raise ValueError(f"dropout: rate must be in [0, 1], got {rate}")
    shape = list(plain_dims(x.shape)) if noise_shape is None else noise_shape
    shape = [plain_dims(x.shape)[i] if d is None else d for i, d in enumerate(shape)]
    draws = stateless_random_ops.stateless_uniform(shape, draw_seed(seed), dtype=x.dtype)
    scaled = x * np.asarray(1 / (1 - rate), x.dtype.as_numpy_dtype)
    keep = comparison_ops.greater_equal(draws, np.asarray(rate, x.dtype.as_numpy_dtype))
    return array_ops.where(keep, scaled, array_ops.zeros_like(scaled))
