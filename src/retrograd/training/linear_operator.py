"""``tf.linalg.LinearOperator``: a matrix (or batch of matrices) known by what it does
(``matmul``, ``solve``, ``determinant``, ...) rather than by its entries, so that structured
matrices (diagonal, triangular, identity, circulant, ...) can compute those cheaply.

The base class gives every operation from ``to_dense()`` (the subclasses override what their
structure makes cheaper), with TensorFlow's hints (``is_self_adjoint``, ...), shape
properties, checks and errors. Results are tensors computed by differentiable ops.

>>> import retrograd as tf
>>> op = tf.linalg.LinearOperatorFullMatrix([[2.0, 0.0], [0.0, 4.0]])
>>> op.shape, float(op.determinant()), op.matvec([1.0, 1.0]).numpy().tolist()
(TensorShape([2, 2]), 8.0, [2.0, 4.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import (
    array_ops,
    broadcast,
    linalg_ops,
    math_ops,
    matrix_diag_ops,
    reduction_ops,
)
from retrograd.training.module import Module

__all__ = ["LinearOperator"]


def _conj_t(x: Tensor) -> Tensor:
    return linalg_ops.adjoint(x)


class LinearOperator(Module):
    """The base of linear operators (see the module docstring); a subclass defines
    ``_to_dense`` and its shape, and may override ``_matmul``, ``_solve``, ... .

    >>> import retrograd as tf
    >>> op = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    >>> isinstance(op, tf.linalg.LinearOperator), op.is_square
    (True, True)
    """

    def __init__(self, dtype: Any, graph_parents: Any = None, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str | None = None,
                 parameters: dict | None = None) -> None:  # fmt: skip
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular and is_square is False:
            raise ValueError("A non-singular matrix is always square.")
        if is_non_singular:
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        super().__init__(name=name)
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_hint = is_square
        self._parameters = dict(parameters or {})

    # -- hints and shape -----------------------------------------------------------------
    @property
    def dtype(self) -> Any:
        return self._dtype

    @property
    def parameters(self) -> dict:
        """The arguments the operator was made with."""
        return dict(self._parameters)

    @property
    def graph_parents(self) -> list:
        """(Deprecated in TensorFlow.) The tensors the operator depends on: none listed."""
        return []

    @property
    def is_non_singular(self) -> bool | None:
        return self._is_non_singular

    @property
    def is_self_adjoint(self) -> bool | None:
        return self._is_self_adjoint

    @property
    def is_positive_definite(self) -> bool | None:
        return self._is_positive_definite

    @property
    def is_square(self) -> bool | None:
        """Whether the operator is square: the hint, else from the known shape."""
        if self._is_square_hint is not None:
            return self._is_square_hint
        rows, cols = self.range_dimension, self.domain_dimension
        return None if rows is None or cols is None else rows == cols

    def _shape(self) -> TensorShape:
        return self.to_dense().shape

    @property
    def shape(self) -> TensorShape:
        """The batch shape followed by [rows, columns]."""
        return TensorShape(self._shape())

    @property
    def batch_shape(self) -> TensorShape:
        return TensorShape(self.shape[:-2])

    @property
    def tensor_rank(self) -> int | None:
        return self.shape.rank

    @property
    def domain_dimension(self) -> int | None:
        """The number of columns."""
        return self.shape[-1]

    @property
    def range_dimension(self) -> int | None:
        """The number of rows."""
        return self.shape[-2]

    def shape_tensor(self, name: str = "shape_tensor") -> Tensor:
        return convert_to_tensor(np.array(self.shape.as_list(), np.int32))

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Tensor:
        return convert_to_tensor(np.array(self.batch_shape.as_list(), np.int32))

    def tensor_rank_tensor(self, name: str = "tensor_rank_tensor") -> Tensor:
        return convert_to_tensor(np.int32(self.tensor_rank))

    def domain_dimension_tensor(self, name: str = "domain_dimension_tensor") -> Tensor:
        return convert_to_tensor(np.int32(self.domain_dimension))

    def range_dimension_tensor(self, name: str = "range_dimension_tensor") -> Tensor:
        return convert_to_tensor(np.int32(self.range_dimension))

    # -- the dense matrix and products -------------------------------------------------
    def _to_dense(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} defines no _to_dense")

    def to_dense(self, name: str = "to_dense") -> Tensor:
        """The operator as a dense tensor [..., rows, columns]."""
        return self._to_dense()

    def _matmul(self, x: Tensor, adjoint: bool, adjoint_arg: bool) -> Tensor:
        return linalg_ops.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _arg(self, x: Any) -> Tensor:
        return convert_to_tensor(x, self.dtype)

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False,
               name: str = "matmul") -> Any:  # fmt: skip
        """``A @ x`` (``A^H`` with ``adjoint``, ``x^H`` with ``adjoint_arg``); an operator
        ``x`` gives the composition."""
        if isinstance(x, LinearOperator):
            from retrograd.training.linear_operators_more import LinearOperatorComposition

            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        return self._matmul(self._arg(x), adjoint, adjoint_arg)

    def __matmul__(self, other: Any) -> Any:
        return self.matmul(other)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> Tensor:
        """``A @ x`` for vectors x [..., columns]."""
        x = self._arg(x)
        return array_ops.squeeze(self._matmul(array_ops.expand_dims(x, -1), adjoint, False), -1)

    def _solve(self, rhs: Tensor, adjoint: bool, adjoint_arg: bool) -> Tensor:
        from retrograd.ops.matrix_inverse_ops import solve

        matrix = self.to_dense()
        rhs = _conj_t(rhs) if adjoint_arg else rhs
        batch = np.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(rhs.shape[:-2]))
        if tuple(matrix.shape[:-2]) != batch:  # (solve wants equal batch shapes)
            matrix = broadcast.broadcast_to(matrix, (*batch, *matrix.shape[-2:]))
        if tuple(rhs.shape[:-2]) != batch:
            rhs = broadcast.broadcast_to(rhs, (*batch, *rhs.shape[-2:]))
        return solve(matrix, rhs, adjoint=adjoint)

    def _check_solvable(self) -> None:
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")  # fmt: skip
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")  # fmt: skip

    def solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False,
              name: str = "solve") -> Any:  # fmt: skip
        """X with ``A @ X = rhs`` (``A^H``, ``rhs^H`` as asked); an operator ``rhs`` gives
        the composition with the inverse."""
        self._check_solvable()
        if isinstance(rhs, LinearOperator):
            from retrograd.training.linear_operators_more import LinearOperatorComposition

            left = (self.adjoint() if adjoint else self).inverse()
            return LinearOperatorComposition([left, rhs.adjoint() if adjoint_arg else rhs])
        return self._solve(self._arg(rhs), adjoint, adjoint_arg)

    def solvevec(self, rhs: Any, adjoint: bool = False, name: str = "solve") -> Tensor:
        """x with ``A @ x = rhs`` for vectors."""
        self._check_solvable()
        rhs = self._arg(rhs)
        return array_ops.squeeze(self._solve(array_ops.expand_dims(rhs, -1), adjoint, False), -1)

    # -- scalars of the matrix -----------------------------------------------------------
    def _check_square(self, what: str) -> None:
        if self.is_square is False:
            raise NotImplementedError(
                f"{what} not implemented for an operator that is expected to not be square."
            )

    def _determinant(self) -> Tensor:
        from retrograd.ops.matrix_inverse_ops import det

        return det(self.to_dense())

    def determinant(self, name: str = "det") -> Tensor:
        self._check_square("Determinant")
        return self._determinant()

    def _log_abs_determinant(self) -> Tensor:
        from retrograd.ops.matrix_inverse_ops import slogdet

        return slogdet(self.to_dense())[1]

    def log_abs_determinant(self, name: str = "log_abs_det") -> Tensor:
        self._check_square("Determinant")
        return self._log_abs_determinant()

    def _diag_part(self) -> Tensor:
        return matrix_diag_ops.diag_part(self.to_dense())

    def diag_part(self, name: str = "diag_part") -> Tensor:
        """The diagonal [..., min(rows, columns)]."""
        return self._diag_part()

    def trace(self, name: str = "trace") -> Tensor:
        return reduction_ops.reduce_sum(self.diag_part(), -1)

    def add_to_tensor(self, x: Any, name: str = "add_to_tensor") -> Tensor:
        """``x`` plus the dense matrix."""
        return self.to_dense() + self._arg(x)

    def _eigvals(self) -> Tensor:
        from retrograd.ops.decomposition_ops import eigvalsh

        return eigvalsh(self.to_dense())

    def eigvals(self, name: str = "eigvals") -> Tensor:
        """The eigenvalues (of a self-adjoint operator only, as TensorFlow)."""
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def cond(self, name: str = "cond") -> Tensor:
        """The condition number: the ratio of the largest and smallest singular values."""
        from retrograd.ops.decomposition_ops import svd

        values = math_ops.abs(self._eigvals()) if self.is_self_adjoint else svd(
            self.to_dense(), compute_uv=False)  # fmt: skip
        return reduction_ops.reduce_max(values, -1) / reduction_ops.reduce_min(values, -1)

    # -- derived operators ---------------------------------------------------------------
    def adjoint(self, name: str = "adjoint") -> LinearOperator:
        """The adjoint (conjugate transpose) as an operator."""
        if self.is_self_adjoint is True:
            return self
        from retrograd.training.linear_operators_more import LinearOperatorAdjoint

        return LinearOperatorAdjoint(self)

    H = property(adjoint)

    def _linop_inverse(self) -> LinearOperator:
        from retrograd.training.linear_operators_more import LinearOperatorInversion

        return LinearOperatorInversion(self)

    def inverse(self, name: str = "inverse") -> LinearOperator:
        """The inverse as an operator."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")  # fmt: skip
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")  # fmt: skip
        return self._linop_inverse()

    def _linop_cholesky(self) -> LinearOperator:
        from retrograd.ops.decomposition_ops import cholesky
        from retrograd.training.linear_operators import LinearOperatorLowerTriangular

        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True)

    def cholesky(self, name: str = "cholesky") -> LinearOperator:
        """The lower-triangular Cholesky factor (positive definite self-adjoint only)."""
        if not (self.is_positive_definite and self.is_self_adjoint):
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")  # fmt: skip
        return self._linop_cholesky()

    # -- checks (eager: raise now; nothing to return) -------------------------------------
    def assert_non_singular(self, name: str = "assert_non_singular") -> None:
        """InvalidArgumentError unless the condition number is below
        1 / (max(100, rows, columns) * eps)."""
        from retrograd.ops.decomposition_ops import svd

        values = svd(self.to_dense(), compute_uv=False).numpy()
        cond = values.max(-1) / values.min(-1)
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        limit = 1.0 / (max(100.0, self.range_dimension, self.domain_dimension) * eps)
        if not np.all(cond < limit):
            raise InvalidArgumentError("Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name: str = "assert_positive_definite") -> None:
        """InvalidArgumentError unless (self-adjoint and) the Cholesky factor has a positive
        diagonal."""
        from retrograd.ops.decomposition_ops import cholesky

        if not self.is_self_adjoint:
            raise NotImplementedError("assert_positive_definite is not implemented.")
        factor = cholesky(self.to_dense())
        if not np.all(np.real(matrix_diag_ops.diag_part(factor).numpy()) > 0):
            raise InvalidArgumentError("Matrix was not positive definite.")

    def assert_self_adjoint(self, name: str = "assert_self_adjoint") -> None:
        """InvalidArgumentError unless the matrix equals its adjoint."""
        dense = self.to_dense().numpy()
        if not np.array_equal(dense, np.conj(np.swapaxes(dense, -1, -2))):
            raise InvalidArgumentError("Matrix was not equal to its adjoint.")

    def __repr__(self) -> str:
        return (f'<{type(self).__name__} "{self.name}" batch_shape={self.batch_shape} '
                f"dtype={self.dtype.name}>")  # fmt: skip
