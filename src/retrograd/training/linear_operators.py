"""The kinds of ``tf.linalg.LinearOperator`` given by entries: full, diagonal,
lower-triangular, identity, scaled identity, zeros, permutation, Householder and Toeplitz
(the others: linear_operators_more.py). Each knows its dense matrix; the diagonal,
triangular and identity ones compute products, solves and determinants from their
structure.

>>> import retrograd as tf
>>> tf.linalg.LinearOperatorToeplitz([1.0, 2.0, 3.0], [1.0, 4.0, 5.0]).to_dense().numpy().tolist()
[[1.0, 4.0, 5.0], [2.0, 1.0, 4.0], [3.0, 2.0, 1.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
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
from retrograd.training.linear_operator import LinearOperator

__all__ = [
    "LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorHouseholder",
    "LinearOperatorIdentity", "LinearOperatorLowerTriangular", "LinearOperatorPermutation",
    "LinearOperatorScaledIdentity", "LinearOperatorToeplitz", "LinearOperatorZeros",
]  # fmt: skip

_HINTS = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")


def _hints(local: dict) -> dict:
    return {k: local[k] for k in _HINTS}


class LinearOperatorFullMatrix(LinearOperator):
    """A matrix given by its entries.

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]]).matrix.shape
    TensorShape([2, 2])
    """

    def __init__(
        self,
        matrix,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorFullMatrix",
    ):
        self._matrix = convert_to_tensor(matrix)
        super().__init__(self._matrix.dtype, None, **_hints(locals()), name=name,
                         parameters={"matrix": matrix})  # fmt: skip

    @property
    def matrix(self) -> Tensor:
        return self._matrix

    def _to_dense(self) -> Tensor:
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A diagonal matrix ``diag(diag)``: products, solves and determinants in O(n).

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorDiag([2.0, 4.0]).solvevec([2.0, 2.0]).numpy().tolist()
    [1.0, 0.5]
    """

    def __init__(
        self,
        diag,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorDiag",
    ):
        self._diag = convert_to_tensor(diag)
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        is_square = True
        super().__init__(self._diag.dtype, None, **_hints(locals()), name=name,
                         parameters={"diag": diag})  # fmt: skip

    @property
    def diag(self) -> Tensor:
        return self._diag

    def _shape(self) -> TensorShape:
        n = self._diag.shape[-1]
        return TensorShape([*self._diag.shape[:-1], n, n])

    def _to_dense(self) -> Tensor:
        return matrix_diag_ops.diag(self._diag)

    def _matmul(self, x, adjoint, adjoint_arg):
        d = math_ops.conj(self._diag) if adjoint else self._diag
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        return array_ops.expand_dims(d, -1) * x

    def _solve(self, rhs, adjoint, adjoint_arg):
        d = math_ops.conj(self._diag) if adjoint else self._diag
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        return rhs / array_ops.expand_dims(d, -1)

    def _determinant(self):
        return reduction_ops.reduce_prod(self._diag, -1)

    def _log_abs_determinant(self):
        return reduction_ops.reduce_sum(math_ops.log(math_ops.abs(self._diag)), -1)

    def _diag_part(self):
        return self._diag

    def _eigvals(self):
        return self._diag

    def _linop_inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite)  # fmt: skip

    def _linop_cholesky(self):
        return LinearOperatorDiag(math_ops.sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True)  # fmt: skip


class LinearOperatorLowerTriangular(LinearOperator):
    """A lower-triangular matrix (the part of ``tril`` on and below the diagonal).

    >>> import retrograd as tf
    >>> float(tf.linalg.LinearOperatorLowerTriangular([[2.0, 9.0], [1.0, 3.0]]).determinant())
    6.0
    """

    def __init__(
        self,
        tril,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorLowerTriangular",
    ):
        self._tril = convert_to_tensor(tril)
        super().__init__(self._tril.dtype, None, **_hints(locals()), name=name,
                         parameters={"tril": tril})  # fmt: skip

    @property
    def tril(self) -> Tensor:
        return self._tril

    def _to_dense(self) -> Tensor:
        return matrix_diag_ops.band_part(self._tril, -1, 0)

    def _solve(self, rhs, adjoint, adjoint_arg):
        from retrograd.ops.matrix_inverse_ops import triangular_solve

        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        return triangular_solve(self.to_dense(), rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return reduction_ops.reduce_prod(matrix_diag_ops.diag_part(self._tril), -1)

    def _log_abs_determinant(self):
        d = matrix_diag_ops.diag_part(self._tril)
        return reduction_ops.reduce_sum(math_ops.log(math_ops.abs(d)), -1)

    def _eigvals(self):
        return matrix_diag_ops.diag_part(self._tril)


def _dtype_or(dtype: Any) -> Any:
    return dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)


class LinearOperatorIdentity(LinearOperator):
    """The identity of ``num_rows`` (with ``batch_shape``): products return their argument.

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorIdentity(2).matvec([3.0, 4.0]).numpy().tolist()
    [3.0, 4.0]
    """

    def __init__(
        self,
        num_rows,
        batch_shape=None,
        dtype=None,
        is_non_singular=True,
        is_self_adjoint=True,
        is_positive_definite=True,
        is_square=True,
        assert_proper_shapes=False,
        name="LinearOperatorIdentity",
    ):
        self._num_rows = int(num_rows)
        self._batch = list(batch_shape or [])
        super().__init__(_dtype_or(dtype), None, **_hints(locals()), name=name,
                         parameters={"num_rows": num_rows, "batch_shape": batch_shape})  # fmt: skip

    def _shape(self):
        return TensorShape([*self._batch, self._num_rows, self._num_rows])

    def _to_dense(self):
        return matrix_diag_ops.eye(self._num_rows, batch_shape=self._batch, dtype=self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        return x + array_ops.zeros(self._batch + [1, 1], x.dtype) if self._batch else x

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _determinant(self):
        return array_ops.ones(self._batch, self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(self._batch, self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """``mat`` plus the identity."""
        mat = self._arg(mat)
        return matrix_diag_ops.set_diag(mat, matrix_diag_ops.diag_part(mat) + 1)

    def _linop_inverse(self):
        return self


class LinearOperatorScaledIdentity(LinearOperator):
    """``multiplier`` times the identity of ``num_rows``.

    >>> import retrograd as tf
    >>> float(tf.linalg.LinearOperatorScaledIdentity(3, 2.0).determinant())
    8.0
    """

    def __init__(
        self,
        num_rows,
        multiplier,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        assert_proper_shapes=False,
        name="LinearOperatorScaledIdentity",
    ):
        self._num_rows = int(num_rows)
        self._multiplier = convert_to_tensor(multiplier)
        if not self._multiplier.dtype.is_complex and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._multiplier.dtype, None, **_hints(locals()), name=name,
                         parameters={"num_rows": num_rows, "multiplier": multiplier})  # fmt: skip

    @property
    def multiplier(self) -> Tensor:
        return self._multiplier

    def _scale(self) -> Tensor:
        return self._multiplier[..., None, None]

    def _shape(self):
        return TensorShape([*self._multiplier.shape, self._num_rows, self._num_rows])

    def _to_dense(self):
        return self._scale() * matrix_diag_ops.eye(self._num_rows, dtype=self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        return (math_ops.conj(self._scale()) if adjoint else self._scale()) * x

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        return rhs / (math_ops.conj(self._scale()) if adjoint else self._scale())

    def _determinant(self):
        return math_ops.pow(self._multiplier, float(self._num_rows))

    def _log_abs_determinant(self):
        return self._num_rows * math_ops.log(math_ops.abs(self._multiplier))

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """``mat`` plus the scaled identity."""
        mat = self._arg(mat)
        return matrix_diag_ops.set_diag(
            mat, matrix_diag_ops.diag_part(mat) + self._multiplier[..., None]
        )


class LinearOperatorZeros(LinearOperator):
    """The zero matrix of ``num_rows`` x ``num_columns``.

    >>> import retrograd as tf
    >>> op = tf.linalg.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
    >>> op.matvec([1.0, 1.0, 1.0]).numpy().tolist()
    [0.0, 0.0]
    """

    def __init__(
        self,
        num_rows,
        num_columns=None,
        batch_shape=None,
        dtype=None,
        is_non_singular=False,
        is_self_adjoint=True,
        is_positive_definite=False,
        is_square=True,
        assert_proper_shapes=False,
        name="LinearOperatorZeros",
    ):
        self._rows = int(num_rows)
        self._cols = self._rows if num_columns is None else int(num_columns)
        if is_square and self._rows != self._cols:
            raise ValueError(
                f"LinearOperatorZeros initialized as is_square=True, but got "
                f"num_rows({self._rows}) != num_columns({self._cols})"
            )
        self._batch = list(batch_shape or [])
        super().__init__(_dtype_or(dtype), None, **_hints(locals()), name=name,
                         parameters={"num_rows": num_rows, "num_columns": num_columns})  # fmt: skip

    def _shape(self):
        return TensorShape([*self._batch, self._rows, self._cols])

    def _to_dense(self):
        return array_ops.zeros([*self._batch, self._rows, self._cols], self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """``mat`` (plus zeros)."""
        return self._arg(mat) + 0


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix with a one at [i, perm[i]].

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorPermutation([1, 2, 0]).matvec([1.0, 2.0, 3.0]).numpy().tolist()
    [2.0, 3.0, 1.0]
    """

    def __init__(
        self,
        perm,
        dtype=dtypes.float32,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorPermutation",
    ):
        self._perm = convert_to_tensor(perm)
        if is_non_singular is False:
            raise ValueError(
                "A Permutation operator is always non-singular. Expected argument "
                f"`is_non_singular` to be True. Received: {is_non_singular}."
            )
        if is_square is False:
            raise ValueError(
                "A Permutation operator is always square. Expected argument "
                f"`is_square` to be True. Received: {is_square}."
            )
        is_square = True
        super().__init__(_dtype_or(dtype), None, **_hints(locals()), name=name,
                         parameters={"perm": perm})  # fmt: skip

    @property
    def perm(self) -> Tensor:
        return self._perm

    def _to_dense(self):
        from retrograd.ops.creation_ops import one_hot

        return one_hot(self._perm, self._perm.shape[-1], dtype=self.dtype)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / |v|^2 through the plane orthogonal to
    ``reflection_axis``.

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorHouseholder([1.0, 0.0]).matvec([3.0, 4.0]).numpy().tolist()
    [-3.0, 4.0]
    """

    def __init__(
        self,
        reflection_axis,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorHouseholder",
    ):
        self._axis = convert_to_tensor(reflection_axis)
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        is_self_adjoint, is_positive_definite, is_square = True, False, True
        super().__init__(self._axis.dtype, None, **_hints(locals()), name=name,
                         parameters={"reflection_axis": reflection_axis})  # fmt: skip

    @property
    def reflection_axis(self) -> Tensor:
        return self._axis

    def _to_dense(self):
        from retrograd.ops.statistics_ops import l2_normalize

        v = array_ops.expand_dims(l2_normalize(self._axis, -1), -1)
        reflection = -2 * linalg_ops.matmul(v, v, adjoint_b=True)
        return matrix_diag_ops.set_diag(reflection, 1.0 + matrix_diag_ops.diag_part(reflection))


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column ``col`` and first row ``row`` (the diagonal is
    ``col[0]``).

    >>> import retrograd as tf
    >>> tf.linalg.LinearOperatorToeplitz([1.0, 2.0], [9.0, 3.0]).to_dense().numpy().tolist()
    [[1.0, 3.0], [2.0, 1.0]]
    """

    def __init__(
        self,
        col,
        row,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorToeplitz",
    ):
        self._col, self._row = convert_to_tensor(col), convert_to_tensor(row)
        is_square = True if is_square is None else is_square
        super().__init__(self._col.dtype, None, **_hints(locals()), name=name,
                         parameters={"col": col, "row": row})  # fmt: skip

    @property
    def col(self) -> Tensor:
        return self._col

    @property
    def row(self) -> Tensor:
        return self._row

    def _to_dense(self):
        from retrograd.ops.gather_ops import gather
        from retrograd.ops.rearrange_ops import reverse

        n = self._row.shape[-1]
        shape = np.broadcast_shapes(tuple(self._row.shape), tuple(self._col.shape))
        row = broadcast.broadcast_to(self._row, shape)
        col = broadcast.broadcast_to(self._col, shape)
        elements = array_ops.concat([reverse(col, [-1]), row[..., 1:]], -1)
        indices = (np.arange(n)[None, :] + np.arange(n - 1, -1, -1)[:, None]) % (2 * n - 1)
        return gather(elements, indices, axis=-1)
