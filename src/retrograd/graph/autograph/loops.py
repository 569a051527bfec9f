"""Converted loops: Python loops for Python values, ``while_loop`` for graph tensors.

``while_stmt`` looks at the first value of the condition: a graph tensor makes the loop a
``while_loop`` whose loop variables are the variables the body assigns that hold tensors (or
numbers) before the loop; anything else runs as Python. ``for_stmt`` iterates Python
iterables (and eager tensors) in Python, and graph tensors and ``range`` with a tensor bound
by a ``while_loop`` over an index.

>>> from retrograd.graph.autograph.loops import range_
>>> range_(3)
range(0, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.core.tensor import Tensor, constant_value, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph import control_flow
from retrograd.graph.autograph.values import (
    ReturnProbe,
    Undefined,
    bool_tensor,
    is_symbolic,
    python_scalar,
    shown,
)
from retrograd.graph.graph import Graph, constant
from retrograd.ops import array_ops, comparison_ops, gather_ops

__all__ = ["while_stmt", "for_stmt", "range_", "TensorRange"]


class TensorRange:
    """``range(start, stop, step)`` with a graph tensor among its bounds."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, start: Any, stop: Any, step: Any) -> None:
        self.start, self.stop, self.step = start, stop, step


def range_(*args: Any) -> Any:
    """Python's ``range``, or a ``TensorRange`` when a bound is a graph tensor."""
    if not any(is_symbolic(a) for a in args):
        return range(*args)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    return TensorRange(start, stop, step)


def while_stmt(
    test: Callable,
    body: Callable,
    get_state: Callable,
    set_state: Callable,
    names: tuple,
    live: tuple,
    line: int,
) -> None:
    """``while test(): body()``; a ``while_loop`` when the condition is a graph tensor."""
    first = test()
    if not is_symbolic(first):
        while first:
            body()
            first = test()
            if is_symbolic(first):
                break  # the rest of the loop runs in the graph, from the state reached
        else:
            return
    _graph_loop(test, body, get_state, set_state, names, live, "while loop", line)


def _graph_loop(
    test: Callable,
    body: Callable,
    get_state: Callable,
    set_state: Callable,
    names: tuple,
    live: tuple,
    construct: str,
    line: int,
) -> None:
    before = list(get_state())
    _initialise_return_value(body, get_state, set_state, names, before)
    carried = []  # indices of the loop variables
    for i, (name, value) in enumerate(zip(names, before)):
        if isinstance(value, Undefined):
            if name in live and not name.startswith("ag__"):
                raise ValueError(
                    f"'{name}' must be defined before the {construct} at line {line}: the loop "
                    f"runs in the graph (its condition is a tensor) and '{name}' is used after it"
                )
            continue  # a temporary of the body
        # (a composite, a TensorArray, is carried as its tensors)
        leaves = nest.flatten(value, expand_composites=True)
        if leaves and all(isinstance(v, (Tensor, Variable)) or python_scalar(v) for v in leaves):
            before[i] = nest.pack_sequence_as(value, [_as_tensor(v) for v in leaves], True) \
                if _structured(value) else _as_tensor(value)  # fmt: skip
            carried.append(i)
    structures = [before[i] for i in carried]

    def state_of(flat: list) -> list:
        state = [Undefined(n) if isinstance(v, Undefined) else v for n, v in zip(names, before)]
        leaves = iter(flat)
        for i, like in zip(carried, structures):
            count = len(nest.flatten(like, expand_composites=True))
            part = [next(leaves) for _ in range(count)]
            state[i] = nest.pack_sequence_as(like, part, True) if _structured(like) else part[0]
        return state

    def cond(*flat: Any) -> Any:
        set_state(tuple(state_of(list(flat))))
        return bool_tensor(convert_to_tensor(test()), construct, line)

    def step(*flat: Any) -> list:
        set_state(tuple(state_of(list(flat))))
        body()
        after = get_state()
        out = []
        for i, (name, value) in enumerate(zip(names, after)):
            if i in carried:
                like = nest.flatten(before[i], expand_composites=True)
                new = (
                    nest.flatten(value, expand_composites=True)
                    if not isinstance(value, Undefined)
                    else None
                )
                if new is None or len(new) != len(like):
                    raise TypeError(
                        f"'{shown(name)}' changes structure inside the {construct} at line "
                        f"{line}: it enters as {before[i]!r} and leaves as {value!r}"
                    )
                out.extend(_as_tensor(v, like=old) for v, old in zip(new, like))
            elif not isinstance(before[i], Undefined) and value is not before[i]:
                raise TypeError(
                    f"'{shown(name)}' holds a Python {type(before[i]).__name__} that the "
                    f"{construct} at line {line} changes; a loop that runs in the graph can only "
                    f"change tensors (and numbers) in its variables"
                )
        return out

    flat_before = [leaf for i in carried for leaf in nest.flatten(before[i], True)]
    try:
        finals = control_flow.while_loop(cond, step, flat_before) if flat_before else None
    except (TypeError, ValueError) as e:
        carried_names = ", ".join(names[i] for i in carried)
        raise type(e)(
            f"{e} (the {construct} at line {line}; loop variables: {carried_names})"
        ) from None
    if finals is None:
        raise ValueError(
            f"The {construct} at line {line} runs in the graph but changes no tensor: it "
            f"would never end"
        )
    set_state(tuple(state_of(list(finals) if isinstance(finals, (list, tuple)) else [finals])))


def _structured(value: Any) -> bool:
    return nest.is_nested(value) or nest.is_composite(value)


def _as_tensor(value: Any, like: Any = None) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return convert_to_tensor(value, dtype=None if like is None else like.dtype)


def _initialise_return_value(body, get_state, set_state, names, before) -> None:
    """A ``return`` inside a graph loop: the return value needs a value before the loop, of
    the dtype and shape the body gives it. A trial trace of the body finds them."""
    slots = [i for i, n in enumerate(names) if n == "ag__retval" and before[i] is None]
    if not slots:
        return
    trial = list(before)
    for i in slots:
        trial[i] = ReturnProbe()
    with Graph(outer=_current_graph()).as_default():
        set_state(tuple(trial))
        body()
        probed = get_state()
    set_state(tuple(before))
    for i in slots:
        value = probed[i]
        if isinstance(value, (Tensor, Variable)) and value._value.shape is not None:
            before[i] = array_ops.zeros(value._value.shape, dtype=value.dtype)


def _current_graph() -> Graph:
    from retrograd.core.execute import context

    return context.graph


def for_stmt(
    iterated: Any,
    stop: Callable | None,
    body: Callable,
    get_state: Callable,
    set_state: Callable,
    names: tuple,
    live: tuple,
    line: int,
) -> None:
    """``for item in iterated: body(item)`` (ending early when ``stop()``)."""
    if not isinstance(iterated, TensorRange) and not is_symbolic(iterated):
        for item in iterated:
            body(item)
            if stop is not None:
                done = stop()
                if is_symbolic(done):
                    raise TypeError(
                        f"The for loop at line {line} iterates a Python value but a break or "
                        f"return inside it depends on a tensor; iterate a tensor (or "
                        f"range of a tensor) to make it a graph loop"
                    )
                if done:
                    break
        return
    op = getattr(iterated, "op", None)
    if op is not None and op.type == "Range" and len(op.inputs) == 3:
        iterated = TensorRange(*op.inputs)  # tf.range(...): count, rather than index a tensor
    if isinstance(iterated, TensorRange):
        stop_at = convert_to_tensor(iterated.stop)
        start = iterated.start
        index = start if isinstance(start, Tensor) else constant(start, dtype=stop_at.dtype)
        step = iterated.step
        if is_symbolic(step):
            try:
                step = constant_value(step).item()  # a constant step: known while building
            except ValueError:
                step = None
        if step is None:
            raise TypeError(f"The for loop at line {line}: range() with a tensor step is not "
                            f"supported; give the step as a Python number")  # fmt: skip

        def item(i: Any) -> Any:
            return i

        def more(i: Any) -> Any:
            return i < stop_at if step > 0 else i > stop_at
    else:
        tensor = iterated
        shape = tensor._value.shape
        if shape is None or len(shape) == 0:
            raise TypeError(
                f"The for loop at line {line} iterates a tensor of unknown rank or a scalar "
                f"({tensor!r}); it needs at least one dimension"
            )
        length = shape[0] if shape[0] is not None else array_ops.shape(tensor)[0]
        index, step = constant(0), 1

        def item(i: Any) -> Any:
            return gather_ops.gather(tensor, i)

        def more(i: Any) -> Any:
            return i < length

    counter = [index]

    def test() -> Any:
        going = more(counter[0])
        if stop is not None:
            going = comparison_ops.logical_and(going, comparison_ops.logical_not(
                convert_to_tensor(stop())))  # fmt: skip
        return going

    def step_body() -> None:
        i = counter[0]
        counter[0] = i + step
        body(item(i))

    def get() -> tuple:
        return (*get_state(), counter[0])

    def put(values: tuple) -> None:
        set_state(values[:-1])
        counter[0] = values[-1]

    _graph_loop(test, step_body, get, put, (*names, "ag__index"), live, "for loop", line)
