"""CheckNumerics: passes a tensor through, failing if it holds NaN or infinity.

Its gradient checks the gradient the same way, so a NaN found in the backward pass names
the same place.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.errors import InvalidArgumentError
from retrograd.execute import define_op, execute
from retrograd.ops.define import FLOAT_COMPLEX, tensor_arg
from retrograd.registry import RegisterGradient, mark_batchable
from retrograd.tensor import Tensor


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
