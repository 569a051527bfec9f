"""``TensorArray``: a list of tensors of one dtype that grows in loops (TensorFlow's, built
as TensorFlow 2 builds it on list ops: ops/list_ops.py). Its value is a ``variant`` tensor
(``flow``), so a TensorArray can be a ``while_loop`` variable (``for i in range(n)`` in a
``function``), and gradients flow from ``stack``/``read`` back to what was written.

Eagerly, as in TensorFlow, the array is a Python list of tensors that ``write``/``unstack``
/... change (returning the array), and ``stack``/``gather``/``concat`` are ordinary ops, so
tapes see them; in a graph every update returns a new TensorArray over a new list value
(write ``ta = ta.write(i, x)``, which works in both). Elements not written read as zeros of
the element shape.

>>> import retrograd as tf
>>> @tf.function
... def squares(n):
...     ta = tf.TensorArray(tf.float32, size=n)
...     for i in tf.range(n):
...         ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
...     return ta.stack()
>>> squares(tf.constant(4)).numpy().tolist()
[0.0, 1.0, 4.0, 9.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError, OutOfRangeError
from retrograd.core.execute import context
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops, join_ops, list_ops

__all__ = ["TensorArray"]


class TensorArray:
    """A list of tensors of ``dtype``: ``size`` elements (growing past it when
    ``dynamic_size``), of ``element_shape`` (inferred from the first write when
    ``infer_shape``). Eagerly, as in TensorFlow, ``read`` clears what it read unless
    ``clear_after_read=False`` (reading it again is an error); in graphs, as TensorFlow 2's
    lists, elements stay. ``tensor_array_name`` and ``colocate_with_first_write_call`` change
    nothing here.

    >>> import retrograd as tf
    >>> ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    >>> for i in range(3):
    ...     ta = ta.write(i, [float(i), 1.0])
    >>> ta.stack().numpy().tolist(), int(ta.size())
    ([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0]], 3)
    """

    def __init__(
        self,
        dtype: DTypeLike,
        size: TensorLike | None = None,
        dynamic_size: bool | None = None,
        clear_after_read: bool | None = None,
        tensor_array_name: str | None = None,
        handle: Any = None,
        flow: Tensor | None = None,
        infer_shape: bool = True,
        element_shape: ShapeLike | None = None,
        colocate_with_first_write_call: bool = True,
        name: str | None = None,
    ) -> None:
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._read: set[int] = set()  # eager: elements read (and cleared) already
        self._items: list | None = None  # eager: the elements (None: not written)
        self._flow: Tensor | None = None  # in graphs: the list value
        flow = flow if flow is not None else handle
        if flow is not None:
            if not (isinstance(flow, Tensor) and flow.dtype == dtypes.variant):
                raise TypeError(f"TensorArray: flow must be a variant tensor, got {flow!r}")
            self._flow = flow
        elif size is None:
            raise ValueError("Size must be provided if handle is not provided")
        elif context.graph is None:
            self._items = [None] * int(size)
        else:
            self._flow = list_ops.reserve(size, self._dtype, self._element_shape)

    # -- what it is ------------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def flow(self) -> Tensor:
        """The list as a ``variant`` tensor (what graphs and loops carry)."""
        if self._flow is None:  # (eager: the list value of the elements, made on request)
            return self._list_value()
        return self._flow

    @property
    def handle(self) -> Tensor:
        return self.flow

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return self._element_shape

    def _list_value(self) -> Tensor:
        value = list_ops.reserve(len(self._items), self._dtype, self._element_shape)
        for i, item in enumerate(self._items):
            if item is not None:
                value = list_ops.set_item(value, i, item)
        return value

    def _new(self, flow: Tensor, element_shape: TensorShape) -> TensorArray:
        return TensorArray(self._dtype, dynamic_size=self._dynamic_size, flow=flow,
                           infer_shape=self._infer_shape, element_shape=element_shape)  # fmt: skip

    def _nest_components(self) -> list:
        return [self.flow]

    def _nest_rebuild(self, components: list) -> TensorArray:
        return self._new(components[0], self._element_shape)

    def _checked(self, value: TensorLike, rows: bool = False) -> tuple[Tensor, TensorShape]:
        """``value`` converted to the dtype, its element shape merged with the known one."""
        t = convert_to_tensor(value, dtype_hint=self._dtype)
        if t.dtype != self._dtype:
            raise InvalidArgumentError(
                f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{t.dtype.name} "
            )
        shape = TensorShape(None) if t.shape.rank is None else t.shape[1:] if rows else t.shape
        if not self._infer_shape:
            return t, self._element_shape
        if not self._element_shape.is_compatible_with(shape):
            raise ValueError(
                f"Incompatible shape for value ({shape}), expected ({self._element_shape})"
            )
        return t, self._element_shape.merge_with(shape)

    def _place(self, index: int, value: Tensor) -> None:
        """Eagerly: element ``index`` becomes ``value`` (the list grows if it may)."""
        if index < 0 or (index >= len(self._items) and not self._dynamic_size):
            raise OutOfRangeError(
                f"Tried to write to index {index} but array is not resizeable and size is: "
                f"{len(self._items)}"
            )
        self._items += [None] * (index + 1 - len(self._items))
        self._items[index] = value

    def _zeros(self) -> Tensor:
        if not self._element_shape.is_fully_defined():
            raise InvalidArgumentError(
                f"TensorArray: an element never written has no value: its shape "
                f"{self._element_shape} is not fully known"
            )
        return array_ops.zeros(self._element_shape.as_list(), self._dtype)

    def _element(self, index: int, reading: bool = False) -> Tensor:
        """Element ``index``, zeros if absent; ``reading`` (``read``) refuses one that an
        earlier read cleared, as TensorFlow does."""
        if index < 0:
            raise OutOfRangeError(f"Reading from negative indices (index {index}) is not allowed.")
        if index >= len(self._items):
            raise OutOfRangeError(
                f"Tried to read from index {index} but array size is: {len(self._items)} "
            )
        item = self._items[index]
        if item is None and reading and index in self._read:
            raise InvalidArgumentError(
                f"Could not read index {index} twice because it was cleared after a previous "
                f"read (perhaps try setting clear_after_read = false?)"
            )
        return self._zeros() if item is None else item

    # -- writing ---------------------------------------------------------------------------
    def write(self, index: TensorLike, value: TensorLike, name: str | None = None) -> TensorArray:
        """Element ``index`` set to ``value``.

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.float32, size=2).write(1, 3.0).stack().numpy().tolist()
        [0.0, 3.0]
        """
        t, shape = self._checked(value)
        if self._items is not None:
            self._place(int(index), t)
            self._element_shape = shape
            return self
        return self._new(list_ops.set_item(self._flow, index, t, self._dynamic_size), shape)

    def unstack(self, value: TensorLike, name: str | None = None) -> TensorArray:
        """The rows of ``value`` as the elements.

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.float32, size=2).unstack([[1.0], [2.0]]).read(1).numpy().tolist()
        [2.0]
        """
        t, shape = self._checked(value, rows=True)
        if self._items is not None:
            rows = join_ops.unstack(t)
            if len(rows) > len(self._items) and not self._dynamic_size:
                raise OutOfRangeError(
                    f"Tried to write to index {len(rows) - 1} but array is not resizeable and "
                    f"size is: {len(self._items)}"
                )
            self._items = list(rows) + self._items[len(rows) :]
            self._element_shape = shape
            return self
        return self._new(list_ops.from_tensor(t), shape)

    def scatter(
        self, indices: TensorLike, value: TensorLike, name: str | None = None
    ) -> TensorArray:
        """Element ``indices[k]`` set to row ``k`` of ``value``.

        >>> import retrograd as tf
        >>> ta = tf.TensorArray(tf.int32, size=3).scatter([2, 0], [7, 5])
        >>> ta.stack().numpy().tolist()
        [5, 0, 7]
        """
        t, shape = self._checked(value, rows=True)
        if self._items is not None:
            rows = join_ops.unstack(t) if t.shape[0] else []
            for i, row in zip(convert_to_tensor(indices).numpy().reshape(-1).tolist(), rows):
                self._place(int(i), row)
            self._element_shape = shape
            return self
        flow = list_ops.scatter(self._flow, indices, t, resize=self._dynamic_size)
        return self._new(flow, shape)

    def split(self, value: TensorLike, lengths: TensorLike, name: str | None = None) -> TensorArray:
        """Consecutive pieces of ``value`` of ``lengths`` as the elements.

        >>> import retrograd as tf
        >>> ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
        >>> ta = ta.split([1.0, 2.0, 3.0], [1, 2])
        >>> ta.read(1).numpy().tolist(), ta.concat().numpy().tolist()
        ([2.0, 3.0], [1.0, 2.0, 3.0])
        """
        t = convert_to_tensor(value, dtype=self._dtype)
        shape = TensorShape([None, *t.shape[1:]]) if t.shape.rank else TensorShape(None)
        merged = self._element_shape
        if self._infer_shape:
            compatible = self._element_shape.is_compatible_with(shape)
            merged = self._element_shape.merge_with(shape) if compatible else shape
        if self._items is not None:
            sizes = convert_to_tensor(lengths).numpy().reshape(-1).tolist()
            pieces = join_ops.split(t, sizes) if sizes else []
            for i, piece in enumerate(pieces):
                self._place(i, piece)
            self._element_shape = merged
            return self
        return self._new(list_ops.split(t, lengths), merged)

    # -- reading ---------------------------------------------------------------------------
    def read(self, index: TensorLike, name: str | None = None) -> Tensor:
        """Element ``index`` (zeros of the element shape if never written).

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.float32, size=2).write(0, 4.0).read(0).numpy()
        np.float32(4.0)
        """
        if self._items is not None:
            i = int(index)
            value = self._element(i, reading=True)
            if self._clear_after_read:
                self._items[i] = None
                self._read.add(i)
            return value
        return list_ops.get_item(self._flow, index, self._dtype, element_shape=self._element_shape)

    def stack(self, name: str | None = None) -> Tensor:
        """The elements stacked on a new first axis.

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.int32, size=2).unstack([3, 4]).stack().numpy().tolist()
        [3, 4]
        """
        if self._items is not None:
            if not self._items:
                return array_ops.zeros([0, *self._zeros().shape.as_list()], self._dtype)
            return join_ops.stack([self._element(i) for i in range(len(self._items))])
        return list_ops.stack(self._flow, self._dtype, self._element_shape)

    def gather(self, indices: TensorLike, name: str | None = None) -> Tensor:
        """The elements at ``indices``, stacked.

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.int32, size=3).unstack([3, 4, 5]).gather([2, 0]).numpy().tolist()
        [5, 3]
        """
        if self._items is not None:
            chosen = convert_to_tensor(indices).numpy().reshape(-1).tolist()
            if not chosen:
                return array_ops.zeros([0, *self._zeros().shape.as_list()], self._dtype)
            return join_ops.stack([self._element(int(i)) for i in chosen])
        return list_ops.gather(self._flow, indices, self._dtype, self._element_shape)

    def concat(self, name: str | None = None) -> Tensor:
        """The elements joined along their first axis.

        >>> import retrograd as tf
        >>> ta = tf.TensorArray(tf.int32, size=2).unstack([[1, 2], [3, 4]])
        >>> ta.concat().numpy().tolist()
        [1, 2, 3, 4]
        """
        if self._items is not None:
            return join_ops.concat([self._element(i) for i in range(len(self._items))], 0)
        return list_ops.concat(self._flow, self._dtype)[0]

    def size(self, name: str | None = None) -> Tensor:
        """The number of elements (an int32 scalar).

        >>> import retrograd as tf
        >>> int(tf.TensorArray(tf.float32, size=5).size())
        5
        """
        if self._items is not None:
            return convert_to_tensor(len(self._items), dtype=dtypes.int32)
        return list_ops.length(self._flow)

    # -- the rest of TensorFlow's interface ----------------------------------------------------
    def identity(self) -> TensorArray:
        """A TensorArray with the same elements.

        >>> import retrograd as tf
        >>> int(tf.TensorArray(tf.float32, size=2).identity().size())
        2
        """
        if self._items is not None:
            made = TensorArray(
                self._dtype,
                size=0,
                dynamic_size=self._dynamic_size,
                infer_shape=self._infer_shape,
                element_shape=self._element_shape,
            )
            made._items = list(self._items)
            return made
        return self._new(array_ops.identity(self._flow), self._element_shape)

    def close(self, name: str | None = None) -> None:
        """Nothing to release: the list is a value (TensorFlow 2's close does nothing too).

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.float32, size=1).close()
        """

    def mark_used(self) -> None:
        """TensorFlow's marker that a graph TensorArray was used: nothing to mark here.

        >>> import retrograd as tf
        >>> tf.TensorArray(tf.float32, size=1).mark_used()
        """

    def __repr__(self) -> str:
        return (
            f"<retrograd.TensorArray dtype={self._dtype.name} element_shape="
            f"{self._element_shape} dynamic_size={self._dynamic_size}>"
        )
