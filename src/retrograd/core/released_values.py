"""Large values that no gradient function reads are freed as soon as the program drops them.

A tape keeps every op it records, and each record keeps its inputs and outputs, so that
gradient functions can read them. Many read only some: ``Sin``'s reads its input, not its
output; ``Exp``'s its output, not its input; ``Sum``'s only its input's shape. Op
definitions declare which values their gradient functions never read
(:func:`declare_unread`, beside the gradient function, as TensorFlow keeps such lists for
its backprop).

A large output that the producing op's gradient does not read becomes a *candidate* of the
recording tape. Each later record that uses it either reads it (it stops being a
candidate: it must stay whole) or counts as one more holder that does not. When the
references to the tensor are exactly the counted records and no weak reference exists
(the program holds it no more: nothing can read it but those records), its array is
replaced by a *stand-in*: a read-only view of one zero with the same shape and dtype,
using no memory. The tensor object stays
(its identity is what tapes key on) and every record still sees its shape and dtype.

Candidates are checked before ops on large arrays run (freeing memory before the next
allocation) and when a gradient is computed. Only a tape recording alone takes candidates;
when several tapes or observers record, candidates are dropped (nothing is freed).

>>> import numpy as np, retrograd as rg
>>> x = rg.constant(np.ones(1 << 17, np.float32))
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.reduce_sum(rg.sin(x))  # sin(x), dropped at once, is freed
>>> round(float(tape.gradient(y, x)[0]), 5)  # cos(1)
0.5403
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from retrograd.core.execute import OP_DEFS, context

__all__ = [
    "LARGE",
    "declare_unread",
    "is_stand_in",
    "note_record",
    "release_dropped",
    "refuse_freed_values",
]

_F = TypeVar("_F")

LARGE = 1 << 18  # bytes: arrays at least this large are worth freeing early
_MOST_CANDIDATES = 64  # per tape: checking them stays cheap

_ZEROS: dict[Any, np.ndarray] = {}  # dtype -> the read-only zero its stand-ins view


def declare_unread(op_type: str, inputs: tuple = (), outputs: tuple = ()) -> Callable[[_F], _F]:
    """Declares that the gradient function of ``op_type`` never reads the values of these
    inputs and outputs (by index): only their shapes and dtypes. Used as a decorator of
    the gradient function (it returns the function unchanged).

    Only retrograd's own gradient functions are declared; registering another function for
    the op type (``RegisterGradient`` after ``unregister``) withdraws the declaration.

    >>> from retrograd.core.execute import OP_DEFS, context
    >>> OP_DEFS["Sin"].unread
    (frozenset(), frozenset({0}))
    """
    OP_DEFS[op_type].unread = (frozenset(inputs), frozenset(outputs))
    return lambda fn: fn


def stand_in(value: np.ndarray) -> np.ndarray:
    """A read-only array with the shape and dtype of ``value``, viewing one zero."""
    zero = _ZEROS.get(value.dtype)
    if zero is None:
        zero = np.zeros((), value.dtype)
        zero.flags.writeable = False
        _ZEROS[value.dtype] = zero
    return np.ndarray(value.shape, value.dtype, zero, 0, (0,) * value.ndim)


def is_stand_in(value: Any) -> bool:
    """Whether ``value`` (an array) stands in for a freed one (shape and dtype only).

    >>> import numpy as np
    >>> is_stand_in(stand_in(np.ones(3))), is_stand_in(np.zeros(3))
    (True, False)
    """
    return (
        type(value) is np.ndarray
        and value.base is not None
        and value.base is _ZEROS.get(value.dtype)
    )


def note_record(tape: Any, op: Any, record: Any) -> None:
    """Called for each record ``tape`` makes alone while it has candidates or ``op``
    declares unread values: updates the candidates with the record's inputs, and adds its
    large unread outputs."""
    candidates = tape._candidates
    unread = op.unread
    overrides = context.gradient_overrides
    if unread is not None and overrides and op.type in overrides:
        unread = None  # another gradient function is in force: it may read anything
    if candidates:
        inputs = record.inputs
        for i in range(len(inputs)):
            entry = candidates.get(id(inputs[i]))
            if entry is not None:
                if unread is None or i not in unread[0]:
                    del candidates[id(inputs[i])]  # this record reads it: it stays whole
                else:
                    entry[1] += 1
    if unread is not None and unread[1]:
        outputs = record.outputs
        for j in unread[1]:
            value = outputs[j]._value
            if (
                type(value) is np.ndarray
                and value.nbytes >= LARGE
                and len(candidates) < _MOST_CANDIDATES
            ):
                candidates[id(outputs[j])] = [outputs[j], 1]


def _sole_references() -> int:
    """What ``sys.getrefcount`` reports in ``release_dropped`` for a candidate that only its
    entry holds (its entry's slot, the local name, the call's argument)."""
    entry = [object(), 0]
    tensor = entry[0]
    return sys.getrefcount(tensor)


def release_dropped(candidates: dict) -> None:
    """Frees the arrays of the candidates that only their counted records hold."""
    for key, entry in list(candidates.items()):
        tensor = entry[0]
        if sys.getrefcount(tensor) == entry[1] + _BASE and not weakref.getweakrefcount(tensor):
            tensor._value = stand_in(tensor._value)
            del candidates[key]


_BASE = _sole_references()


def refuse_freed_values(op: Any, rule: Any) -> None:
    """Raises ValueError when ``rule``, not retrograd's own gradient function of ``op``,
    is about to run on a record whose values were freed because retrograd's did not read
    them (an override entered after the forward computation ran)."""
    for kind, values in (("input", op.inputs), ("output", op.outputs)):
        for i, value in enumerate(values):
            if is_stand_in(getattr(value, "_value", None)):
                raise ValueError(
                    f"The gradient function of op '{op.name}' (type {op.type}) is overridden "
                    f"by {getattr(rule, '__qualname__', rule)!r}, but the value of its {kind} "
                    f"{i} was freed during the forward computation, because retrograd's own "
                    f"gradient function does not read it. Enter the override "
                    f"(retrograd.gradient_override) before running the forward computation."
                )
