"""Seeds for the stateless random ops: ``split`` and ``fold_in`` (new seeds drawn from a
seed, TensorFlow's numbers), ``create_rng_state`` and the ``Algorithm`` enumeration; and
``stateless_categorical`` (TensorFlow's numbers where its CPU kernel draws in one shard,
as it does for small batches).

>>> import retrograd as tf
>>> tf.random.fold_in([1, 2], 7).numpy().tolist()
[1105988140, 7]
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, philox_random
from retrograd.ops.define import FLOAT, tensor_arg
from retrograd.ops.stateless_random_ops import stateless_uniform

__all__ = ["Algorithm", "create_rng_state", "fold_in", "split", "stateless_categorical"]


class Algorithm(enum.Enum):
    """The random number algorithms (Philox-4x32-10 is the one retrograd computes).

    >>> Algorithm(1)
    <Algorithm.PHILOX: 1>
    """

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_STATE_SIZES = {1: 3, 2: 2, 3: 3}
_NAMES = {"philox": 1, "threefry": 2, "auto_select": 3}


def _algorithm(alg: Any) -> int:
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, str) and alg.lower() in _NAMES:
        return _NAMES[alg.lower()]
    if isinstance(alg, (int, np.integer)) and int(alg) in _STATE_SIZES:
        return int(alg)
    raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                     f"{list(_NAMES)} or an Algorithm.")  # fmt: skip


def create_rng_state(seed: int | None, alg: str | int | object) -> Tensor:
    """The state of a random generator of algorithm ``alg`` made from ``seed`` (an int, split
    into 64-bit words, or a list of ints): an int64 vector padded with zeros.

    >>> create_rng_state(5, "philox").numpy().tolist()
    [5, 0, 0]
    """
    size = _STATE_SIZES[_algorithm(alg)]
    words = []
    for value in np.ravel(seed).tolist() if not isinstance(seed, int) else [seed]:
        value = int(value)
        if value < 0:  # two's complement over the whole state
            value %= 2 ** (64 * size)
        while True:  # 64-bit words, least significant first
            words.append(value % 2**64)
            value >>= 64
            if not value:
                break
    words = (words + [0] * size)[:size]
    return Tensor(np.array(words, dtype=np.uint64).view(np.int64))


def split(seed: TensorLike, num: int = 2, alg: str | int | object = "auto_select") -> Tensor:
    """``num`` new seeds ([num, 2]) drawn from ``seed``, for independent stateless streams.

    >>> import retrograd as tf
    >>> tf.random.split([1, 2]).numpy().tolist()
    [[1105988140, 1738052849], [-335576002, 370444179]]
    """
    _algorithm(alg)
    seed = convert_to_tensor(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype)


def fold_in(seed: TensorLike, data: TensorLike, alg: str | int | object = "auto_select") -> Tensor:
    """A new seed from ``seed`` and the integer ``data`` (one draw from ``seed``, then
    ``data``): seeds that differ by the data they fold in.

    >>> import retrograd as tf
    >>> tf.random.fold_in([1, 2], 8).numpy().tolist()
    [1105988140, 8]
    """
    _algorithm(alg)
    data = convert_to_tensor(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype)
    return array_ops.stack([first, data])


def _categorical_kernel(seed, logits, num_samples, dtype):
    rows, classes = logits.shape
    u = philox_random.standard("uniform", seed, rows * num_samples, np.dtype(np.float64))
    u = u.reshape(rows, num_samples)
    x = logits.astype(np.float64)
    finite = np.isfinite(x)
    top = np.max(np.where(finite, x, -np.inf), axis=1, keepdims=True) if x.shape[1] else x[:, :1]
    with np.errstate(invalid="ignore", over="ignore"):
        cdf = np.cumsum(np.where(finite, np.exp(x - top), 0.0), axis=1)
    out = np.empty((rows, num_samples), dtype.as_numpy_dtype)
    for row in range(rows):
        out[row] = np.searchsorted(cdf[row], u[row] * cdf[row, -1], side="right")
    return out


# Drawn on the host (Philox, a loop over rows), then placed on the logits' device.
_StatelessMultinomial = define_op(
    "StatelessMultinomial", host_kernel(_categorical_kernel, makes_arrays=True)
)
no_gradient("StatelessMultinomial")


def stateless_categorical(
    logits: TensorLike,
    num_samples: int,
    seed: TensorLike,
    dtype: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """``num_samples`` class indices per row of ``logits`` [batch, classes], a function of
    ``seed`` (TensorFlow's numbers: its CPU kernel's uniforms, drawn row after row).

    >>> import retrograd as tf
    >>> tf.random.stateless_categorical(tf.math.log([[0.5, 0.3, 0.2]]), 5, seed=[3, 4],
    ...                                 dtype=tf.int32).numpy().tolist()
    [[2, 1, 0, 2, 2]]
    """
    from retrograd.ops.stateless_random_ops import _seed

    x = tensor_arg("StatelessMultinomial", logits, FLOAT, "logits")
    if x._value.ndim != 2:
        raise InvalidArgumentError(f"logits should be a matrix, got shape {list(x.shape)}")
    dtype = dtypes.as_dtype(dtype)
    attrs = {"num_samples": int(num_samples), "dtype": dtype}
    return execute(_StatelessMultinomial, (_seed("StatelessMultinomial", seed), x), attrs, name)
