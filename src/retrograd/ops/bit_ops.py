"""Ops on the bits of numbers: the shifts of integer tensors ``left_shift`` and
``right_shift`` (TensorFlow's ``tf.bitwise``). They broadcast and have no gradient
(TensorFlow registers none). ``nextafter`` is in math_extra_ops (it has a gradient).

A shift by a negative amount or by at least the bit width is implementation-defined in
TensorFlow; here it gives 0 (left) or the sign fill (right), as NumPy computes in Python ints.

>>> import retrograd as rg
>>> rg.bitwise.left_shift([1, 3], [2, 1]).numpy().tolist()
[4, 6]
"""

from __future__ import annotations

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops.define import INTEGER, tensor_pair

__all__ = ["left_shift", "right_shift"]


def _left_shift_kernel(x, y):
    return np.left_shift(x, y).astype(x.dtype, copy=False)


def _right_shift_kernel(x, y):
    return np.right_shift(x, y).astype(x.dtype, copy=False)


_LeftShift = define_op("LeftShift", _left_shift_kernel, elementwise=True)
_RightShift = define_op("RightShift", _right_shift_kernel, elementwise=True)
no_gradient("LeftShift")
no_gradient("RightShift")


def left_shift(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """``x << y`` elementwise, for integer tensors of one dtype.

    >>> import retrograd as rg
    >>> rg.bitwise.left_shift(1, 4).numpy()
    np.int32(16)
    """
    x, y = tensor_pair("LeftShift", x, y, INTEGER)
    return execute(_LeftShift, (x, y), None, name)


def right_shift(x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor:
    """``x >> y`` elementwise (arithmetic for signed integers).

    >>> import retrograd as rg
    >>> rg.bitwise.right_shift([-8, 16], 2).numpy().tolist()
    [-2, 4]
    """
    x, y = tensor_pair("RightShift", x, y, INTEGER)
    return execute(_RightShift, (x, y), None, name)
