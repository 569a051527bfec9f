"""What converted code calls (as ``ag__.<name>``): control flow that is Python's for Python
values and ``cond``/``while_loop`` for graph tensors, and the operators and helpers the
rewrite uses. Loops live in ``loops``.

>>> from retrograd.graph.autograph import operators as ag__
>>> ag__.and_(lambda: 0, lambda: 1 / 0), ag__.or_(lambda: 2, lambda: 1 / 0), ag__.not_([])
(0, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph import control_flow
from retrograd.graph.autograph.composites import read_part, store_part
from retrograd.graph.autograph.loops import for_stmt, range_, while_stmt
from retrograd.graph.autograph.values import (
    ReturnProbe,
    Undefined,
    bool_tensor,
    is_symbolic,
    ld,
    python_scalar,
    shown,
)
from retrograd.ops import array_ops, comparison_ops

__all__ = [
    "Undefined",
    "ld",
    "read_part",
    "store_part",
    "is_symbolic",
    "if_stmt",
    "if_exp",
    "and_",
    "or_",
    "not_",
    "converted",
    "len_",
    "while_stmt",
    "for_stmt",
    "range_",
]


# --- if -------------------------------------------------------------------------------------


def if_stmt(
    test: Any,
    body: Callable,
    orelse: Callable,
    get_state: Callable,
    set_state: Callable,
    names: tuple,
    live: tuple,
    line: int,
) -> None:
    """``if test: body() else: orelse()``; with a graph tensor ``test``, both run (traced)
    and the variables they assign (``names``) come out of a ``cond``."""
    if not is_symbolic(test):
        if test:
            body()
        else:
            orelse()
        return
    test = bool_tensor(test, "if", line)
    before = get_state()

    def branch(fn: Callable) -> Callable:
        def run() -> Any:
            set_state(before)
            fn()
            return get_state()

        return run

    then_graph, then_state = control_flow.trace_branch(branch(body), "then")
    else_graph, else_state = control_flow.trace_branch(branch(orelse), "else")
    results = list(before)
    then_leaves, else_leaves, slots = [], [], []  # slots: (name index, leaf index)
    structures = []
    for i, name in enumerate(names):
        a, b = then_state[i], else_state[i]
        if a is b:
            results[i] = a
            structures.append(None)
            continue
        if isinstance(a, ReturnProbe) or isinstance(b, ReturnProbe):
            results[i] = b if isinstance(a, ReturnProbe) else a  # what a return gives
            structures.append(None)
            continue
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            if name in live:
                missing = "else" if isinstance(b, Undefined) else "if"
                raise ValueError(_undefined_message(name, missing, line))
            results[i] = Undefined(name)
            structures.append(None)
            continue
        try:
            nest.assert_same_structure(a, b, check_types=False, expand_composites=True)
        except (TypeError, ValueError):
            raise TypeError(
                f"'{shown(name)}' has a different structure in the two branches of the if "
                f"at line {line} on a tensor: {a!r} and {b!r}"
            ) from None
        flat_a, flat_b = nest.flatten(a, True), nest.flatten(b, True)  # (TensorArrays: lists)
        leaves = list(flat_a)
        for j, (x, y) in enumerate(zip(flat_a, flat_b)):
            if x is y:
                continue
            tx, ty = _branch_tensors(name, x, y, then_graph, else_graph, line)
            then_leaves.append(tx)
            else_leaves.append(ty)
            slots.append((i, j))
        structures.append((a, leaves))
    if slots or then_graph.get_operations() or else_graph.get_operations():
        # (with no outputs, an If still runs what the branches do: assignments, prints)
        flat = control_flow.traced_cond(test, (then_graph, then_leaves), (else_graph, else_leaves))
        for (i, j), value in zip(slots, flat):
            structures[i][1][j] = value
    for i, structure in enumerate(structures):
        if structure is not None:
            like, leaves = structure
            structured = nest.is_nested(like) or nest.is_composite(like)
            results[i] = nest.pack_sequence_as(like, leaves, True) if structured else leaves[0]
    set_state(tuple(results))


def _undefined_message(name: str, branch: str, line: int) -> str:
    if name.startswith("ag__"):
        return (
            f"A `return` inside the if at line {line} on a tensor must be matched by a "
            f"`return` in the {branch} branch (AutoGraph cannot return from one branch only)"
        )
    return (
        f"'{name}' must also be initialized in the {branch} branch: the if at line {line} "
        f"depends on a tensor, so both branches run in the graph, and '{name}' is used "
        f"after it"
    )


def _branch_tensors(name: str, x: Any, y: Any, then_graph, else_graph, line: int) -> tuple:
    """Leaves ``x`` (true branch) and ``y`` (false branch) as tensors of the same dtype, made
    in their branch graphs."""
    tensor_like = (Tensor, Variable)
    if name.startswith("ag__ret") and (x is None or y is None):
        raise ValueError(_undefined_message(name, "else" if y is None else "if", line))
    if not (isinstance(x, tensor_like) or python_scalar(x)) or not (
        isinstance(y, tensor_like) or python_scalar(y)
    ):
        raise TypeError(
            f"'{shown(name)}' is {x!r} in the true branch and {y!r} in the false branch of "
            f"the if at line {line} on a tensor: values that differ between branches must be "
            f"tensors (or numbers)"
        )
    dtype = (
        x.dtype if isinstance(x, tensor_like) else y.dtype if isinstance(y, tensor_like) else None
    )
    with then_graph.as_default():
        tx = array_ops.identity(convert_to_tensor(x, dtype=dtype))
    with else_graph.as_default():
        ty = array_ops.identity(convert_to_tensor(y, dtype=tx.dtype))
    return tx, ty


def if_exp(test: Any, body: Callable, orelse: Callable) -> Any:
    """``body() if test else orelse()``; a ``cond`` for a graph tensor ``test``."""
    if not is_symbolic(test):
        return body() if test else orelse()
    return control_flow.cond(test, body, orelse)


# --- operators ------------------------------------------------------------------------------


def and_(left: Callable, right: Callable) -> Any:
    """``left() and right()``: Python's (lazy) for Python values, logical_and for tensors."""
    a = left()
    if is_symbolic(a):
        return comparison_ops.logical_and(a, right())
    if not a:
        return a
    b = right()
    if is_symbolic(b) and isinstance(a, Tensor):
        return comparison_ops.logical_and(a, b)
    return b


def or_(left: Callable, right: Callable) -> Any:
    """``left() or right()``: Python's (lazy) for Python values, logical_or for tensors."""
    a = left()
    if is_symbolic(a):
        return comparison_ops.logical_or(a, right())
    if a:
        return a
    b = right()
    if is_symbolic(b) and isinstance(a, Tensor):
        return comparison_ops.logical_or(a, b)
    return b


def not_(value: Any) -> Any:
    """``not value``: logical_not for a graph tensor."""
    if is_symbolic(value):
        return comparison_ops.logical_not(value)
    return not value


def len_(value: Any) -> Any:
    """``len(value)``; for a graph tensor, its first dimension (a tensor when unknown until
    the graph runs)."""
    if not is_symbolic(value):
        return len(value)
    shape = value._value.shape
    if shape is None or len(shape) == 0:
        raise TypeError(f"len() of a tensor of unknown rank or a scalar: {value!r}")
    return shape[0] if shape[0] is not None else array_ops.shape(value)[0]


def converted(f: Any) -> Any:
    """``f`` converted by AutoGraph when it is user code (see ``conversion.convert``)."""
    from retrograd.graph.autograph.conversion import convert_call

    return convert_call(f)
