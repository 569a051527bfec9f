"""TensorFlow's ``strided_slice``: ``x[...]`` written as begin, end and strides vectors with
bit masks (what ``[]`` lowers to in TensorFlow). It builds the Python index the masks
describe and slices through the same op as ``x[...]`` (``array_ops.getitem``), gradient
included.

>>> import retrograd as rg
>>> x = rg.reshape(rg.range(12), [3, 4])
>>> rg.strided_slice(x, [0, 1], [2, 4], [1, 2]).numpy().tolist()       # x[0:2, 1:4:2]
[[1, 3], [5, 7]]
>>> rg.strided_slice(x, [1, 0], [2, 0], shrink_axis_mask=1, end_mask=2).numpy().tolist()
[4, 5, 6, 7]
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from retrograd.core.annotations import TensorLike
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops
from retrograd.ops.define import ANY, tensor_arg

__all__ = ["strided_slice"]


def _entries(value: Any, what: str) -> list[Any]:
    """A begin/end/strides vector as a list of ints (or of scalar tensors for a graph
    vector known only when the graph runs)."""
    from retrograd.ops import dynamic_shape_ops

    if isinstance(value, Tensor):
        known = dynamic_shape_ops.known_value(value)
        if known is None:
            length = value.shape[0] if value.shape.rank == 1 else None
            if length is None:
                raise ValueError(
                    f"strided_slice: `{what}` must be a vector of known length, got {value!r}"
                )
            return [value[k] for k in range(length)]
        value = known
    if isinstance(value, (int,)) or getattr(value, "ndim", 1) == 0:
        raise ValueError(f"strided_slice: `{what}` must be a vector, got {value!r}")
    return [builtins.int(v) if not isinstance(v, Tensor) else v for v in value]


def strided_slice(
    input_: TensorLike,
    begin: TensorLike,
    end: TensorLike,
    strides: int | Sequence[int] | None = None,
    begin_mask: int = 0,
    end_mask: int = 0,
    ellipsis_mask: int = 0,
    new_axis_mask: int = 0,
    shrink_axis_mask: int = 0,
    var: object | None = None,
    name: str | None = None,
) -> Tensor:
    """``input_[spec]`` where entry ``k`` of the spec is ``begin[k]:end[k]:strides[k]``,
    or with bit ``k`` set in a mask: the full start (``begin_mask``) or end (``end_mask``),
    ``...`` (``ellipsis_mask``), a new axis (``new_axis_mask``), or the index ``begin[k]``
    removing its axis (``shrink_axis_mask``). ``var`` (the variable ``input_`` was read
    from, which TensorFlow passes for sliced assignment) does not change the values.

    >>> import retrograd as rg
    >>> rg.strided_slice([1, 2, 3, 4, 5], [-1], [0], [-2]).numpy().tolist()  # x[-1:0:-2]
    [5, 3]
    """
    x = tensor_arg("StridedSlice", input_, ANY, "input_")
    begins, ends = _entries(begin, "begin"), _entries(end, "end")
    steps = [1] * len(begins) if strides is None else _entries(strides, "strides")
    if not len(begins) == len(ends) == len(steps):
        raise ValueError(
            f"strided_slice: begin, end and strides must have the same length, got "
            f"{len(begins)}, {len(ends)} and {len(steps)}"
        )
    if bin(ellipsis_mask).count("1") > 1:
        raise ValueError("strided_slice: multiple ellipses in slice spec not allowed")
    index: list[Any] = []
    for k, (b, e, s) in enumerate(zip(begins, ends, steps)):
        bit = 1 << k
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            index.append(
                builtins.slice(None if begin_mask & bit else b, None if end_mask & bit else e, s)
            )
    return array_ops.getitem(x, tuple(index), name)
