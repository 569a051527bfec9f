"""TensorFlow 1's spellings of ops retrograd has under TensorFlow 2's: reductions with
``keep_dims``/``reduction_indices``, ``argmax(dimension=)``, ``expand_dims(dim=)``,
``squeeze(squeeze_dims=)``, ``to_float`` and friends, ``div``/``mod``, ``multinomial``,
``random_shuffle``; and ``tf.nn``'s v1 functions: ``softmax_cross_entropy_with_logits``
(no gradient into the labels, as in TensorFlow 1) and ``..._v2``, ``dropout(keep_prob=)``,
``softmax(dim=)``.

>>> import retrograd as rg
>>> reduce_sum([[1.0, 2.0], [3.0, 4.0]], reduction_indices=[1], keep_dims=True).numpy().tolist()
[[3.0], [7.0]]
>>> div(7, 2).numpy(), div(7.0, 2.0).numpy()
(np.int32(3), np.float32(3.5))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, TensorLike
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import (
    array_ops,
    math_ops,
    nn_layer_ops,
    nn_losses,
    nn_ops,
    random_ops,
    random_shuffle_ops,
    reduction_ops,
    statistics_ops,
)

__all__ = [
    "arg_max",
    "arg_min",
    "argmax",
    "argmin",
    "div",
    "dropout",
    "expand_dims",
    "log_softmax",
    "mod",
    "multinomial",
    "random_shuffle",
    "reduce_all",
    "reduce_any",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_sum",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits_v2",
    "squeeze",
    "to_double",
    "to_float",
    "to_int32",
    "to_int64",
]


def _either(new: Any, old: Any, new_name: str, old_name: str, who: str) -> Any:
    if new is not None and old is not None:
        raise ValueError(f"{who}: cannot specify both '{new_name}' and '{old_name}'")
    return old if new is None else new


class _Reduction(Protocol):
    """A TF1 reduction (both names of its axis and keepdims arguments)."""

    def __call__(
        self,
        input_tensor: TensorLike,
        axis: AxisLike | None = None,
        keepdims: bool | None = None,
        name: str | None = None,
        reduction_indices: AxisLike | None = None,
        keep_dims: bool | None = None,
    ) -> Tensor: ...


def _v1_reduction(reduce: Callable[..., Tensor], name_of_op: str) -> _Reduction:
    def reduction(
        input_tensor: TensorLike,
        axis: AxisLike | None = None,
        keepdims: bool | None = None,
        name: str | None = None,
        reduction_indices: AxisLike | None = None,
        keep_dims: bool | None = None,
    ) -> Tensor:
        axis = _either(axis, reduction_indices, "axis", "reduction_indices", name_of_op)
        keep = _either(keepdims, keep_dims, "keepdims", "keep_dims", name_of_op)
        return reduce(input_tensor, axis, bool(keep), name)

    reduction.__name__ = name_of_op
    x = (
        "[[True, False], [True, True]]"
        if name_of_op in ("reduce_all", "reduce_any")
        else ("[[1.0, 2.0], [3.0, 4.0]]")
    )
    reduction.__doc__ = (
        f"TF1's ``{name_of_op}(input_tensor, axis=None, keepdims=None, name=None, "
        f"reduction_indices=None, keep_dims=None)``: ``retrograd.{name_of_op}`` with TF1's "
        "argument names.\n\n"
        ">>> import retrograd as rg\n"
        f">>> x = {x}\n"
        f">>> old = rg.compat.v1.{name_of_op}(x, reduction_indices=[1], keep_dims=True)\n"
        f">>> new = rg.math.{name_of_op}(x, axis=[1], keepdims=True)\n"
        ">>> old.shape.as_list(), old.numpy().tolist() == new.numpy().tolist()\n"
        "([2, 1], True)\n"
    )
    return reduction


reduce_sum = _v1_reduction(reduction_ops.reduce_sum, "reduce_sum")
reduce_mean = _v1_reduction(reduction_ops.reduce_mean, "reduce_mean")
reduce_max = _v1_reduction(reduction_ops.reduce_max, "reduce_max")
reduce_min = _v1_reduction(reduction_ops.reduce_min, "reduce_min")
reduce_prod = _v1_reduction(reduction_ops.reduce_prod, "reduce_prod")
reduce_all = _v1_reduction(reduction_ops.reduce_all, "reduce_all")
reduce_any = _v1_reduction(reduction_ops.reduce_any, "reduce_any")
reduce_logsumexp = _v1_reduction(statistics_ops.reduce_logsumexp, "reduce_logsumexp")


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):
    """TF1's ``argmax`` (``dimension`` is the old name of ``axis``).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.argmax([[1, 9, 3]], axis=1).numpy().tolist()
    [1]
    """
    axis = _either(axis, dimension, "axis", "dimension", "argmax")
    return reduction_ops.argmax(input, axis, output_type, name)


def argmin(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):
    """TF1's ``argmin``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.argmin([[1, 9, 3]], axis=1).numpy().tolist()
    [0]
    """
    axis = _either(axis, dimension, "axis", "dimension", "argmin")
    return reduction_ops.argmin(input, axis, output_type, name)


def arg_max(
    input: TensorLike,
    dimension: AxisLike,
    output_type: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """TF1's ``arg_max``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.arg_max([[1, 9, 3]], 1).numpy().tolist()
    [1]
    """
    return reduction_ops.argmax(input, dimension, output_type, name)


def arg_min(
    input: TensorLike,
    dimension: AxisLike,
    output_type: DTypeLike = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """TF1's ``arg_min``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.arg_min([[1, 9, 3]], 1).numpy().tolist()
    [0]
    """
    return reduction_ops.argmin(input, dimension, output_type, name)


def expand_dims(
    input: TensorLike, axis: int | None = None, name: str | None = None, dim: int | None = None
) -> Tensor:
    """TF1's ``expand_dims`` (``dim`` is the old name of ``axis``).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.expand_dims([1, 2], dim=1).shape.as_list()
    [2, 1]
    """
    axis = _either(axis, dim, "axis", "dim", "expand_dims")
    if axis is None:
        raise ValueError("expand_dims: axis must be given")
    return array_ops.expand_dims(input, axis, name)


def squeeze(
    input: TensorLike,
    axis: AxisLike | None = None,
    name: str | None = None,
    squeeze_dims: AxisLike | None = None,
) -> Tensor:
    """TF1's ``squeeze`` (``squeeze_dims`` is the old name of ``axis``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.squeeze(rg.zeros([1, 2, 1]), squeeze_dims=[2]).shape.as_list()
    [1, 2]
    """
    axis = _either(axis, squeeze_dims, "axis", "squeeze_dims", "squeeze")
    return array_ops.squeeze(input, axis, name)


def to_float(x: TensorLike, name: str = "ToFloat") -> Tensor:
    """``cast(x, float32)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_float([1, 2]).dtype.name
    'float32'
    """
    return math_ops.cast(x, dtypes.float32, name)


def to_double(x: TensorLike, name: str = "ToDouble") -> Tensor:
    """``cast(x, float64)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_double([1, 2]).dtype.name
    'float64'
    """
    return math_ops.cast(x, dtypes.float64, name)


def to_int32(x: TensorLike, name: str = "ToInt32") -> Tensor:
    """``cast(x, int32)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_int32([1.7, -1.7]).numpy().tolist()
    [1, -1]
    """
    return math_ops.cast(x, dtypes.int32, name)


def to_int64(x: TensorLike, name: str = "ToInt64") -> Tensor:
    """``cast(x, int64)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_int64([1.7]).dtype.name
    'int64'
    """
    return math_ops.cast(x, dtypes.int64, name)


def div(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """TF1's ``div``: floor division for integers, true division for floats (Python 2's
    ``/``).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.div(7, 2).numpy().tolist(), tf1.div(7.0, 2.0).numpy().tolist()
    (3, 3.5)
    """
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.dtype.is_integer:
        return math_ops.floordiv(x, y, name=name)
    return math_ops.realdiv(x, y, name=name)


def mod(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """``floormod``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.mod([7, -7], 3).numpy().tolist()
    [1, 2]
    """
    return math_ops.floormod(x, y, name=name)


def multinomial(
    logits: TensorLike,
    num_samples: int,
    seed: int | None = None,
    name: str | None = None,
    output_dtype: DTypeLike | None = None,
) -> Tensor:
    """TF1's ``multinomial``: ``random.categorical``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.multinomial(rg.math.log([[0.0, 1.0]]), 3, seed=1).numpy().tolist()
    [[1, 1, 1]]
    """
    return random_ops.categorical(logits, num_samples, output_dtype, seed, name)


def random_shuffle(value: TensorLike, seed: int | None = None, name: str | None = None) -> Tensor:
    """TF1's ``random_shuffle``: ``random.shuffle``.

    >>> import retrograd.compat.v1 as tf1
    >>> sorted(tf1.random_shuffle([1, 2, 3], seed=1).numpy().tolist())
    [1, 2, 3]
    """
    return random_shuffle_ops.shuffle(value, seed, name)


# -- tf.nn's v1 functions ------------------------------------------------------------------


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's deprecated ``nn.softmax_cross_entropy_with_logits``: no gradient flows into
    ``labels`` (use ``..._v2`` for that)."""
    if labels is None or logits is None:
        raise ValueError(
            "Both labels and logits must be provided for softmax_cross_entropy_with_logits"
        )
    axis = dim if axis is None else axis
    labels = array_ops.stop_gradient(convert_to_tensor(labels))
    return nn_losses.softmax_cross_entropy_with_logits(labels, logits, axis, name)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """TF1's ``nn.softmax_cross_entropy_with_logits_v2``: gradients reach ``labels`` too."""
    axis = _either(axis, dim, "axis", "dim", "softmax_cross_entropy_with_logits_v2")
    return nn_losses.softmax_cross_entropy_with_logits(
        labels, logits, -1 if axis is None else axis, name
    )


def softmax(logits, axis=None, name=None, dim=None):
    """TF1's ``nn.softmax`` (``dim`` is the old name of ``axis``)."""
    axis = _either(axis, dim, "axis", "dim", "softmax")
    return nn_ops.softmax(logits, -1 if axis is None else axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """TF1's ``nn.log_softmax``."""
    axis = _either(axis, dim, "axis", "dim", "log_softmax")
    return nn_ops.log_softmax(logits, -1 if axis is None else axis, name)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """TF1's ``nn.dropout``: keeps each element with probability ``keep_prob`` (or drops
    with ``rate``), scaling kept ones by ``1 / keep_prob``."""
    if (keep_prob is None) == (rate is None):
        raise ValueError("dropout: give exactly one of keep_prob and rate")
    if rate is None:
        rate = 1 - keep_prob
    return nn_layer_ops.dropout(x, rate, noise_shape, seed, name)
