"""``tensorflow.python.ops.gen_math_ops``: the raw math ops by their generated names
(``mat_mul``, ``real_div``, ``add_v2``, ... with TensorFlow's keyword arguments)."""

from retrograd.ops.linalg_ops import matmul as mat_mul
from retrograd.ops.math_ops import (
    add,
    cast,
    cos,
    exp,
    log,
    log1p,
    maximum,
    minimum,
    reciprocal,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    squared_difference,
    tanh,
)
from retrograd.ops.math_ops import (
    add as add_v2,
)
from retrograd.ops.math_ops import (
    multiply as mul,
)
from retrograd.ops.math_ops import (
    negative as neg,
)
from retrograd.ops.math_ops import (
    realdiv as real_div,
)
from retrograd.ops.math_ops import (
    subtract as sub,
)
from retrograd.ops.power_grad_ops import sigmoid_grad, tanh_grad
from retrograd.ops.rounding_ops import ceil, floor, round

__all__ = [
    "add", "add_v2", "cast", "ceil", "cos", "exp", "floor", "log", "log1p", "mat_mul",
    "maximum", "minimum", "mul", "neg", "real_div", "reciprocal", "round", "rsqrt", "sigmoid",
    "sigmoid_grad", "sign", "sin", "sqrt", "square", "squared_difference", "sub", "tanh",
    "tanh_grad",
]  # fmt: skip
