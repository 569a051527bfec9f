"""``tensorflow.python.ops.math_ops``: TensorFlow's math functions by their Python names."""

from retrograd.ops.comparison_ops import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    not_equal,
)
from retrograd.ops.linalg_ops import matmul, tensordot
from retrograd.ops.math_ops import (
    abs,
    add,
    add_n,
    cast,
    conj,
    cos,
    divide,
    exp,
    log,
    log1p,
    maximum,
    minimum,
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
    tanh,
    truediv,
)
from retrograd.ops.reduction_ops import (
    argmax,
    argmin,
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

__all__ = [
    "abs", "add", "add_n", "argmax", "argmin", "cast", "ceil", "conj", "cos", "cumsum",
    "divide", "equal", "exp", "floor", "greater", "greater_equal", "less", "less_equal", "log",
    "log1p", "logical_and", "logical_not", "logical_or", "matmul", "maximum", "minimum",
    "multiply", "negative", "not_equal", "pow", "realdiv", "reciprocal", "reduce_all",
    "reduce_any", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum",
    "round", "rsqrt", "sigmoid", "sign", "sin", "sqrt", "square", "squared_difference",
    "subtract", "tanh", "tensordot", "truediv",
]  # fmt: skip
