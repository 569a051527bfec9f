"""Lists of tensors as values: TensorFlow's ``TensorList`` ops, which ``TensorArray`` is built
on. A list is a ``variant`` tensor (a 0-d object array holding a :class:`TensorList`), so it
can be a loop variable of ``while_loop`` and flow through graphs; every op returns a new
list. Elements not written yet are absent and read as zeros of the element shape.

The gradient of a list is a list of the elements' gradients; absent elements (and the
number 0 that stands for a gradient of zeros) count as zeros, lists add elementwise, and
each op's rule is written with these ops, so gradients differentiate again.

>>> import retrograd as rg
>>> from retrograd.ops import list_ops
>>> items = list_ops.reserve(3, rg.float32, [])
>>> items = list_ops.set_item(items, 1, rg.constant(5.0))
>>> list_ops.stack(items, rg.float32).numpy().tolist()
[0.0, 5.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.errors import InvalidArgumentError, OutOfRangeError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor

__all__ = [
    "TensorList", "concat", "from_tensor", "gather", "get_item", "length", "reserve",
    "scatter", "set_item", "split", "stack",
]  # fmt: skip


class TensorList:
    """An immutable list of arrays (None: not written), with its element dtype and the
    element shape known so far (a tuple with None for unknown sizes, or None)."""

    __slots__ = ("items", "dtype", "element_shape")

    def __init__(self, items: tuple, dtype: np.dtype, element_shape: tuple | None) -> None:
        self.items, self.dtype, self.element_shape = items, dtype, element_shape

    def __add__(self, other: Any) -> TensorList:
        """Elementwise sum of two gradient lists (absent items are zeros)."""
        if isinstance(other, (int, np.integer)) and other == 0:
            return self
        if not isinstance(other, TensorList):
            return NotImplemented
        n = max(len(self.items), len(other.items))
        a = self.items + (None,) * (n - len(self.items))
        b = other.items + (None,) * (n - len(other.items))
        summed = tuple(x if y is None else y if x is None else x + y for x, y in zip(a, b))
        return TensorList(summed, self.dtype, self.element_shape)

    __radd__ = __add__

    def __repr__(self) -> str:
        written = sum(item is not None for item in self.items)
        return f"TensorList({len(self.items)} items, {written} written, {self.dtype})"


def _wrap(value: TensorList) -> np.ndarray:
    holder = np.empty((), dtype=object)
    holder[()] = value
    return holder


def _payload(holder: Any, dtype: np.dtype = None) -> TensorList:
    """The list a variant array holds; 0 (a gradient of zeros) is the empty list."""
    value = holder[()] if isinstance(holder, np.ndarray) else holder
    if isinstance(value, TensorList):
        return value
    return TensorList((), dtype or np.dtype(np.float32), None)


def _zeros_of(lst: TensorList, index: int, like: Any = None) -> np.ndarray:
    if like is not None:
        return np.zeros_like(like)
    for item in lst.items:
        if item is not None:
            return np.zeros_like(item)
    shape = lst.element_shape
    if shape is None or None in shape:
        raise InvalidArgumentError(
            f"TensorList: element {index} was never written and the element shape "
            f"{'<unknown>' if shape is None else list(shape)} is not fully known: its value "
            f"cannot be made"
        )
    return np.zeros(shape, dtype=lst.dtype)


def _element(lst: TensorList, index: int, like: Any = None) -> np.ndarray:
    item = lst.items[index] if 0 <= index < len(lst.items) else None
    return _zeros_of(lst, index, like) if item is None else item


_VARIANT = np.dtype(object)
_variant_meta = lambda metas, **_: [((), _VARIANT)]  # noqa: E731


def _reserve_kernel(num_elements, element_dtype, element_shape):
    n = int(num_elements)
    if n < 0:
        raise InvalidArgumentError(f"TensorListReserve: num_elements must be >= 0, got {n}")
    dtype = np.dtype(element_dtype.as_numpy_dtype)
    return _wrap(TensorList((None,) * n, dtype, element_shape))


_Reserve = define_op("TensorListReserve", _reserve_kernel, shape_fn=_variant_meta)
no_gradient("TensorListReserve")


def reserve(num_elements: Any, element_dtype: Any, element_shape: Any) -> Tensor:
    """A list of ``num_elements`` absent elements of ``element_dtype``."""
    shape = TensorShape(element_shape)
    attrs = {
        "element_dtype": dtypes.as_dtype(element_dtype),
        "element_shape": None if shape.rank is None else tuple(shape.as_list()),
    }
    return execute(_Reserve, (convert_to_tensor(num_elements, dtype=dtypes.int32),), attrs)


def _check_element(lst: TensorList, item: Any, index: int) -> None:
    if np.dtype(item.dtype) != lst.dtype:
        raise InvalidArgumentError(
            f"TensorList: element {index} has dtype {item.dtype}, the list holds {lst.dtype}"
        )
    shape = lst.element_shape
    dims = np.shape(item)
    if shape is not None and (
        len(shape) != len(dims) or any(s not in (None, d) for s, d in zip(shape, dims))
    ):
        raise InvalidArgumentError(
            f"TensorList: element {index} has shape {list(np.shape(item))}, incompatible with "
            f"the element shape {[s for s in shape]}"
        )


def _set_item_kernel(handle, index, item, resize):
    lst, i = _payload(handle, item.dtype), int(index)
    if i < 0 or (i >= len(lst.items) and not resize):
        raise OutOfRangeError(
            f"Tried to write to index {i} but array is not resizeable and size is: {len(lst.items)}"
        )
    _check_element(lst, item, i)
    items = lst.items + (None,) * (i + 1 - len(lst.items))
    items = items[:i] + (item,) + items[i + 1 :]
    return _wrap(TensorList(items, lst.dtype, lst.element_shape or np.shape(item)))


_SetItem = define_op("TensorListSetItem", _set_item_kernel, shape_fn=_variant_meta)


def set_item(handle: Tensor, index: Any, item: Any, resize: bool = False) -> Tensor:
    """The list with element ``index`` set to ``item`` (past the end: grown if ``resize``)."""
    index = convert_to_tensor(index, dtype=dtypes.int32)
    return execute(_SetItem, (handle, index, convert_to_tensor(item)), {"resize": resize})


@op_gradient("TensorListSetItem")
def _set_item_grad(op, grad):
    handle, index, item = op.inputs
    cleared = set_item(grad, index, _zeros_like(item), resize=True)
    return cleared, None, get_item(grad, index, like=item)


def _zeros_like(t: Tensor) -> Tensor:
    from retrograd.ops import array_ops

    return array_ops.zeros_like(t)


def _get_item_kernel(handle, index, *like, element_dtype, element_shape):
    lst, i = _payload(handle, np.dtype(element_dtype.as_numpy_dtype)), int(index)
    if lst.element_shape is None and element_shape is not None:
        lst = TensorList(lst.items, lst.dtype, tuple(element_shape))
    if not like and not 0 <= i < len(lst.items):
        raise InvalidArgumentError(
            f"TensorListGetItem: Trying to access element {i} in a list with "
            f"{len(lst.items)} elements."
        )
    return _element(lst, i, like[0] if like else None)


def _get_item_meta(metas, element_dtype, element_shape):
    if len(metas) == 3:
        return [(metas[2].shape, metas[2].dtype)]
    return [(element_shape, np.dtype(element_dtype.as_numpy_dtype))]


_GetItem = define_op("TensorListGetItem", _get_item_kernel, shape_fn=_get_item_meta)


def get_item(handle: Tensor, index: Any, element_dtype: Any = None, like: Any = None,
             element_shape: Any = None) -> Tensor:  # fmt: skip
    """Element ``index`` (absent: zeros); with ``like``, an absent or out-of-range element
    is zeros of ``like`` (how gradients read gradient lists)."""
    index = convert_to_tensor(index, dtype=dtypes.int32)
    inputs = (handle, index) if like is None else (handle, index, like)
    shape = TensorShape(element_shape)
    attrs = {
        "element_dtype": dtypes.as_dtype(element_dtype) if like is None else like.dtype,
        "element_shape": None if shape.rank is None else tuple(shape.as_list()),
    }
    return execute(_GetItem, inputs, attrs)


@op_gradient("TensorListGetItem")
def _get_item_grad(op, grad):
    handle, index = op.inputs[0], op.inputs[1]
    grads = set_item(length_like(handle, grad), index, grad, resize=True)
    return (grads, None, None) if len(op.inputs) == 3 else (grads, None)


def length_like(handle: Tensor, item: Tensor) -> Tensor:
    """An empty list as long as ``handle``, of ``item``'s dtype (for gradients)."""
    return reserve(length(handle), item.dtype, None)


def _length_kernel(handle):
    return np.int32(len(_payload(handle).items))  # (a NumPy scalar: any device's)


_Length = define_op(
    "TensorListLength", _length_kernel, shape_fn=lambda metas: [((), np.dtype(np.int32))]
)
no_gradient("TensorListLength")


def length(handle: Tensor) -> Tensor:
    """The number of elements (written or not), an int32 scalar."""
    return execute(_Length, (handle,), None)


def _stack_kernel(handle, *like, element_dtype, element_shape):
    lst = _payload(handle, np.dtype(element_dtype.as_numpy_dtype))
    if like:  # (a gradient: as many rows as `like`, zeros where absent)
        rows = [_element(lst, i, like[0][i]) for i in range(len(like[0]))]
        return np.stack(rows) if rows else np.zeros_like(like[0])
    if not lst.items:
        shape = lst.element_shape or element_shape
        if shape is None or None in shape:
            raise InvalidArgumentError(
                "TensorListStack: Tried to stack elements of an empty list with "
                "non-fully-defined element_shape"
            )
        return np.zeros((0, *shape), dtype=lst.dtype)
    if lst.element_shape is None and element_shape is not None:
        lst = TensorList(lst.items, lst.dtype, tuple(element_shape))
    return np.stack([_element(lst, i) for i in range(len(lst.items))])


def _stack_meta(metas, element_dtype, element_shape):
    if len(metas) == 2:
        return [(metas[1].shape, metas[1].dtype)]
    shape = None if element_shape is None else (None, *element_shape)
    return [(shape, np.dtype(element_dtype.as_numpy_dtype))]


_Stack = define_op("TensorListStack", _stack_kernel, shape_fn=_stack_meta)


def stack(handle: Tensor, element_dtype: Any, element_shape: Any = None,
          like: Any = None) -> Tensor:  # fmt: skip
    """The elements stacked on a new first axis (absent ones as zeros); with ``like``, as
    many rows as ``like`` has."""
    shape = TensorShape(element_shape)
    attrs = {
        "element_dtype": dtypes.as_dtype(element_dtype),
        "element_shape": None if shape.rank is None else tuple(shape.as_list()),
    }
    return execute(_Stack, (handle,) if like is None else (handle, like), attrs)


@op_gradient("TensorListStack")
def _stack_grad(op, grad):
    return (from_tensor(grad), None) if len(op.inputs) == 2 else from_tensor(grad)


def _from_tensor_kernel(tensor):
    items = tuple(tensor[i] for i in range(np.shape(tensor)[0]))
    return _wrap(TensorList(items, np.dtype(tensor.dtype), tuple(np.shape(tensor)[1:])))


_FromTensor = define_op("TensorListFromTensor", _from_tensor_kernel, shape_fn=_variant_meta)


def from_tensor(tensor: Any) -> Tensor:
    """A list of the rows of ``tensor`` (along its first axis)."""
    t = convert_to_tensor(tensor)
    if t.shape.rank == 0:
        raise ValueError("TensorListFromTensor: tensor must have rank >= 1, got a scalar")
    return execute(_FromTensor, (t,), None)


@op_gradient("TensorListFromTensor")
def _from_tensor_grad(op, grad):
    tensor = op.inputs[0]
    return stack(grad, tensor.dtype, like=tensor)


def _gather_kernel(handle, indices, element_dtype, element_shape):
    lst = _payload(handle)
    if element_shape is not None and lst.element_shape is None:
        lst = TensorList(lst.items, lst.dtype, tuple(element_shape))
    rows = [_element(lst, int(i)) for i in np.reshape(indices, [-1])]
    if not rows:
        return np.zeros((0, *(lst.element_shape or ())), dtype=lst.dtype)
    return np.stack(rows).reshape(*np.shape(indices), *np.shape(rows[0]))


def _gather_meta(metas, element_dtype, element_shape):
    shape = None
    if metas[1].shape is not None and element_shape is not None:
        shape = (*metas[1].shape, *element_shape)
    return [(shape, np.dtype(element_dtype.as_numpy_dtype))]


_Gather = define_op("TensorListGather", _gather_kernel, shape_fn=_gather_meta)


def gather(handle: Tensor, indices: Any, element_dtype: Any, element_shape: Any = None) -> Tensor:
    """The elements at ``indices`` (a vector), stacked."""
    shape = TensorShape(element_shape)
    attrs = {
        "element_dtype": dtypes.as_dtype(element_dtype),
        "element_shape": None if shape.rank is None else tuple(shape.as_list()),
    }
    return execute(_Gather, (handle, convert_to_tensor(indices, dtype=dtypes.int32)), attrs)


@op_gradient("TensorListGather")
def _gather_grad(op, grad):
    handle, indices = op.inputs
    return scatter(length_like(handle, grad), indices, grad, accumulate=True), None


def _scatter_kernel(handle, indices, tensor, resize, accumulate):
    lst = _payload(handle, tensor.dtype)
    items = list(lst.items)
    for row, i in enumerate(np.reshape(indices, [-1])):
        i = int(i)
        if i < 0 or (i >= len(items) and not resize):
            raise OutOfRangeError(
                f"Tried to write to index {i} but array is not resizeable and size is: {len(items)}"
            )
        _check_element(lst, tensor[row], i)
        items += [None] * (i + 1 - len(items))
        # (a gradient's scatter adds what repeated indices bring, as gather repeated them)
        items[i] = tensor[row] if not accumulate or items[i] is None else items[i] + tensor[row]
    return _wrap(TensorList(tuple(items), lst.dtype, lst.element_shape or np.shape(tensor)[1:]))


_Scatter = define_op("TensorListScatterIntoExistingList", _scatter_kernel, shape_fn=_variant_meta)


def scatter(
    handle: Tensor, indices: Any, tensor: Any, resize: bool = True, accumulate: bool = False
) -> Tensor:
    """The list with element ``indices[k]`` set to row ``k`` of ``tensor`` (added to it
    with ``accumulate``, as gradients do)."""
    indices = convert_to_tensor(indices, dtype=dtypes.int32)
    attrs = {"resize": resize, "accumulate": accumulate}
    return execute(_Scatter, (handle, indices, convert_to_tensor(tensor)), attrs)


@op_gradient("TensorListScatterIntoExistingList")
def _scatter_grad(op, grad):
    handle, indices, tensor = op.inputs
    cleared = scatter(grad, indices, _zeros_like(tensor))
    return cleared, None, gather(grad, indices, tensor.dtype, tensor.shape[1:])


def _concat_kernel(handle, element_dtype):
    lst = _payload(handle, np.dtype(element_dtype.as_numpy_dtype))
    rows = [_element(lst, i) for i in range(len(lst.items))]
    if not rows:
        return np.zeros((0,), dtype=lst.dtype), np.zeros((0,), dtype=np.int64)
    lengths = np.array([np.shape(r)[0] for r in rows], dtype=np.int64)
    return np.concatenate(rows), lengths


def _concat_meta(metas, element_dtype):
    return [(None, np.dtype(element_dtype.as_numpy_dtype)), ((None,), np.dtype(np.int64))]


_Concat = define_op("TensorListConcatV2", _concat_kernel, multi_output=True, shape_fn=_concat_meta)


def concat(handle: Tensor, element_dtype: Any) -> tuple[Tensor, Tensor]:
    """The elements joined along their first axis, and each one's length."""
    attrs = {"element_dtype": dtypes.as_dtype(element_dtype)}
    return execute(_Concat, (handle,), attrs)


@op_gradient("TensorListConcatV2")
def _concat_grad(op, grad, lengths_grad):
    return split(grad, op.outputs[1])


def _split_kernel(tensor, lengths):
    ends = np.cumsum(np.reshape(lengths, [-1]).astype(np.int64))
    if ends.size and ends[-1] != np.shape(tensor)[0]:
        raise InvalidArgumentError(
            f"TensorListSplit: the lengths add up to {int(ends[-1])}, the tensor has "
            f"{np.shape(tensor)[0]} rows"
        )
    starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
    items = tuple(tensor[a:b] for a, b in zip(starts, ends))
    return _wrap(TensorList(items, np.dtype(tensor.dtype), (None, *np.shape(tensor)[1:])))


_Split = define_op("TensorListSplit", _split_kernel, shape_fn=_variant_meta)


def split(tensor: Any, lengths: Any) -> Tensor:
    """A list of consecutive pieces of ``tensor`` of the given ``lengths``."""
    lengths = convert_to_tensor(lengths, dtype=dtypes.int64)
    return execute(_Split, (convert_to_tensor(tensor), lengths), None)


@op_gradient("TensorListSplit")
def _split_grad(op, grad):
    tensor = op.inputs[0]
    pieces = concat_like(grad, tensor, op.inputs[1])
    return pieces, None


def _concat_like_kernel(handle, like, lengths):
    lst = _payload(handle)
    ends = np.cumsum(np.reshape(lengths, [-1]).astype(np.int64))
    starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
    rows = [_element(lst, i, like[a:b]) for i, (a, b) in enumerate(zip(starts, ends))]
    return np.concatenate(rows) if rows else np.zeros_like(like)


_ConcatLike = define_op(
    "TensorListConcatLike",
    _concat_like_kernel,
    shape_fn=lambda metas: [(metas[1].shape, metas[1].dtype)],
)


def concat_like(handle: Tensor, like: Tensor, lengths: Tensor) -> Tensor:
    """The gradient of ``split``: the pieces joined (zeros where absent), shaped ``like``."""
    return execute(_ConcatLike, (handle, like, lengths), None)


@op_gradient("TensorListConcatLike")
def _concat_like_grad(op, grad):
    return split(grad, op.inputs[2]), None, None
