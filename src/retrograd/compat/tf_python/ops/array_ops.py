"""``tensorflow.python.ops.array_ops``: TensorFlow's array functions by their Python names."""

from retrograd.compat.graph_ops import placeholder_with_default
from retrograd.graph.graph import placeholder
from retrograd.ops.array_ops import (
    concat,
    expand_dims,
    fill,
    identity,
    ones,
    ones_like,
    rank,
    reshape,
    shape,
    size,
    split,
    squeeze,
    stack,
    stop_gradient,
    transpose,
    unstack,
    where,
    zeros,
    zeros_like,
)
from retrograd.ops.dynamic_shape_ops import slice
from retrograd.ops.gather_ops import boolean_mask, gather, gather_nd
from retrograd.ops.rearrange_ops import reverse, tile
from retrograd.ops.slicing_ops import strided_slice

__all__ = [
    "boolean_mask", "concat", "expand_dims", "fill", "gather", "gather_nd", "identity",
    "ones", "ones_like", "placeholder", "placeholder_with_default", "rank", "reshape",
    "reverse", "shape", "size", "slice", "split", "squeeze", "stack", "stop_gradient",
    "strided_slice", "tile", "transpose", "unstack", "where", "zeros", "zeros_like",
]  # fmt: skip
