"""Ops on the bits of numbers: the shifts of integer tensors ``left_shift`` and
``right_shift`` (TensorFlow's ``tf.bitwise``), and ``nextafter`` (the neighbouring float).
They broadcast and have no gradient (TensorFlow registers none).

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
from retrograd.ops.define import FLOAT, INTEGER, tensor_pair

__all__ = ["left_shift", "right_shift", "nextafter"]


def _left_shift_kernel(x, y):
    return np.left_shift(x, y).astype(x.dtype, copy=False)


def _right_shift_kernel(x, y):
    return np.right_shift(x, y).astype(x.dtype, copy=False)


def _nextafter_kernel(x1, x2):
    return np.nextafter(x1, x2)


_NextAfter = define_op("NextAfter", _nextafter_kernel, elementwise=True)
no_gradient("NextAfter")
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


def nextafter(x1: TensorLike, x2: TensorLike, name: str | None = None) -> Tensor:
    """The next representable value after ``x1`` in the direction of ``x2`` (float tensors
    of one dtype).

    >>> import numpy as np
    >>> bool(nextafter(1.0, 2.0).numpy() == np.nextafter(np.float32(1), np.float32(2)))
    True
    """
    x1, x2 = tensor_pair("NextAfter", x1, x2, FLOAT)
    return execute(_NextAfter, (x1, x2), None, name)
