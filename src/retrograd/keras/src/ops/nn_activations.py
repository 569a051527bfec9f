"""``keras.ops`` activations (``keras.ops.nn``): the ReLU family, sigmoids, softmax and
friends, shrinkage functions, ``one_hot``/``multi_hot`` and ``normalize``. Each is built from
TensorFlow's ops, so it differentiates (at any order) as they do.

>>> from retrograd.keras import ops
>>> ops.relu([-1.0, 2.0]).numpy().tolist(), ops.hard_sigmoid([0.0]).numpy().tolist()
([0.0, 2.0], [0.5])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import standardize_dtype
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    activation_ops,
    array_ops,
    clip_ops,
    comparison_ops,
    creation_ops,
    join_ops,
    math_ops,
    nn_ops,
    reduction_ops,
    sort_ops,
)

__all__ = [
    "relu",
    "relu6",
    "sigmoid",
    "softplus",
    "softsign",
    "silu",
    "swish",
    "log_sigmoid",
    "leaky_relu",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "hard_shrink",
    "soft_shrink",
    "tanh_shrink",
    "elu",
    "selu",
    "gelu",
    "celu",
    "glu",
    "softmax",
    "log_softmax",
    "sparsemax",
    "sparse_plus",
    "sparse_sigmoid",
    "squareplus",
    "threshold",
    "one_hot",
    "multi_hot",
    "normalize",
]


def _apply(fn: Callable, x: Any, kernel: Callable, *args: Any) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, *args)
    return kernel(tensors.convert(x))


def _const(value: float, t: Any) -> Any:
    return tensors.convert(value, t.dtype)


def relu(x: Any) -> Any:
    """``max(x, 0)``.

    >>> relu([-1.0, 3.0]).numpy().tolist()
    [0.0, 3.0]
    """
    return _apply(relu, x, nn_ops.relu)


def relu6(x: Any) -> Any:
    """``min(max(x, 0), 6)``.

    >>> relu6([-1.0, 8.0]).numpy().tolist()
    [0.0, 6.0]
    """
    return _apply(relu6, x, activation_ops.relu6)


def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))``.

    >>> sigmoid([0.0]).numpy().tolist()
    [0.5]
    """
    return _apply(sigmoid, x, math_ops.sigmoid)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``, computed stably.

    >>> round(float(softplus(0.0)), 4)
    0.6931
    """
    return _apply(softplus, x, nn_ops.softplus)


def softsign(x: Any) -> Any:
    """``x / (1 + |x|)``.

    >>> softsign([1.0]).numpy().tolist()
    [0.5]
    """
    return _apply(softsign, x, activation_ops.softsign)


def silu(x: Any) -> Any:
    """``x * sigmoid(x)`` (swish).

    >>> silu([0.0]).numpy().tolist()
    [0.0]
    """
    return _apply(silu, x, activation_ops.silu)


def swish(x: Any) -> Any:
    """``x * sigmoid(x)`` (as ``silu``).

    >>> swish([0.0]).numpy().tolist()
    [0.0]
    """
    return _apply(swish, x, activation_ops.silu)


def log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x))``, computed stably.

    >>> round(float(log_sigmoid(0.0)), 4)
    -0.6931
    """
    return _apply(log_sigmoid, x, activation_ops.log_sigmoid)


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> leaky_relu([-1.0, 2.0], negative_slope=0.5).numpy().tolist()
    [-0.5, 2.0]
    """
    return _apply(leaky_relu, x, lambda t: activation_ops.leaky_relu(t, negative_slope))


def _hard_sigmoid(t: Any) -> Any:
    return activation_ops.relu6(t + _const(3.0, t)) / _const(6.0, t)


def hard_sigmoid(x: Any) -> Any:
    """``relu6(x + 3) / 6``.

    >>> hard_sigmoid([-4.0, 0.0, 4.0]).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    return _apply(hard_sigmoid, x, _hard_sigmoid)


def hard_silu(x: Any) -> Any:
    """``x * hard_sigmoid(x)``.

    >>> hard_silu([0.0, 4.0]).numpy().tolist()
    [0.0, 4.0]
    """
    return _apply(hard_silu, x, lambda t: t * _hard_sigmoid(t))


def hard_swish(x: Any) -> Any:
    """``x * hard_sigmoid(x)`` (as ``hard_silu``).

    >>> hard_swish([4.0]).numpy().tolist()
    [4.0]
    """
    return _apply(hard_swish, x, lambda t: t * _hard_sigmoid(t))


def hard_tanh(x: Any) -> Any:
    """``x`` clipped to ``[-1, 1]``.

    >>> hard_tanh([-3.0, 0.5]).numpy().tolist()
    [-1.0, 0.5]
    """
    return _apply(hard_tanh, x, lambda t: clip_ops.clip_by_value(t, -1.0, 1.0))


def hard_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` where ``|x| > threshold``, 0 elsewhere.

    >>> hard_shrink([0.2, -0.8]).numpy().tolist()
    [0.0, -0.800000011920929]
    """

    def kernel(t: Any) -> Any:
        keep = comparison_ops.greater(math_ops.abs(t), _const(threshold, t))
        return array_ops.where(keep, t, array_ops.zeros_like(t))

    return _apply(hard_shrink, x, kernel, threshold)


def soft_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` moved ``threshold`` toward 0 (0 within ``threshold``).

    >>> soft_shrink([0.25, -1.5, 2.0]).numpy().tolist()
    [0.0, -1.0, 1.5]
    """

    def kernel(t: Any) -> Any:
        limit = _const(threshold, t)
        low = array_ops.where(comparison_ops.less(t, -limit), t + limit, array_ops.zeros_like(t))
        return array_ops.where(comparison_ops.greater(t, limit), t - limit, low)

    return _apply(soft_shrink, x, kernel, threshold)


def tanh_shrink(x: Any) -> Any:
    """``x - tanh(x)``.

    >>> tanh_shrink([0.0]).numpy().tolist()
    [0.0]
    """
    return _apply(tanh_shrink, x, lambda t: t - math_ops.tanh(t))


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    >>> elu([1.0]).numpy().tolist()
    [1.0]
    """

    def kernel(t: Any) -> Any:
        out = activation_ops.elu(t)
        if alpha == 1:
            return out
        return array_ops.where(comparison_ops.greater(t, _const(0.0, t)), out, out * alpha)

    return _apply(elu, x, kernel, alpha)


def selu(x: Any) -> Any:
    """The scaled ELU (``1.0507 * elu(x, 1.6733)``).

    >>> selu([0.0]).numpy().tolist()
    [0.0]
    """
    return _apply(selu, x, activation_ops.selu)


def gelu(x: Any, approximate: bool = True) -> Any:
    """The Gaussian error linear unit (its tanh approximation by default).

    >>> gelu([0.0]).numpy().tolist()
    [0.0]
    """
    return _apply(gelu, x, lambda t: activation_ops.gelu(t, approximate=approximate), approximate)


def celu(x: Any, alpha: float = 1.0) -> Any:
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``.

    >>> celu([1.0]).numpy().tolist()
    [1.0]
    """

    def kernel(t: Any) -> Any:
        zero = _const(0.0, t)
        return math_ops.maximum(t, zero) + alpha * math_ops.expm1(math_ops.minimum(t, zero) / alpha)

    return _apply(celu, x, kernel, alpha)


def glu(x: Any, axis: int = -1) -> Any:
    """The gated linear unit: the first half of ``axis`` times the sigmoid of the second.

    >>> glu([[1.0, 0.0]]).numpy().tolist()
    [[0.5]]
    """

    def kernel(t: Any) -> Any:
        if t.shape.as_list()[axis] % 2:
            raise ValueError(
                "axis size must be divisible by 2. Received: "
                f"x.shape={tuple(t.shape.as_list())} with axis={axis}"
            )
        a, b = join_ops.split(t, 2, axis)
        return a * math_ops.sigmoid(b)

    return _apply(glu, x, kernel, axis)


def _over_axes(t: Any, axis: Any, fn: Callable) -> Any:
    """``fn`` along one axis, or along several merged into one (or all, for None)."""
    if axis is None:
        return array_ops.reshape(fn(array_ops.reshape(t, [-1]), -1), array_ops.shape(t))
    if isinstance(axis, (int, np.integer)):
        return fn(t, int(axis))
    rank = t.shape.rank
    axes = sorted(a % rank for a in axis)
    others = [a for a in range(rank) if a not in axes]
    moved = array_ops.transpose(t, others + axes)
    shape = moved.shape.as_list()
    flat = array_ops.reshape(moved, shape[: len(others)] + [-1])
    out = array_ops.reshape(fn(flat, -1), shape)
    return array_ops.transpose(out, list(np.argsort(others + axes)))


def softmax(x: Any, axis: Any = -1) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis`` (several axes, or all for None).

    >>> softmax([[0.0, 0.0]]).numpy().tolist()
    [[0.5, 0.5]]
    """
    return _apply(softmax, x, lambda t: _over_axes(t, axis, nn_ops.softmax), axis)


def log_softmax(x: Any, axis: Any = -1) -> Any:
    """``x - logsumexp(x)`` along ``axis``.

    >>> [round(v, 4) for v in log_softmax([0.0, 0.0]).numpy().tolist()]
    [-0.6931, -0.6931]
    """
    return _apply(log_softmax, x, lambda t: _over_axes(t, axis, nn_ops.log_softmax), axis)


def sparsemax(x: Any, axis: int = -1) -> Any:
    """The Euclidean projection of ``x`` onto the simplex along ``axis`` (a softmax with
    exact zeros).

    >>> sparsemax([1.0, 0.0]).numpy().tolist()
    [1.0, 0.0]
    """

    def kernel(t: Any) -> Any:
        ordered = sort_ops.sort(t, axis=axis, direction="DESCENDING")
        running = reduction_ops.cumsum(ordered, axis=axis)
        shape = [1] * t.shape.rank
        shape[axis] = -1
        ranks = array_ops.reshape(
            tensors.convert(np.arange(1, t.shape.as_list()[axis] + 1), t.dtype), shape
        )
        support = comparison_ops.greater(ordered - (running - 1) / ranks, _const(0.0, t))
        kept = array_ops.where(support, running, array_ops.zeros_like(running))
        k = reduction_ops.reduce_sum(math_ops.cast(support, t.dtype), axis, keepdims=True)
        tau = (reduction_ops.reduce_sum(kept, axis, keepdims=True) - 1) / k
        return math_ops.maximum(t - tau, _const(0.0, t))

    return _apply(sparsemax, x, kernel, axis)


def sparse_plus(x: Any) -> Any:
    """0 below -1, ``(x + 1)**2 / 4`` on [-1, 1), ``x`` above.

    >>> sparse_plus([-2.0, 0.0, 2.0]).numpy().tolist()
    [0.0, 0.25, 2.0]
    """

    def kernel(t: Any) -> Any:
        one = _const(1.0, t)
        middle = array_ops.where(comparison_ops.less(t, one), 0.25 * math_ops.square(t + one), t)
        return array_ops.where(comparison_ops.less_equal(t, -one), array_ops.zeros_like(t), middle)

    return _apply(sparse_plus, x, kernel)


def sparse_sigmoid(x: Any) -> Any:
    """0 below -1, ``(x + 1) / 2`` on (-1, 1), 1 above.

    >>> sparse_sigmoid([-2.0, 0.0, 2.0]).numpy().tolist()
    [0.0, 0.5, 1.0]
    """

    def kernel(t: Any) -> Any:
        one = _const(1.0, t)
        middle = array_ops.where(
            comparison_ops.greater_equal(t, one), array_ops.ones_like(t), 0.5 * (t + one)
        )
        return array_ops.where(comparison_ops.less_equal(t, -one), array_ops.zeros_like(t), middle)

    return _apply(sparse_sigmoid, x, kernel)


def squareplus(x: Any, b: float = 4) -> Any:
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ReLU.

    >>> squareplus([0.0]).numpy().tolist()
    [1.0]
    """

    def kernel(t: Any) -> Any:
        return (t + math_ops.sqrt(math_ops.square(t) + tensors.convert(b, t.dtype))) / 2

    return _apply(squareplus, x, kernel, b)


def threshold(x: Any, threshold: float, default_value: float) -> Any:
    """``x`` where ``x > threshold``, ``default_value`` elsewhere.

    >>> threshold([0.5, 2.0], 1.0, -1.0).numpy().tolist()
    [-1.0, 2.0]
    """
    return _threshold(x, threshold, default_value)


def _threshold(x: Any, limit: float, default_value: float) -> Any:
    def kernel(t: Any) -> Any:
        keep = comparison_ops.greater(t, tensors.convert(limit, t.dtype))
        return array_ops.where(keep, t, tensors.full_like(t, default_value))

    return _apply(threshold, x, kernel, limit, default_value)


def one_hot(
    x: Any, num_classes: int, axis: int = -1, dtype: Any = None, sparse: bool = False
) -> Any:
    """Integer labels ``x`` as one-hot vectors of length ``num_classes`` along ``axis``.

    >>> one_hot([0, 2], 3).numpy().tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """
    if any_symbolic(x):
        return symbolic_call(one_hot, x, num_classes, axis, dtype, sparse)
    if sparse:
        raise ValueError("one_hot: retrograd has no sparse tensors")
    t = tensors.convert(x)
    return creation_ops.one_hot(t, int(num_classes), axis=axis, dtype=standardize_dtype(dtype))


def multi_hot(
    inputs: Any,
    num_classes: Any = None,
    axis: int = -1,
    dtype: Any = None,
    sparse: bool = False,
    **kwargs: Any,
) -> Any:
    """Each row of integer labels as one vector with ones at the labels.

    >>> multi_hot([[0, 2]], 3).numpy().tolist()
    [[1.0, 0.0, 1.0]]
    """
    if num_classes is None and "num_tokens" in kwargs:
        num_classes = kwargs.pop("num_tokens")
    if num_classes is None:
        raise ValueError("Argument `num_classes` must be specified.")
    if any_symbolic(inputs):
        return symbolic_call(multi_hot, inputs, num_classes, axis, dtype, sparse)
    t = math_ops.cast(tensors.convert(inputs), "int32")
    hot = one_hot(t, num_classes, axis=axis, dtype=dtype or "float32")
    return reduction_ops.reduce_max(hot, 1 if t.shape.rank > 1 else 0)


def normalize(x: Any, axis: int = -1, order: int = 2, epsilon: Any = None) -> Any:
    """``x`` divided by its ``order``-norm along ``axis`` (at least ``epsilon``).

    >>> normalize([[3.0, 4.0]]).numpy().tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """
    if any_symbolic(x):
        return symbolic_call(normalize, x, axis, order, epsilon)
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    t = tensors.convert(x)
    if epsilon is None:
        epsilon = backend.epsilon()
    if order == 2:
        squares = reduction_ops.reduce_sum(math_ops.square(t), axis, keepdims=True)
        inverse = math_ops.minimum(math_ops.rsqrt(squares), _const(1.0 / epsilon, t))
        return t * inverse
    norm = reduction_ops.reduce_sum(math_ops.pow(math_ops.abs(t), _const(order, t)), axis, True)
    norm = math_ops.pow(norm, _const(1.0 / order, t))
    return t / math_ops.maximum(norm, tensors.convert(epsilon, t.dtype))
