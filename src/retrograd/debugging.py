"""Assertions and numeric checks (TensorFlow's ``tf.debugging``).

>>> import retrograd as rg
>>> rg.debugging.assert_rank(rg.constant(2.0), 0)
>>> rg.debugging.assert_rank(rg.constant([2.0]), 0)
Traceback (most recent call last):
    ...
ValueError: Tensor must have rank 0. Received rank 1, shape (1,)
"""

from retrograd.checking.gradient_checks import (
    disable_gradient_checks,
    enable_gradient_checks,
    gradient_checks,
)
from retrograd.checking.numerics import (
    disable_check_numerics,
    enable_check_numerics,
    numeric_checks,
)
from retrograd.ops.debug_ops import assert_equal, assert_rank, check_numerics

__all__ = [
    "assert_rank",
    "assert_equal",
    "check_numerics",
    "enable_gradient_checks",
    "disable_gradient_checks",
    "gradient_checks",
    "enable_check_numerics",
    "disable_check_numerics",
    "numeric_checks",
]
