"""Matrix multiplication, batched over leading dimensions that broadcast.

>>> import retrograd as rg
>>> a = rg.constant([[1.0, 2.0], [3.0, 4.0]])
>>> b = rg.constant([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
>>> rg.matmul(a, b).numpy().tolist()
[[24.0, 27.0, 30.0], [54.0, 61.0, 68.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.errors import InvalidArgumentError
from retrograd.execute import define_op, execute
from retrograd.ops import broadcast, math_ops
from retrograd.ops.define import NUMERIC, tensor_pair
from retrograd.registry import RegisterGradient, mark_batchable
from retrograd.tensor import Tensor


def _matmul_kernel(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


_MatMul = define_op("MatMul", _matmul_kernel)


def matmul(
    a: Any,
    b: Any,
    transpose_a: bool = False,
    transpose_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
    name: str | None = None,
) -> Tensor:
    """The matrix product of ``a`` and ``b`` (rank >= 2; leading batch dimensions broadcast).

    ``adjoint_*`` conjugates and transposes (the same as ``transpose_*`` for real tensors).
    """
    a, b = tensor_pair("MatMul", a, b, NUMERIC)
    if transpose_a and adjoint_a or transpose_b and adjoint_b:
        raise ValueError("MatMul: transpose_x and adjoint_x cannot both be True")
    if adjoint_a:
        a, transpose_a = math_ops.conj(a), True
    if adjoint_b:
        b, transpose_b = math_ops.conj(b), True
    sa, sb = tuple(a.shape), tuple(b.shape)
    if len(sa) < 2 or len(sb) < 2:
        raise InvalidArgumentError(f"MatMul: both inputs need rank >= 2, got shapes {sa} and {sb}")
    inner_a = sa[-2] if transpose_a else sa[-1]
    inner_b = sb[-1] if transpose_b else sb[-2]
    if inner_a != inner_b:
        raise InvalidArgumentError(
            f"MatMul: inner dimensions differ: a{list(sa)} (transpose_a={bool(transpose_a)}) "
            f"gives {inner_a}, b{list(sb)} (transpose_b={bool(transpose_b)}) gives {inner_b}"
        )
    broadcast.broadcast_shapes(sa[:-2], sb[:-2], "MatMul")
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)}
    return execute(_MatMul, (a, b), attrs, name)


@RegisterGradient("MatMul")
def _matmul_grad(op, grad):
    t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    a, b = math_ops.conj(op.inputs[0]), math_ops.conj(op.inputs[1])
    if not t_a and not t_b:
        grad_a = matmul(grad, b, transpose_b=True)
        grad_b = matmul(a, grad, transpose_a=True)
    elif not t_a and t_b:
        grad_a = matmul(grad, b)
        grad_b = matmul(grad, a, transpose_a=True)
    elif t_a and not t_b:
        grad_a = matmul(b, grad, transpose_b=True)
        grad_b = matmul(a, grad)
    else:
        grad_a = matmul(b, grad, transpose_a=True, transpose_b=True)
        grad_b = matmul(grad, a, transpose_a=True, transpose_b=True)
    return broadcast.reduce_to_inputs(op, grad_a, grad_b)


mark_batchable("MatMul")  # leading batch axes of grad broadcast through matmul
