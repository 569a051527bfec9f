"""TensorFlow 1's assertions (``tf.assert_greater_equal(x, y, data=None, summarize=None,
message=None, name=None)`` and the rest): without ``data`` they are TensorFlow 2's
(``tf.debugging``); with ``data``, a failure shows the message and each item of ``data``
on its own line, as TensorFlow 1's. Static checks (``assert_integer``, ``assert_scalar``,
``assert_type``, ``assert_rank_at_least``, ``assert_rank_in``) fail while the graph is
built.

>>> import retrograd as rg
>>> assert_greater_equal(1.0, 2.0, data=['extra', rg.constant(3)], message='m')
Traceback (most recent call last):
...
retrograd.errors.InvalidArgumentError: m
extra
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import comparison_ops, debug_ops, math_ops, reduction_ops

__all__ = [
    "assert_equal",
    "assert_greater",
    "assert_greater_equal",
    "assert_integer",
    "assert_less",
    "assert_less_equal",
    "assert_near",
    "assert_negative",
    "assert_non_negative",
    "assert_non_positive",
    "assert_none_equal",
    "assert_positive",
    "assert_rank_at_least",
    "assert_rank_in",
    "assert_scalar",
    "assert_type",
]


def _with_data(condition: Any, data: list, summarize: Any, message: Any, name: Any) -> Any:
    shown_at_most = 3 if summarize is None else summarize
    items = ([message] if message else []) + list(data)
    return debug_ops.assert_with_data(
        reduction_ops.reduce_all(condition),
        items,
        lambda item: item,
        lambda value: np.array2string(np.ravel(value)[:shown_at_most]).strip("[]"),
        "\n".join,
        name,
    )


def _binary(compare: Callable, v2: Callable) -> Callable:
    def check(x, y, data=None, summarize=None, message=None, name=None):
        if data is None:
            return v2(x, y, message=message, summarize=summarize, name=name)
        x, y = convert_to_tensor(x), convert_to_tensor(y)
        return _with_data(compare(x, y), data, summarize, message, name)

    return check


def _unary(compare: Callable, v2: Callable) -> Callable:
    def check(x, data=None, summarize=None, message=None, name=None):
        if data is None:
            return v2(x, message=message, summarize=summarize, name=name)
        return _with_data(compare(convert_to_tensor(x)), data, summarize, message, name)

    return check


assert_equal = _binary(comparison_ops.equal, debug_ops.assert_equal)
assert_none_equal = _binary(comparison_ops.not_equal, debug_ops.assert_none_equal)
assert_less = _binary(comparison_ops.less, debug_ops.assert_less)
assert_less_equal = _binary(comparison_ops.less_equal, debug_ops.assert_less_equal)
assert_greater = _binary(comparison_ops.greater, debug_ops.assert_greater)
assert_greater_equal = _binary(comparison_ops.greater_equal, debug_ops.assert_greater_equal)
assert_negative = _unary(lambda x: comparison_ops.less(x, 0), debug_ops.assert_negative)
assert_positive = _unary(lambda x: comparison_ops.greater(x, 0), debug_ops.assert_positive)
assert_non_negative = _unary(
    lambda x: comparison_ops.greater_equal(x, 0), debug_ops.assert_non_negative
)
assert_non_positive = _unary(
    lambda x: comparison_ops.less_equal(x, 0), debug_ops.assert_non_positive
)
_EXAMPLES = [
    (assert_equal, "assert_equal", "``x == y``", "1.0, 1.0"),
    (assert_none_equal, "assert_none_equal", "``x != y``", "1.0, 2.0"),
    (assert_less, "assert_less", "``x < y``", "1.0, 2.0"),
    (assert_less_equal, "assert_less_equal", "``x <= y``", "1.0, 1.0"),
    (assert_greater, "assert_greater", "``x > y``", "2.0, 1.0"),
    (assert_greater_equal, "assert_greater_equal", "``x >= y``", "1.0, 1.0"),
    (assert_negative, "assert_negative", "``x < 0``", "-1.0"),
    (assert_positive, "assert_positive", "``x > 0``", "1.0"),
    (assert_non_negative, "assert_non_negative", "``x >= 0``", "0.0"),
    (assert_non_positive, "assert_non_positive", "``x <= 0``", "0.0"),
]
for _check, _name, _what, _arguments in _EXAMPLES:
    _check.__name__ = _check.__qualname__ = _name
    _check.__doc__ = f"""TF1's assertion that {_what} everywhere (``data``: what a failure shows).

    >>> {_name}({_arguments})
    """
del _check, _name, _what, _arguments, _EXAMPLES


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """TF1's assertion that ``|x - y| <= atol + rtol |y|`` everywhere.

    >>> assert_near(1.0, 1.0 + 1e-7)
    """
    if data is None:
        return debug_ops.assert_near(x, y, rtol, atol, message, summarize, name)
    x, y = convert_to_tensor(x), convert_to_tensor(y, dtype=convert_to_tensor(x).dtype)
    eps = float(np.finfo(x.dtype.as_numpy_dtype).eps)
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    close = comparison_ops.less_equal(
        math_ops.abs(x - y), math_ops.add(atol, math_ops.multiply(rtol, math_ops.abs(y)))
    )
    return _with_data(close, data, summarize, message, name)


def assert_integer(x, message=None, name=None):
    """A TypeError unless ``x`` has an integer dtype.

    >>> assert_integer([1, 2])
    """
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(
            f"{message + ' ' if message else ''}Expected Tensor {x!r} to be of integer type, "
            f"got {x.dtype.name}."
        )


def assert_type(tensor, tf_type, message=None, name=None):
    """A TypeError unless ``tensor`` has the dtype ``tf_type``.

    >>> import retrograd as rg
    >>> assert_type(rg.constant(1.0), rg.float32)
    """
    return debug_ops.assert_type(tensor, tf_type, message, name)


def assert_scalar(tensor, name=None, message=None):
    """``tensor`` itself, after checking that it is a scalar (ValueError otherwise).

    >>> float(assert_scalar(2.0))
    2.0
    """
    tensor = convert_to_tensor(tensor)
    rank = tensor.shape.rank
    if rank is not None and rank != 0:
        raise ValueError(
            f"{message + ' ' if message else ''}Expected scalar shape, saw shape: {tensor.shape}."
        )
    return tensor


def _rank(x: Any) -> int | None:
    return convert_to_tensor(x).shape.rank


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """A ValueError unless ``x`` has at least rank ``rank`` (known while building).

    >>> assert_rank_at_least([[1.0]], 1)
    """
    known = _rank(x)
    if known is not None and known < int(rank):
        raise ValueError(
            f"{message + ' ' if message else ''}Tensor must have rank at least {rank}. "
            f"Received rank {known}."
        )


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """A ValueError unless the rank of ``x`` is one of ``ranks``.

    >>> assert_rank_in([1.0], (1, 2))
    """
    known = _rank(x)
    if known is not None and known not in [int(r) for r in ranks]:
        raise ValueError(
            f"{message + ' ' if message else ''}Tensor must have rank in {tuple(ranks)}. "
            f"Received rank {known}."
        )
