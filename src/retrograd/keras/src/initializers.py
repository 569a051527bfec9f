"""``tf.keras.initializers`` with Keras' formulas and defaults (fans, scales, truncation).

Random initializers draw Keras 3's numbers (on its TensorFlow backend): TensorFlow's
stateless Philox ops (ops/stateless_random_ops.py) with the seed pair Keras makes of the
``seed``. An initializer returns the same values at every call; without a ``seed`` it takes
one from Python's ``random`` module when it is made, as Keras does, so
``keras.utils.set_random_seed(s)`` followed by the same layers gives Keras' weights.

>>> import retrograd as rg
>>> init = rg.keras.initializers.GlorotUniform(seed=1)
>>> bool((init((3, 2)).numpy() == init((3, 2)).numpy()).all())
True
>>> rg.keras.initializers.get("zeros")((2,)).numpy()
array([0., 0.], dtype=float32)
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from retrograd.core import backends, dtypes
from retrograd.core.tensor import Tensor, constant, convert_to_tensor
from retrograd.keras.src import backend
from retrograd.ops import stateless_random_ops

__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "RandomNormal",
    "RandomUniform",
    "TruncatedNormal",
    "VarianceScaling",
    "GlorotUniform",
    "GlorotNormal",
    "HeNormal",
    "HeUniform",
    "LecunNormal",
    "LecunUniform",
    "Orthogonal",
    "Identity",
    "get",
]


def _dtype(dtype: Any) -> np.dtype:
    return dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` returns a tensor.

    >>> import retrograd as rg
    >>> class Twos(rg.keras.initializers.Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return rg.fill(shape, 2.0)
    >>> Twos()((2,)).numpy().tolist()
    [2.0, 2.0]
    """

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        shape = tuple(int(d) for d in shape)
        return constant(self.values(shape, _dtype(dtype)))

    def values(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__}.values")

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> Initializer:
        """The initializer a ``get_config`` result describes."""
        return cls(**config)

    def clone(self) -> Initializer:
        """A new initializer of the same class and config."""
        return type(self).from_config(self.get_config())


class Zeros(Initializer):
    """All zeros.

    >>> import retrograd as rg
    >>> rg.keras.initializers.Zeros()((2, 2)).numpy().tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """

    def values(self, shape, dtype):
        return np.zeros(shape, dtype)


class Ones(Initializer):
    """All ones.

    >>> import retrograd as rg
    >>> rg.keras.initializers.Ones()((3,), dtype='int32').numpy().tolist()
    [1, 1, 1]
    """

    def values(self, shape, dtype):
        return np.ones(shape, dtype)


class Constant(Initializer):
    """Fills with ``value`` (a number, or an array broadcast to the shape).

    >>> import retrograd as rg
    >>> rg.keras.initializers.Constant(7.0)((2,)).numpy().tolist()
    [7.0, 7.0]
    """

    def __init__(self, value: Any = 0.0) -> None:
        self.value = value

    def values(self, shape, dtype):
        # Keras' ops.cast(value, dtype): a Python float becomes a float32 tensor first, so a
        # float64 variable gets float32's rounding of 0.1 (an array keeps its own dtype)
        value = self.value if isinstance(self.value, np.ndarray) else _as_tensor(self.value)
        return np.broadcast_to(np.asarray(value).astype(dtype), shape).copy()

    def get_config(self):
        value = self.value
        return {"value": value.tolist() if isinstance(value, np.ndarray) else value}


def _as_tensor(value: Any) -> np.ndarray:
    """``value`` as TensorFlow converts it (Python floats to float32, ints to int32), on the
    host: initializers compute their values there (the variable places them)."""
    return backends.to_host(convert_to_tensor(value)._value)


def keras_seed(seed: int) -> tuple[int, int]:
    """The stateless seed Keras' TensorFlow backend draws with for an integer seed: the pair
    ``[seed, 0]`` taken modulo ``2**31 - 2`` (its cast to int32)."""
    return seed % (2**31 - 2), 0


class _Random(Initializer):
    """A random initializer drawing as Keras 3 does on TensorFlow: TensorFlow's stateless
    ops with the seed pair of :func:`keras_seed`. Without a seed, one is drawn from Python's
    ``random`` module (``randint(1, 10**9)``) when the initializer is made, as Keras does, so
    ``keras.utils.set_random_seed`` makes it reproducible; each call gives the same values."""

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"{type(self).__name__}: seed must be an int or None, got {seed!r}")
        self._init_seed = seed
        self.seed = random.randint(1, 10**9) if seed is None else seed

    def _draw(self, kind: str, shape, dtype) -> np.ndarray:
        return stateless_random_ops.draw(kind, shape, keras_seed(self.seed), dtype)

    def get_config(self):
        return {"seed": self._init_seed}


def _scaled(rnd: np.ndarray, scale: float, shift: float) -> np.ndarray:
    """``rnd * scale + shift`` in the sample's dtype, as TensorFlow's ops compute it."""
    return rnd * np.asarray(scale, rnd.dtype) + np.asarray(shift, rnd.dtype)


def _uniform(rnd: np.ndarray, low: float, high: float) -> np.ndarray:
    """``rnd * (high - low) + low`` in the sample's dtype, the bounds rounded to float32
    first (Keras casts them with ``tf.cast``, which makes a float32 tensor of a float)."""
    low, high = (np.asarray(np.float32(v), rnd.dtype) for v in (low, high))
    return rnd * (high - low) + low


class RandomNormal(_Random):
    """Normal samples with ``mean`` and ``stddev`` (Keras' exact values for a seed).

    >>> import retrograd as rg
    >>> rg.keras.initializers.RandomNormal(stddev=0.1, seed=1)((3,)).numpy().tolist()
    [0.012665030546486378, -0.04930165782570839, 0.063119076192379]
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def values(self, shape, dtype):
        return _scaled(self._draw("normal", shape, dtype), self.stddev, self.mean)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self._init_seed}


class RandomUniform(_Random):
    """Uniform samples in ``[minval, maxval)`` (Keras' exact values for a seed).

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.RandomUniform(-1.0, 1.0, seed=1)((100,))
    >>> bool(rg.reduce_max(rg.abs(w)) <= 1.0)
    True
    """

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def values(self, shape, dtype):
        return _uniform(self._draw("uniform", shape, dtype), self.minval, self.maxval)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self._init_seed}


class TruncatedNormal(_Random):
    """Normal samples redrawn beyond two standard deviations (Keras' exact values).

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.TruncatedNormal(stddev=0.1, seed=1)((100,))
    >>> bool(rg.reduce_max(rg.abs(w)) <= 0.2)
    True
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def values(self, shape, dtype):
        rnd = self._draw("truncated_normal", shape, dtype)
        return _scaled(rnd, self.stddev, self.mean)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self._init_seed}


def compute_fans(
    shape: tuple[int, ...], input_axes: Any = None, output_axes: Any = None
) -> tuple[float, float]:
    """Keras' fans: a kernel's receptive field times its input and output channels, or the
    products of the given input and output axes (EinsumDense's kernels)."""
    if input_axes is not None and output_axes is not None:
        return (
            math.prod(shape[a] for a in input_axes),
            math.prod(shape[a] for a in output_axes),
        )
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(_Random):
    """Samples with variance ``scale / n`` (n: fan_in, fan_out or their mean).

    >>> import retrograd as rg
    >>> init = rg.keras.initializers.VarianceScaling(1.0, 'fan_in', 'uniform', seed=1)
    >>> w = init((100, 10))
    >>> bool(rg.reduce_max(rg.abs(w)) <= (3.0 / 100) ** 0.5)  # sqrt(3 scale / fan_in)
    True
    """

    def __init__(
        self,
        scale: float = 1.0,
        mode: str = "fan_in",
        distribution: str = "truncated_normal",
        seed: int | None = None,
        input_axes: Any = None,
        output_axes: Any = None,
    ) -> None:
        super().__init__(seed)
        self.input_axes, self.output_axes = input_axes, output_axes
        if scale <= 0:
            raise ValueError(f"VarianceScaling: scale must be positive, got {scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: unknown mode {mode!r}")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"VarianceScaling: unknown distribution {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def values(self, shape, dtype):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            # 0.879... is the standard deviation of a normal truncated at two deviations
            stddev = math.sqrt(scale) / 0.87962566103423978
            return _scaled(self._draw("truncated_normal", shape, dtype), stddev, 0.0)
        if self.distribution == "untruncated_normal":
            return _scaled(self._draw("normal", shape, dtype), math.sqrt(scale), 0.0)
        limit = math.sqrt(3.0 * scale)
        return _uniform(self._draw("uniform", shape, dtype), -limit, limit)

    def get_config(self):
        return {
            "scale": self.scale,
            "mode": self.mode,
            "distribution": self.distribution,
            "seed": self._init_seed,
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
        }

    def named_config(self) -> dict:
        """The config of a named variant (GlorotUniform ...): its seed and axes."""
        return {
            "seed": self._init_seed,
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
        }


class GlorotUniform(VarianceScaling):
    """Uniform in ±sqrt(6 / (fan_in + fan_out)): Keras' default kernel initializer.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.GlorotUniform(seed=1)((100, 50))
    >>> bool(rg.reduce_max(rg.abs(w)) <= (6.0 / 150) ** 0.5)  # sqrt(6 / (fan_in + fan_out))
    True
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class GlorotNormal(VarianceScaling):
    """Truncated normal with deviation ``sqrt(2 / (fan_in + fan_out))``.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.GlorotNormal(seed=1)((100, 50))
    >>> w.shape.as_list()
    [100, 50]
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class HeNormal(VarianceScaling):
    """Truncated normal with deviation ``sqrt(2 / fan_in)``.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.HeNormal(seed=1)((100, 50))
    >>> w.shape.as_list()
    [100, 50]
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class HeUniform(VarianceScaling):
    """Uniform in ``±sqrt(6 / fan_in)``.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.HeUniform(seed=1)((100, 50))
    >>> bool(rg.reduce_max(rg.abs(w)) <= (6.0 / 100) ** 0.5)  # sqrt(6 / fan_in)
    True
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class LecunNormal(VarianceScaling):
    """Truncated normal with deviation ``sqrt(1 / fan_in)``.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.LecunNormal(seed=1)((100, 50))
    >>> w.shape.as_list()
    [100, 50]
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class LecunUniform(VarianceScaling):
    """Uniform in ``±sqrt(3 / fan_in)``.

    >>> import retrograd as rg
    >>> w = rg.keras.initializers.LecunUniform(seed=1)((100, 50))
    >>> bool(rg.reduce_max(rg.abs(w)) <= (3.0 / 100) ** 0.5)  # sqrt(3 / fan_in)
    True
    """

    def __init__(
        self, seed: int | None = None, input_axes: Any = None, output_axes: Any = None
    ) -> None:
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)

    get_config = VarianceScaling.named_config


class Orthogonal(_Random):
    """An orthogonal matrix (rows or columns orthonormal) times ``gain``; higher-rank shapes
    are flattened to ``(prod(shape[:-1]), shape[-1])``.

    >>> import retrograd as rg
    >>> q = rg.keras.initializers.Orthogonal(seed=1)((3, 3)).numpy()
    >>> (q @ q.T).round(5).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    True
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.gain = gain

    def values(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError(
                f"Orthogonal: the shape must have at least two dimensions, got {shape}"
            )
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = self._draw("normal", (max(rows, cols), min(rows, cols)), dtype)
        q, r = np.linalg.qr(flat.astype(np.float64))  # Keras: QR of the float32 draw
        q = (q * np.sign(np.diag(r))).astype(flat.dtype)
        if rows < cols:
            q = q.T
        return np.asarray(self.gain, flat.dtype) * q.reshape(shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self._init_seed}


class Identity(Initializer):
    """``gain`` times the identity matrix (two-dimensional shapes only).

    >>> import retrograd as rg
    >>> rg.keras.initializers.Identity(gain=2.0)((2, 3)).numpy().tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain

    def values(self, shape, dtype):
        if len(shape) != 2:
            raise ValueError(f"Identity: the shape must be two-dimensional, got {shape}")
        return (self.gain * np.eye(*shape)).astype(dtype)


_BY_NAME = {
    "zeros": Zeros,
    "ones": Ones,
    "constant": Constant,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "uniform": RandomUniform,
    "normal": RandomNormal,
    "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal,
    "he_normal": HeNormal,
    "he_uniform": HeUniform,
    "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform,
    "orthogonal": Orthogonal,
    "identity": Identity,
}


def get(identifier: Any) -> Any:
    """An initializer from its name (``'glorot_uniform'``), class name, an instance, or a
    callable ``(shape, dtype)``.

    >>> import retrograd as rg
    >>> type(rg.keras.initializers.get('glorot_uniform')).__name__
    'GlorotUniform'
    >>> rg.keras.initializers.get('zeros')((2,)).numpy().tolist()
    [0.0, 0.0]
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier if identifier in _BY_NAME else backend.snake_case(identifier)
        if key not in _BY_NAME:
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
        return _BY_NAME[key]()
    if isinstance(identifier, dict):  # a serialized object (a saved model's config)
        from retrograd.keras.src import serialization

        return serialization.deserialize_keras_object(identifier)
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret initializer identifier: {identifier!r}")
