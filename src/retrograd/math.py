"""``retrograd.math``: TensorFlow's ``tf.math`` namespace."""

import sys as _sys

from retrograd.ops import special_namespace as special
from retrograd.ops.activation_ops import log_sigmoid, softsign
from retrograd.ops.approx_topk_ops import approx_max_k, approx_min_k
from retrograd.ops.cast_ops import scalar_mul
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
from retrograd.ops.math_extra_ops import (
    accumulate_n,
    confusion_matrix,
    count_nonzero,
    cumulative_logsumexp,
    in_top_k,
    invert_permutation,
    is_non_decreasing,
    is_strictly_increasing,
    lbeta,
    multiply_no_nan,
    nextafter,
    polyval,
    reciprocal_no_nan,
    reduce_euclidean_norm,
    rint,
    xlog1py,
    zero_fraction,
)
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
from retrograd.ops.nn_ops import log_softmax, softmax, softplus
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
from retrograd.ops.search_ops import bincount
from retrograd.ops.segment_ops import (
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sqrt_n,
)
from retrograd.ops.sort_ops import top_k
from retrograd.ops.special_functions import (
    bessel_i0,
    bessel_i0e,
    bessel_i1,
    bessel_i1e,
    betainc,
    erfcinv,
    erfinv,
    igamma,
    igammac,
    ndtri,
    sobol_sample,
    zeta,
)
from retrograd.ops.special_ops import digamma, erf, erfc, lgamma, polygamma
from retrograd.ops.statistics_ops import (
    l2_normalize,
    reduce_logsumexp,
    reduce_std,
    reduce_variance,
)
from retrograd.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh

floor_div = floordiv

__all__ = [
    "abs", "accumulate_n", "acos", "acosh", "add", "add_n", "angle", "approx_max_k",
    "approx_min_k", "argmax", "argmin", "asin", "asinh", "atan", "atan2", "atanh", "bessel_i0",
    "bessel_i0e", "bessel_i1", "bessel_i1e", "betainc", "bincount", "ceil", "confusion_matrix",
    "conj", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "cumulative_logsumexp", "digamma",
    "divide", "divide_no_nan", "equal", "erf", "erfc", "erfcinv", "erfinv", "exp", "expm1",
    "floor", "floor_div", "floordiv", "floormod", "greater", "greater_equal", "igamma", "igammac",
    "imag", "in_top_k", "invert_permutation", "is_finite", "is_inf", "is_nan", "is_non_decreasing",
    "is_strictly_increasing", "l2_normalize", "lbeta", "less", "less_equal", "lgamma", "log",
    "log1p", "log_sigmoid", "log_softmax", "logical_and", "logical_not", "logical_or",
    "logical_xor", "maximum", "minimum", "mod", "multiply", "multiply_no_nan", "ndtri", "negative",
    "nextafter", "not_equal", "polygamma", "polyval", "pow", "real", "realdiv", "reciprocal",
    "reciprocal_no_nan", "reduce_all", "reduce_any", "reduce_euclidean_norm", "reduce_logsumexp",
    "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_std", "reduce_sum",
    "reduce_variance", "rint", "round", "rsqrt", "scalar_mul", "segment_max", "segment_mean",
    "segment_min", "segment_prod", "segment_sum", "sigmoid", "sign", "sin", "sinh", "sobol_sample",
    "softmax", "softplus", "softsign", "special", "sqrt", "square", "squared_difference",
    "subtract", "tan", "tanh", "top_k", "truediv", "unsorted_segment_max", "unsorted_segment_mean",
    "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n",
    "unsorted_segment_sum", "xdivy", "xlog1py", "xlogy", "zero_fraction", "zeta",
]  # fmt: skip

# `import retrograd.math.special` works too.
_sys.modules[__name__ + ".special"] = special
