"""The kinds of ``tf.linalg.LinearOperator`` made of other operators (adjoint, inversion,
composition, block diagonal, block lower-triangular, Kronecker product, low-rank update) or
of diagonals or spectra (tridiagonal, circulant: linear_operators_circulant.py). The others
ones compute products, solves and determinants through their parts.

>>> import retrograd as tf
>>> a = tf.linalg.LinearOperatorDiag([2.0, 3.0])
>>> tf.linalg.LinearOperatorComposition([a, a]).to_dense().numpy().tolist()
[[4.0, 0.0], [0.0, 9.0]]
"""

from __future__ import annotations

import math

from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, linalg_ops, math_ops
from retrograd.training.linear_operator import LinearOperator
from retrograd.training.linear_operators import LinearOperatorDiag, LinearOperatorIdentity

__all__ = [
    "LinearOperatorAdjoint", "LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular",
    "LinearOperatorComposition", "LinearOperatorInversion", "LinearOperatorKronecker",
    "LinearOperatorLowRankUpdate",
]  # fmt: skip

_HINTS = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")


def _hints(local: dict) -> dict:
    return {k: local[k] for k in _HINTS}


def _name(operators: list, joiner: str) -> str:
    return joiner.join(o.name for o in operators)


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of ``operator``.

    >>> import retrograd as tf
    >>> op = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.linalg.LinearOperatorAdjoint(op).to_dense().numpy().tolist()
    [[1.0, 3.0], [2.0, 4.0]]
    """

    def __init__(
        self,
        operator,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name=None,
    ):
        self._operator = operator
        hints = {k: v if v is not None else getattr(operator, k) for k, v in
                 _hints(locals()).items()}  # fmt: skip
        super().__init__(operator.dtype, None, **hints, name=name or operator.name + "_adjoint",
                         parameters={"operator": operator})  # fmt: skip

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _to_dense(self):
        return linalg_ops.adjoint(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator._matmul(x, not adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator._solve(rhs, not adjoint, adjoint_arg)

    def _determinant(self):
        return math_ops.conj(self._operator.determinant())

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def adjoint(self, name="adjoint"):
        return self._operator


class LinearOperatorInversion(LinearOperator):
    """The inverse of ``operator``: its products are the operator's solves.

    >>> import retrograd as tf
    >>> inv = tf.linalg.LinearOperatorInversion(tf.linalg.LinearOperatorDiag([2.0, 4.0]))
    >>> inv.matvec([1.0, 1.0]).numpy().tolist()
    [0.5, 0.25]
    """

    def __init__(
        self,
        operator,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name=None,
    ):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError("Argument `is_non_singular` or argument `operator` must have "
                             "supplied hint `is_non_singular` equal to `True` or `None`. Found "
                             f"`operator.is_non_singular`: {operator.is_non_singular}, "
                             f"`is_non_singular`: {is_non_singular}.")  # fmt: skip
        if operator.is_square is False or is_square is False:
            raise ValueError("Argument `is_square` or argument `operator` must have supplied "
                             "hint `is_square` equal to `True` or `None`. Found "
                             f"`operator.is_square`: {operator.is_square}, "
                             f"`is_square`: {is_square}.")  # fmt: skip
        self._operator = operator
        hints = {k: v if v is not None else getattr(operator, k) for k, v in
                 _hints(locals()).items()}  # fmt: skip
        super().__init__(operator.dtype, None, **hints, name=name or operator.name + "_inv",
                         parameters={"operator": operator})  # fmt: skip

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _shape(self):
        return self._operator.shape

    def _to_dense(self):
        from retrograd.ops.matrix_inverse_ops import inv

        return inv(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator._solve(x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator._matmul(rhs, adjoint, adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -self._operator.log_abs_determinant()

    def _linop_inverse(self):
        return self._operator


class LinearOperatorComposition(LinearOperator):
    """The product ``operators[0] @ operators[1] @ ...``.

    >>> import retrograd as tf
    >>> d = tf.linalg.LinearOperatorDiag([2.0, 4.0])
    >>> float(tf.linalg.LinearOperatorComposition([d, d]).determinant())
    64.0
    """

    def __init__(
        self,
        operators,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name=None,
    ):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        if is_non_singular is None and all(o.is_non_singular for o in operators):
            is_non_singular = True
        self._operators = operators
        super().__init__(operators[0].dtype, None, **_hints(locals()),
                         name=name or _name(operators, "_o_"),
                         parameters={"operators": operators})  # fmt: skip

    @property
    def operators(self) -> list:
        return list(self._operators)

    def _shape(self):
        first, last = self._operators[0].shape, self._operators[-1].shape
        return TensorShape([*first[:-1], last[-1]])

    def _to_dense(self):
        dense = self._operators[-1].to_dense()
        for op in reversed(self._operators[:-1]):
            dense = op.matmul(dense)
        return dense

    def _matmul(self, x, adjoint, adjoint_arg):
        if adjoint:
            out = self._operators[0]._matmul(x, True, adjoint_arg)
            for op in self._operators[1:]:
                out = op._matmul(out, True, False)
            return out
        out = self._operators[-1]._matmul(x, False, adjoint_arg)
        for op in reversed(self._operators[:-1]):
            out = op._matmul(out, False, False)
        return out

    def _solve(self, rhs, adjoint, adjoint_arg):
        if adjoint:
            out = self._operators[-1]._solve(rhs, True, adjoint_arg)
            for op in reversed(self._operators[:-1]):
                out = op._solve(out, True, False)
            return out
        out = self._operators[0]._solve(rhs, False, adjoint_arg)
        for op in self._operators[1:]:
            out = op._solve(out, False, False)
        return out

    def _determinant(self):
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self):
        return math_ops.add_n([op.log_abs_determinant() for op in self._operators])


def _block_diagonal(blocks: list[Tensor]) -> Tensor:
    from retrograd.ops.pad_ops import pad

    cols = [int(b.shape[-1]) for b in blocks]
    rows, before = [], 0
    total = sum(cols)
    for block, width in zip(blocks, cols):
        amounts = [[0, 0]] * (block.ndim - 1) + [[before, total - before - width]]
        rows.append(pad(block, amounts))
        before += width
    return array_ops.concat(rows, -2)


class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal matrix of ``operators`` (square blocks).

    >>> import retrograd as tf
    >>> a, b = tf.linalg.LinearOperatorDiag([2.0]), tf.linalg.LinearOperatorDiag([3.0, 4.0])
    >>> float(tf.linalg.LinearOperatorBlockDiag([a, b]).determinant())
    24.0
    """

    def __init__(
        self,
        operators,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=True,
        name=None,
    ):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        for key in ("is_non_singular", "is_self_adjoint", "is_positive_definite"):
            if locals()[key] is None and all(getattr(o, key) for o in operators):
                if key == "is_non_singular":
                    is_non_singular = True
                elif key == "is_self_adjoint":
                    is_self_adjoint = True
                else:
                    is_positive_definite = True
        self._operators = operators
        super().__init__(operators[0].dtype, None, **_hints(locals()),
                         name=name or _name(operators, "_ds_"),
                         parameters={"operators": operators})  # fmt: skip

    @property
    def operators(self) -> list:
        return list(self._operators)

    def _to_dense(self):
        return _block_diagonal([op.to_dense() for op in self._operators])

    def _split(self, x: Tensor, adjoint: bool) -> list[Tensor]:
        sizes = [op.range_dimension if adjoint else op.domain_dimension for op in self._operators]
        return array_ops.split(x, sizes, axis=-2)

    def _matmul(self, x, adjoint, adjoint_arg):
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        parts = self._split(x, adjoint)
        return array_ops.concat([op._matmul(p, adjoint, False)
                                 for op, p in zip(self._operators, parts)], -2)  # fmt: skip

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        parts = array_ops.split(rhs, [op.range_dimension for op in self._operators], axis=-2)
        return array_ops.concat([op._solve(p, adjoint, False)
                                 for op, p in zip(self._operators, parts)], -2)  # fmt: skip

    def _determinant(self):
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self):
        return math_ops.add_n([op.log_abs_determinant() for op in self._operators])


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """The block lower-triangular matrix whose row i holds ``operators[i]`` (i + 1 blocks,
    the last on the diagonal).

    >>> import retrograd as tf
    >>> d = tf.linalg.LinearOperatorDiag([2.0])
    >>> tf.linalg.LinearOperatorBlockLowerTriangular([[d], [d, d]]).to_dense().numpy().tolist()
    [[2.0, 0.0], [2.0, 2.0]]
    """

    def __init__(
        self,
        operators,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorBlockLowerTriangular",
    ):
        rows = [list(r) for r in operators]
        if not rows or any(len(r) != i + 1 for i, r in enumerate(rows)):
            raise ValueError("Argument `operators` must be a list of lists of LinearOperators "
                             "where row i holds i + 1 operators.")  # fmt: skip
        self._rows = rows
        super().__init__(rows[0][0].dtype, None, **_hints(locals()), name=name,
                         parameters={"operators": operators})  # fmt: skip

    @property
    def operators(self) -> list:
        return [list(r) for r in self._rows]

    def _to_dense(self):
        widths = [r[-1].domain_dimension for r in self._rows]
        lines = []
        for i, row in enumerate(self._rows):
            blocks = [op.to_dense() for op in row]
            height = row[-1].range_dimension
            rest = sum(widths[i + 1 :])
            if rest:
                blocks.append(array_ops.zeros([*blocks[0].shape[:-2], height, rest], self.dtype))
            lines.append(array_ops.concat(blocks, -1))
        return array_ops.concat(lines, -2)

    def _determinant(self):
        result = self._rows[0][-1].determinant()
        for row in self._rows[1:]:
            result = result * row[-1].determinant()
        return result

    def _log_abs_determinant(self):
        return math_ops.add_n([r[-1].log_abs_determinant() for r in self._rows])


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product ``operators[0] (x) operators[1] (x) ...``.

    >>> import retrograd as tf
    >>> a = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    >>> tf.linalg.LinearOperatorKronecker([a, a]).diag_part().numpy().tolist()
    [1.0, 2.0, 2.0, 4.0]
    """

    def __init__(
        self,
        operators,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name=None,
    ):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        if is_non_singular is None and all(o.is_non_singular for o in operators):
            is_non_singular = True
        self._operators = operators
        super().__init__(operators[0].dtype, None, **_hints(locals()),
                         name=name or _name(operators, "_x_"),
                         parameters={"operators": operators})  # fmt: skip

    @property
    def operators(self) -> list:
        return list(self._operators)

    def _to_dense(self):
        dense = self._operators[0].to_dense()
        for op in self._operators[1:]:
            other = op.to_dense()
            (r1, c1), (r2, c2) = dense.shape[-2:], other.shape[-2:]
            batch = list(dense.shape[:-2])
            outer = array_ops.reshape(dense, [*batch, r1, 1, c1, 1]) * array_ops.reshape(
                other, [*other.shape[:-2], 1, r2, 1, c2])  # fmt: skip
            dense = array_ops.reshape(outer, [*outer.shape[:-4], r1 * r2, c1 * c2])
        return dense

    def _determinant(self):
        total = math.prod(op.range_dimension for op in self._operators)
        result = None
        for op in self._operators:
            term = math_ops.pow(op.determinant(), float(total // op.range_dimension))
            result = term if result is None else result * term
        return result


class LinearOperatorLowRankUpdate(LinearOperator):
    """``base_operator + u @ diag(diag_update) @ v^H`` (``v`` defaults to ``u``, the
    diagonal to ones).

    >>> import retrograd as tf
    >>> base = tf.linalg.LinearOperatorDiag([1.0, 1.0])
    >>> tf.linalg.LinearOperatorLowRankUpdate(base, [[1.0], [1.0]]).to_dense().numpy().tolist()
    [[2.0, 1.0], [1.0, 2.0]]
    """

    def __init__(
        self,
        base_operator,
        u,
        diag_update=None,
        v=None,
        is_diag_update_positive=None,
        is_non_singular=None,
        is_self_adjoint=None,
        is_positive_definite=None,
        is_square=None,
        name="LinearOperatorLowRankUpdate",
    ):
        self._base = base_operator
        self._u = convert_to_tensor(u, base_operator.dtype)
        self._v = self._u if v is None else convert_to_tensor(v, base_operator.dtype)
        self._diag_update = None if diag_update is None else convert_to_tensor(
            diag_update, base_operator.dtype)  # fmt: skip
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  However, "
                                 "user set 'is_diag_update_positive' to False.")  # fmt: skip
            is_diag_update_positive = True
        self._is_diag_update_positive = is_diag_update_positive
        if base_operator.is_self_adjoint and v is None and not base_operator.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError(
                    "A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is "
                    "self-adjoint, this must be a self-adjoint operator."
                )
            is_self_adjoint = True
        if (base_operator.is_positive_definite and base_operator.is_self_adjoint
                and is_diag_update_positive and v is None):  # fmt: skip
            if is_positive_definite is False or is_self_adjoint is False or (
                    is_non_singular is False):  # fmt: skip
                raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
            is_positive_definite, is_self_adjoint = True, True
        super().__init__(base_operator.dtype, None, **_hints(locals()), name=name,
                         parameters={"base_operator": base_operator, "u": u,
                                     "diag_update": diag_update, "v": v})  # fmt: skip

    @property
    def base_operator(self) -> LinearOperator:
        return self._base

    @property
    def u(self) -> Tensor:
        return self._u

    @property
    def v(self) -> Tensor:
        return self._v

    @property
    def diag_update(self) -> Tensor | None:
        return self._diag_update

    @property
    def is_diag_update_positive(self) -> bool | None:
        return self._is_diag_update_positive

    @property
    def diag_operator(self) -> LinearOperator:
        if self._diag_update is None:
            return LinearOperatorIdentity(self._u.shape[-1], dtype=self.dtype)
        return LinearOperatorDiag(
            self._diag_update, is_positive_definite=self._is_diag_update_positive
        )

    def _to_dense(self):
        scaled = self._u if self._diag_update is None else self._u * array_ops.expand_dims(
            self._diag_update, -2)  # fmt: skip
        return self._base.to_dense() + linalg_ops.matmul(scaled, self._v, adjoint_b=True)
