"""Building blocks of layers: bias_add, dropout and batch_normalization.

``BiasAdd`` is an op (its bias gradient sums over every axis but the channel axis);
dropout and batch_normalization are compositions of ops, as in TensorFlow, so their
gradients (to every order) come from those ops.

>>> import retrograd as rg
>>> rg.nn.bias_add(rg.zeros([2, 3]), [1.0, 2.0, 3.0]).numpy().tolist()
[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, math_ops, random_ops, random_seeding, reduction_ops
from retrograd.ops.define import FLOAT, NUMERIC, tensor_arg, tensor_pair


def _bias_add_kernel(value, bias, data_format):
    if data_format == "NCHW":
        bias = bias.reshape((-1,) + (1,) * (value.ndim - 2))
    return value + bias


_BiasAdd = define_op("BiasAdd", _bias_add_kernel)


def _bias_format(data_format: str | None) -> str:
    if data_format is None:
        return "NHWC"
    if data_format.startswith("NC"):
        return "NCHW"
    if data_format.startswith("N") and data_format.endswith("C"):
        return "NHWC"
    raise ValueError(
        f"BiasAdd: data_format must be of the form N...C or NC..., got {data_format!r}"
    )


def bias_add(
    value: TensorLike, bias: TensorLike, data_format: str | None = None, name: str | None = None
) -> Tensor:
    """``value`` plus the 1-D ``bias`` along the channel axis: the last one (``N...C``, the
    default) or axis 1 (``NC...``). ``value`` must have rank >= 2.

    >>> import retrograd as rg
    >>> rg.nn.bias_add([[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0]).numpy().tolist()
    [[11.0, 22.0], [13.0, 24.0]]
    """
    value, bias = tensor_pair("BiasAdd", value, bias, NUMERIC)
    data_format = _bias_format(data_format)
    shape = tuple(value._value.shape)
    if len(shape) < 2:
        raise InvalidArgumentError(f"BiasAdd: value must be at least 2-D, got shape {shape}")
    if bias._value.ndim != 1:
        raise InvalidArgumentError(f"BiasAdd: bias must be 1-D, got shape {plain_dims(bias.shape)}")
    channels = shape[1] if data_format == "NCHW" else shape[-1]
    if bias._value.shape[0] != channels:
        raise InvalidArgumentError(
            f"BiasAdd: bias has {bias._value.shape[0]} elements but value {shape} has {channels} "
            f"channels ({data_format})"
        )
    return execute(_BiasAdd, (value, bias), {"data_format": data_format}, name)


@op_gradient("BiasAdd")
def _bias_add_grad(op, grad):
    ndim = op.inputs[0]._value.ndim
    channel = 1 if op.get_attr("data_format") == "NCHW" else ndim - 1
    return grad, reduction_ops.reduce_sum(grad, [a for a in range(ndim) if a != channel])


def _noise_shape(x: Tensor, noise_shape: Any) -> Any:
    shape = tuple(x._value.shape)
    if None in shape:  # known only when the graph runs: the noise takes x's run-time shape
        if noise_shape is None:
            return array_ops.shape(x)
        dims = list(noise_shape)
        if len(dims) != len(shape):
            raise InvalidArgumentError(
                f"dropout: noise_shape {dims} must have the rank of x ({len(shape)})"
            )
        return [array_ops.shape(x)[i] if d is None else d for i, d in enumerate(dims)]
    if noise_shape is None:
        return shape
    if isinstance(noise_shape, Tensor):
        noise_shape = noise_shape.numpy().tolist()
    dims = list(noise_shape)
    if len(dims) == len(shape):  # None keeps the dimension of x, as in TensorFlow
        dims = [s if d is None else d for d, s in zip(dims, shape)]
    try:
        dims = [int(d) for d in dims]
        fits = np.broadcast_shapes(tuple(dims), shape) == shape
    except (TypeError, ValueError):
        fits = False
    if not fits:
        raise InvalidArgumentError(
            f"dropout: noise_shape {list(noise_shape)} must broadcast to the shape {shape} of x"
        )
    return tuple(dims)


def dropout(
    x: TensorLike,
    rate: TensorLike,
    noise_shape: ShapeLike | None = None,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Zeroes each element with probability ``rate`` and scales the rest by ``1 / (1 - rate)``.

    ``noise_shape`` (broadcast to ``x``'s shape; None entries take ``x``'s) shares one
    decision along broadcast axes; ``seed`` works as in :mod:`retrograd.random`. The gradient
    flows through the kept elements, scaled the same way.

    >>> import retrograd as rg
    >>> y = rg.nn.dropout(rg.ones([1000], rg.float64), rate=0.25, seed=1)
    >>> sorted(set(y.numpy().round(4).tolist()))
    [0.0, 1.3333]
    """
    is_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
    if is_number and not 0 <= rate < 1:
        raise ValueError(f"dropout: rate must be a scalar tensor or a float in [0, 1), got {rate}")
    x = tensor_arg("dropout", x, FLOAT, "x")
    if is_number and rate == 0:
        random_seeding.get_seed(seed)  # an unseeded call still takes its op seed, as in TensorFlow
        return x
    if is_number:
        kept = x * (1 / (1 - rate))
    else:
        _, rate = tensor_pair("dropout", x, rate, FLOAT)
        if rate._value.ndim != 0:
            raise InvalidArgumentError(
                f"dropout: rate must be a scalar, got shape {plain_dims(rate.shape)}"
            )
        kept = x / (1 - rate)
    noise = random_ops.uniform(_noise_shape(x, noise_shape), dtype=x.dtype, seed=seed)
    return array_ops.where(noise >= rate, kept, 0, name=name)


def batch_normalization(
    x: TensorLike,
    mean: TensorLike,
    variance: TensorLike,
    offset: TensorLike | None,
    scale: TensorLike | None,
    variance_epsilon: TensorLike,
    name: str | None = None,
) -> Tensor:
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset``; ``offset`` and
    ``scale`` may be None. All broadcast against ``x``.

    >>> import retrograd as rg
    >>> rg.nn.batch_normalization([1.0, 3.0], 2.0, 1.0, None, None, 0.0).numpy().tolist()
    [-1.0, 1.0]
    """
    x = tensor_arg("batch_normalization", x, FLOAT, "x")
    _, mean = tensor_pair("batch_normalization", x, mean, FLOAT)
    _, variance = tensor_pair("batch_normalization", x, variance, FLOAT)
    inv = math_ops.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * tensor_pair("batch_normalization", x, scale, FLOAT)[1]
    shift = -mean * inv
    if offset is not None:
        shift = tensor_pair("batch_normalization", x, offset, FLOAT)[1] + shift
    return math_ops.add(x * inv, shift, name=name)
