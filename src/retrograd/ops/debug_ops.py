"""CheckNumerics: passes a tensor through, failing if it holds NaN or infinity; and the
eager assertions of ``tf.debugging`` (``assert_rank``, ``assert_equal``).

Its gradient checks the gradient the same way, so a NaN found in the backward pass names
the same place.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import RegisterGradient, mark_batchable
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


_CheckNumerics = define_op("CheckNumerics", _check_numerics_kernel)


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Tensor:
    """``tensor`` unchanged; InvalidArgumentError with ``message`` if it has NaN or Inf."""
    t = tensor_arg("CheckNumerics", tensor, FLOAT_COMPLEX, "tensor")
    return execute(_CheckNumerics, (t,), {"message": str(message)}, name)


@RegisterGradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    message = op.get_attr("message")
    return check_numerics(
        grad, f"Not a number (NaN) or infinity (Inf) values detected in gradient. {message}"
    )


mark_batchable("CheckNumerics")


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
