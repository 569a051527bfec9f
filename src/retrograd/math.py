"""``retrograd.math``: TensorFlow's ``tf.math`` namespace."""

from retrograd.ops.comparison_ops import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    not_equal,
)
from retrograd.ops.gather_ops import unsorted_segment_sum
from retrograd.ops.math_ops import (
    abs,
    add,
    add_n,
    conj,
    cos,
    divide,
    exp,
    expm1,
    floordiv,
    floormod,
    log,
    log1p,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    pow,
    realdiv,
    reciprocal,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
)
from retrograd.ops.nn_ops import softplus
from retrograd.ops.reduction_ops import (
    argmax,
    argmin,
    cumprod,
    cumsum,
    reduce_all,
    reduce_any,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from retrograd.ops.sort_ops import top_k
from retrograd.ops.statistics_ops import (
    l2_normalize,
    reduce_logsumexp,
    reduce_std,
    reduce_variance,
)

floor_div = floordiv

__all__ = [name for name in dir() if not name.startswith("_")]
