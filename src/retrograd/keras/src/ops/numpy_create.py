"""``keras.ops`` functions that make tensors (``keras.ops.numpy``): ranges and grids,
filled tensors, identity and triangular matrices, diagonals, window functions. New float
tensors are ``floatx`` (float32) unless a dtype is given.

>>> from retrograd.keras import ops
>>> ops.arange(3).numpy().tolist(), ops.eye(2, k=1).numpy().tolist()
([0, 1, 2], [[0.0, 1.0], [0.0, 0.0]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type, standardize_dtype
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    broadcast,
    creation_ops,
    math_ops,
    matrix_diag_ops,
    reduction_ops,
    rounding_ops,
)

__all__ = [
    "arange",
    "array",
    "copy",
    "empty",
    "empty_like",
    "zeros",
    "zeros_like",
    "ones",
    "ones_like",
    "full",
    "full_like",
    "eye",
    "identity",
    "tri",
    "tril",
    "triu",
    "diag",
    "diagflat",
    "diagonal",
    "trace",
    "linspace",
    "logspace",
    "geomspace",
    "meshgrid",
    "vander",
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
    "size",
    "ndim",
]


def _shape(shape: Any) -> list[int]:
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(d) for d in shape]


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Any:
    """Evenly spaced values in ``[start, stop)`` (``[0, start)`` with one argument).

    >>> arange(1, 2, 0.25).numpy().tolist()
    [1.0, 1.25, 1.5, 1.75]
    """
    if dtype is None:
        found = [tensors.dtype_of(v) for v in (start, stop, step) if v is not None]
        dtype = result_type(*found)
    dtype = standardize_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = [
        tensors.convert(v).numpy().item() if tensors.is_tensor(v) else v
        for v in (start, stop, step)
    ]
    return tensors.convert(np.arange(*values, dtype=np.dtype(dtype)), dtype)


def array(x: Any, dtype: Any = None) -> Any:
    """``x`` as a tensor (of ``dtype`` when given).

    >>> array([1, 2], dtype="float32").numpy().tolist()
    [1.0, 2.0]
    """
    if any_symbolic(x):
        return symbolic_call(array, x, dtype)
    return tensors.convert(x, dtype)


def copy(x: Any) -> Any:
    """A copy of ``x``.

    >>> copy([1.0]).numpy().tolist()
    [1.0]
    """
    if any_symbolic(x):
        return symbolic_call(copy, x)
    return array_ops.identity(tensors.convert(x))


def zeros(shape: Any, dtype: Any = None) -> Any:
    """Zeros of ``shape`` (``floatx`` by default).

    >>> zeros((2,)).numpy().tolist()
    [0.0, 0.0]
    """
    return array_ops.zeros(_shape(shape), dtype=standardize_dtype(dtype))


def empty(shape: Any, dtype: Any = None) -> Any:
    """A tensor of ``shape`` (zeros).

    >>> empty((1,)).numpy().tolist()
    [0.0]
    """
    return zeros(shape, dtype)


def ones(shape: Any, dtype: Any = None) -> Any:
    """Ones of ``shape`` (``floatx`` by default).

    >>> ones((2,), dtype="int32").numpy().tolist()
    [1, 1]
    """
    return array_ops.ones(_shape(shape), dtype=standardize_dtype(dtype))


def _like(fn: Any, x: Any, dtype: Any, value: Any) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, dtype) if value is None else symbolic_call(fn, x, value, dtype)
    t = tensors.convert(x)
    target = t.dtype.name if dtype is None else standardize_dtype(dtype)
    return broadcast.broadcast_to(tensors.convert(value, target), array_ops.shape(t))


def zeros_like(x: Any, dtype: Any = None) -> Any:
    """Zeros shaped like ``x`` (of its dtype unless ``dtype`` is given).

    >>> zeros_like([1, 2]).numpy().tolist()
    [0, 0]
    """
    if any_symbolic(x):
        return symbolic_call(zeros_like, x, dtype)
    return _like(zeros_like, x, dtype, 0)


def empty_like(x: Any, dtype: Any = None) -> Any:
    """A tensor shaped like ``x`` (zeros).

    >>> empty_like([1.0]).numpy().tolist()
    [0.0]
    """
    if any_symbolic(x):
        return symbolic_call(empty_like, x, dtype)
    return _like(empty_like, x, dtype, 0)


def ones_like(x: Any, dtype: Any = None) -> Any:
    """Ones shaped like ``x``.

    >>> ones_like([5, 6]).numpy().tolist()
    [1, 1]
    """
    if any_symbolic(x):
        return symbolic_call(ones_like, x, dtype)
    return _like(ones_like, x, dtype, 1)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Any:
    """``fill_value`` broadcast to ``shape`` (``floatx`` by default).

    >>> full((2,), 7).numpy().tolist()
    [7.0, 7.0]
    """
    if any_symbolic(fill_value):
        return symbolic_call(full, shape, fill_value, dtype)
    value = tensors.convert(fill_value, standardize_dtype(dtype))
    return broadcast.broadcast_to(value, _shape(shape))


def full_like(x: Any, fill_value: Any, dtype: Any = None) -> Any:
    """``fill_value`` broadcast to the shape of ``x`` (of its dtype by default).

    >>> full_like([1, 2], 5).numpy().tolist()
    [5, 5]
    """
    if any_symbolic(x, fill_value):
        return symbolic_call(full_like, x, fill_value, dtype)
    return _like(full_like, x, dtype, fill_value)


def eye(N: int, M: Any = None, k: int = 0, dtype: Any = None) -> Any:  # noqa: N803
    """An ``N x M`` matrix with ones on the ``k``-th diagonal.

    >>> eye(2).numpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    dtype = standardize_dtype(dtype)
    M = N if M is None else M  # noqa: N806
    return tensors.convert(np.eye(int(N), int(M), int(k)), dtype)


def identity(n: int, dtype: Any = None) -> Any:
    """The ``n x n`` identity matrix.

    >>> identity(2, dtype="int32").numpy().tolist()
    [[1, 0], [0, 1]]
    """
    return eye(n, n, 0, dtype)


def tri(N: int, M: Any = None, k: int = 0, dtype: Any = None) -> Any:  # noqa: N803
    """Ones at and below the ``k``-th diagonal of an ``N x M`` matrix.

    >>> tri(2).numpy().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    M = N if M is None else M  # noqa: N806
    return tensors.convert(np.tri(int(N), int(M), int(k)), standardize_dtype(dtype))


def _triangle(fn: Any, x: Any, k: int, lower: bool) -> Any:
    if any_symbolic(x):
        return symbolic_call(fn, x, k)
    t = tensors.convert(x)
    rows, cols = t.shape.as_list()[-2:]
    mask = np.tri(rows, cols, int(k), dtype=bool)
    if not lower:
        mask = ~np.tri(rows, cols, int(k) - 1, dtype=bool)
    return array_ops.where(tensors.convert(mask), t, array_ops.zeros_like(t))


def tril(x: Any, k: int = 0) -> Any:
    """``x`` with the elements above the ``k``-th diagonal zeroed.

    >>> tril([[1, 2], [3, 4]]).numpy().tolist()
    [[1, 0], [3, 4]]
    """
    return _triangle(tril, x, k, True)


def triu(x: Any, k: int = 0) -> Any:
    """``x`` with the elements below the ``k``-th diagonal zeroed.

    >>> triu([[1, 2], [3, 4]]).numpy().tolist()
    [[1, 2], [0, 4]]
    """
    return _triangle(triu, x, k, False)


def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """The diagonal ``offset`` of the planes of axes ``axis1`` and ``axis2`` (last axis).

    >>> diagonal([[1, 2], [3, 4]]).numpy().tolist()
    [1, 4]
    """
    if any_symbolic(x):
        return symbolic_call(diagonal, x, offset, axis1, axis2)
    from retrograd.keras.src.ops import numpy_shape

    t = numpy_shape.moveaxis(tensors.convert(x), (axis1, axis2), (-2, -1))
    rows, cols = t.shape.as_list()[-2:]
    if offset <= -rows or offset >= cols:
        return array_ops.zeros(t.shape.as_list()[:-2] + [0], dtype=t.dtype)
    return matrix_diag_ops.diag_part(t, k=int(offset))


def diag(x: Any, k: int = 0) -> Any:
    """A 1-D ``x`` as the ``k``-th diagonal of a matrix; a 2-D ``x``'s ``k``-th diagonal.

    >>> diag([1, 2]).numpy().tolist()
    [[1, 0], [0, 2]]
    """
    if any_symbolic(x):
        return symbolic_call(diag, x, k)
    t = tensors.convert(x)
    if t.shape.rank == 1:
        return matrix_diag_ops.diag(t, k=int(k))
    if t.shape.rank == 2:
        return diagonal(t, offset=k)
    raise ValueError(f"`x` must be 1d or 2d. Received: x.shape={tuple(t.shape.as_list())}")


def diagflat(x: Any, k: int = 0) -> Any:
    """``x`` flattened, as the ``k``-th diagonal of a matrix.

    >>> diagflat([[1, 2]]).numpy().tolist()
    [[1, 0], [0, 2]]
    """
    if any_symbolic(x):
        return symbolic_call(diagflat, x, k)
    return matrix_diag_ops.diag(array_ops.reshape(tensors.convert(x), [-1]), k=int(k))


def trace(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """The sum of the diagonal ``offset`` in the planes of ``axis1`` and ``axis2``.

    >>> trace([[1, 2], [3, 4]]).numpy()
    np.int32(5)
    """
    if any_symbolic(x):
        return symbolic_call(trace, x, offset, axis1, axis2)
    t = tensors.convert(x)
    wider = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32"}
    t = tensors.convert(
        t, wider.get(t.dtype.name, "uint32" if t.dtype.name == "uint16" else t.dtype.name)
    )
    from retrograd.keras.src.ops import numpy_shape

    t = numpy_shape.moveaxis(t, (axis1, axis2), (-2, -1))
    rows, cols = t.shape.as_list()[-2:]
    mask = tensors.convert(np.eye(rows, cols, int(offset), dtype=bool))
    return reduction_ops.reduce_sum(array_ops.where(mask, t, array_ops.zeros_like(t)), [-2, -1])


def linspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (included with
    ``endpoint``); with ``retstep`` also the spacing.

    >>> linspace(0, 1, 5).numpy().tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if any_symbolic(start, stop):
        return symbolic_call(linspace, start, stop, num, endpoint, retstep, dtype, axis)
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    if dtype is None:
        dtype = result_type(tensors.dtype_of(start), tensors.dtype_of(stop), float)
    dtype = standardize_dtype(dtype)
    work = dtype if "float" in dtype else backend.floatx()
    a, b = tensors.convert(start, work), tensors.convert(stop, work)
    divisions = (num - 1) if endpoint else num
    step = (b - a) / tensors.convert(max(divisions, 1), work)
    if divisions < 1:
        step = step * tensors.convert(np.nan, work)
    if endpoint or num <= 1:
        result = creation_ops.linspace(a, b, num, axis=axis)
    else:
        result = creation_ops.linspace(a, b - step, num, axis=axis)
    if "int" in dtype:
        result = rounding_ops.floor(result)
    result = math_ops.cast(result, dtype)
    return (result, step) if retstep else result


def logspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    base: float = 10,
    dtype: Any = None,
    axis: int = 0,
) -> Any:
    """``base ** linspace(start, stop, num)``.

    >>> logspace(0, 2, 3).numpy().tolist()
    [1.0, 10.0, 100.0]
    """
    if any_symbolic(start, stop):
        return symbolic_call(logspace, start, stop, num, endpoint, base, dtype, axis)
    exponents = linspace(start, stop, num, endpoint, dtype=dtype, axis=axis)
    return math_ops.pow(tensors.convert(base, exponents.dtype), exponents)


def geomspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0
) -> Any:
    """``num`` values from ``start`` to ``stop`` evenly spaced on a log scale.

    >>> [round(v, 4) for v in geomspace(1, 100, 3).numpy().tolist()]
    [1.0, 10.0, 100.0]
    """
    if any_symbolic(start, stop):
        return symbolic_call(geomspace, start, stop, num, endpoint, dtype, axis)
    work = standardize_dtype(dtype)
    a, b = tensors.convert(start), tensors.convert(stop)
    log_a = math_ops.log(math_ops.cast(math_ops.abs(a), work))
    log_b = math_ops.log(math_ops.cast(math_ops.abs(b), work))
    ten = math_ops.log(tensors.convert(10.0, work))
    result = logspace(log_a / ten, log_b / ten, num, endpoint, 10, dtype, axis)
    return result * math_ops.cast(math_ops.sign(math_ops.cast(a, work)), result.dtype)


def meshgrid(*x: Any, indexing: str = "xy") -> Any:
    """Coordinate grids from 1-D tensors (``indexing`` 'xy' or 'ij').

    >>> [g.numpy().tolist() for g in meshgrid([1, 2], [3])]
    [[[1, 2]], [[3, 3]]]
    """
    if any_symbolic(x):
        return symbolic_call(meshgrid, *x, indexing=indexing)
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij'. Received: {indexing}")
    return creation_ops.meshgrid(*(tensors.convert(v) for v in x), indexing=indexing)


def vander(x: Any, N: Any = None, increasing: bool = False) -> Any:  # noqa: N803
    """The Vandermonde matrix of a 1-D ``x``: columns are powers of ``x``.

    >>> vander([2, 3], 3).numpy().tolist()
    [[4, 2, 1], [9, 3, 1]]
    """
    if any_symbolic(x):
        return symbolic_call(vander, x, N, increasing)
    t = tensors.convert(x)
    count = t.shape.as_list()[0] if N is None else int(N)
    powers = np.arange(count) if increasing else np.arange(count - 1, -1, -1)
    work = result_type(t.dtype.name, "float32")
    out = math_ops.pow(
        array_ops.expand_dims(math_ops.cast(t, work), -1), tensors.convert(powers, work)
    )
    return math_ops.cast(out, t.dtype)


def _window(values: np.ndarray) -> Any:
    return tensors.convert(values, backend.floatx())


def _length(x: Any) -> int:
    return int(tensors.convert(x).numpy()) if tensors.is_tensor(x) else int(x)


def bartlett(x: Any) -> Any:
    """The Bartlett (triangular) window of ``x`` points.

    >>> bartlett(3).numpy().tolist()
    [0.0, 1.0, 0.0]
    """
    return _window(np.bartlett(_length(x)))


def blackman(x: Any) -> Any:
    """The Blackman window of ``x`` points.

    >>> [round(v, 4) for v in blackman(3).numpy().tolist()]
    [-0.0, 1.0, -0.0]
    """
    return _window(np.blackman(_length(x)))


def hamming(x: Any) -> Any:
    """The Hamming window of ``x`` points.

    >>> [round(v, 4) for v in hamming(3).numpy().tolist()]
    [0.08, 1.0, 0.08]
    """
    return _window(np.hamming(_length(x)))


def hanning(x: Any) -> Any:
    """The Hann window of ``x`` points.

    >>> hanning(3).numpy().tolist()
    [0.0, 1.0, 0.0]
    """
    return _window(np.hanning(_length(x)))


def kaiser(x: Any, beta: float) -> Any:
    """The Kaiser window of ``x`` points and shape ``beta``.

    >>> [round(v, 4) for v in kaiser(3, 0.0).numpy().tolist()]
    [1.0, 1.0, 1.0]
    """
    return _window(np.kaiser(_length(x), float(beta)))


def size(x: Any) -> Any:
    """The number of elements of ``x`` (an int32 tensor).

    >>> size([[1, 2, 3]]).numpy()
    np.int32(3)
    """
    if any_symbolic(x):
        return symbolic_call(size, x)
    return array_ops.size(tensors.convert(x))


def ndim(x: Any) -> Any:
    """The rank of ``x``.

    >>> ndim([[1, 2]])
    2
    """
    if any_symbolic(x):
        return len(x.shape)
    return tensors.convert(x).shape.rank
