"""``cond`` and ``while_loop``: control flow that works eagerly, in graphs and under tapes.

Eagerly they are Python's ``if`` and ``while``: the ops that run are recorded like any
others. In a graph, ``cond`` adds an ``If`` op holding both branches traced as functions,
and ``while_loop`` a ``While`` op holding the traced condition and body. Their gradients
are built from the same parts: the gradient of ``If`` is a ``cond`` between the branches'
gradient functions; the gradient of ``While`` runs the loop again keeping each
iteration's values, then a backward ``While`` walks them in reverse, calling the body's
gradient function once per iteration. Both are differentiable again.

>>> import retrograd as rg
>>> @rg.function
... def power(x, n):
...     i, y = rg.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), [0, 1.0])
...     return y
>>> x = rg.constant(2.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = power(x, rg.constant(5))
>>> print(y.numpy(), tape.gradient(y, x).numpy())
32.0 80.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

import numpy as np

from retrograd.core import backends, nest
from retrograd.core.annotations import SupportsArray, TensorLike
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph import traced_bodies
from retrograd.graph.concrete_function import ConcreteFunction
from retrograd.graph.graph import Graph
from retrograd.graph.loop_vars import (
    as_list,
    as_loop_tensor,
    check_body,
    invariant_leaves,
    same_structure,
)
from retrograd.ops import array_ops, math_ops

_T = TypeVar("_T")

__all__ = ["cond", "while_loop", "traced_cond", "trace_branch"]


# --- cond ------------------------------------------------------------------------------------


def cond(
    pred: TensorLike,
    true_fn: Callable[[], _T] | None = None,
    false_fn: Callable[[], _T] | None = None,
    name: str | None = None,
) -> _T:
    """``true_fn()`` if ``pred`` else ``false_fn()`` — in a graph, decided when it runs.

    Both functions take no arguments and must return the same structure of tensors.

    >>> import retrograd as rg
    >>> rg.cond(rg.constant(True), lambda: rg.constant(1), lambda: rg.constant(2)).numpy().tolist()
    1
    """
    if true_fn is None or false_fn is None:
        raise TypeError("cond: true_fn and false_fn are both required")
    if pred is None:
        raise ValueError(
            "cond: Attempt to convert a value (None) with an unsupported type "
            "(<class 'NoneType'>) to a Tensor (pred must be a bool or a scalar bool tensor)"
        )
    if context.graph is None:
        return true_fn() if bool(pred) else false_fn()
    pred = convert_to_tensor(pred)
    if pred.dtype.name != "bool" or pred._value.shape not in ((), None):
        raise TypeError(
            f"cond: pred must be a scalar bool tensor, got {pred.dtype.name}{pred.shape}"
        )
    then_graph, _, then_out = traced_bodies.trace(lambda: true_fn(), [], "then")
    else_graph, _, else_out = traced_bodies.trace(lambda: false_fn(), [], "else")
    try:
        nest.assert_same_structure(then_out, else_out)
    except (TypeError, ValueError) as e:
        raise ValueError(
            f"cond: true_fn and false_fn must return the same structure: {e}"
        ) from None
    then_leaves = traced_bodies.tensor_leaves(then_out, "cond: true_fn")
    traced_bodies.tensor_leaves(else_out, "cond: false_fn")
    flat = traced_cond(pred, (then_graph, then_out), (else_graph, else_out), name)
    results = iter(flat)
    return nest.pack_sequence_as(
        then_out, [None if leaf is None else next(results) for leaf in then_leaves]
    )


def traced_cond(pred: Tensor, then: tuple, otherwise: tuple, name: str | None = None) -> Any:
    """The ``If`` op over two branches already traced by ``trace_branch``: ``then`` and
    ``otherwise`` are ``(graph, outputs)`` with outputs of the same structure (None leaves
    where neither branch has a value); returns the op's flat outputs."""
    (then_graph, then_out), (else_graph, else_out) = then, otherwise
    then_out, else_out = (
        traced_bodies.own_outputs(then_graph, then_out),
        traced_bodies.own_outputs(else_graph, else_out),
    )
    then_leaves, else_leaves = nest.flatten(then_out), nest.flatten(else_out)
    for i, (a, b) in enumerate(zip(then_leaves, else_leaves)):
        if (a is None) != (b is None) or (a is not None and a.dtype != b.dtype):
            raise TypeError(
                f"cond: output {i} of true_fn ({_describe(a)}) and false_fn ({_describe(b)}) differ"
            )
    captures = traced_bodies.union_captures(then_graph, else_graph)
    variables = traced_bodies.union_variables(then_graph, else_graph)
    then_fn = traced_bodies.traced_function(
        then_graph, [], then_out, captures, variables, "cond_true"
    )
    else_fn = traced_bodies.traced_function(
        else_graph, [], else_out, captures, variables, "cond_false"
    )
    attrs = {"then_branch": then_fn, "else_branch": else_fn}
    op = _If if _stateful(then_fn, else_fn) else _StatelessIf
    return execute(op, [pred, *captures, *variables], attrs, name)


def trace_branch(fn: Callable, name: str) -> tuple[Graph, Any]:
    """Traces ``fn()`` in a graph nested in the current one: ``(graph, outputs)``."""
    graph, _, outputs = traced_bodies.trace(fn, [], name)
    return graph, outputs


def _describe(t: Any) -> str:
    return "None" if t is None else f"{t.dtype.name}{t.shape}"


def _if_kernel(
    pred: Any, *values: Any, then_branch: ConcreteFunction, else_branch: ConcreteFunction
) -> tuple:
    return tuple((then_branch if pred else else_branch)._run(values))


def _if_shapes(metas: list, then_branch: ConcreteFunction, else_branch: ConcreteFunction) -> list:
    return traced_bodies.merged_specs(then_branch.output_specs(), else_branch.output_specs())


# As in TensorFlow: `If`/`While` are stateful (a branch or body assigns a variable or prints:
# they run even when nothing uses their outputs); `StatelessIf`/`StatelessWhile` are not.
_If = define_op("If", _if_kernel, multi_output=True, shape_fn=_if_shapes, stateful=True)
_StatelessIf = define_op("StatelessIf", _if_kernel, multi_output=True, shape_fn=_if_shapes)


def _stateful(*functions: ConcreteFunction) -> bool:
    """Whether a traced branch or body has an op with effects (assignments, prints)."""
    return any(
        op.op_def.stateful for f in functions for op in f.graph.get_operations()[: f._forward_ops]
    )


# Element kinds gradients flow through: floats, complex numbers and variants (a TensorArray's
# list, whose gradient is a list of its elements' gradients).
_DIFFERENTIABLE = "fcO"


def _dense(grads: list, inputs: tuple) -> list:
    """Gradients with zeros for unconnected floating inputs, so both branches agree."""
    return [
        array_ops.zeros_like(x) if g is None and x._value.dtype.kind in _DIFFERENTIABLE else g
        for g, x in zip(grads, inputs)
    ]


@op_gradient("StatelessIf")
def _if_grad(op, *upstream):
    then_fn, else_fn = op.get_attr("then_branch"), op.get_attr("else_branch")
    captured = op.inputs[1 : 1 + len(then_fn.inputs)]
    upstream = [array_ops.zeros_like(y) if g is None else g for g, y in zip(upstream, op.outputs)]
    targets = op.inputs[1:]

    def branch(fn: ConcreteFunction) -> Callable:
        return lambda: _dense(list(fn.backward_function()(*captured, *upstream)), targets)

    return [None, *cond(op.inputs[0], branch(then_fn), branch(else_fn))]


# --- while_loop ------------------------------------------------------------------------------


# The loop variables come back as tensors in the structure the body returns (as in
# TensorFlow): a body returning a tuple or a list of values gives a tuple or a list of
# tensors; other structures (one tensor, dicts, nested) are typed as the body returns them.
_LoopValue = Tensor | Variable | SupportsArray | float | complex


@overload
def while_loop(
    cond: Callable[..., TensorLike],
    body: Callable[..., tuple[_LoopValue, ...]],
    loop_vars: Any,
    shape_invariants: Any = ...,
    parallel_iterations: int = ...,
    back_prop: bool = ...,
    swap_memory: bool = ...,
    maximum_iterations: TensorLike | None = ...,
    name: str | None = ...,
) -> tuple[Tensor, ...]: ...
@overload
def while_loop(
    cond: Callable[..., TensorLike],
    body: Callable[..., list[_LoopValue]],
    loop_vars: Any,
    shape_invariants: Any = ...,
    parallel_iterations: int = ...,
    back_prop: bool = ...,
    swap_memory: bool = ...,
    maximum_iterations: TensorLike | None = ...,
    name: str | None = ...,
) -> list[Tensor]: ...
@overload
def while_loop(
    cond: Callable[..., TensorLike],
    body: Callable[..., _T],
    loop_vars: Any,
    shape_invariants: Any = ...,
    parallel_iterations: int = ...,
    back_prop: bool = ...,
    swap_memory: bool = ...,
    maximum_iterations: TensorLike | None = ...,
    name: str | None = ...,
) -> _T: ...
def while_loop(
    cond: Callable[..., TensorLike],
    body: Callable[..., Any],
    loop_vars: Any,
    shape_invariants: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    maximum_iterations: TensorLike | None = None,
    name: str | None = None,
) -> Any:
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (at most
    ``maximum_iterations`` times); returns the final loop variables in their structure.

    In a graph, the body must keep each loop variable's dtype and shape (or stay within
    ``shape_invariants``, where None marks a dimension that may change).

    >>> import retrograd as rg
    >>> i, total = rg.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), [0, 0])
    >>> i.numpy().tolist(), total.numpy().tolist()
    (4, 6)
    """
    limit = None if maximum_iterations is None else int(maximum_iterations)
    if context.graph is None:
        # Loop variables are tensors, as in TensorFlow (a Python 0 comes back as int32).
        loop_vars = nest.map_structure(as_loop_tensor, loop_vars)
        count = 0
        while (limit is None or count < limit) and bool(cond(*as_list(loop_vars))):
            result = same_structure(loop_vars, body(*as_list(loop_vars)))
            loop_vars = nest.map_structure(as_loop_tensor, result)
            count += 1
        return loop_vars
    # Composites (a TensorArray) enter the loop as their component tensors (its list).
    flat = [convert_to_tensor(v) for v in nest.flatten(loop_vars, expand_composites=True)]
    if shape_invariants is None:
        invariants = [v._value.shape for v in flat]
    else:
        invariants = invariant_leaves(loop_vars, shape_invariants)  # fmt: skip
    specs = [(v.dtype, shape) for v, shape in zip(flat, invariants)]

    def structured(fn: Callable) -> Callable:
        return lambda *xs: fn(*as_list(nest.pack_sequence_as(loop_vars, list(xs), True)))

    cond_graph, cond_inputs, cond_out = traced_bodies.trace(structured(cond), specs, "loop_var")
    body_graph, body_inputs, body_out = traced_bodies.trace(
        lambda *xs: nest.flatten(same_structure(loop_vars, structured(body)(*xs)), True),
        specs,
        "loop_var",
    )
    check_body(flat, invariants, body_out)
    cond_out = traced_bodies.own_outputs(cond_graph, convert_to_tensor(cond_out))
    body_out = traced_bodies.own_outputs(body_graph, body_out)
    captures = traced_bodies.union_captures(cond_graph, body_graph)
    variables = traced_bodies.union_variables(cond_graph, body_graph)
    cond_fn = traced_bodies.traced_function(
        cond_graph, cond_inputs, [cond_out], captures, variables, "while_cond"
    )
    body_fn = traced_bodies.traced_function(
        body_graph, body_inputs, body_out, captures, variables, "while_body"
    )
    attrs = {
        "cond": cond_fn,
        "body": body_fn,
        "n_vars": len(flat),
        "maximum_iterations": limit,
        "keep_history": False,
    }
    op = _While if _stateful(cond_fn, body_fn) else _StatelessWhile
    finals = execute(op, [*flat, *captures, *variables], attrs, name)
    return nest.pack_sequence_as(loop_vars, list(finals), expand_composites=True)


def _while_kernel(*values, cond, body, n_vars, maximum_iterations, keep_history):
    state = list(values[:n_vars])
    captured = values[n_vars : n_vars + len(body.inputs) - n_vars]
    history: list[list] = [[] for _ in state]
    count = 0
    while (maximum_iterations is None or count < maximum_iterations) and cond._run(
        (*state, *captured)
    )[0]:
        if keep_history:
            for kept, value in zip(history, state):
                kept.append(value)
        state = list(body._run((*state, *captured)))
        count += 1
    if not keep_history:
        return tuple(state)
    stacks = [
        np.stack(kept) if kept else backends.namespace_of(v).zeros((0, *np.shape(v)), v.dtype)
        for kept, v in zip(history, values[:n_vars])
    ]
    return (*state, np.int32(count), *stacks)


def _while_shapes(metas, cond, body, n_vars, maximum_iterations, keep_history):
    finals = [(t._value.shape, t._value.dtype) for t in body.inputs[:n_vars]]  # the invariants
    if not keep_history:
        return finals
    stacks = [(None if s is None else (None, *s), d) for s, d in finals]
    return [*finals, ((), np.dtype(np.int32)), *stacks]


_While = define_op("While", _while_kernel, multi_output=True, shape_fn=_while_shapes, stateful=True)
_StatelessWhile = define_op(
    "StatelessWhile", _while_kernel, multi_output=True, shape_fn=_while_shapes
)


# Reading iteration k of a loop's kept values, and its gradient: k's slot of zeros.
def _history_get_kernel(history, k):
    return history[int(k)]


def _history_put_kernel(grad, k, like):
    out = np.zeros_like(grad, shape=np.shape(like))
    out[int(k)] = grad
    return out


_LoopHistoryGet = define_op(
    "LoopHistoryGet",
    _history_get_kernel,
    shape_fn=lambda metas: [
        (None if metas[0].shape is None else metas[0].shape[1:], metas[0].dtype)
    ],
)
_LoopHistoryPut = define_op(
    "LoopHistoryPut", _history_put_kernel, shape_fn=lambda metas: [(metas[2].shape, metas[0].dtype)]
)


@op_gradient("LoopHistoryGet")
def _history_get_grad(op, grad):
    history, k = op.inputs
    return execute(_LoopHistoryPut, (grad, k, history)), None


@op_gradient("LoopHistoryPut")
def _history_put_grad(op, grad):
    return execute(_LoopHistoryGet, (grad, op.inputs[1])), None, None


@op_gradient("StatelessWhile")
def _while_grad(op, *upstream):
    attrs = op.attrs
    n = attrs["n_vars"]
    body_fn: ConcreteFunction = attrs["body"]
    captured = list(op.inputs[n : len(body_fn.inputs)])
    variables = list(op.inputs[len(body_fn.inputs) :])
    if attrs["keep_history"]:
        finals, count, stacks = op.outputs[:n], op.outputs[n], op.outputs[n + 1 :]
        stack_upstream = list(upstream[n + 1 :])
    else:  # run the loop again, keeping each iteration's values
        loop = _While if op.type == "While" else _StatelessWhile
        rerun = execute(loop, list(op.inputs), dict(attrs, keep_history=True))
        finals, count, stacks = rerun[:n], rerun[n], rerun[n + 1 :]
        stack_upstream = [None] * n
    grads = [array_ops.zeros_like(y) if g is None else g for g, y in zip(upstream[:n], finals)]
    trainable = [x._value.dtype.kind in _DIFFERENTIABLE for x in [*captured, *variables]]
    sums = [array_ops.zeros_like(x) for x, t in zip([*captured, *variables], trainable) if t]
    backward = body_fn.backward_function()

    def step(k, *carried):
        g_vars, g_sums = list(carried[:n]), list(carried[n:])
        values = [execute(_LoopHistoryGet, (stack, k)) for stack in stacks]
        step_grads = _dense(
            list(backward(*values, *captured, *g_vars)), [*values, *captured, *variables]
        )
        # Integer loop variables carry no gradient: they keep their zeros.
        g_vars = [g if g is not None else old for g, old in zip(step_grads[:n], g_vars)]
        for i, up in enumerate(stack_upstream):  # upstream on iteration k's kept inputs
            if up is not None and g_vars[i]._value.dtype.kind in _DIFFERENTIABLE:
                g_vars[i] = math_ops.add_n([g_vars[i], execute(_LoopHistoryGet, (up, k))])
        new_sums = iter(g_sums)  # (add_n: lists of a TensorArray add up too)
        g_sums = [
            math_ops.add_n([next(new_sums), g]) for g, t in zip(step_grads[n:], trainable) if t
        ]
        return (k - 1, *g_vars, *g_sums)

    start = count - 1
    results = while_loop(lambda k, *rest: k >= 0, step, [start, *grads, *sums])
    initial_grads = [
        g if x._value.dtype.kind in _DIFFERENTIABLE else None
        for g, x in zip(results[1 : 1 + n], op.inputs[:n])
    ]
    sum_iter = iter(results[1 + n :])
    other_grads = [next(sum_iter) if t else None for t in trainable]
    return [*initial_grads, *other_grads]


op_gradient("If")(_if_grad)  # the stateful forms differentiate alike
op_gradient("While")(_while_grad)
