"""CheckNumerics: passes a tensor through, failing if it holds NaN or infinity; and the
eager assertions of ``tf.debugging`` (``assert_rank``, ``assert_equal``, ``assert_less``
and the rest of the family) and ``tf.Assert``.

Its gradient checks the gradient the same way, so a NaN found in the backward pass names
the same place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops.define import FLOAT_COMPLEX, tensor_arg


def _check_numerics_kernel(tensor, message):
    finite = np.isfinite(tensor)
    if not np.all(finite):
        problems = []
        if np.any(np.isnan(tensor)):
            problems.append("NaN")
        if np.any(np.isinf(tensor)):
            problems.append("Inf")
        raise InvalidArgumentError(f"{message} : Tensor had {' and '.join(problems)} values")
    return tensor


_CheckNumerics = define_op("CheckNumerics", _check_numerics_kernel, batchable=True)


def check_numerics(tensor: TensorLike, message: str, name: str | None = None) -> Tensor:
    """``tensor`` unchanged; InvalidArgumentError with ``message`` if it has NaN or Inf.

    >>> import retrograd as rg
    >>> rg.debugging.check_numerics([1.0, 2.0], 'inputs').numpy().tolist()
    [1.0, 2.0]
    >>> rg.debugging.check_numerics([1.0, float('inf')], 'inputs')
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: inputs : Tensor had Inf values
    """
    t = tensor_arg("CheckNumerics", tensor, FLOAT_COMPLEX, "tensor")
    return execute(_CheckNumerics, (t,), {"message": str(message)}, name)


@op_gradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    message = op.get_attr("message")
    return check_numerics(
        grad, f"Not a number (NaN) or infinity (Inf) values detected in gradient. {message}"
    )


def _prefix(message: str | None) -> str:
    return f"{message}. " if message else ""


def assert_rank(
    x: TensorLike, rank: int, message: str | None = None, name: str | None = None
) -> None:
    """Raises ValueError unless ``x`` has rank ``rank``.

    >>> import retrograd as rg
    >>> rg.debugging.assert_rank([[1, 2]], 2)
    >>> rg.debugging.assert_rank([1, 2], 2)
    Traceback (most recent call last):
        ...
    ValueError: Tensor must have rank 2. Received rank 1, shape (2,)
    """
    t = convert_to_tensor(x)
    if t.ndim != int(rank):
        raise ValueError(
            f"{_prefix(message)}Tensor must have rank {int(rank)}. Received rank {t.ndim}, "
            f"shape {plain_dims(t.shape)}"
        )


def assert_equal(
    x: TensorLike,
    y: TensorLike,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x == y`` everywhere (broadcasting).

    >>> import retrograd as rg
    >>> rg.debugging.assert_equal([1, 2], [1, 2])  # passes: returns None
    >>> rg.debugging.assert_equal([1, 2], [1, 3])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x == y did not hold...
    """
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


def _run_check(*values: Any, check: Any) -> tuple:
    check(*[Tensor(v) for v in values])
    return ()


# An assertion in a graph (TF1, or a traced function): a stateful op without outputs that
# runs the same check as the eager assertion when the graph runs (functions keep their
# stateful ops; a Session runs it when fetched or as a control dependency).
_Assert = define_op(
    "Assert", _run_check, multi_output=True, stateful=True, shape_fn=lambda metas, **_: []
)
no_gradient("Assert")


def assertion(op: str, check: Any, *values: Any, name: str | None = None) -> Any:
    """Runs ``check`` on the values' tensors now when they hold values, else adds an Assert
    op that runs it when the graph runs (returned, as TensorFlow returns its op)."""
    tensors = [convert_to_tensor(v) for v in values]
    # a symbolic tensor (in a graph being built) holds only its shape and dtype, not an array
    if all(hasattr(getattr(t, "_value", None), "ravel") or np.isscalar(t._value) for t in tensors):
        check(*tensors)
        return None
    execute(_Assert, tensors, {"check": check}, name or op)
    return context.graph.get_operations()[-1]


def _binary_assert(
    op: str, symbol: str, compare: Any, x: Any, y: Any, message: str | None, summarize: int | None
) -> None:
    a, b = convert_to_tensor(x), convert_to_tensor(y)
    if a.dtype != b.dtype:
        b = convert_to_tensor(y, dtype=a.dtype)
    assertion(op, lambda a, b: _compare(message, summarize, symbol, compare, a, b), a, b)


def _compare(message, summarize, symbol, compare, a, b) -> None:
    # On host copies: the outcome steers Python, and a failure prints the values.
    x, y = backends.to_host(a._value), backends.to_host(b._value)
    holds = np.broadcast_to(compare(x, y), np.broadcast(x, y).shape)
    if holds.all():
        return
    failing = np.argwhere(~holds)[: summarize or 1]
    xs, ys = np.broadcast_arrays(x, y)
    shown = summarize or max(np.size(x), np.size(y))
    raise InvalidArgumentError(
        f"{_prefix(message)}Condition x {symbol} y did not hold.\n"
        f"Indices of first {len(failing)} different values:\n{failing}\n"
        f"Corresponding x values:\n{xs[tuple(failing.T)]}\n"
        f"Corresponding y values:\n{ys[tuple(failing.T)]}\n"
        f"First {min(shown, np.size(x))} elements of x:\n{np.ravel(x)[:shown]}\n"
        f"First {min(shown, np.size(y))} elements of y:\n{np.ravel(y)[:shown]}"
    )


def assert_less(
    x: TensorLike,
    y: TensorLike,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x < y`` everywhere (broadcasting).

    >>> import retrograd as rg
    >>> rg.debugging.assert_less([1, 2], [2, 3])
    >>> rg.debugging.assert_less([1, 2], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x < y did not hold...
    """
    _binary_assert("assert_less", "<", np.less, x, y, message, summarize)


def assert_less_equal(
    x: TensorLike,
    y: TensorLike,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x <= y`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_less_equal([1, 2], 2)
    >>> rg.debugging.assert_less_equal([1, 3], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x <= y did not hold...
    """
    _binary_assert("assert_less_equal", "<=", np.less_equal, x, y, message, summarize)


def assert_greater(
    x: TensorLike,
    y: TensorLike,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x > y`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_greater([2, 3], [1, 2])
    >>> rg.debugging.assert_greater([2, 3], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x > y did not hold...
    """
    _binary_assert("assert_greater", ">", np.greater, x, y, message, summarize)


def assert_greater_equal(
    x: TensorLike,
    y: TensorLike,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x >= y`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_greater_equal([2, 3], 2)
    >>> rg.debugging.assert_greater_equal([1, 3], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x >= y did not hold...
    """
    _binary_assert("assert_greater_equal", ">=", np.greater_equal, x, y, message, summarize)


def assert_none_equal(
    x: TensorLike,
    y: TensorLike,
    summarize: int | None = None,
    message: str | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``x != y`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_none_equal([1, 2], [3, 4])
    >>> rg.debugging.assert_none_equal([1, 2], [3, 2])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: Condition x != y did not hold...
    """
    _binary_assert("assert_none_equal", "!=", np.not_equal, x, y, message, summarize)


def _sign_assert(op: str, symbol: str, compare: Any, x: Any, message: str | None) -> None:
    assertion(op, lambda t: _compare_with_zero(message, symbol, compare, t), x)


def _compare_with_zero(message, symbol, compare, t) -> None:
    if np.all(compare(t._value, 0)):
        return
    values = [str(v) for v in t._value.ravel().tolist()]
    raise InvalidArgumentError(
        f"{_prefix(message)}\nCondition x {symbol} 0 did not hold element-wise:\n"
        f"x (shape={plain_dims(t.shape)} dtype={t.dtype.name}) = \n{values}"
    )


def assert_positive(
    x: TensorLike, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> None:
    """Raises InvalidArgumentError unless ``x > 0`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_positive([1.0, 2.0])
    >>> rg.debugging.assert_positive([1.0, 0.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: ...
    """
    _sign_assert("assert_positive", ">", np.greater, x, message)


def assert_negative(
    x: TensorLike, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> None:
    """Raises InvalidArgumentError unless ``x < 0`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_negative([-1.0, -2.0])
    >>> rg.debugging.assert_negative([-1.0, 0.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: ...
    """
    _sign_assert("assert_negative", "<", np.less, x, message)


def assert_non_negative(
    x: TensorLike, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> None:
    """Raises InvalidArgumentError unless ``x >= 0`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_non_negative([0.0, 2.0])
    >>> rg.debugging.assert_non_negative([-1.0, 2.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: ...
    """
    _sign_assert("assert_non_negative", ">=", np.greater_equal, x, message)


def assert_non_positive(
    x: TensorLike, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> None:
    """Raises InvalidArgumentError unless ``x <= 0`` everywhere.

    >>> import retrograd as rg
    >>> rg.debugging.assert_non_positive([0.0, -2.0])
    >>> rg.debugging.assert_non_positive([1.0, -2.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: ...
    """
    _sign_assert("assert_non_positive", "<=", np.less_equal, x, message)


def assert_near(
    x: TensorLike,
    y: TensorLike,
    rtol: TensorLike | None = None,
    atol: TensorLike | None = None,
    message: str | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> None:
    """Raises InvalidArgumentError unless ``|x - y| <= atol + rtol * |y|`` everywhere; the
    tolerances default to ten machine epsilons of the dtype.

    >>> import retrograd as rg
    >>> rg.debugging.assert_near([1.0, 2.0], [1.0, 2.0 + 1e-7])
    >>> rg.debugging.assert_near([1.0, 2.0], [1.0, 2.1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: x and y not equal to tolerance...
    """
    a, b = convert_to_tensor(x), convert_to_tensor(y)
    if a.dtype != b.dtype:
        b = convert_to_tensor(y, dtype=a.dtype)
    assertion("assert_near", lambda a, b: _near(message, rtol, atol, a, b), a, b)


def _near(message, rtol, atol, a, b) -> None:
    eps = np.finfo(a._value.dtype).eps if a._value.dtype.kind in "fc" else 0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    if np.all(np.abs(a._value - b._value) <= atol + rtol * np.abs(b._value)):
        return
    raise InvalidArgumentError(
        f"{_prefix(message)}x and y not equal to tolerance rtol = {rtol}, atol = {atol}\n"
        f"x (shape={plain_dims(a.shape)} dtype={a.dtype.name}) = {a._value}\n"
        f"y (shape={plain_dims(b.shape)} dtype={b.dtype.name}) = {b._value}"
    )


def assert_type(
    tensor: TensorLike, tf_type: DTypeLike, message: str | None = None, name: str | None = None
) -> None:
    """Raises TypeError unless ``tensor`` has dtype ``tf_type``.

    >>> import retrograd as rg
    >>> rg.debugging.assert_type(rg.constant([1.0]), rg.float32)
    >>> rg.debugging.assert_type(rg.constant([1]), rg.float32)
    Traceback (most recent call last):
        ...
    TypeError: tensor must be of type float32; got int32
    """
    from retrograd.core import dtypes

    expected = dtypes.as_dtype(tf_type)
    t = convert_to_tensor(tensor)
    if t.dtype != expected:
        raise TypeError(
            f"{_prefix(message)}tensor must be of type {expected.name}; got {t.dtype.name}"
        )


def Assert(
    condition: TensorLike,
    data: Sequence[Any],
    summarize: int | None = None,
    name: str | None = None,
) -> None:  # noqa: N802
    """Raises InvalidArgumentError, showing ``data``, unless the scalar ``condition`` is
    true (TensorFlow's ``tf.Assert``).

    >>> Assert(True, ["never shown"])
    """
    c = convert_to_tensor(condition)
    if c.dtype.name != "bool" or (c.shape.rank is not None and c.shape.rank != 0):
        raise ValueError(f"Assert: condition must be a scalar bool, got {c.dtype.name}{c.shape}")

    def message(shown: list[str]) -> str:
        return f"Expected condition to be true. Summarized data: {chr(10).join(shown)}"

    def show(value: Any) -> str:
        elements = np.asarray(value).ravel()[: summarize or 3]
        return ", ".join(str(v) for v in elements.tolist())

    return assert_with_data(c, data, str, show, message, name)


def assert_with_data(
    condition: Tensor, data: list, text: Callable, show: Callable, message: Callable, name: Any
) -> Any:
    """An assertion of a scalar ``condition`` that shows ``data`` when it fails: strings as
    ``text(item)``, tensors' values as ``show(array)``, all joined by ``message(items)``
    (TensorFlow 2's ``tf.debugging.Assert`` and TF1's ``tf.Assert`` word them differently)."""
    texts = {i: item for i, item in enumerate(data) if isinstance(item, str)}
    tensors = [convert_to_tensor(d) for i, d in enumerate(data) if i not in texts]

    def check(c: Tensor, *values: Tensor) -> None:
        if np.all(c._value):
            return
        given = iter(values)
        shown = [
            text(texts[i]) if i in texts else show(next(given)._value) for i in range(len(data))
        ]
        raise InvalidArgumentError(message(shown))

    return assertion("Assert", check, condition, *tensors, name=name)
