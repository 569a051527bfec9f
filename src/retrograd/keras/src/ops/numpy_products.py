"""``keras.ops`` products and differences (``keras.ops.numpy``): ``matmul``, ``dot``,
``tensordot``, ``einsum``, ``outer``/``inner``/``vdot``/``kron``, ``cross``, ``correlate``,
``diff``, ``trapezoid``, ``corrcoef``, complex views. Integers multiply as floats and come
back in their dtype, as Keras computes them.

>>> from retrograd.keras import ops
>>> ops.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy().tolist()
[[11.0]]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    complex_ops,
    conv_ops,
    einsum_ops,
    join_ops,
    linalg_ops,
    math_ops,
    reduction_ops,
)

__all__ = [
    "matmul",
    "dot",
    "vdot",
    "inner",
    "outer",
    "tensordot",
    "einsum",
    "kron",
    "cross",
    "correlate",
    "diff",
    "trapezoid",
    "corrcoef",
    "polar",
    "view_as_real",
    "view_as_complex",
]


def _computed(x1: Any, x2: Any) -> tuple[Any, Any, str]:
    """The operands cast to their common float type, and the type of the result."""
    a, b = tensors.convert(x1), tensors.convert(x2)
    out = result_type(a.dtype.name, b.dtype.name)
    work = result_type(a.dtype.name, b.dtype.name, float)
    return math_ops.cast(a, work), math_ops.cast(b, work), out


def _matmul(a: Any, b: Any) -> Any:
    if b.shape.rank == 1:
        return linalg_ops.tensordot(a, b, 1)
    if a.shape.rank == 1:
        return linalg_ops.tensordot(a, b, [[0], [b.shape.rank - 2]])
    if b.shape.rank == 2 and a.shape.rank > 2:
        return linalg_ops.tensordot(a, b, [[a.shape.rank - 1], [0]])
    return linalg_ops.matmul(a, b)


def matmul(x1: Any, x2: Any) -> Any:
    """The matrix product (batched over leading axes; 1-D operands are vectors).

    >>> matmul([1.0, 2.0], [[1.0], [1.0]]).numpy().tolist()
    [3.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(matmul, x1, x2)
    a, b, out = _computed(x1, x2)
    return math_ops.cast(_matmul(a, b), out)


def dot(x1: Any, x2: Any) -> Any:
    """NumPy's ``dot``: products of scalars, inner products of vectors, and sums over the
    last axis of ``x1`` and the second-to-last of ``x2``.

    >>> dot([1.0, 2.0], [3.0, 4.0]).numpy()
    np.float32(11.0)
    """
    if any_symbolic(x1, x2):
        return symbolic_call(dot, x1, x2)
    a, b, out = _computed(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        value = a * b
    elif b.shape.rank == 1:
        value = linalg_ops.tensordot(a, b, [[a.shape.rank - 1], [0]])
    else:
        value = linalg_ops.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])
    return math_ops.cast(value, out)


def vdot(x1: Any, x2: Any) -> Any:
    """The dot product of the flattened operands (the first conjugated).

    >>> vdot([[1.0, 2.0]], [3.0, 4.0]).numpy()
    np.float32(11.0)
    """
    if any_symbolic(x1, x2):
        return symbolic_call(vdot, x1, x2)
    a, b, out = _computed(x1, x2)
    flat = [array_ops.reshape(v, [-1]) for v in (math_ops.conj(a), b)]
    return math_ops.cast(linalg_ops.tensordot(flat[0], flat[1], 1), out)


def inner(x1: Any, x2: Any) -> Any:
    """Sums of products over the last axes of both operands.

    >>> inner([1.0, 2.0], [3.0, 4.0]).numpy()
    np.float32(11.0)
    """
    if any_symbolic(x1, x2):
        return symbolic_call(inner, x1, x2)
    a, b, out = _computed(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return math_ops.cast(a * b, out)
    value = linalg_ops.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]])
    return math_ops.cast(value, out)


def outer(x1: Any, x2: Any) -> Any:
    """Every product of an element of ``x1`` with one of ``x2`` (both flattened).

    >>> outer([1, 2], [3, 4]).numpy().tolist()
    [[3, 4], [6, 8]]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(outer, x1, x2)
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype.name, b.dtype.name)
    a, b = math_ops.cast(a, dtype), math_ops.cast(b, dtype)
    return array_ops.reshape(a, [-1, 1]) * array_ops.reshape(b, [-1])


def tensordot(x1: Any, x2: Any, axes: Any = 2) -> Any:
    """Sums of products over ``axes`` (a count, or two lists of axes).

    >>> tensordot([[1.0, 2.0]], [[3.0], [4.0]], axes=1).numpy().tolist()
    [[11.0]]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(tensordot, x1, x2, axes)
    a, b = tensors.convert(x1), tensors.convert(x2)
    out = result_type(a.dtype.name, b.dtype.name)
    kept = ("int32", "int64", "float16", "float32", "float64", "bfloat16", "complex64")
    work = out if out in kept + ("complex128",) else result_type(out, float)
    return linalg_ops.tensordot(math_ops.cast(a, work), math_ops.cast(b, work), axes)


def einsum(subscripts: str, *operands: Any, **kwargs: Any) -> Any:
    """Einstein summation over ``operands`` as ``subscripts`` says.

    >>> einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy().tolist()
    [11.0]
    """
    if any_symbolic(operands):
        return symbolic_call(einsum, subscripts, *operands, **kwargs)
    ts = [tensors.convert(v) for v in operands]
    out = result_type(*(t.dtype.name for t in ts))
    work = out if "int" not in out else "float32"
    value = einsum_ops.einsum(subscripts, *(math_ops.cast(t, work) for t in ts), **kwargs)
    return math_ops.cast(value, out)


def kron(x1: Any, x2: Any) -> Any:
    """The Kronecker product.

    >>> kron([1, 2], [1, 10]).numpy().tolist()
    [1, 10, 2, 20]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(kron, x1, x2)
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype.name, b.dtype.name)
    a, b = math_ops.cast(a, dtype), math_ops.cast(b, dtype)
    rank = max(a.shape.rank, b.shape.rank)
    sa = [1] * (rank - a.shape.rank) + a.shape.as_list()
    sb = [1] * (rank - b.shape.rank) + b.shape.as_list()
    a = array_ops.reshape(a, [d for n in sa for d in (n, 1)])
    b = array_ops.reshape(b, [d for n in sb for d in (1, n)])
    return array_ops.reshape(a * b, [p * q for p, q in zip(sa, sb)])


def _to_last(t: Any, axis: int) -> Any:
    from retrograd.keras.src.ops import numpy_shape

    return numpy_shape.moveaxis(t, axis, -1)


def cross(
    x1: Any, x2: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None
) -> Any:
    """The cross product of 3-vectors (or 2-vectors, whose product is a scalar).

    >>> cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy().tolist()
    [0.0, 0.0, 1.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(cross, x1, x2, axisa, axisb, axisc, axis)
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype.name, b.dtype.name)
    a, b = math_ops.cast(a, dtype), math_ops.cast(b, dtype)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _to_last(a, axisa), _to_last(b, axisb)
    na, nb = a.shape.as_list()[-1], b.shape.as_list()[-1]
    for n in (na, nb):
        if n not in (2, 3):
            raise ValueError(
                "Dimension of vectors for cross product must be 2 or 3. "
                f"Received: x1 dimension {na}, x2 dimension {nb}"
            )
    ua, ub = _parts(a), _parts(b)
    if na == 2 and nb == 2:
        return ua[0] * ub[1] - ua[1] * ub[0]
    zero_a = array_ops.zeros_like(ua[0])
    zero_b = array_ops.zeros_like(ub[0])
    a0, a1, a2 = ua if na == 3 else (*ua, zero_a)
    b0, b1, b2 = ub if nb == 3 else (*ub, zero_b)
    c = join_ops.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    from retrograd.keras.src.ops import numpy_shape

    return numpy_shape.moveaxis(c, -1, axisc)


def _parts(v: Any) -> list[Any]:
    return list(join_ops.unstack(v, axis=-1))


def correlate(x1: Any, x2: Any, mode: str = "valid") -> Any:
    """The cross-correlation of two 1-D tensors (``mode`` 'valid', 'same' or 'full').

    >>> correlate([1.0, 2.0, 3.0], [0.0, 1.0]).numpy().tolist()
    [2.0, 3.0]
    """
    if any_symbolic(x1, x2):
        return symbolic_call(correlate, x1, x2, mode)
    a, b = tensors.convert(x1), tensors.convert(x2)
    dtype = result_type(a.dtype.name, b.dtype.name)
    if dtype == "int64":
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16", "float64"):
        dtype = "float32"
    a, b = math_ops.cast(a, dtype), math_ops.cast(b, dtype)
    n, m = a.shape.as_list()[0], b.shape.as_list()[0]
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"Invalid mode: '{mode}'. Mode must be one of: 'full', 'same', 'valid'.")
    swapped = m > n
    if swapped:
        a, b, n, m = b, a, m, n
    if mode == "full":
        pads = (m - 1, m - 1)
    elif mode == "same":
        pads = (m // 2, m - 1 - m // 2)
    else:
        pads = (0, 0)
    from retrograd.ops import pad_ops

    signal = array_ops.reshape(pad_ops.pad(a, [list(pads)]), [1, -1, 1])
    kernel = array_ops.reshape(b, [-1, 1, 1])
    out = array_ops.reshape(conv_ops.conv1d(signal, kernel, 1, "VALID"), [-1])
    if swapped:
        from retrograd.ops import rearrange_ops

        out = rearrange_ops.reverse(out, [0])
    return out


def diff(a: Any, n: int = 1, axis: int = -1) -> Any:
    """The ``n``-th discrete difference along ``axis``.

    >>> diff([1, 4, 9]).numpy().tolist()
    [3, 5]
    """
    if any_symbolic(a):
        return symbolic_call(diff, a, n, axis)
    t = tensors.convert(a)
    if n < 0:
        raise ValueError(f"Order `n` must be non-negative. Received n={n}")
    if n and t.shape.rank == 0:
        raise ValueError("`diff` requires input that is at least one dimensional.")
    for _ in range(n):
        rank = t.shape.rank
        axis_ = axis % rank
        head = tuple(slice(1, None) if i == axis_ else slice(None) for i in range(rank))
        tail = tuple(slice(None, -1) if i == axis_ else slice(None) for i in range(rank))
        t = comparison_ops.not_equal(t[head], t[tail]) if t.dtype.is_bool else t[head] - t[tail]
    return t


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Any:
    """The integral of ``y`` by the trapezoidal rule (samples at ``x``, or spaced ``dx``).

    >>> trapezoid([1.0, 2.0, 3.0]).numpy()
    np.float32(4.0)
    """
    if any_symbolic(y, x):
        return symbolic_call(trapezoid, y, x, dx, axis)
    t = tensors.float_input(y)
    rank = t.shape.rank
    axis_ = axis % rank
    head = tuple(slice(1, None) if i == axis_ else slice(None) for i in range(rank))
    tail = tuple(slice(None, -1) if i == axis_ else slice(None) for i in range(rank))
    if x is None:
        spacing = tensors.convert(dx, t.dtype)
    else:
        spacing = diff(math_ops.cast(tensors.convert(x), t.dtype), 1, axis)
    total = (t[head] + t[tail]) * spacing / tensors.convert(2.0, t.dtype)
    return reduction_ops.reduce_sum(total, axis_)


def corrcoef(x: Any) -> Any:
    """The correlation coefficients of the rows of ``x`` (variables in rows).

    >>> [round(v, 4) for v in corrcoef([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]]).numpy()[0].tolist()]
    [1.0, 0.9934]
    """
    if any_symbolic(x):
        return symbolic_call(corrcoef, x)
    t = tensors.convert(x)
    if t.dtype.is_integer or t.dtype.is_bool:
        t = math_ops.cast(t, "float32")
    if t.shape.rank == 1:
        t = array_ops.expand_dims(t, 0)
    centred = t - reduction_ops.reduce_mean(t, axis=-1, keepdims=True)
    count = tensors.convert(t.shape.as_list()[-1] - 1, t.dtype)
    cov = linalg_ops.matmul(centred, math_ops.conj(centred), transpose_b=True) / count
    stddev = math_ops.sqrt(complex_ops.real(array_ops.reshape(_diagonal(cov), [-1])))
    if t.dtype.is_complex:
        stddev = math_ops.cast(stddev, t.dtype)
    out = cov / array_ops.reshape(stddev, [-1, 1]) / array_ops.reshape(stddev, [1, -1])
    return out if t.dtype.is_complex else math_ops.maximum(math_ops.minimum(out, 1.0), -1.0)


def _diagonal(m: Any) -> Any:
    from retrograd.ops import matrix_diag_ops

    return matrix_diag_ops.diag_part(m)


def polar(abs_: Any, angle: Any) -> Any:
    """The complex numbers of magnitude ``abs_`` and argument ``angle``.

    >>> polar([2.0], [0.0]).numpy().tolist()
    [(2+0j)]
    """
    if any_symbolic(abs_, angle):
        return symbolic_call(polar, abs_, angle)
    r, theta = tensors.float_input(abs_), tensors.float_input(angle)
    return complex_ops.complex(r * math_ops.cos(theta), r * math_ops.sin(theta))


def view_as_real(x: Any) -> Any:
    """A complex tensor as real pairs on a new last axis.

    >>> view_as_real([1 + 2j]).numpy().tolist()
    [[1.0, 2.0]]
    """
    if any_symbolic(x):
        return symbolic_call(view_as_real, x)
    t = tensors.convert(x)
    return join_ops.stack([complex_ops.real(t), complex_ops.imag(t)], axis=-1)


def view_as_complex(x: Any) -> Any:
    """Real pairs on the last axis (of size 2) as complex numbers.

    >>> view_as_complex([[1.0, 2.0]]).numpy().tolist()
    [(1+2j)]
    """
    if any_symbolic(x):
        return symbolic_call(view_as_complex, x)
    t = tensors.convert(x)
    if t.shape.as_list()[-1] != 2:
        raise ValueError(
            "Last dimension of input must be size 2 (real and imaginary). Received shape: "
            f"{tuple(t.shape.as_list())}"
        )
    parts = join_ops.unstack(t, axis=-1)
    return complex_ops.complex(parts[0], parts[1])
