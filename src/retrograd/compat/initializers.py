"""TensorFlow 1 initializers: callables ``init(shape, dtype=None, partition_info=None)``
returning a tensor of that shape (ops in the current graph, or eager values).

>>> import retrograd as rg
>>> constant_initializer([1.0, 2.0])([2]).numpy().tolist()
[1.0, 2.0]
>>> zeros_initializer()([2, 1], rg.float64).numpy().tolist()
[[0.0], [0.0]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.shapes import TensorShape
from retrograd.graph.graph import constant
from retrograd.ops import (
    array_ops,
    decomposition_ops,
    linalg_ops,
    math_ops,
    matrix_diag_ops,
    random_ops,
)

__all__ = [
    "Initializer",
    "zeros_initializer",
    "ones_initializer",
    "constant_initializer",
    "random_normal_initializer",
    "truncated_normal_initializer",
    "random_uniform_initializer",
    "glorot_uniform_initializer",
    "glorot_normal_initializer",
    "variance_scaling_initializer",
    "xavier_initializer",
    "he_normal",
    "he_uniform",
    "identity_initializer",
    "lecun_normal",
    "lecun_uniform",
    "orthogonal_initializer",
    "uniform_unit_scaling_initializer",
]


def _float(dtype: Any, who: str) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{who}: expected floating point type, got {dtype.name}.")
    return dtype


def _dims(shape: Any, who: str) -> list[int]:
    dims = TensorShape(shape)
    if not dims.is_fully_defined():
        raise ValueError(f"{who}: the shape must be fully defined, got {dims}")
    return dims.as_list()


class Initializer:
    """Base of the TF1 initializers: ``dtype`` is the default when a call gives none."""

    def __init__(self, dtype: Any = dtypes.float32) -> None:
        self.dtype = dtypes.as_dtype(dtype)

    def _dtype(self, dtype: Any) -> dtypes.DType:
        return self.dtype if dtype is None else dtypes.as_dtype(dtype)

    def get_config(self) -> dict:
        return {"dtype": self.dtype.name}


class zeros_initializer(Initializer):  # noqa: N801 (TensorFlow's name)
    """Zeros.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.zeros_initializer()([2, 2]).numpy().tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        return array_ops.zeros(_dims(shape, "zeros_initializer"), self._dtype(dtype))


class ones_initializer(Initializer):  # noqa: N801
    """Ones.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.ones_initializer()([3], dtype=rg.int32).numpy().tolist()
    [1, 1, 1]
    """

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        return array_ops.ones(_dims(shape, "ones_initializer"), self._dtype(dtype))


class constant_initializer(Initializer):  # noqa: N801
    """A scalar (filled in) or a value of exactly the requested size (reshaped).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.constant_initializer([1.0, 2.0])([2]).numpy().tolist()
    [1.0, 2.0]
    >>> tf1.constant_initializer(5)([2]).numpy().tolist()
    [5.0, 5.0]
    """

    def __init__(self, value: Any = 0, dtype: Any = dtypes.float32, verify_shape: bool = False):
        super().__init__(dtype)
        self.value = np.array(value)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "constant_initializer")
        dtype = self._dtype(dtype)
        value = self.value.astype(dtype.as_numpy_dtype)
        if value.size == 1:
            return constant(np.full(dims, value.reshape(())), dtype)
        if value.size != math.prod(dims):
            raise ValueError(
                f"constant_initializer: the value has {value.size} elements; the shape {dims} "
                f"needs {math.prod(dims)} (or give a scalar)"
            )
        return constant(value.reshape(dims), dtype)


class random_normal_initializer(Initializer):  # noqa: N801
    """Normal samples with ``mean`` and ``stddev``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.random_normal_initializer(stddev=0.1, seed=1)([2, 3]).shape.as_list()
    [2, 3]
    """

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32) -> None:
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "random_normal_initializer")
        return random_ops.normal(dims, self.mean, self.stddev, self._dtype(dtype), self.seed)


class truncated_normal_initializer(random_normal_initializer):  # noqa: N801
    """Normal samples cut at two standard deviations.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.truncated_normal_initializer(stddev=0.1, seed=1)([100])
    >>> bool(rg.reduce_max(rg.abs(w)) <= 0.2)
    True
    """

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "truncated_normal_initializer")
        return random_ops.truncated_normal(
            dims, self.mean, self.stddev, self._dtype(dtype), self.seed
        )


class random_uniform_initializer(Initializer):  # noqa: N801
    """Uniform samples in ``[minval, maxval)``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.random_uniform_initializer(-1.0, 1.0, seed=1)([100])
    >>> bool(rg.reduce_max(rg.abs(w)) <= 1.0)
    True
    """

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32) -> None:
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dtype = self._dtype(dtype)
        maxval = 1.0 if self.maxval is None and dtype.is_floating else self.maxval
        dims = _dims(shape, "random_uniform_initializer")
        return random_ops.uniform(dims, self.minval, maxval, dtype, self.seed)


def _fans(dims: list[int]) -> tuple[float, float]:
    if not dims:
        return 1.0, 1.0
    if len(dims) == 1:
        return float(dims[0]), float(dims[0])
    receptive = math.prod(dims[:-2])
    return float(dims[-2] * receptive), float(dims[-1] * receptive)


class variance_scaling_initializer(Initializer):  # noqa: N801
    """Samples scaled by the fans of the shape (TensorFlow's VarianceScaling): ``mode`` is
    ``fan_in``, ``fan_out`` or ``fan_avg``; ``distribution`` ``truncated_normal``,
    ``untruncated_normal`` or ``uniform``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.variance_scaling_initializer(distribution='uniform', seed=1)([100, 10])
    >>> bool(rg.reduce_max(rg.abs(w)) <= (3.0 / 100) ** 0.5)  # limit sqrt(3 scale / fan_in)
    True
    """

    def __init__(
        self,
        scale: float = 1.0,
        mode: str = "fan_in",
        distribution: str = "truncated_normal",
        seed: int | None = None,
        dtype: Any = dtypes.float32,
    ) -> None:
        super().__init__(dtype)
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"variance_scaling_initializer: invalid mode {mode!r}")
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"variance_scaling_initializer: invalid distribution {distribution!r}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "variance_scaling_initializer")
        dtype = self._dtype(dtype)
        fan_in, fan_out = _fans(dims)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}
        variance = self.scale / max(1.0, fan[self.mode])
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return random_ops.uniform(dims, -limit, limit, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(dims, 0.0, math.sqrt(variance), dtype, self.seed)
        # The standard deviation of a unit normal truncated at two deviations.
        stddev = math.sqrt(variance) / 0.87962566103423978
        return random_ops.truncated_normal(dims, 0.0, stddev, dtype, self.seed)


class glorot_uniform_initializer(variance_scaling_initializer):  # noqa: N801
    """Uniform in ``±sqrt(6 / (fan_in + fan_out))`` (Xavier's initializer).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.glorot_uniform_initializer(seed=1)([60, 40])
    >>> bool(rg.reduce_max(rg.abs(w)) <= (6.0 / 100) ** 0.5)  # limit sqrt(6 / (fan_in + fan_out))
    True
    """

    def __init__(self, seed: int | None = None, dtype: Any = dtypes.float32) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class glorot_normal_initializer(variance_scaling_initializer):  # noqa: N801
    """Truncated normal with deviation ``sqrt(2 / (fan_in + fan_out))``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.glorot_normal_initializer(seed=1)([3, 2]).shape.as_list()
    [3, 2]
    """

    def __init__(self, seed: int | None = None, dtype: Any = dtypes.float32) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


def xavier_initializer(
    uniform: bool = True, seed: int | None = None, dtype: Any = dtypes.float32
) -> Initializer:
    """``tf.contrib.layers.xavier_initializer`` without contrib: Glorot uniform (or normal).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.xavier_initializer(uniform=False, seed=1)([3, 2]).shape.as_list()
    [3, 2]
    """
    if uniform:
        return glorot_uniform_initializer(seed, dtype)
    return glorot_normal_initializer(seed, dtype)


def he_normal(seed: int | None = None) -> Initializer:
    """Truncated normal with deviation ``sqrt(2 / fan_in)`` (He et al.).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.initializers.he_normal(seed=1)([4, 3]).shape.as_list()
    [4, 3]
    """
    return variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed: int | None = None) -> Initializer:
    """Uniform in ``±sqrt(6 / fan_in)``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.initializers.he_uniform(seed=1)([24, 3])
    >>> bool(rg.reduce_max(rg.abs(w)) <= 0.5)
    True
    """
    return variance_scaling_initializer(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed: int | None = None) -> Initializer:
    """Truncated normal with deviation ``sqrt(1 / fan_in)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.initializers.lecun_normal(seed=1)([4, 3]).shape.as_list()
    [4, 3]
    """
    return variance_scaling_initializer(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed: int | None = None) -> Initializer:
    """Uniform in ``±sqrt(3 / fan_in)``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.initializers.lecun_uniform(seed=1)([12, 3])
    >>> bool(rg.reduce_max(rg.abs(w)) <= 0.5)
    True
    """
    return variance_scaling_initializer(1.0, "fan_in", "uniform", seed)


class identity_initializer(Initializer):  # noqa: N801
    """``gain`` times the identity matrix (two-dimensional shapes only).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.initializers.identity(gain=2.0)([2, 3]).numpy().tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def __init__(self, gain: float = 1.0, dtype: Any = dtypes.float32) -> None:
        super().__init__(_float(dtype, "identity_initializer"))
        self.gain = gain

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "identity_initializer")
        if len(dims) != 2:
            raise ValueError(
                "Identity matrix initializer can only be used for 2D matrices. "
                f"Received: shape={dims} of rank {len(dims)}."
            )
        dtype = self._dtype(dtype)
        return math_ops.multiply(
            math_ops.cast(self.gain, dtype), matrix_diag_ops.eye(dims[0], dims[1], dtype=dtype)
        )

    def get_config(self) -> dict:
        return {"gain": self.gain, "dtype": self.dtype.name}


class orthogonal_initializer(Initializer):  # noqa: N801
    """A random orthogonal matrix (of the shape flattened to rows x its last dimension)
    times ``gain``: the Q of a normal matrix's QR, with R's diagonal signs.

    >>> import numpy as np, retrograd.compat.v1 as tf1
    >>> q = tf1.orthogonal_initializer(seed=1)([4, 3]).numpy()
    >>> np.allclose(q.T @ q, np.eye(3), atol=1e-5)
    True
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None, dtype=dtypes.float32):
        super().__init__(_float(dtype, "orthogonal_initializer"))
        self.gain, self.seed = gain, seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "orthogonal_initializer")
        if len(dims) < 2:
            raise ValueError(
                "The tensor to initialize, specified by argument `shape` must be at least "
                f"two-dimensional. Received shape={dims}"
            )
        dtype = self._dtype(dtype)
        rows, cols = math.prod(dims[:-1]), dims[-1]
        flat = (cols, rows) if rows < cols else (rows, cols)
        q, r = decomposition_ops.qr(random_ops.normal(flat, 0.0, 1.0, dtype, self.seed))
        q = math_ops.multiply(q, math_ops.sign(matrix_diag_ops.diag_part(r)))
        if rows < cols:
            q = linalg_ops.matrix_transpose(q)
        return math_ops.multiply(math_ops.cast(self.gain, dtype), array_ops.reshape(q, dims))

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class uniform_unit_scaling_initializer(Initializer):  # noqa: N801
    """Uniform in ``±factor * sqrt(3 / input_size)``, the input size being the product of
    every dimension but the last (TF1's deprecated initializer).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> w = tf1.uniform_unit_scaling_initializer(seed=1)([12, 4])
    >>> bool(rg.reduce_max(rg.abs(w)) <= 0.5)
    True
    """

    def __init__(self, factor: float = 1.0, seed: int | None = None, dtype=dtypes.float32):
        super().__init__(_float(dtype, "uniform_unit_scaling_initializer"))
        self.factor, self.seed = factor, seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = _dims(shape, "uniform_unit_scaling_initializer")
        input_size = max(float(math.prod(dims[:-1])), 1.0)
        limit = math.sqrt(3 / input_size) * self.factor
        return random_ops.uniform(dims, -limit, limit, self._dtype(dtype), self.seed)

    def get_config(self) -> dict:
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}
