"""``tf.linalg.LinearOperator``s given by diagonals or spectra: tridiagonal
(``LinearOperatorTridiag``) and circulant (``LinearOperatorCirculant``, ``...2D``, ``...3D``:
diagonal in the Fourier basis, their products computed by N-D FFTs of the ``spectrum``,
the eigenvalues).

>>> import retrograd as tf
>>> tf.linalg.LinearOperatorCirculant([3.0, 3.0, 3.0], input_output_dtype=tf.float32
...     ).matvec([1.0, 2.0, 3.0]).numpy().astype(float).round(4).tolist()
[3.0, 6.0, 9.0]
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.core import dtypes
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, complex_ops, linalg_ops, math_ops, matrix_diag_ops
from retrograd.training.linear_operator import LinearOperator

__all__ = [
    "LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
    "LinearOperatorTridiag",
]  # fmt: skip

_HINTS = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")


def _hints(local: dict) -> dict:
    return {k: local[k] for k in _HINTS}


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix given by its diagonals (``compact``, ``sequence`` or ``matrix``
    format, as ``tf.linalg.tridiagonal_matmul``).

    >>> import retrograd as tf
    >>> op = tf.linalg.LinearOperatorTridiag([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]])
    >>> op.matvec([1.0, 2.0, 3.0]).numpy().tolist()
    [5.0, 20.0, 29.0]
    """

    def __init__(
        self,
        diagonals,
        diagonals_format="compact",
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorTridiag",
    ):
        from retrograd.ops.linalg_band_ops import _diagonals

        self._diagonals_in, self._format = diagonals, diagonals_format
        self._parts = _diagonals("LinearOperatorTridiag", diagonals, diagonals_format)
        is_square = True if is_square is None else is_square
        super().__init__(self._parts[1].dtype, None, **_hints(locals()), name=name,
                         parameters={"diagonals": diagonals,
                                     "diagonals_format": diagonals_format})  # fmt: skip

    @property
    def diagonals(self) -> Any:
        return self._diagonals_in

    @property
    def diagonals_format(self) -> str:
        return self._format

    def _to_dense(self):
        from retrograd.ops.linalg_band_ops import _dense

        return _dense(*self._parts)


class _Circulant(LinearOperator):
    """Circulant (block-circulant) operators: diagonal in the Fourier basis."""

    _depth = 1

    def __init__(
        self,
        spectrum,
        input_output_dtype=dtypes.complex64,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        name=None,
    ):
        self._spectrum = convert_to_tensor(spectrum)
        self._given = self._spectrum
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError(
                    "A real spectrum always corresponds to a self-adjoint operator. Expected "
                    "argument `is_self_adjoint` to be True when `spectrum.dtype.is_complex` = "
                    "True. Received: False."
                )
            is_self_adjoint = True
            self._spectrum = math_ops.cast(self._spectrum, dtypes.complex64 if
                                           self._spectrum.dtype != dtypes.float64 else
                                           dtypes.complex128)  # fmt: skip
        super().__init__(input_output_dtype, None, **_hints(locals()), name=name,
                         parameters={"spectrum": spectrum,
                                     "input_output_dtype": input_output_dtype})  # fmt: skip

    @property
    def spectrum(self) -> Tensor:
        return self._given

    @property
    def block_depth(self) -> int:
        return self._depth

    @property
    def block_shape(self) -> TensorShape:
        return TensorShape(self._spectrum.shape[-self._depth :])

    def block_shape_tensor(self) -> Tensor:
        return convert_to_tensor(self.block_shape.as_list())

    def _axes(self, rank: int) -> list[int]:
        return list(range(rank - self._depth, rank))

    def convolution_kernel(self, name: str = "convolution_kernel") -> Tensor:
        """The kernel h whose circular convolution the operator is (ifft of the spectrum)."""
        from retrograd.ops.fftnd_ops import ifftnd

        kernel = ifftnd(self._spectrum, self.block_shape.as_list(), self._axes(self._spectrum.ndim))
        return kernel if self.dtype.is_complex else complex_ops.real(kernel)

    def assert_hermitian_spectrum(self, name: str = "assert_hermitian_spectrum") -> None:
        """InvalidArgumentError unless the spectrum is Hermitian (the kernel is real)."""
        import numpy as np

        from retrograd.core.errors import InvalidArgumentError

        kernel = self.convolution_kernel().numpy()
        if np.iscomplexobj(kernel) and not np.allclose(kernel.imag, 0, atol=1e-5):
            raise InvalidArgumentError("Spectrum was not Hermitian")

    def _shape(self):
        n = math.prod(self.block_shape.as_list())
        return TensorShape([*self._spectrum.shape[: -self._depth], n, n])

    def _matmul(self, x, adjoint, adjoint_arg):
        from retrograd.ops.fftnd_ops import fftnd, ifftnd

        x = linalg_ops.adjoint(x) if adjoint_arg else x
        block, cols = self.block_shape.as_list(), int(x.shape[-1])
        batch = list(x.shape[:-2])
        x = math_ops.cast(x, self._spectrum.dtype)
        moved = array_ops.reshape(linalg_ops.matrix_transpose(x), [*batch, cols, *block])
        axes = self._axes(len(batch) + 1 + self._depth)
        spectrum = math_ops.conj(self._spectrum) if adjoint else self._spectrum
        spectrum = array_ops.expand_dims(spectrum, -self._depth - 1)
        out = ifftnd(spectrum * fftnd(moved, block, axes), block, axes)
        out = linalg_ops.matrix_transpose(array_ops.reshape(out, [*out.shape[: -self._depth], -1]))
        return out if self.dtype.is_complex else math_ops.cast(complex_ops.real(out), self.dtype)

    def _to_dense(self):
        n = math.prod(self.block_shape.as_list())
        identity = matrix_diag_ops.eye(n, batch_shape=list(self._spectrum.shape[: -self._depth]),
                                       dtype=self.dtype)  # fmt: skip
        return self._matmul(identity, False, False)

    def _eigvals(self):
        values = array_ops.reshape(self._spectrum, [*self._spectrum.shape[: -self._depth], -1])
        return values if self.dtype.is_complex else complex_ops.real(values)


class LinearOperatorCirculant(_Circulant):
    """The circulant matrix with eigenvalues ``spectrum`` (convolution with its inverse FFT).

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorCirculant([6.0, -2.0, -2.0], input_output_dtype=tf.float32
    ...     ).to_dense().numpy().astype(float).round(4).tolist()
    [[0.6667, 2.6667, 2.6667], [2.6667, 0.6667, 2.6667], [2.6667, 2.6667, 0.6667]]
    """

    _depth = 1

    def __init__(
        self,
        spectrum,
        input_output_dtype=dtypes.complex64,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        name="LinearOperatorCirculant",
    ):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)  # fmt: skip


class LinearOperatorCirculant2D(_Circulant):
    """A block-circulant operator with circulant blocks: ``spectrum`` [..., H, W].

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorCirculant2D(tf.ones([2, 2]), tf.float32).shape
    TensorShape([4, 4])
    """

    _depth = 2

    def __init__(
        self,
        spectrum,
        input_output_dtype=dtypes.complex64,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        name="LinearOperatorCirculant2D",
    ):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)  # fmt: skip


class LinearOperatorCirculant3D(_Circulant):
    """Block circulant in three levels: ``spectrum`` [..., D, H, W].

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorCirculant3D(tf.ones([2, 2, 2]), tf.float32).shape
    TensorShape([8, 8])
    """

    _depth = 3

    def __init__(
        self,
        spectrum,
        input_output_dtype=dtypes.complex64,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        name="LinearOperatorCirculant3D",
    ):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)  # fmt: skip
