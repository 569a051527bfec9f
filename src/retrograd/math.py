"""``retrograd.math``: TensorFlow's ``tf.math`` namespace."""

from retrograd.ops.activation_ops import log_sigmoid, softsign
from retrograd.ops.comparison_ops import (
    equal,
    greater,
    greater_equal,
    is_finite,
    is_inf,
    is_nan,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    not_equal,
)
from retrograd.ops.complex_ops import angle, imag, real
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
    squared_difference,
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
from retrograd.ops.rounding_ops import ceil, floor, round
from retrograd.ops.safe_math_ops import divide_no_nan, xdivy, xlogy
from retrograd.ops.segment_ops import (
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_sqrt_n,
)
from retrograd.ops.sort_ops import top_k
from retrograd.ops.special_ops import digamma, erf, erfc, lgamma, polygamma
from retrograd.ops.statistics_ops import (
    l2_normalize,
    reduce_logsumexp,
    reduce_std,
    reduce_variance,
)
from retrograd.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh

floor_div = floordiv

__all__ = [name for name in dir() if not name.startswith("_")]
