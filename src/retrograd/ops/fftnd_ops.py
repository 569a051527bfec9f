"""N-dimensional discrete Fourier transforms: ``fftnd``, ``ifftnd`` (ops, each the other's
gradient up to the scale) and ``rfftnd``, ``irfftnd`` (built from them: the half spectrum of
a real input, and the real signal of a half spectrum), with TensorFlow's ``fft_length`` (each
transformed axis cropped or zero-padded to it) and ``axes``.

>>> import retrograd as tf
>>> tf.fftnd(tf.constant([1.0, 0.0, 0.0, 0.0], tf.complex64), [4], [0]).numpy().real.tolist()
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, complex_ops, math_ops, pad_ops, rearrange_ops

__all__ = ["fftnd", "ifftnd", "irfftnd", "rfftnd"]


_FFTND = define_op("FFTND", lambda x, axes: np.fft.fftn(x, axes=axes).astype(x.dtype, copy=False))
_IFFTND = define_op(
    "IFFTND", lambda x, axes: np.fft.ifftn(x, axes=axes).astype(x.dtype, copy=False)
)


def _size(x: Tensor, axes: tuple) -> int:
    return math.prod(int(x.shape[a]) for a in axes)


@op_gradient("FFTND")
def _fftnd_grad(op, grad):
    axes = op.get_attr("axes")  # y = F x: the adjoint is F^H = size * F^-1
    return execute(_IFFTND, (grad,), {"axes": axes}) * complex(_size(grad, axes))


@op_gradient("IFFTND")
def _ifftnd_grad(op, grad):
    axes = op.get_attr("axes")
    return execute(_FFTND, (grad,), {"axes": axes}) * complex(1.0 / _size(grad, axes))


def _fit(x: Tensor, lengths: list, axes: tuple) -> Tensor:
    """``x`` cropped or zero-padded along ``axes`` to ``lengths``."""
    for axis, n in zip(axes, lengths):
        size = int(x.shape[axis])
        if n < size:
            index = [slice(None)] * x.ndim
            index[axis] = slice(0, n)
            x = x[tuple(index)]
        elif n > size:
            amounts = [[0, 0]] * x.ndim
            amounts[axis] = [0, n - size]
            x = pad_ops.pad(x, amounts)
    return x


def _args(input: Any, fft_length: Any, axes: Any) -> tuple:
    x = convert_to_tensor(input)
    axes = tuple(int(a) % x.ndim for a in np.ravel(axes))
    lengths = [int(n) for n in np.ravel(fft_length)]
    if len(lengths) != len(axes):
        raise InvalidArgumentError(
            f"fft_length ({len(lengths)} values) must have as many values as axes ({len(axes)})"
        )
    return x, lengths, axes


def _complex(x: Tensor) -> Tensor:
    if not x.dtype.is_complex:
        raise InvalidArgumentError(
            f"Value for attr 'Tcomplex' of {x.dtype.name} is not in the list of allowed values: "
            f"complex64, complex128"
        )
    return x


def fftnd(
    input: TensorLike,
    fft_length: int | Sequence[int],
    axes: int | Sequence[int],
    name: str | None = None,
) -> Tensor:
    """The discrete Fourier transform over ``axes`` of a complex tensor.

    >>> import retrograd as tf
    >>> tf.fftnd(tf.ones([2, 2], tf.complex64), [2, 2], [0, 1]).numpy().real.tolist()
    [[4.0, 0.0], [0.0, 0.0]]
    """
    x, lengths, axes = _args(input, fft_length, axes)
    return execute(_FFTND, (_fit(_complex(x), lengths, axes),), {"axes": axes}, name)


def ifftnd(
    input: TensorLike,
    fft_length: int | Sequence[int],
    axes: int | Sequence[int],
    name: str | None = None,
) -> Tensor:
    """The inverse discrete Fourier transform over ``axes`` of a complex tensor.

    >>> import retrograd as tf
    >>> tf.ifftnd(tf.ones([4], tf.complex64), [4], [0]).numpy().real.tolist()
    [1.0, 0.0, 0.0, 0.0]
    """
    x, lengths, axes = _args(input, fft_length, axes)
    return execute(_IFFTND, (_fit(_complex(x), lengths, axes),), {"axes": axes}, name)


def rfftnd(
    input: TensorLike,
    fft_length: int | Sequence[int],
    axes: int | Sequence[int],
    Tcomplex: DTypeLike = dtypes.complex64,
    name: str | None = None,
) -> Tensor:  # noqa: N803  (TensorFlow's name)
    """The transform of a real tensor: the first ``fft_length[-1] // 2 + 1`` frequencies of
    the last axis (the others follow by symmetry).

    >>> import retrograd as tf
    >>> tf.rfftnd([1.0, 2.0, 3.0, 4.0], [4], [0]).numpy().tolist()
    [(10+0j), (-2+2j), (-2+0j)]
    """
    x, lengths, axes = _args(input, fft_length, axes)
    Tcomplex = dtypes.as_dtype(Tcomplex)  # noqa: N806
    if x.dtype.is_complex:
        raise InvalidArgumentError(f"rfftnd: input must be real, got {x.dtype.name}")
    spectrum = fftnd(math_ops.cast(x, Tcomplex), lengths, axes)
    index = [slice(None)] * x.ndim
    index[axes[-1]] = slice(0, lengths[-1] // 2 + 1)
    return array_ops.identity(spectrum[tuple(index)], name=name)


def irfftnd(
    input: TensorLike,
    fft_length: int | Sequence[int],
    axes: int | Sequence[int],
    Treal: DTypeLike = dtypes.float32,
    name: str | None = None,
) -> Tensor:  # noqa: N803
    """The real signal whose ``rfftnd`` is ``input`` (a half spectrum; the imaginary parts
    of the frequencies that must be real are ignored), of ``fft_length``.

    >>> import retrograd as tf
    >>> tf.irfftnd(tf.constant([10, -2 + 2j, -2], tf.complex64), [4], [0]).numpy().tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    x, lengths, axes = _args(input, fft_length, axes)
    x = _complex(x)
    last, n = axes[-1], lengths[-1]
    half = n // 2 + 1
    x = _fit(x, lengths[:-1] + [half], axes)
    # The full spectrum: X[k] for k <= n/2, conj(X[-k]) (over every transformed axis) after.
    mirrored = math_ops.conj(x)
    for axis in axes[:-1]:
        mirrored = array_ops.concat(
            [
                _take(mirrored, axis, 0, 1),
                rearrange_ops.reverse(_take(mirrored, axis, 1, None), [axis]),
            ],
            axis,
        )
    tail = rearrange_ops.reverse(_take(mirrored, last, 1, n - half + 1), [last])
    full = array_ops.concat([x, tail], last)
    signal = complex_ops.real(execute(_IFFTND, (full,), {"axes": axes}))
    return math_ops.cast(signal, dtypes.as_dtype(Treal), name=name)


def _take(x: Tensor, axis: int, start: int, stop: int | None) -> Tensor:
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, stop)
    return x[tuple(index)]
