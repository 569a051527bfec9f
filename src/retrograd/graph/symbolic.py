"""Symbolic gradients (TensorFlow's ``tf.gradients``): gradient ops added to a graph.

The registered gradient functions are called on the graph's operations while the graph is
current, so the ops they use are added to it; the backward walk is the one tapes use.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.constant(3.0)
...     y = x * x
...     (dy,) = rg.gradients(y, x)
>>> dy
<retrograd.Tensor 'gradients/AddN:0' shape=() dtype=float32>
>>> with rg.compat.v1.Session(graph=g) as sess:
...     print(sess.run(dy))
6.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from retrograd.autodiff.backprop import backward
from retrograd.autodiff.explain_graph import explained_symbolic
from retrograd.autodiff.state import state as autodiff_state
from retrograd.autodiff.tape_values import UnconnectedGradients, _policy
from retrograd.core import nest
from retrograd.core.annotations import TensorLike
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import Graph, SymbolicTensor
from retrograd.graph.graph_tensors import creation_order
from retrograd.ops import array_ops

__all__ = ["gradients", "hessians"]


def gradients(
    ys: TensorLike | Sequence[TensorLike],
    xs: TensorLike | Sequence[TensorLike],
    grad_ys: TensorLike | Sequence[TensorLike | None] | None = None,
    name: str = "gradients",
    gate_gradients: bool = False,
    aggregation_method: str | None = None,
    stop_gradients: TensorLike | Sequence[TensorLike] | None = None,
    unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
    explain: bool = False,
) -> list[Any]:
    """Symbolic d(sum of ys)/d(x) for each x in ``xs`` (a list, None where unconnected).

    ``grad_ys`` weights the ys; ``stop_gradients`` are treated as constants. Only valid
    while building a graph; eagerly, use GradientTape. ``explain=True`` (or the debugging
    switch ``explain_none_gradients``) warns why each None gradient is None
    (:mod:`retrograd.autodiff.explain_graph`).

    >>> import retrograd as rg
    >>> g = rg.Graph()
    >>> with g.as_default():
    ...     x = rg.constant(3.0)
    ...     y = x * x
    ...     dx, = rg.gradients(y, [x])
    >>> dx.graph is g
    True
    """
    policy = _policy(unconnected_gradients)
    ys, xs = nest.flatten(ys), nest.flatten(xs)
    graph = _graph_of(ys)
    for i, x in enumerate(xs):
        if not isinstance(x, (Tensor, Variable)):
            raise TypeError(f"gradients: xs[{i}] must be a tensor or a Variable, got {x!r}")
        if isinstance(x, SymbolicTensor) and x.graph is not graph and not graph._encloses(x.graph):
            raise ValueError(
                f"gradients: {x!r} (xs[{i}]) must be from the same graph as the ys ({graph!r})"
            )
    # An eager tensor used in the graph became a constant there: differentiate with respect
    # to that constant (a tensor never captured is simply not connected).
    xs = [graph.captured(x) if type(x) is Tensor else x for x in xs]
    stops = {t._id for t in nest.flatten(stop_gradients)} if stop_gradients is not None else set()
    with graph.as_default(), graph.name_scope(name):
        seeds = _seeds(ys, grad_ys)
        tracked = _producers(ys, stops)
        if explain or autodiff_state.explain_none:
            grads = explained_symbolic(
                dict(tracked),
                ys,
                xs,
                stops,
                lambda: backward(tracked, ys, seeds, xs, graph_map=True, sparse=True),
            )
        else:
            grads = backward(tracked, ys, seeds, xs, graph_map=True, sparse=True)
        if policy is UnconnectedGradients.ZERO:
            grads = [array_ops.zeros_like(x) if g is None else g for g, x in zip(grads, xs)]
    return grads


def hessians(
    ys: TensorLike | Sequence[TensorLike],
    xs: TensorLike | Sequence[TensorLike],
    gate_gradients: bool = False,
    aggregation_method: str | None = None,
    name: str = "hessians",
) -> list[Any]:
    """The Hessian of ``sum(ys)`` with respect to each x in ``xs`` (shape ``x.shape +
    x.shape``), row by row with symbolic gradients; each x needs a static shape. As
    ``gradients``, it builds ops in a graph (inside ``function`` or a ``Graph``).

    >>> import retrograd as rg
    >>> @rg.function
    ... def h(x):
    ...     return rg.hessians(rg.reduce_sum(x ** 3), x)[0]
    >>> h(rg.constant([1.0, 2.0])).numpy().tolist()
    [[6.0, 0.0], [0.0, 12.0]]
    """
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    first = gradients(ys, xs, name=name, gate_gradients=gate_gradients,
                      aggregation_method=aggregation_method)  # fmt: skip
    out: list[Any] = []
    for i, (x, grad) in enumerate(zip(xs, first)):
        dims = x.shape
        if not dims.is_fully_defined():
            raise ValueError(
                f"hessians: xs[{i}] has shape {dims}; retrograd needs its shape fully defined"
            )
        if grad is None:
            out.append(None)
            continue
        flat = array_ops.reshape(grad, [-1])
        rows = []
        for k in range(dims.num_elements()):
            (row,) = gradients(flat[k], [x], name=name)
            rows.append(array_ops.zeros_like(x) if row is None else row)
        out.append(array_ops.reshape(array_ops.stack(rows), [*dims.as_list(), *dims.as_list()]))
    return out


def _graph_of(ys: list) -> Graph:
    for y in ys:
        if isinstance(y, SymbolicTensor):
            return y.graph
    if context.graph is not None:
        return context.graph
    raise RuntimeError(
        "retrograd.gradients is not supported when eager execution is enabled. Use "
        "retrograd.GradientTape instead."
    )


def _seeds(ys: list, grad_ys: Any) -> list:
    given = [None] * len(ys) if grad_ys is None else nest.flatten(grad_ys)
    if len(given) != len(ys):
        raise ValueError(f"gradients: grad_ys has {len(given)} element(s) for {len(ys)} y(s)")
    seeds = []
    for y, g in zip(ys, given):
        if not isinstance(y, (Tensor, Variable)):
            raise TypeError(f"gradients: ys must be tensors, got {y!r}")
        if y.dtype.is_trainable:
            seeds.append(
                array_ops.ones_like(y) if g is None else convert_to_tensor(g, dtype=y.dtype)
            )
        else:
            seeds.append(None)
    return seeds


def _producers(ys: list, stops: set[int]) -> dict[int, Any]:
    """tensor id -> the op that produced it, for the part of the graph the ys depend on,
    in the order the ops were created (the order the backward walk expects)."""
    found: dict[int, Any] = {}
    stack = [y for y in ys if isinstance(y, SymbolicTensor)]
    while stack:
        t = stack.pop()
        if t._id in stops or id(t.op) in found:
            continue
        op = found[id(t.op)] = t.op
        stack.extend(v for v in op.inputs if isinstance(v, SymbolicTensor))
    tracked: dict[int, Any] = {}
    for op in sorted(found.values(), key=creation_order):
        for out in op.outputs:
            if out._id not in stops:
                tracked[out._id] = op
    return tracked
