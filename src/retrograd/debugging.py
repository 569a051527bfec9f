"""Assertions and numeric checks (TensorFlow's ``tf.debugging``).

>>> import retrograd as rg
>>> rg.debugging.assert_rank(rg.constant(2.0), 0)
>>> rg.debugging.assert_rank(rg.constant([2.0]), 0)
Traceback (most recent call last):
    ...
ValueError: Tensor must have rank 0. Received rank 1, shape (1,)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.errors import InvalidArgumentError
from retrograd.gradient_checks import (
    disable_gradient_checks,
    enable_gradient_checks,
    gradient_checks,
)
from retrograd.numerics import disable_check_numerics, enable_check_numerics, numeric_checks
from retrograd.ops.debug_ops import check_numerics
from retrograd.tensor import convert_to_tensor

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


def _prefix(message: str | None) -> str:
    return f"{message}. " if message else ""


def assert_rank(x: Any, rank: int, message: str | None = None, name: str | None = None) -> None:
    """Raises ValueError unless ``x`` has rank ``rank``."""
    t = convert_to_tensor(x)
    if t.ndim != int(rank):
        raise ValueError(
            f"{_prefix(message)}Tensor must have rank {int(rank)}. Received rank {t.ndim}, "
            f"shape {tuple(t.shape)}"
        )


def assert_equal(
    x: Any,
    y: Any,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x == y`` everywhere (broadcasting)."""
    a, b = convert_to_tensor(x), convert_to_tensor(y)
    if a.dtype != b.dtype:
        b = convert_to_tensor(y, dtype=a.dtype)
    try:
        equal = np.all(np.equal(a._value, b._value))
    except ValueError:
        equal = False
    if not equal:
        raise InvalidArgumentError(
            f"{_prefix(message)}Condition x == y did not hold. x = {a.numpy()!r}, y = {b.numpy()!r}"
        )
