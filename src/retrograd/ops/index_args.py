"""Arguments shared by the indexing ops: index tensors, static integer attributes, and the
range checks their kernels make (errors that name the op, the index and the bound).

>>> import numpy as np
>>> from retrograd.ops.index_args import check_in_range
>>> check_in_range("GatherV2", np.array([[2, 0], [5, 1]]), 3)
Traceback (most recent call last):
    ...
retrograd.errors.InvalidArgumentError: GatherV2: indices[1,0] = 5 is not in [0, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.backends import current_namespace, on_device_of, to_host
from retrograd.core.dimensions import Dimension
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor, constant_value, convert_to_tensor

INDEX_DTYPES = ("int32", "int64")


def index_tensor(op_type: str, x: Any, arg: str, allowed: tuple[str, ...] = INDEX_DTYPES) -> Tensor:
    """Converts an index argument; its dtype must be one of ``allowed`` (Python ints and
    empty lists: int32)."""
    if isinstance(x, (list, tuple)) and np.size(x) == 0:
        # An empty Python list converts to float32 in general; as indices it means "none".
        return Tensor(current_namespace().zeros(np.shape(x), dtype=np.int32))
    t = x if type(x) is Tensor else convert_to_tensor(x, dtype_hint="int32")
    if t._value.dtype.name not in allowed:
        raise TypeError(
            f"{op_type}: `{arg}` must be an {' or '.join(allowed)} tensor, got {t.dtype.name}"
        )
    return t


def host_dims(dims: Any) -> tuple[int, ...]:
    """A run-time shape or multiples (a host input: read on the host, wherever it lives)."""
    return tuple(int(d) for d in to_host(dims))


def build_time_value(op_type: str, value: Tensor, arg: str) -> Any:
    """The value of a tensor argument that must be known while a graph is built (an
    attribute of the op): a ValueError naming the op and argument when it is not."""
    from retrograd.ops import dynamic_shape_ops

    known = dynamic_shape_ops.known_value(value)
    if known is not None:
        return known
    try:
        return constant_value(value)
    except ValueError:
        raise ValueError(
            f"{op_type}: argument `{arg}` must be known while the graph is built, but "
            f"{value!r} is only known when it runs"
        ) from None


def static_int(op_type: str, value: Any, arg: str) -> int:
    """A Python int, NumPy integer or scalar integer tensor as an int (it becomes an attribute)."""
    if isinstance(value, Tensor):
        if value._value.dtype.kind not in "iu" or value._value.ndim != 0:
            raise TypeError(
                f"{op_type}: `{arg}` must be a scalar integer, got a {value.dtype.name} tensor "
                f"of shape {tuple(value.shape)}"
            )
        return int(build_time_value(op_type, value, arg))
    if isinstance(value, Dimension):  # (TensorFlow 1's, converted as convert_to_tensor does)
        return value._as_tensor()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op_type}: `{arg}` must be an integer, got {value!r}")
    return int(value)


def axis_in(op_type: str, axis: Any, ndim: int) -> int:
    """An int ``axis`` of a rank-``ndim`` tensor, checked to be in [-ndim, ndim), as 0..ndim-1."""
    axis = static_int(op_type, axis, "axis")  # (ints only: TypeError for 1.5, "1", inf)
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(f"{op_type}: axis {axis} is out of range for rank {ndim}")
    return axis % ndim


def static_ints(op_type: str, value: Any, arg: str) -> tuple[int, ...]:
    """An int, a list of ints or an integer tensor (scalar or vector) as a tuple of ints."""
    if isinstance(value, Tensor):
        if value._value.dtype.kind not in "iu" or value._value.ndim > 1:
            raise TypeError(
                f"{op_type}: `{arg}` must be integers, got a {value.dtype.name} tensor of shape "
                f"{tuple(value.shape)}"
            )
        return tuple(int(v) for v in np.atleast_1d(build_time_value(op_type, value, arg)))
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return (int(value),)
    try:
        return tuple(static_int(op_type, v, arg) for v in value)
    except TypeError:
        raise TypeError(f"{op_type}: `{arg}` must be integers, got {value!r}") from None


def position(flat: int, shape: tuple[int, ...]) -> str:
    """``"[1,0]"``: the multi-index of element ``flat`` of an array of ``shape``."""
    if not shape:
        return ""
    return "[" + ",".join(str(int(i)) for i in np.unravel_index(flat, shape)) + "]"


def check_in_range(op_type: str, indices: Any, bound: int, arg: str = "indices") -> None:
    """Kernel-side check that every index is in [0, bound); the first bad one is named."""
    bad = (indices < 0) | (indices >= bound)
    if bad.any():
        flat = int(np.flatnonzero(bad)[0])
        value = indices.reshape(-1)[flat]
        raise InvalidArgumentError(
            f"{op_type}: {arg}{position(flat, indices.shape)} = {value} is not in [0, {bound})"
        )


def out_of_bounds_rows(index_rows: Any, shape: tuple[int, ...]) -> Any:
    """For rows of ``index_rows`` (n, depth): True where the row does not index into ``shape``."""
    bounds = on_device_of(np.array(shape[: index_rows.shape[1]], dtype=np.int64), index_rows)
    return ((index_rows < 0) | (index_rows >= bounds)).any(axis=1)


def bad_row_error(
    op_type: str, indices: Any, bad: Any, shape: tuple[int, ...], what: str
) -> InvalidArgumentError:
    """The error for the first row of nd-``indices`` that does not index into ``shape``."""
    flat = int(np.flatnonzero(bad)[0])
    row = indices.reshape(-1, indices.shape[-1])[flat]
    where = position(flat, indices.shape[:-1])
    return InvalidArgumentError(
        f"{op_type}: indices{where} = [{', '.join(str(int(v)) for v in row)}] does not index "
        f"into {what} [{','.join(str(d) for d in shape)}]"
    )


BAD_INDICES_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")


def check_bad_indices_policy(op_type: str, policy: str) -> bool:
    """Checks ``bad_indices_policy``; True when out-of-range indices are to be ignored."""
    if policy not in BAD_INDICES_POLICIES:
        raise InvalidArgumentError(
            f"{op_type}: Unknown bad indices handling attribute: {policy!r}; expected one of "
            f"{BAD_INDICES_POLICIES}"
        )
    return policy == "IGNORE"
