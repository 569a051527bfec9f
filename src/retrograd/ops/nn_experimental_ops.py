"""Dropout with a given source of uniform numbers (``tf.nn.experimental``):
``stateless_dropout`` (a function of its seed, TensorFlow's mask) and ``general_dropout``.

>>> import retrograd as tf
>>> tf.nn.experimental.stateless_dropout(tf.ones([4]), 0.5, seed=[1, 2]).numpy().tolist()
[2.0, 0.0, 2.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops
from retrograd.ops.stateless_random_ops import stateless_uniform

__all__ = ["general_dropout", "stateless_dropout"]


def general_dropout(
    x: TensorLike,
    rate: float,
    uniform_sampler: Callable[..., Any],
    noise_shape: ShapeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Zeroes each entry where ``uniform_sampler(shape=..., dtype=...)`` < ``rate`` and scales
    the rest by 1 / (1 - rate).

    >>> import retrograd as tf
    >>> sampler = lambda shape, dtype: tf.fill(shape, tf.constant(0.7, dtype))
    >>> tf.nn.experimental.general_dropout(tf.ones([2]), 0.5, sampler).numpy().tolist()
    [2.0, 2.0]
    """
    from retrograd.ops.nn_layer_ops import _noise_shape

    x = convert_to_tensor(x)
    if not 0 <= rate < 1:
        raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {rate}")
    if rate == 0:
        return x
    noise = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
    return array_ops.where(noise >= rate, x * (1 / (1 - rate)), 0, name=name)


def stateless_dropout(
    x: TensorLike,
    rate: float,
    seed: TensorLike,
    rng_alg: Any = None,
    noise_shape: ShapeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Dropout whose mask is a function of ``seed`` (TensorFlow's stateless uniforms).

    >>> import retrograd as tf
    >>> a = tf.nn.experimental.stateless_dropout(tf.ones([3]), 0.3, seed=[4, 5])
    >>> bool(tf.reduce_all(a == tf.nn.experimental.stateless_dropout(tf.ones([3]), 0.3, [4, 5])))
    True
    """

    def sampler(shape: Any, dtype: Any) -> Tensor:
        return stateless_uniform(shape, seed, dtype=dtype, alg=rng_alg or "auto_select")

    return general_dropout(x, rate, sampler, noise_shape, name)
