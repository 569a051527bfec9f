"""TensorFlow 2's own initializers (``tf.constant_initializer``, ``tf.zeros_initializer``,
``tf.ones_initializer``, ``tf.random_normal_initializer``, ``tf.random_uniform_initializer``):
objects called with ``(shape, dtype)`` that make an initial value. With a ``seed`` the random
ones draw TensorFlow's exact numbers (its stateless ops, seeded ``[seed, 0]``, as TensorFlow
does); without one they draw from the global generator. (Keras' initializers are
``keras.initializers``; TensorFlow 1's, called with ``partition_info``, ``compat.v1``.)

>>> import retrograd as tf
>>> tf.constant_initializer([1, 2])([2]).numpy().tolist()
[1, 2]
>>> tf.random_uniform_initializer(-1.0, 1.0, seed=5)([2]).shape.as_list()
[2]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, random_ops, stateless_random_ops

__all__ = [
    "Initializer", "constant_initializer", "ones_initializer", "random_normal_initializer",
    "random_uniform_initializer", "zeros_initializer",
]  # fmt: skip

_PARTITION = ("partition_shape", "partition_offset")


class Initializer:
    """What every initializer is: ``init(shape, dtype=None, **kwargs)`` gives a tensor;
    ``get_config``/``from_config`` round-trip its arguments."""

    def __call__(self, shape: ShapeLike, dtype: DTypeLike | None = None, **kwargs: Any) -> Tensor:
        raise TypeError(f"{type(self).__name__} is abstract: call an initializer made from it")

    def get_config(self) -> dict:
        """The arguments that make this initializer again.

        >>> import retrograd as tf
        >>> tf.random_uniform_initializer(seed=1).get_config()
        {'minval': -0.05, 'maxval': 0.05, 'seed': 1}
        """
        return {}

    @classmethod
    def from_config(cls, config: dict) -> Initializer:
        """The initializer a ``get_config`` describes.

        >>> import retrograd as tf
        >>> tf.constant_initializer.from_config({"value": 3}).get_config()
        {'value': 3}
        """
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)

    def _partition_shape(self, shape: ShapeLike, kwargs: dict) -> list:
        """The shape to make: ``partition_shape`` when given (a part of a variable)."""
        unknown = [k for k in kwargs if k not in _PARTITION]
        if unknown:
            raise TypeError(
                f"Keyword argument should be one of {list(_PARTITION)}. Received: {unknown[0]}"
            )
        return TensorShape(kwargs.get("partition_shape", shape)).as_list()


def _numeric(dtype: DTypeLike | None, default: dtypes.DType) -> dtypes.DType:
    target = default if dtype is None else dtypes.as_dtype(dtype)
    if not (target.is_numeric):
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {target}.")
    return target


def _floating(dtype: DTypeLike | None) -> dtypes.DType:
    target = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
    if not target.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {target}.")
    return target


class zeros_initializer(Initializer):  # noqa: N801  (TensorFlow's name)
    """Zeros.

    >>> import retrograd as tf
    >>> tf.zeros_initializer()([2], tf.int32).numpy().tolist()
    [0, 0]
    """

    def __call__(
        self, shape: ShapeLike, dtype: DTypeLike = dtypes.float32, **kwargs: Any
    ) -> Tensor:
        return array_ops.zeros(
            self._partition_shape(shape, kwargs), _numeric(dtype, dtypes.float32)
        )


class ones_initializer(Initializer):  # noqa: N801
    """Ones.

    >>> import retrograd as tf
    >>> tf.ones_initializer()([2]).numpy().tolist()
    [1.0, 1.0]
    """

    def __call__(
        self, shape: ShapeLike, dtype: DTypeLike = dtypes.float32, **kwargs: Any
    ) -> Tensor:
        dims = self._partition_shape(shape, kwargs)
        return array_ops.ones(dims, _numeric(dtype, dtypes.float32))


class constant_initializer(Initializer):  # noqa: N801
    """``value`` (a number, or values as many as the shape holds), of ``dtype`` when given,
    else of ``value``'s own dtype. ``support_partition`` allows calls for a part of a
    variable (``partition_shape``/``partition_offset``).

    >>> import retrograd as tf
    >>> tf.constant_initializer(3)([2, 2], tf.float32).numpy().tolist()
    [[3.0, 3.0], [3.0, 3.0]]
    """

    def __init__(self, value: Any = 0, support_partition: bool = False) -> None:
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray, Tensor))):
            raise TypeError(
                f"Invalid type for initial value={value} of type: {type(value).__name__}. "
                f"Expected Python scalar, list or tuple of values, or numpy.ndarray."
            )
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape: ShapeLike, dtype: DTypeLike | None = None, **kwargs: Any) -> Tensor:
        if kwargs and not self.support_partition:
            unknown = [k for k in kwargs if k not in _PARTITION]
            if not unknown:
                raise ValueError(
                    "constant_initializer initializer doesn't support partition-related arguments"
                )
        dims = self._partition_shape(shape, kwargs)
        value = convert_to_tensor(
            self.value, dtype=None if dtype is None else dtypes.as_dtype(dtype)
        )
        size = int(np.prod(dims, dtype=np.int64))
        if value.shape.num_elements() == 1:
            return array_ops.fill(dims, array_ops.reshape(value, []))
        if value.shape.num_elements() != size:
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tensor "
                f"{value.numpy()} (converted from {self.value}) has "
                f"{value.shape.num_elements()} elements, but got `shape` {tuple(dims)} with "
                f"{size} elements)."
            )
        return array_ops.reshape(value, dims)

    def get_config(self) -> dict:
        return {"value": self.value}


class _Random(Initializer):
    """A random initializer: stateless draws seeded ``[seed, 0]`` with a seed, else draws
    from the global generator."""

    def __init__(self, seed: int | None) -> None:
        self.seed = seed

    def _seed(self) -> list | None:
        return None if self.seed is None else [self.seed, 0]


class random_normal_initializer(_Random):  # noqa: N801
    """Normal values with ``mean`` and ``stddev``.

    >>> import retrograd as tf
    >>> values = tf.random_normal_initializer(seed=3)([3]).numpy()
    >>> [round(float(v), 6) for v in values]
    [-0.033579, 0.083803, -0.047212]
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(
        self, shape: ShapeLike, dtype: DTypeLike = dtypes.float32, **kwargs: Any
    ) -> Tensor:
        dims, target = self._partition_shape(shape, kwargs), _floating(dtype)
        if self.seed is None:
            return random_ops.normal(dims, self.mean, self.stddev, target)
        return stateless_random_ops.stateless_normal(
            dims, self._seed(), self.mean, self.stddev, target
        )

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class random_uniform_initializer(_Random):  # noqa: N801
    """Uniform values in ``[minval, maxval)``.

    >>> import retrograd as tf
    >>> values = tf.random_uniform_initializer(-1.0, 1.0, seed=5)([2]).numpy()
    >>> [round(float(v), 6) for v in values]
    [-0.876293, 0.663338]
    """

    def __init__(
        self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None
    ) -> None:
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(
        self, shape: ShapeLike, dtype: DTypeLike = dtypes.float32, **kwargs: Any
    ) -> Tensor:
        dims = self._partition_shape(shape, kwargs)
        target = _numeric(dtype, dtypes.float32)
        if self.seed is None:
            return random_ops.uniform(dims, self.minval, self.maxval, target)
        return stateless_random_ops.stateless_uniform(
            dims, self._seed(), self.minval, self.maxval, target
        )

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
