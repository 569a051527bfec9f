"""Diagonals and bands of batched matrices: diag, diag_part, set_diag (TensorFlow's V3 ops,
with a band of diagonals ``k`` and its alignment), band_part, trace and eye.

A band ``k = (lo, hi)`` names diagonals by offset (0 the main one, > 0 above it, < 0
below). ``diag_part`` stacks them from ``hi`` down to ``lo``, each padded to the longest
one; ``align`` says on which side a superdiagonal (first word) and a subdiagonal (second
word) sit when it is shorter; the main diagonal counts as both.

>>> import retrograd as rg
>>> x = rg.constant([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
>>> rg.linalg.diag_part(x, k=(-1, 1)).numpy().tolist()
[[0.0, 1.0, 5.0], [0.0, 4.0, 8.0], [3.0, 7.0, 0.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.backends import current_namespace, namespace_of, on_device_of
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, constant_value
from retrograd.ops import array_ops, broadcast, reduction_ops
from retrograd.ops.define import ANY, NUMERIC, tensor_arg, tensor_pair
from retrograd.ops.index_args import static_int

_ALIGNMENTS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(op_type: str, k: Any) -> tuple[int, int]:
    """``k`` (an int, or a pair lo <= hi) as the pair (lo, hi)."""
    if isinstance(k, Tensor):
        k = np.asarray(constant_value(k)).tolist()
    if isinstance(k, (int, np.integer)):
        return int(k), int(k)
    try:
        lo, hi = (int(v) for v in k)
    except (TypeError, ValueError):
        raise ValueError(f"{op_type}: `k` must be an int or a pair of ints, got {k!r}") from None
    if lo > hi:
        raise InvalidArgumentError(f"{op_type}: k[0] must not be larger than k[1], got k={k!r}")
    return lo, hi


def _check_align(op_type: str, align: str) -> str:
    if align not in _ALIGNMENTS:
        raise ValueError(f"{op_type}: `align` must be one of {list(_ALIGNMENTS)}, got {align!r}")
    return align


def _diag_len(rows: int, cols: int, d: int) -> int:
    return max(0, min(rows + min(d, 0), cols - max(d, 0)))


def _max_diag_len(rows: int, cols: int, k: tuple[int, int]) -> int:
    return min(rows + min(k[1], 0), cols + min(-k[0], 0))


def _band_positions(rows: int, cols: int, k: tuple[int, int], align: str, width: int):
    """Where the band's elements live: (matrix row, matrix col, diagonal index, position)."""
    right_super = align in ("RIGHT_LEFT", "RIGHT_RIGHT")
    right_sub = align in ("LEFT_RIGHT", "RIGHT_RIGHT")
    parts = [[], [], [], []]
    for index, d in enumerate(range(k[1], k[0] - 1, -1)):
        length = _diag_len(rows, cols, d)
        right = (d >= 0 and right_super) or (d <= 0 and right_sub)
        offset = width - length if right else 0
        p = np.arange(length)
        for part, values in zip(parts, (p + max(-d, 0), p + max(d, 0), index, p + offset)):
            part.append(np.broadcast_to(values, (length,)))
    return tuple(np.concatenate(part).astype(np.intp) for part in parts)


def _diag_part_kernel(x, k, padding_value, align):
    rows, cols = x.shape[-2:]
    width = max(_max_diag_len(rows, cols, k), 0)
    r, c, i, p = (on_device_of(a, x) for a in _band_positions(rows, cols, k, align, width))
    out = np.full_like(x, padding_value, shape=(*x.shape[:-2], k[1] - k[0] + 1, width))
    out[..., i, p] = x[..., r, c]
    return out[..., 0, :] if k[0] == k[1] else out


def _diag_kernel(diagonal, k, num_rows, num_cols, padding_value, align):
    if k[0] == k[1]:
        diagonal = diagonal[..., None, :]
    r, c, i, p = (
        on_device_of(a, diagonal)
        for a in _band_positions(num_rows, num_cols, k, align, diagonal.shape[-1])
    )
    out = np.full_like(diagonal, padding_value, shape=(*diagonal.shape[:-2], num_rows, num_cols))
    out[..., r, c] = diagonal[..., i, p]
    return out


def _set_diag_kernel(x, diagonal, k, align):
    if k[0] == k[1]:
        diagonal = diagonal[..., None, :]
    r, c, i, p = (
        on_device_of(a, x) for a in _band_positions(*x.shape[-2:], k, align, diagonal.shape[-1])
    )
    out = x.copy()
    out[..., r, c] = diagonal[..., i, p]
    return out


_MatrixDiagPartV3 = define_op("MatrixDiagPartV3", _diag_part_kernel)
_MatrixDiagV3 = define_op("MatrixDiagV3", _diag_kernel)
_MatrixSetDiagV3 = define_op("MatrixSetDiagV3", _set_diag_kernel)


def _padding(op_type: str, padding_value: Any, dtype: Any) -> Any:
    value = (
        constant_value(padding_value)[()] if isinstance(padding_value, Tensor) else padding_value
    )
    if np.ndim(value) != 0:
        raise InvalidArgumentError(f"{op_type}: `padding_value` must be a scalar, got {value!r}")
    return np.asarray(value).astype(dtype.as_numpy_dtype).item()


def _rank_at_least(op_type: str, x: Tensor, arg: str, rank: int) -> None:
    if x._value.ndim < rank:
        raise InvalidArgumentError(
            f"{op_type}: `{arg}` must have rank >= {rank}, got shape {plain_dims(x.shape)}"
        )


def diag_part(
    input: TensorLike,
    name: str = "diag_part",
    k: TensorLike = 0,
    padding_value: TensorLike = 0,
    align: str = "RIGHT_LEFT",
) -> Tensor:
    """The diagonal ``k`` (or band of diagonals) of each matrix in ``input`` [..., M, N].

    >>> import retrograd as rg
    >>> rg.linalg.diag_part([[1.0, 2.0], [3.0, 4.0]]).numpy().tolist()
    [1.0, 4.0]
    """
    x = tensor_arg("MatrixDiagPartV3", input, ANY, "input")
    _rank_at_least("MatrixDiagPartV3", x, "input", 2)
    band = _band("MatrixDiagPartV3", k)
    rows, cols = x._value.shape[-2:]
    for d in band:
        if (rows or cols) and not -rows < d < cols:
            raise InvalidArgumentError(
                f"MatrixDiagPartV3: diagonal {d} is outside a {rows}x{cols} matrix"
            )
    attrs = {
        "k": band,
        "padding_value": _padding("MatrixDiagPartV3", padding_value, x.dtype),
        "align": _check_align("MatrixDiagPartV3", align),
    }
    return execute(_MatrixDiagPartV3, (x,), attrs, name)


def _diag_width(op_type: str, diagonal: Tensor, band: tuple[int, int]) -> int:
    """Checks that ``diagonal`` holds as many diagonals as the band has; returns their length."""
    shape = tuple(diagonal._value.shape)
    if band[0] != band[1]:
        _rank_at_least(op_type, diagonal, "diagonal", 2)
        if shape[-2] != band[1] - band[0] + 1:
            raise InvalidArgumentError(
                f"{op_type}: k={band} names {band[1] - band[0] + 1} diagonals but `diagonal` of "
                f"shape {shape} holds {shape[-2]}"
            )
    else:
        _rank_at_least(op_type, diagonal, "diagonal", 1)
    return shape[-1]


def diag(
    diagonal: TensorLike,
    name: str = "diag",
    k: TensorLike = 0,
    num_rows: int = -1,
    num_cols: int = -1,
    padding_value: TensorLike = 0,
    align: str = "RIGHT_LEFT",
) -> Tensor:
    """Matrices with ``diagonal`` on diagonal(s) ``k`` and ``padding_value`` elsewhere.

    Without ``num_rows``/``num_cols`` the matrices are the smallest square ones that fit.

    >>> import retrograd as rg
    >>> rg.linalg.diag([1.0, 2.0]).numpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    d = tensor_arg("MatrixDiagV3", diagonal, ANY, "diagonal")
    band = _band("MatrixDiagV3", k)
    width = _diag_width("MatrixDiagV3", d, band)
    min_rows, min_cols = width - min(band[1], 0), width + max(band[0], 0)
    num_rows, num_cols = int(num_rows), int(num_cols)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if (
        num_rows < min_rows
        or num_cols < min_cols
        or (num_rows != min_rows and num_cols != min_cols)
    ):
        raise InvalidArgumentError(
            f"MatrixDiagV3: diagonals of length {width} in band k={band} do not fit "
            f"num_rows={num_rows}, num_cols={num_cols} (needs num_rows == {min_rows} or "
            f"num_cols == {min_cols}, and neither smaller)"
        )
    attrs = {
        "k": band,
        "num_rows": num_rows,
        "num_cols": num_cols,
        "padding_value": _padding("MatrixDiagV3", padding_value, d.dtype),
        "align": _check_align("MatrixDiagV3", align),
    }
    return execute(_MatrixDiagV3, (d,), attrs, name)


def set_diag(
    input: TensorLike,
    diagonal: TensorLike,
    name: str = "set_diag",
    k: TensorLike = 0,
    align: str = "RIGHT_LEFT",
) -> Tensor:
    """``input`` with diagonal(s) ``k`` replaced by ``diagonal``.

    >>> import retrograd as rg
    >>> rg.linalg.set_diag(rg.zeros([2, 2]), [1.0, 2.0]).numpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    x, d = tensor_pair("MatrixSetDiagV3", input, diagonal, ANY)
    _rank_at_least("MatrixSetDiagV3", x, "input", 2)
    band = _band("MatrixSetDiagV3", k)
    rows, cols = x._value.shape[-2:]
    width = max(_max_diag_len(rows, cols, band), 0)
    expected = (*x._value.shape[:-2], *(() if band[0] == band[1] else (band[1] - band[0] + 1,)))
    if tuple(d._value.shape) != (*expected, width):
        raise InvalidArgumentError(
            f"MatrixSetDiagV3: `diagonal` must have shape {(*expected, width)} for `input` of "
            f"shape {plain_dims(x.shape)} and k={band}, got {plain_dims(d.shape)}"
        )
    attrs = {"k": band, "align": _check_align("MatrixSetDiagV3", align)}
    return execute(_MatrixSetDiagV3, (x, d), attrs, name)


@op_gradient("MatrixDiagPartV3")
def _diag_part_grad(op, grad):
    rows, cols = plain_dims(op.inputs[0].shape)[-2:]
    return diag(grad, k=op.get_attr("k"), num_rows=rows, num_cols=cols, align=op.get_attr("align"))


@op_gradient("MatrixDiagV3")
def _diag_grad(op, grad):
    return diag_part(grad, k=op.get_attr("k"), align=op.get_attr("align"))


@op_gradient("MatrixSetDiagV3")
def _set_diag_grad(op, grad):
    k, align = op.get_attr("k"), op.get_attr("align")
    cleared = set_diag(grad, array_ops.zeros_like(op.inputs[1]), k=k, align=align)
    return cleared, diag_part(grad, k=k, align=align)


# --- bands, traces, identities ----------------------------------------------------------------


def _band_part_kernel(x, num_lower, num_upper):
    rows, cols = x.shape[-2:]
    xp = namespace_of(x)
    offset = xp.arange(cols)[None, :] - xp.arange(rows)[:, None]  # col - row
    keep = xp.ones((rows, cols), bool)
    if num_lower >= 0:
        keep &= offset >= -num_lower
    if num_upper >= 0:
        keep &= offset <= num_upper
    return np.where(keep, x, x.dtype.type(0))


_MatrixBandPart = define_op("MatrixBandPart", _band_part_kernel)


def band_part(
    input: TensorLike, num_lower: TensorLike, num_upper: TensorLike, name: str | None = None
) -> Tensor:
    """Keeps ``num_lower`` subdiagonals and ``num_upper`` superdiagonals (negative: all of
    them) of each matrix and zeros the rest; ``band_part(x, -1, 0)`` is the lower triangle.

    >>> import retrograd as rg
    >>> rg.linalg.band_part(rg.ones([3, 3]), 0, 1).numpy().tolist()
    [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
    """
    x = tensor_arg("MatrixBandPart", input, ANY, "input")
    _rank_at_least("MatrixBandPart", x, "input", 2)
    rows, cols = x._value.shape[-2:]
    lower = static_int("MatrixBandPart", num_lower, "num_lower")
    upper = static_int("MatrixBandPart", num_upper, "num_upper")
    if lower > rows:
        raise InvalidArgumentError(
            f"MatrixBandPart: num_lower must be negative or at most the number of rows "
            f"({rows}), got {lower}"
        )
    if upper > cols:
        raise InvalidArgumentError(
            f"MatrixBandPart: num_upper must be negative or at most the number of columns "
            f"({cols}), got {upper}"
        )
    return execute(_MatrixBandPart, (x,), {"num_lower": lower, "num_upper": upper}, name)


@op_gradient("MatrixBandPart")
def _band_part_grad(op, grad):
    return band_part(grad, op.get_attr("num_lower"), op.get_attr("num_upper"))


def trace(x: TensorLike, name: str | None = None) -> Tensor:
    """The sum of the main diagonal of each matrix in ``x`` [..., M, N].

    >>> import retrograd as rg
    >>> rg.linalg.trace([[1.0, 2.0], [3.0, 4.0]])
    <retrograd.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    t = tensor_arg("Trace", x, NUMERIC, "x")
    return reduction_ops.reduce_sum(diag_part(t), axis=-1, name=name)


def eye(
    num_rows: int,
    num_columns: int | None = None,
    batch_shape: ShapeLike | None = None,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
) -> Tensor:
    """Identity matrices [*batch_shape, num_rows, num_columns] (a constant).

    >>> import retrograd as rg
    >>> rg.eye(2, 3).numpy().tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    from retrograd.ops import run_time_args

    if run_time_args.is_run_time(num_rows) or run_time_args.is_run_time(num_columns):
        return _eye_at_run_time(num_rows, num_columns, batch_shape, dtype)
    for value in (num_rows, num_columns):
        if isinstance(value, Tensor) and value._value.dtype.kind in "iu":
            continue  # a scalar integer tensor (int() below refuses other shapes)
        if value is not None and (
            isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
        ):
            raise TypeError(
                f"eye: Arguments `num_rows` and `num_columns` must be positive integer values. "
                f"Received: num_rows={num_rows!r}, num_columns={num_columns!r}"
            )
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    batch = () if batch_shape is None else broadcast.static_shape(batch_shape, "eye", "batch_shape")
    if rows < 0 or cols < 0 or any(d < 0 for d in batch):
        raise InvalidArgumentError(
            f"eye: dimensions must be >= 0, got num_rows={rows}, num_columns={cols}, "
            f"batch_shape={list(batch)}"
        )
    xp = current_namespace()
    matrix = xp.eye(rows, cols, dtype=as_dtype(dtype).as_numpy_dtype)
    return Tensor(np.broadcast_to(matrix, (*batch, rows, cols)).copy())


def _eye_at_run_time(num_rows: Any, num_columns: Any, batch_shape: Any, dtype: Any) -> Tensor:
    """``eye`` of sizes known only when the graph runs (``tf.eye(tf.shape(x)[0])``): where
    the row index equals the column index (a negative size fails when the graph runs)."""
    from retrograd.ops import comparison_ops, creation_ops, math_ops

    rows = math_ops.cast(num_rows, "int32")
    cols = rows if num_columns is None else math_ops.cast(num_columns, "int32")
    rows_at = array_ops.expand_dims(creation_ops.range(rows), 1)
    matrix = math_ops.cast(
        comparison_ops.equal(rows_at, array_ops.expand_dims(creation_ops.range(cols), 0)), dtype
    )
    if batch_shape is None:
        return matrix
    batch = broadcast.static_shape(batch_shape, "eye", "batch_shape")
    return broadcast.broadcast_to(matrix, [*batch, rows, cols])
