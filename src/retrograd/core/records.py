"""The records tapes keep: :class:`Operation`, with TensorFlow's interface, and lean records
that keep only the values their gradient reads.

A tape records each op on what it tracks, so that the op's gradient function can run
later. The gradient often reads only some of the op's values (``OpDef.reads``, derived from
the rule). A *lean* record (``execute.record_operation`` makes them while no observer looks)
keeps those; each other large value is replaced by a *stand-in*:
a tensor with the same id, shape and dtype whose array is one read-only zero seen through
zero strides (no memory). The program's own tensor is untouched, and once the program drops
it, plain reference counting frees its memory.

>>> import numpy as np, retrograd as rg
>>> x = rg.constant(np.ones(1 << 17, np.float32))
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.reduce_sum(rg.sin(x))  # Sin's gradient reads x, not sin(x)
>>> round(float(tape.gradient(y, x)[0]), 5)  # cos(1)
0.5403
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import numpy as np

from retrograd.core.tensor import Tensor

__all__ = ["Operation", "without_unread", "stand_in", "is_stand_in", "LEAN_BYTES"]

# Values at least this large are dropped from records whose gradient does not read them
# (below it, a stand-in would cost more than the memory it saves).
LEAN_BYTES = 1 << 16

_NO_ATTRS: MappingProxyType[str, Any] = MappingProxyType({})  # shared by attribute-less records


class Operation:
    """A recorded op, with TensorFlow's Operation interface.

    ``type`` is the op type (``"MatMul"``), ``op_def`` its definition, ``inputs`` and
    ``outputs`` tuples of tensors (a variable appears as the input of the op that read it),
    ``get_attr(name)`` its attributes. ``grad_fn`` replaces the op type's gradient (custom
    gradients carry their own). ``skip_input_indices``: while its gradient function runs,
    the inputs whose gradient is not needed (a rule may return None for them).
    ``released``: a backward walk dropped the record from its tape before calling its rule
    (the tape's last use of it): the rule may give up what the record keeps only to save
    work (a traced call's saved forward values), so that it is freed as soon as used.
    """

    __slots__ = (
        "type",
        "op_def",
        "inputs",
        "outputs",
        "_attrs",
        "_name",
        "grad_fn",
        "skip_input_indices",
        "released",
        "__weakref__",
    )

    graph = None

    def __init__(
        self,
        op_def: Any,
        inputs: tuple,
        outputs: tuple,
        attrs: dict | None,
        name: str | None = None,
        grad_fn: Callable[..., Any] | None = None,
    ) -> None:
        self.type = op_def.type
        self.op_def = op_def
        self.inputs = inputs
        self.outputs = outputs
        self._attrs = attrs or _NO_ATTRS
        self._name = name
        self.grad_fn = grad_fn
        self.skip_input_indices: tuple = ()
        self.released = False

    @property
    def name(self) -> str:
        return self._name or self.type

    def get_attr(self, name: str) -> Any:
        """The attribute ``name`` (``op.get_attr("transpose_a")``)."""
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(
                f"Operation '{self.name}' (type {self.type}) has no attr named '{name}'; "
                f"it has {sorted(self._attrs)}"
            ) from None

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    def __repr__(self) -> str:
        return f"<retrograd.Operation '{self.name}' type={self.type}>"


def without_unread(values: Any, read: frozenset) -> Any:
    """``values`` (of a record whose gradient reads the indices ``read``) with a stand-in
    for each large array at an index not in ``read``."""
    kept = None
    for i in range(len(values)):  # (only arrays are ever dropped: scalars pass at once)
        value = values[i]
        array = value._value
        if (
            type(array) is np.ndarray
            and array.nbytes >= LEAN_BYTES
            and i not in read
            and type(value) is Tensor
        ):
            if kept is None:
                kept = list(values)
            kept[i] = stand_in(value)
    return values if kept is None else tuple(kept)


# dtype -> the read-only zero that stand-ins of that dtype view
_ZEROS: dict[Any, np.ndarray] = {}


def stand_in(tensor: Tensor) -> Tensor:
    """A tensor with ``tensor``'s id, shape and dtype, holding no values (zeros, read-only).

    >>> import numpy as np
    >>> t = Tensor(np.ones((2, 3)))
    >>> s = stand_in(t)
    >>> s._id == t._id, s.shape, is_stand_in(s._value), is_stand_in(t._value)
    (True, TensorShape([2, 3]), True, False)
    """
    value = tensor._value
    zero = _ZEROS.get(value.dtype)
    if zero is None:
        zero = np.zeros((), value.dtype)
        zero.flags.writeable = False
        zero = _ZEROS.setdefault(value.dtype, zero)
    standing = Tensor(np.ndarray(value.shape, value.dtype, zero, 0, (0,) * value.ndim))
    standing._id = tensor._id
    return standing


def is_stand_in(value: Any) -> bool:
    """Whether ``value`` (an array) stands in for a value a record dropped."""
    return (
        type(value) is np.ndarray
        and value.base is not None
        and value.base is _ZEROS.get(value.dtype)
    )
