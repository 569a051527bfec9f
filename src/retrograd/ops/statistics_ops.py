"""Reductions composed of other ops: logsumexp, variance, standard deviation, moments and
l2_normalize. Their gradients come from the ops they are made of (to every order).

>>> import retrograd as rg
>>> x = rg.constant([[1.0, 2.0], [3.0, 5.0]])
>>> mean, variance = rg.nn.moments(x, axes=[0])
>>> mean.numpy().tolist(), variance.numpy().tolist()
([2.0, 3.5], [1.0, 2.25])
"""

from __future__ import annotations

import numpy as np

from retrograd.core.annotations import AxisLike, TensorLike
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, comparison_ops, math_ops, reduction_ops
from retrograd.ops.define import FLOAT, REAL, tensor_arg
from retrograd.ops.scopes import op_scope


def reduce_logsumexp(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """log(sum(exp(x))) over ``axis``, computed without overflow (the largest entry is
    taken out first); its gradient is the softmax of ``x`` over ``axis``.

    >>> import retrograd as rg
    >>> round(float(rg.reduce_logsumexp(rg.constant([1000.0, 1000.0], rg.float64))), 4)
    1000.6931
    """
    x = tensor_arg("reduce_logsumexp", input_tensor, FLOAT, "input_tensor")
    with op_scope(name or "ReduceLogSumExp") as scope:
        raw_max = reduction_ops.reduce_max(x, axis, keepdims=True)
        # An infinite (or empty, -inf) maximum is not subtracted: inf - inf would give NaN.
        finite = comparison_ops.less(math_ops.abs(raw_max), np.inf)
        zeros = array_ops.zeros_like(raw_max)
        shift = array_ops.stop_gradient(array_ops.where(finite, raw_max, zeros))
        summed = reduction_ops.reduce_sum(math_ops.exp(x - shift), axis, keepdims=keepdims)
        shape = summed._value.shape
        if shape is None or None in shape:  # (axes or sizes known only when the graph runs)
            shape = array_ops.shape(summed)
        return math_ops.add(math_ops.log(summed), array_ops.reshape(shift, shape), name=scope)


def reduce_variance(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """The variance (mean squared deviation from the mean) over ``axis``.

    >>> import retrograd as rg
    >>> float(rg.math.reduce_variance([1.0, 2.0, 3.0, 4.0]))
    1.25
    """
    x = tensor_arg("reduce_variance", input_tensor, FLOAT, "input_tensor")
    mean = reduction_ops.reduce_mean(x, axis, keepdims=True)
    return reduction_ops.reduce_mean(math_ops.square(x - mean), axis, keepdims=keepdims)


def reduce_std(
    input_tensor: TensorLike,
    axis: AxisLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> Tensor:
    """The standard deviation (square root of the variance) over ``axis``.

    >>> import retrograd as rg
    >>> rg.math.reduce_std([[1.0, 3.0], [2.0, 2.0]], axis=1).numpy().tolist()
    [1.0, 0.0]
    """
    x = tensor_arg("reduce_std", input_tensor, FLOAT, "input_tensor")
    return math_ops.sqrt(reduce_variance(x, axis, keepdims))


def l2_normalize(
    x: TensorLike,
    axis: AxisLike | None = None,
    epsilon: float = 1e-12,
    name: str | None = None,
    dim: AxisLike | None = None,
) -> Tensor:
    """``x / sqrt(max(sum(x**2, axis), epsilon))``: unit L2 norm along ``axis`` (``dim`` is
    its deprecated name); all-zero slices stay zero.

    >>> import retrograd as rg
    >>> rg.math.l2_normalize([3.0, 4.0]).numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("l2_normalize: cannot specify both 'dim' and 'axis'")
        axis = dim
    t = tensor_arg("l2_normalize", x, FLOAT, "x")
    square_sum = reduction_ops.reduce_sum(math_ops.square(t), axis, keepdims=True)
    return t * math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))


def moments(
    x: TensorLike,
    axes: AxisLike,
    shift: TensorLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The mean and variance of ``x`` over ``axes`` (``shift`` is unused, as in TensorFlow).
    float16 is computed in float32; integer tensors give truncated integer moments.

    The variance is differentiated through the mean as well: first derivatives equal
    TensorFlow's, and second derivatives are exact (TensorFlow stops the gradient at the
    mean inside the variance, which leaves its second derivatives without the mean's term).

    >>> import retrograd as rg
    >>> mean, variance = rg.nn.moments(rg.constant([1.0, 2.0, 3.0, 6.0]), axes=[0])
    >>> mean.numpy().tolist(), variance.numpy().tolist()
    (3.0, 3.5)
    """
    y = tensor_arg("moments", x, REAL, "x")
    if y.dtype.name == "float16":
        mean, variance = moments(math_ops.cast(y, "float32"), axes, keepdims=keepdims)
        return math_ops.cast(mean, "float16"), math_ops.cast(variance, "float16")
    mean = reduction_ops.reduce_mean(y, axes, keepdims=True)
    variance = reduction_ops.reduce_mean(math_ops.square(y - mean), axes, keepdims=True)
    if not keepdims:
        axes = reduction_ops.normalize_axes("moments", axes, y._value.ndim)
        kept = None if axes is None else [a for a in range(y._value.ndim) if a not in axes]
        out_shape = () if kept is None else tuple(y._value.shape[a] for a in kept)
        mean, variance = array_ops.reshape(mean, out_shape), array_ops.reshape(variance, out_shape)
    return mean, variance
