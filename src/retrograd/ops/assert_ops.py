"""More of ``tf.debugging``'s assertions: on ranks (``assert_rank_at_least``,
``assert_rank_in``, ``assert_scalar``, ``assert_shapes`` with named dimensions), on dtypes
(``assert_integer``, ``assert_same_float_dtype``, ``is_numeric_tensor``), on values
(``assert_all_finite``) and on arguments (``assert_proper_iterable``). Shape and dtype
assertions check what is known while a graph is built, as TensorFlow's do; messages are
TensorFlow's.

>>> import retrograd as rg
>>> rg.debugging.assert_shapes([(rg.zeros([2, 3]), ("N", "Q")), (rg.zeros([3]), ("Q",))])
>>> rg.debugging.assert_rank_at_least(rg.zeros([3]), 2)
Traceback (most recent call last):
    ...
ValueError: Tensor  must have rank at least 2.  Received rank 1, shape (3,)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import debug_ops

__all__ = [
    "assert_all_finite", "assert_integer", "assert_proper_iterable", "assert_rank_at_least",
    "assert_rank_in", "assert_same_float_dtype", "assert_scalar", "assert_shapes",
    "is_numeric_tensor",
]  # fmt: skip


def _prefix(message: str | None) -> str:
    return f"{message}  " if message else ""


def _shape_text(t: Tensor) -> str:
    return str(tuple(t.shape.as_list())) if t.shape.rank is not None else "<unknown>"


def assert_all_finite(x: TensorLike, message: str, name: str | None = None) -> Tensor:
    """``x``, checked to hold no NaN or infinity (InvalidArgumentError with ``message``).

    >>> import retrograd as rg
    >>> rg.debugging.assert_all_finite([1.0, 2.0], "weights").numpy().tolist()
    [1.0, 2.0]
    """
    return debug_ops.check_numerics(x, message, name)


def assert_integer(x: TensorLike, message: str | None = None, name: str | None = None) -> None:
    """TypeError unless ``x`` has an integer dtype.

    >>> import retrograd as rg
    >>> rg.debugging.assert_integer(rg.constant([1, 2]))
    """
    t = convert_to_tensor(x)
    if not t.dtype.is_integer:
        raise TypeError(
            f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {t.dtype}'
        )


def assert_proper_iterable(values: object) -> None:
    """TypeError unless ``values`` is an iterable that is not a tensor, an array or a
    string (those iterate, but are not what a list of values means).

    >>> import retrograd as rg
    >>> rg.debugging.assert_proper_iterable([1, 2])
    """
    if isinstance(values, (Tensor, np.ndarray, str, bytes)):
        raise TypeError(
            f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}'
        )
    if not isinstance(values, Iterable):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def _rank_error(t: Tensor, expected: str, message: str | None) -> ValueError:
    return ValueError(
        f"{_prefix(message)}Tensor  must have rank {expected}.  Received rank "
        f"{t.shape.rank}, shape {_shape_text(t)}"
    )


def assert_rank_at_least(
    x: TensorLike, rank: int, message: str | None = None, name: str | None = None
) -> None:
    """ValueError unless ``x`` has at least rank ``rank`` (checked where it is known).

    >>> import retrograd as rg
    >>> rg.debugging.assert_rank_at_least(rg.zeros([2, 3]), 1)
    """
    t = convert_to_tensor(x)
    if t.shape.rank is not None and t.shape.rank < int(rank):
        raise _rank_error(t, f"at least {int(rank)}", message)


def assert_rank_in(
    x: TensorLike, ranks: Sequence[int], message: str | None = None, name: str | None = None
) -> None:
    """ValueError unless the rank of ``x`` is one of ``ranks``.

    >>> import retrograd as rg
    >>> rg.debugging.assert_rank_in(rg.zeros([3]), [0, 1])
    """
    t = convert_to_tensor(x)
    allowed = tuple(int(r) for r in ranks)
    if t.shape.rank is not None and t.shape.rank not in allowed:
        raise _rank_error(t, f"in {allowed}", message)


def assert_scalar(tensor: TensorLike, message: str | None = None, name: str | None = None) -> None:
    """ValueError unless ``tensor`` is a scalar.

    >>> import retrograd as rg
    >>> rg.debugging.assert_scalar(rg.constant(1.0))
    """
    t = convert_to_tensor(tensor)
    if t.shape.rank is not None and t.shape.rank != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {t.shape}.")


def assert_same_float_dtype(
    tensors: Sequence[TensorLike] | None = None, dtype: DTypeLike | None = None
) -> dtypes.DType:
    """The one floating dtype of ``tensors`` (and ``dtype``, when given); float32 when
    there is none; ValueError when they differ or are not floating.

    >>> import retrograd as rg
    >>> rg.debugging.assert_same_float_dtype([rg.zeros([1])]).name
    'float32'
    """
    expected = None if dtype is None else dtypes.as_dtype(dtype)
    if expected is not None and not expected.is_floating:
        raise ValueError(f"Expected floating point type, got {expected}.")
    first = None
    for t in tensors or []:
        t = convert_to_tensor(t)
        if first is None:
            first = t
            if expected is None:
                expected = t.dtype
        if t.dtype != expected:
            raise ValueError(
                f"{t}, type={t.dtype}, must be of the same type ({expected}) as {first}."
            )
    if expected is None:
        return dtypes.float32
    if not expected.is_floating:
        raise ValueError(f"Expected floating point type, got {expected}.")
    return expected


def is_numeric_tensor(tensor: object) -> bool:
    """Whether ``tensor`` is a tensor of numbers (not bool, not a variant).

    >>> import retrograd as rg
    >>> rg.debugging.is_numeric_tensor(rg.constant([1])), rg.debugging.is_numeric_tensor(1.0)
    (True, False)
    """
    return isinstance(tensor, Tensor) and tensor._value.dtype.kind in "iufc"


def _dims_of(spec: Any) -> list:
    return list(spec) if isinstance(spec, (list, tuple)) else [
        s.strip() for s in str(spec).split(",") if s.strip()
    ]  # fmt: skip


def assert_shapes(
    shapes: Sequence[tuple[TensorLike, Sequence[object]]],
    data: Sequence[object] | None = None,
    summarize: int | None = None,
    message: str | None = None,
    name: str | None = None,
) -> None:
    """ValueError unless each ``(tensor, shape)`` pair's tensor has that shape: a shape is
    a list of sizes (ints), dimension names (the same name is the same size in every
    tensor), ``"."`` (any size) and a leading ``"*"`` (any number of leading dimensions);
    a one-entry shape also accepts a scalar. Checked on the sizes known while built.

    >>> import retrograd as rg
    >>> x, z = rg.zeros([2, 3]), rg.zeros([2, 4])
    >>> rg.debugging.assert_shapes([(x, ("N", "Q")), (z, ("N", "Q"))])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: Specified by tensor shape=(2, 3) dtype=float32 dimension 1.  Tensor shape=...
    """
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    sizes: dict[str, tuple[int, str, int]] = {}
    for x, spec in pairs:
        t = convert_to_tensor(x)
        dims = _dims_of(spec)
        described = f"shape={_shape_text(t)} dtype={t.dtype.name}"
        if t.shape.rank is None:
            continue
        leading = bool(dims) and dims[0] == "*"
        dims = dims[1:] if leading else dims
        rank = t.shape.rank
        if leading:
            if rank < len(dims):
                raise _rank_error(t, f"at least {len(dims)}", message)
        elif len(dims) == 1 and rank in (0, 1):
            pass
        elif rank != len(dims):
            allowed = "in (0, 1)" if len(dims) == 1 else str(len(dims))
            raise _rank_error(t, allowed, message)
        actual = t.shape.as_list()[rank - len(dims) :] if dims else []
        for axis, (want, got) in enumerate(zip(dims, actual)):
            axis += rank - len(dims)
            if want == "." or got is None:
                continue
            if isinstance(want, str):
                if want not in sizes:
                    sizes[want] = (got, described, axis)
                    continue
                size, where, at = sizes[want]
                if got != size:
                    raise ValueError(
                        f"{_prefix(message)}Specified by tensor {where} dimension {at}.  Tensor "
                        f"{described} dimension {axis} must have size {size}.  Received size "
                        f"{got}, shape {_shape_text(t)}"
                    )
            elif got != int(want):
                raise ValueError(
                    f"{_prefix(message)}Tensor {described} dimension {axis} must have size "
                    f"{int(want)}.  Received size {got}, shape {_shape_text(t)}"
                )
