"""TensorFlow 1 array functions under their TF1 names and signatures: ``space_to_depth``
and ``depth_to_space`` (NHWC blocks moved to and from channels, composed of reshapes and
transposes, so differentiable), ``lin_space``, ``count_nonzero(keep_dims=,
reduction_indices=)``, ``clip_by_average_norm`` and ``verify_tensor_all_finite``.

>>> import retrograd as rg
>>> depth_to_space(space_to_depth(rg.reshape(rg.range(16.0), [1, 4, 4, 1]), 2), 2).shape.as_list()
[1, 4, 4, 1]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import (
    array_ops,
    comparison_ops,
    creation_ops,
    debug_ops,
    math_ops,
    reduction_ops,
)

__all__ = [
    "clip_by_average_norm",
    "count_nonzero",
    "depth_to_space",
    "lin_space",
    "space_to_depth",
    "verify_tensor_all_finite",
]


def _nhwc(x: Any, data_format: str, who: str) -> Any:
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{who}: data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    x = convert_to_tensor(x)
    if x.shape.rank != 4:
        raise ValueError(f"{who}: the input must have rank 4, got shape {x.shape}")
    return array_ops.transpose(x, [0, 2, 3, 1]) if data_format == "NCHW" else x


def _back(y: Any, data_format: str, name: Any) -> Any:
    y = array_ops.transpose(y, [0, 3, 1, 2]) if data_format == "NCHW" else y
    return y if name is None else array_ops.identity(y, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):
    """Moves each ``block_size`` x ``block_size`` block of pixels into the channels.

    >>> import retrograd as rg
    >>> space_to_depth(rg.reshape(rg.range(4.0), [1, 2, 2, 1]), 2).numpy().tolist()
    [[[[0.0, 1.0, 2.0, 3.0]]]]
    """
    x = _nhwc(input, data_format, "space_to_depth")
    b = int(block_size)
    if b < 2:
        raise ValueError(f"space_to_depth: block_size must be at least 2, got {block_size}")
    n, h, w, c = x.shape.as_list()
    if h is None or w is None or c is None or h % b or w % b:
        raise InvalidArgumentError(
            f"space_to_depth: height and width must be known and divisible by {b}, got "
            f"shape {x.shape}"
        )
    y = array_ops.reshape(x, [-1, h // b, b, w // b, b, c])
    y = array_ops.transpose(y, [0, 1, 3, 2, 4, 5])
    return _back(array_ops.reshape(y, [-1, h // b, w // b, b * b * c]), data_format, name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):
    """Moves channels into ``block_size`` x ``block_size`` blocks of pixels (the inverse of
    ``space_to_depth``).

    >>> import retrograd as rg
    >>> depth_to_space(rg.constant([[[[0.0, 1.0, 2.0, 3.0]]]]), 2)[0, :, :, 0].numpy().tolist()
    [[0.0, 1.0], [2.0, 3.0]]
    """
    x = _nhwc(input, data_format, "depth_to_space")
    b = int(block_size)
    if b < 2:
        raise ValueError(f"depth_to_space: block_size must be at least 2, got {block_size}")
    n, h, w, c = x.shape.as_list()
    if h is None or w is None or c is None or c % (b * b):
        raise InvalidArgumentError(
            f"depth_to_space: the depth must be known and divisible by {b * b}, got shape {x.shape}"
        )
    y = array_ops.reshape(x, [-1, h, w, b, b, c // (b * b)])
    y = array_ops.transpose(y, [0, 1, 3, 2, 4, 5])
    return _back(array_ops.reshape(y, [-1, h * b, w * b, c // (b * b)]), data_format, name)


def lin_space(start, stop, num, name=None, axis=0):
    """TF1's name of ``linspace``.

    >>> lin_space(0.0, 1.0, 3).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    return creation_ops.linspace(start, stop, num, name, axis)


def count_nonzero(
    input_tensor=None,
    axis=None,
    keepdims=None,
    dtype=dtypes.int64,
    name=None,
    reduction_indices=None,
    keep_dims=None,
    input=None,
):
    """The number of non-zero elements (along ``axis``), as ``dtype``.

    >>> count_nonzero([[0, 1], [2, 0]], axis=1, keep_dims=True).numpy().tolist()
    [[1], [1]]
    """
    pairs = [(input_tensor, input, "input_tensor"), (axis, reduction_indices, "axis"),
             (keepdims, keep_dims, "keepdims")]  # fmt: skip
    for new, old, what in pairs:
        if new is not None and old is not None:
            raise ValueError(f"count_nonzero: give {what} or its old name, not both")
    x = convert_to_tensor(input if input_tensor is None else input_tensor)
    axis = reduction_indices if axis is None else axis
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    nonzero = math_ops.cast(comparison_ops.not_equal(x, array_ops.zeros_like(x)), dtypes.int64)
    counted = reduction_ops.reduce_sum(nonzero, axis=axis, keepdims=keepdims)
    return math_ops.cast(counted, dtype, name=name)


def clip_by_average_norm(t, clip_norm, name=None):
    """``t`` scaled so that its L2 norm divided by its number of elements is at most
    ``clip_norm``.

    >>> clip_by_average_norm([3.0, 4.0], 1.0).numpy().tolist()
    [1.2000000476837158, 1.600000023841858]
    """
    t = convert_to_tensor(t)
    clip = math_ops.cast(clip_norm, t.dtype)
    inverse = math_ops.rsqrt(reduction_ops.reduce_sum(t * t))
    count = math_ops.cast(array_ops.size(t), t.dtype)
    scale = math_ops.minimum(inverse * count, 1.0 / clip)
    return array_ops.identity(t * clip * scale, name=name)


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """``t`` itself, checked for NaN and infinity (``check_numerics``).

    >>> verify_tensor_all_finite([1.0], 'must be finite').numpy().tolist()
    [1.0]
    """
    for new, old, what in ((x, t, "x"), (message, msg, "message")):
        if new is not None and old is not None:
            raise ValueError(f"verify_tensor_all_finite: give {what} or its old name, not both")
    value = x if t is None else t
    text = message if msg is None else msg
    return debug_ops.check_numerics(value, text or "", name)
