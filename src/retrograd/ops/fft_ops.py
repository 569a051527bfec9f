"""Discrete Fourier transforms over the innermost axis of complex tensors: ``fft`` and
``ifft`` (TensorFlow's ``FFT``/``IFFT`` ops, as ``tf.signal.fft``/``ifft``).

Both are linear, so their gradients are each other: for ``y = fft(x)`` over ``n`` points the
gradient passed back is ``n * ifft(grad)``, and for ``y = ifft(x)`` it is ``fft(grad) / n``
(TensorFlow's convention for complex gradients, see complex_ops). Transforms over other axes,
of real inputs and two-dimensional ones are built from these by the callers.

>>> import numpy as np
>>> from retrograd.ops import fft_ops
>>> np.round(fft_ops.fft(np.array([1, 1j, -1, -1j], np.complex64)).numpy(), 5).tolist()
[0j, (4+0j), 0j, 0j]
"""

from __future__ import annotations

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import math_ops
from retrograd.ops.define import tensor_arg

__all__ = ["fft", "ifft"]


def _fft_kernel(x):
    return np.fft.fft(x, axis=-1).astype(x.dtype, copy=False)


def _ifft_kernel(x):
    return np.fft.ifft(x, axis=-1).astype(x.dtype, copy=False)


_FFT = define_op("FFT", _fft_kernel)
_IFFT = define_op("IFFT", _ifft_kernel)


def _complex_arg(op_type: str, x: TensorLike) -> Tensor:
    t = tensor_arg(op_type, x, "c", "input")
    if t.shape.rank == 0:
        raise ValueError(f"{op_type}: `input` must have at least one dimension, got a scalar")
    return t


def fft(input: TensorLike, name: str | None = None) -> Tensor:
    """The discrete Fourier transform of the innermost axis of a complex tensor.

    >>> import numpy as np
    >>> fft(np.array([1, 1], np.complex64)).numpy().tolist()
    [(2+0j), 0j]
    """
    return execute(_FFT, (_complex_arg("FFT", input),), None, name)


def ifft(input: TensorLike, name: str | None = None) -> Tensor:
    """The inverse discrete Fourier transform of the innermost axis of a complex tensor.

    >>> import numpy as np
    >>> ifft(np.array([2, 0], np.complex64)).numpy().tolist()
    [(1+0j), (1+0j)]
    """
    return execute(_IFFT, (_complex_arg("IFFT", input),), None, name)


def _points(grad: Tensor) -> Tensor:
    return math_ops.cast(grad.shape.as_list()[-1], grad.dtype)


@op_gradient("FFT")
def _fft_grad(op, grad):
    return ifft(grad) * _points(grad)


@op_gradient("IFFT")
def _ifft_grad(op, grad):
    return fft(grad) / _points(grad)
