"""``tensorflow.python.ops.gen_array_ops``: the raw array ops by their generated names."""

from retrograd.ops.array_ops import (
    expand_dims,
    fill,
    identity,
    ones_like,
    reshape,
    shape,
    squeeze,
    stop_gradient,
    transpose,
    zeros_like,
)
from retrograd.ops.array_ops import (
    stack as pack,
)
from retrograd.ops.dynamic_shape_ops import slice
from retrograd.ops.rearrange_ops import tile

__all__ = [
    "expand_dims", "fill", "identity", "ones_like", "pack", "reshape", "shape", "slice",
    "squeeze", "stop_gradient", "tile", "transpose", "zeros_like",
]  # fmt: skip
