"""Matrix products (matmul, matvec, tensordot, cross) and matrix transposes, batched over
leading dimensions that broadcast; ``matrix_arg`` checks the matrices of every linalg op.

>>> import retrograd as rg
>>> a = rg.constant([[1.0, 2.0], [3.0, 4.0]])
>>> b = rg.constant([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
>>> rg.matmul(a, b).numpy().tolist()
[[24.0, 27.0, 30.0], [54.0, 61.0, 68.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import AxisLike, DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError, NotFoundError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import broadcast_dims, plain_dims
from retrograd.core.tensor import Tensor, constant_value, convert_to_tensor
from retrograd.ops import array_ops, broadcast, math_ops
from retrograd.ops.define import (
    ANY,
    FLOAT_COMPLEX,
    NUMERIC,
    REAL,
    tensor_arg,
    tensor_pair,
)


def _blas_ready(x):
    """A broadcast view (the gradient of a sum is one) has zero strides, which NumPy's matmul
    cannot hand to BLAS: it would take a loop many times slower. Such views are copied."""
    if isinstance(x, np.ndarray) and x.size > 1 and 0 in x.strides:
        return np.ascontiguousarray(x)
    return x


def _matmul_kernel(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(_blas_ready(a), _blas_ready(b))


def _matmul_shape(metas, transpose_a, transpose_b):
    a, b = metas
    dtype = np.result_type(a.dtype, b.dtype)
    if a.shape is None or b.shape is None:
        return [(None, dtype)]
    rows = a.shape[-1] if transpose_a else a.shape[-2]
    cols = b.shape[-2] if transpose_b else b.shape[-1]
    return [((*broadcast_dims([a.shape[:-2], b.shape[:-2]], "MatMul"), rows, cols), dtype)]


_MatMul = define_op("MatMul", _matmul_kernel, shape_fn=_matmul_shape, batchable=True, fresh=True)


def matmul(
    a: TensorLike,
    b: TensorLike,
    transpose_a: bool = False,
    transpose_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
    a_is_sparse: bool = False,
    b_is_sparse: bool = False,
    output_type: DTypeLike | None = None,
    grad_a: bool = False,
    grad_b: bool = False,
    name: str | None = None,
) -> Tensor:
    """The matrix product of ``a`` and ``b`` (rank >= 2; leading batch dimensions broadcast).

    ``adjoint_*`` conjugates and transposes (the same as ``transpose_*`` for real tensors).
    ``output_type=int32`` multiplies int8/uint8 matrices into int32, as TensorFlow's
    quantized path (other dtypes have no such kernel: NotFoundError, as there);
    ``a_is_sparse``, ``b_is_sparse``, ``grad_a`` and ``grad_b`` are TensorFlow's hints for
    choosing kernels, which change no value.

    >>> import retrograd as rg
    >>> rg.matmul([[1.0, 2.0], [3.0, 4.0]], [[1.0], [1.0]]).numpy().tolist()
    [[3.0], [7.0]]
    >>> rg.matmul([[1.0, 2.0]], [[1.0, 2.0]], transpose_b=True).numpy().tolist()
    [[5.0]]
    """
    if output_type is not None:
        a, b = _with_output_type(a, b, output_type)
    a, b = tensor_pair("MatMul", a, b, NUMERIC)
    if transpose_a and adjoint_a or transpose_b and adjoint_b:
        raise ValueError("MatMul: transpose_x and adjoint_x cannot both be True")
    if adjoint_a:
        a, transpose_a = math_ops.conj(a), True
    if adjoint_b:
        b, transpose_b = math_ops.conj(b), True
    sa, sb = plain_dims(a.shape), plain_dims(b.shape)
    if len(sa) < 2 or len(sb) < 2:
        raise InvalidArgumentError(f"MatMul: both inputs need rank >= 2, got shapes {sa} and {sb}")
    inner_a = sa[-2] if transpose_a else sa[-1]
    inner_b = sb[-1] if transpose_b else sb[-2]
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        raise InvalidArgumentError(
            f"MatMul: inner dimensions differ: a{list(sa)} (transpose_a={bool(transpose_a)}) "
            f"gives {inner_a}, b{list(sb)} (transpose_b={bool(transpose_b)}) gives {inner_b}"
        )
    broadcast_dims([sa[:-2], sb[:-2]], "MatMul")
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)}
    return execute(_MatMul, (a, b), attrs, name)


def _with_output_type(a: Any, b: Any, output_type: Any) -> tuple[Tensor, Tensor]:
    """``a`` and ``b`` for a product of ``output_type``: int8/uint8 into int32 computes in
    int32; otherwise the inputs must already be of ``output_type``."""
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    target = dtypes.as_dtype(output_type)
    small = (dtypes.int8, dtypes.uint8)
    if target == dtypes.int32 and x.dtype in small and y.dtype in small:
        return math_ops.cast(x, target), math_ops.cast(y, target)
    if x.dtype != target or y.dtype != target:
        raise NotFoundError(
            f"MatMul: no kernel multiplies {x.dtype.name} by {y.dtype.name} into "
            f"{target.name} (output_type works for int8/uint8 inputs into int32)"
        )
    return x, y


@op_gradient("MatMul")
def _matmul_grad(op, grad):
    t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    a, b = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    # (transpose_a, transpose_b) -> the products giving grad_a and grad_b, each as
    # (x, y, transpose_x, transpose_y): for plain a @ b, grad @ b^T and a^T @ grad.
    products = {
        (False, False): ((grad, b, False, True), (a, grad, True, False)),
        (False, True): ((grad, b, False, False), (grad, a, True, False)),
        (True, False): ((b, grad, False, True), (a, grad, False, False)),
        (True, True): ((b, grad, True, True), (grad, a, True, True)),
    }[(t_a, t_b)]
    skip = op.skip_input_indices
    grads = [
        None if i in skip else matmul(x, y, transpose_a=tx, transpose_b=ty)
        for i, (x, y, tx, ty) in enumerate(products)
    ]
    return broadcast.reduce_to_inputs(op, *grads)


# --- shared argument checks for the matrix ops ------------------------------------------


def matrix_arg(
    op_type: str, x: Any, arg: str = "input", kinds: str = FLOAT_COMPLEX, square: bool = False
) -> Tensor:
    """A batch of matrices (rank >= 2) of an accepted kind. Float/complex kinds mean NumPy's
    LAPACK routines, which cannot take float16: it is refused with a hint to cast."""
    t = tensor_arg(op_type, x, kinds, arg)
    if "f" in kinds and t._value.dtype == np.float16:
        raise TypeError(f"{op_type}: `{arg}` of dtype float16 is not supported; cast it to float32")
    shape = tuple(t._value.shape)
    if len(shape) < 2:
        raise InvalidArgumentError(
            f"{op_type}: `{arg}` must have rank >= 2 (a batch of matrices), got shape {shape}"
        )
    if square and shape[-1] != shape[-2]:
        raise InvalidArgumentError(
            f"{op_type}: `{arg}` must be a batch of square matrices, got shape {shape}"
        )
    return t


# --- matrix-vector products, transposes ---------------------------------------------------


def matvec(
    a: TensorLike,
    b: TensorLike,
    transpose_a: bool = False,
    adjoint_a: bool = False,
    a_is_sparse: bool = False,
    b_is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """The product of matrices ``a`` [..., M, N] and vectors ``b`` [..., N]: [..., M].

    Batch dimensions broadcast; the sparsity hints are accepted and ignored.

    >>> import retrograd as rg
    >>> rg.linalg.matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 1.0]).numpy().tolist()
    [3.0, 7.0]
    """
    a, b = tensor_pair("MatMul", a, b, NUMERIC)
    if b._value.ndim < 1:
        raise InvalidArgumentError(f"matvec: `b` must have rank >= 1, got shape {b._value.shape}")
    column = array_ops.expand_dims(b, -1)
    product = matmul(a, column, transpose_a=transpose_a, adjoint_a=adjoint_a)
    return array_ops.squeeze(product, [-1], name=name)


def matrix_transpose(
    a: TensorLike, name: str = "matrix_transpose", conjugate: bool = False
) -> Tensor:
    """Transposes the last two axes of ``a`` (conjugating them when ``conjugate``).

    >>> import retrograd as rg
    >>> rg.linalg.matrix_transpose([[[1, 2, 3], [4, 5, 6]]]).numpy().tolist()
    [[[1, 4], [2, 5], [3, 6]]]
    """
    x = tensor_arg("Transpose", a, ANY, "a")
    ndim = x._value.ndim
    if ndim < 2:
        raise InvalidArgumentError(
            f"matrix_transpose: `a` must have rank >= 2 (a batch of matrices), got shape "
            f"{plain_dims(x.shape)}"
        )
    perm = (*range(ndim - 2), ndim - 1, ndim - 2)
    return array_ops.transpose(x, perm, conjugate=conjugate, name=name)


def adjoint(matrix: TensorLike, name: str | None = None) -> Tensor:
    """The conjugate transpose of the last two axes (the transpose for real tensors).

    >>> import retrograd as rg
    >>> rg.linalg.adjoint([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    return matrix_transpose(matrix, name=name, conjugate=True)


# --- tensordot ---------------------------------------------------------------------------


def _tensordot_axes(axes: Any, rank_a: int, rank_b: int) -> tuple[list[int], list[int]]:
    """``axes`` (an int N, or a pair of ints or int lists) as two lists of non-negative axes."""
    if isinstance(axes, Tensor):
        axes = np.asarray(constant_value(axes)).tolist()
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError(f"tensordot: `axes` must be at least 0, got {n}")
        if n > rank_a or n > rank_b:
            raise ValueError(
                f"tensordot: `axes`={n} is larger than the rank of a ({rank_a}) or b ({rank_b})"
            )
        return list(range(rank_a - n, rank_a)), list(range(n))
    try:
        pair = list(axes)
    except TypeError:
        raise TypeError(
            f"tensordot: `axes` must be an int or a pair of axis lists, got {axes!r}"
        ) from None
    if len(pair) != 2:
        raise ValueError(f"tensordot: `axes` must be an integer or have length 2, got {axes!r}")
    lists = [[p] if isinstance(p, (int, np.integer)) else list(p) for p in pair]
    if len(lists[0]) != len(lists[1]):
        raise ValueError(
            f"tensordot: different number of contraction axes for a and b, "
            f"{len(lists[0])} != {len(lists[1])}"
        )
    normalized = []
    for which, axes_of, rank in (("a", lists[0], rank_a), ("b", lists[1], rank_b)):
        out = []
        for axis in axes_of:
            axis = int(axis)
            if not -rank <= axis < rank:
                raise ValueError(
                    f"tensordot: axis {axis} is out of range for `{which}` of rank {rank}"
                )
            out.append(axis % rank)
        if len(set(out)) != len(out):
            raise ValueError(f"tensordot: `axes` for `{which}` repeat an axis: {axes_of}")
        normalized.append(out)
    return normalized[0], normalized[1]


def tensordot(
    a: TensorLike, b: TensorLike, axes: AxisLike | Sequence[AxisLike], name: str | None = None
) -> Tensor:
    """Sums the products of ``a`` and ``b`` over the given axes.

    ``axes`` is an int N (the last N axes of ``a`` with the first N of ``b``) or a pair
    ``[a_axes, b_axes]``. The result has ``a``'s free axes, then ``b``'s.

    >>> import retrograd as rg
    >>> rg.tensordot([[1.0, 2.0], [3.0, 4.0]], [1.0, 10.0], 1).numpy().tolist()
    [21.0, 43.0]
    >>> rg.tensordot([1.0, 2.0], [3.0, 4.0], 0).shape
    TensorShape([2, 2])
    """
    a, b = tensor_pair("MatMul", a, b, NUMERIC)
    sa, sb = tuple(a._value.shape), tuple(b._value.shape)
    axes_a, axes_b = _tensordot_axes(axes, len(sa), len(sb))
    for i, j in zip(axes_a, axes_b):
        if sa[i] != sb[j] and sa[i] is not None and sb[j] is not None:
            raise InvalidArgumentError(
                f"tensordot: axis {i} of a (size {sa[i]}) and axis {j} of b (size {sb[j]}) "
                f"differ; shapes {sa} and {sb}"
            )
    free_a = [i for i in range(len(sa)) if i not in axes_a]
    free_b = [j for j in range(len(sb)) if j not in axes_b]
    out_static = tuple(sa[i] for i in free_a) + tuple(sb[j] for j in free_b)
    dynamic = None in sa or None in sb  # (a graph's unknown sizes, read when it runs)
    if dynamic:
        inner = _product(_sizes(a, sa, axes_a))
        left_shape = [_product(_sizes(a, sa, free_a)), inner]
        right_shape = [inner, _product(_sizes(b, sb, free_b))]
        out_shape: Any = _sizes(a, sa, free_a) + _sizes(b, sb, free_b)
    else:
        inner = int(np.prod([sa[i] for i in axes_a], dtype=np.int64))
        left_shape = [int(np.prod([sa[i] for i in free_a], dtype=np.int64)), inner]
        right_shape = [inner, int(np.prod([sb[j] for j in free_b], dtype=np.int64))]
        out_shape = out_static
    left = array_ops.reshape(array_ops.transpose(a, free_a + axes_a), _packed(left_shape))
    right = array_ops.reshape(array_ops.transpose(b, axes_b + free_b), _packed(right_shape))
    result = array_ops.reshape(matmul(left, right), _packed(out_shape), name=name)
    if dynamic:  # (a graph tensor: its static shape, as far as it is known)
        cast(Any, result).set_shape(out_static)
    return result


def _sizes(t: Tensor, static: tuple, axes: list[int]) -> list:
    """The sizes of ``t``'s ``axes``: ints where known, else int32 scalars read at run time."""
    dynamic: Any = array_ops.shape(t) if any(static[i] is None for i in axes) else None
    return [static[i] if static[i] is not None else dynamic[i] for i in axes]


def _product(sizes: list) -> Any:
    total: Any = 1
    for size in sizes:
        total = total * size
    return total


def _packed(sizes: Any) -> Any:
    """A shape of ints as it is; one with run-time sizes as an int32 vector."""
    if all(isinstance(s, (int, np.integer)) for s in sizes):
        return tuple(int(s) for s in sizes)
    return array_ops.stack([convert_to_tensor(s, dtype=dtypes.int32) for s in sizes])


# --- cross product -------------------------------------------------------------------------

_Cross = define_op("Cross", lambda a, b: np.cross(a, b))


def cross(a: TensorLike, b: TensorLike, name: str | None = None) -> Tensor:
    """The cross product of 3-vectors along the last axis (``a`` and ``b`` of one shape).

    >>> import retrograd as rg
    >>> rg.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy().tolist()
    [0.0, 0.0, 1.0]
    """
    a, b = tensor_pair("Cross", a, b, REAL)
    sa, sb = tuple(a._value.shape), tuple(b._value.shape)
    if sa != sb:
        raise InvalidArgumentError(
            f"Cross: both inputs must have the same shape, got {sa} and {sb}"
        )
    if len(sa) < 1 or sa[-1] != 3:
        raise InvalidArgumentError(
            f"Cross: the last dimension must hold 3-element vectors, got shape {sa}"
        )
    return execute(_Cross, (a, b), None, name)


@op_gradient("Cross")
def _cross_grad(op, grad):
    a, b = op.inputs
    return cross(b, grad), cross(grad, a)
