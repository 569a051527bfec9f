"""Comparisons, float classification (is_nan, is_inf, is_finite), logical and bitwise ops.
Their outputs are bool or integer, so none has a gradient; each is declared with
``no_gradient`` rather than left undefined.

>>> import retrograd as rg
>>> rg.greater([1.0, 3.0], 2.0).numpy().tolist()
[False, True]
"""

from __future__ import annotations

import functools

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import define
from retrograd.ops.define import ANY, BOOL, FLOAT, INTEGER, REAL

# The elementwise op factories of ops/define.py; the functions they make belong here.
unary_op = functools.partial(define.unary_op, module=__name__)
binary_op = functools.partial(define.binary_op, module=__name__)

less = binary_op(
    "less",
    "Less",
    np.less,
    REAL,
    """x < y elementwise (bool).

    >>> import retrograd as rg
    >>> rg.less([1, 2, 3], 2).numpy().tolist()
    [True, False, False]
    """,
)
less_equal = binary_op(
    "less_equal",
    "LessEqual",
    np.less_equal,
    REAL,
    """x <= y elementwise.

    >>> import retrograd as rg
    >>> rg.less_equal([1, 2, 3], 2).numpy().tolist()
    [True, True, False]
    """,
)

greater = binary_op(
    "greater",
    "Greater",
    np.greater,
    REAL,
    """x > y elementwise.

    >>> import retrograd as rg
    >>> rg.greater([1, 2, 3], 2).numpy().tolist()
    [False, False, True]
    """,
)
greater_equal = binary_op(
    "greater_equal",
    "GreaterEqual",
    np.greater_equal,
    REAL,
    """x >= y.

    >>> import retrograd as rg
    >>> rg.greater_equal([1, 2, 3], 2).numpy().tolist()
    [False, True, True]
    """,
)
equal = binary_op(
    "equal",
    "Equal",
    np.equal,
    ANY,
    """x == y elementwise.

    >>> import retrograd as rg
    >>> rg.equal([1, 2, 3], [1, 0, 3]).numpy().tolist()
    [True, False, True]
    """,
)
not_equal = binary_op(
    "not_equal",
    "NotEqual",
    np.not_equal,
    ANY,
    """x != y elementwise.

    >>> import retrograd as rg
    >>> rg.not_equal([1, 2, 3], [1, 0, 3]).numpy().tolist()
    [False, True, False]
    """,
)
logical_and = binary_op(
    "logical_and",
    "LogicalAnd",
    np.logical_and,
    BOOL,
    """x AND y.

    >>> import retrograd as rg
    >>> rg.logical_and([True, True, False], [True, False, False]).numpy().tolist()
    [True, False, False]
    """,
)
logical_or = binary_op(
    "logical_or",
    "LogicalOr",
    np.logical_or,
    BOOL,
    """x OR y.

    >>> import retrograd as rg
    >>> rg.logical_or([True, True, False], [True, False, False]).numpy().tolist()
    [True, True, False]
    """,
)
logical_not = unary_op(
    "logical_not",
    "LogicalNot",
    np.logical_not,
    BOOL,
    """NOT x.

    >>> import retrograd as rg
    >>> rg.logical_not([True, False]).numpy().tolist()
    [False, True]
    """,
)
bitwise_and = binary_op(
    "bitwise_and",
    "BitwiseAnd",
    np.bitwise_and,
    INTEGER,
    """x & y on ints.

    >>> import retrograd as rg
    >>> rg.bitwise.bitwise_and([12, 10], 6).numpy().tolist()
    [4, 2]
    """,
)
bitwise_or = binary_op(
    "bitwise_or",
    "BitwiseOr",
    np.bitwise_or,
    INTEGER,
    """x | y on ints.

    >>> import retrograd as rg
    >>> rg.bitwise.bitwise_or([12, 10], 6).numpy().tolist()
    [14, 14]
    """,
)
bitwise_xor = binary_op(
    "bitwise_xor",
    "BitwiseXor",
    np.bitwise_xor,
    INTEGER,
    """x ^ y on ints.

    >>> import retrograd as rg
    >>> rg.bitwise.bitwise_xor([12, 10], 6).numpy().tolist()
    [10, 12]
    """,
)
invert = unary_op(
    "invert",
    "Invert",
    np.invert,
    INTEGER,
    """~x (bitwise NOT) on ints.

    >>> import retrograd as rg
    >>> rg.bitwise.invert([0, 5]).numpy().tolist()
    [-1, -6]
    """,
)
is_nan = unary_op(
    "is_nan",
    "IsNan",
    np.isnan,
    FLOAT,
    """True where x is NaN.

    >>> import retrograd as rg
    >>> rg.math.is_nan([1.0, float('nan'), float('inf')]).numpy().tolist()
    [False, True, False]
    """,
)
is_inf = unary_op(
    "is_inf",
    "IsInf",
    np.isinf,
    FLOAT,
    """True where x is +inf or -inf.

    >>> import retrograd as rg
    >>> rg.math.is_inf([1.0, float('nan'), -float('inf')]).numpy().tolist()
    [False, False, True]
    """,
)
is_finite = unary_op(
    "is_finite",
    "IsFinite",
    np.isfinite,
    FLOAT,
    """True where x is neither inf nor NaN.

    >>> import retrograd as rg
    >>> rg.math.is_finite([1.0, float('nan'), float('inf')]).numpy().tolist()
    [True, False, False]
    """,
)

for _op_type in (
    "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert",
    "IsNan", "IsInf", "IsFinite",
):  # fmt: skip
    no_gradient(_op_type)


def logical_xor(x: TensorLike, y: TensorLike, name: str = "LogicalXor") -> Tensor:
    """x XOR y, built as (x OR y) AND NOT (x AND y), as TensorFlow does.

    >>> import retrograd as rg
    >>> rg.math.logical_xor([True, True, False], [True, False, False]).numpy().tolist()
    [False, True, False]
    """
    from retrograd.ops.scopes import op_scope

    with op_scope(name or "LogicalXor") as scope:
        return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=scope)
