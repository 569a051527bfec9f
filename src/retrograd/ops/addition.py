"""``add`` (TensorFlow's ``AddV2``): ``x + y`` elementwise, with broadcasting. Its gradient
lives with the other arithmetic in ``math_ops``.

As TensorFlow's ``AddV2`` converts a Python ``x`` on its own first (a default dtype of
float32), a Python float in ``x`` beyond float32's range is TensorFlow's ValueError, not
``inf``; in the other order, the Python value takes the tensor's dtype and overflows to
``inf``, as in TensorFlow.

>>> import retrograd as rg
>>> rg.add([1.0, 2.0], rg.constant([3.0, 4.0])).numpy().tolist()
[4.0, 6.0]
"""

from __future__ import annotations

import operator

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.tensor import Tensor
from retrograd.ops import define
from retrograd.ops.define import NUMERIC

__all__ = ["add"]

_add = define.binary_op(
    "add",
    "AddV2",
    operator.add,
    NUMERIC,
    "x + y elementwise, with broadcasting.",
    batchable=True,
    module=__name__,
)
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def add(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """x + y elementwise, with broadcasting (see the module for a Python ``x``)."""
    if isinstance(x, (float, list, tuple)):
        try:
            values = np.array(x, dtype=float)
        except (TypeError, ValueError, OverflowError):
            values = None  # (tensors, ragged or non-numeric values: converted below)
        if values is not None and (np.abs(values[np.isfinite(values)]) > _FLOAT32_MAX).any():
            raise ValueError(
                f"Can't convert Python sequence with a value out of range for a double-precision "
                f"float: {x!r} does not fit the default dtype float32 (as in TensorFlow's add)"
            )
    return _add(x, y, name)


add.op_def = _add.op_def  # type: ignore[attr-defined]
