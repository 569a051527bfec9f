"""Comparisons, float classification (is_nan, is_inf, is_finite), logical and bitwise ops.
Their outputs are bool or integer, so none has a gradient; each is declared with
``no_gradient`` rather than left undefined.

>>> import retrograd as rg
>>> rg.greater([1.0, 3.0], 2.0).numpy().tolist()
[False, True]
"""

from __future__ import annotations

import numpy as np

from retrograd.core.registry import no_gradient
from retrograd.ops.define import ANY, BOOL, FLOAT, INTEGER, REAL, binary_op, unary_op

less = binary_op("less", "Less", np.less, REAL, "x < y elementwise (bool).")
less_equal = binary_op("less_equal", "LessEqual", np.less_equal, REAL, "x <= y elementwise.")
greater = binary_op("greater", "Greater", np.greater, REAL, "x > y elementwise.")
greater_equal = binary_op("greater_equal", "GreaterEqual", np.greater_equal, REAL, "x >= y.")
equal = binary_op("equal", "Equal", np.equal, ANY, "x == y elementwise.")
not_equal = binary_op("not_equal", "NotEqual", np.not_equal, ANY, "x != y elementwise.")
logical_and = binary_op("logical_and", "LogicalAnd", np.logical_and, BOOL, "x AND y.")
logical_or = binary_op("logical_or", "LogicalOr", np.logical_or, BOOL, "x OR y.")
logical_not = unary_op("logical_not", "LogicalNot", np.logical_not, BOOL, "NOT x.")
bitwise_and = binary_op("bitwise_and", "BitwiseAnd", np.bitwise_and, INTEGER, "x & y on ints.")
bitwise_or = binary_op("bitwise_or", "BitwiseOr", np.bitwise_or, INTEGER, "x | y on ints.")
bitwise_xor = binary_op("bitwise_xor", "BitwiseXor", np.bitwise_xor, INTEGER, "x ^ y on ints.")
invert = unary_op("invert", "Invert", np.invert, INTEGER, "~x (bitwise NOT) on ints.")
is_nan = unary_op("is_nan", "IsNan", np.isnan, FLOAT, "True where x is NaN.")
is_inf = unary_op("is_inf", "IsInf", np.isinf, FLOAT, "True where x is +inf or -inf.")
is_finite = unary_op(
    "is_finite", "IsFinite", np.isfinite, FLOAT, "True where x is neither inf nor NaN."
)

for _op_type in (
    "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert",
    "IsNan", "IsInf", "IsFinite",
):  # fmt: skip
    no_gradient(_op_type)


def logical_xor(x, y, name=None):
    """x XOR y, built as (x OR y) AND NOT (x AND y), as TensorFlow does."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)
