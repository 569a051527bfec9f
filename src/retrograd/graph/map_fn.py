"""``tf.map_fn`` and ``tf.vectorized_map``: apply a function to each slice of ``elems``
along its first axis and stack the results.

``map_fn`` runs the function once per slice (eagerly, or unrolled into the graph while
tracing). ``vectorized_map`` traces it once on one slice and runs each op of the trace once
on the whole batch (graph/vectorize.py), as TensorFlow's vectorisation does; where an op has
no batching rule it falls back to one call per slice (TensorFlow's fallback too). The values
are the loop's; gradients flow to the elements and to what the function uses.

>>> import retrograd as rg
>>> rg.map_fn(lambda x: x * x, rg.constant([1.0, 2.0, 3.0])).numpy().tolist()
[1.0, 4.0, 9.0]
>>> pairs = (rg.constant([1, 2]), rg.constant([10, 20]))
>>> rg.vectorized_map(lambda p: p[0] + p[1], pairs).numpy().tolist()
[11, 22]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from retrograd.core import nest
from retrograd.core.dimensions import dimension_value
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops

__all__ = ["map_fn", "vectorized_map"]

_T = TypeVar("_T")


def _count(leaves: list, op: str) -> int:
    """The common first dimension of ``leaves`` (checked)."""
    if not leaves:
        raise ValueError(f"{op}: elems must hold at least one tensor")
    sizes = {dimension_value(t.shape[0]) if t.shape.rank else None for t in leaves}
    if None in sizes:
        raise InvalidArgumentError(f"{op}: every element of elems needs a known first dimension")
    if len(sizes) != 1:
        raise InvalidArgumentError(
            f"{op}: all elements of elems must have the same first dimension, got {sorted(sizes)}"
        )
    count = sizes.pop()
    if count == 0:
        raise InvalidArgumentError(f"{op}: elems is empty (first dimension 0)")
    return count


def _map(fn: Callable, elems: Any, op: str, signature: Any = None) -> Any:
    leaves = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if context.graph is not None and any(
        t.shape.rank and dimension_value(t.shape[0]) is None for t in leaves
    ):
        return _map_in_loop(fn, elems, leaves, signature)
    count = _count(leaves, op)
    slices = [array_ops.unstack(t, axis=0) for t in leaves]
    results = []
    for i in range(count):
        element = nest.pack_sequence_as(elems, [s[i] for s in slices])
        results.append(fn(element))
    flat = [nest.flatten(r) for r in results]
    stacked = [array_ops.stack([row[j] for row in flat]) for j in range(len(flat[0]))]
    return nest.pack_sequence_as(results[0], stacked)


def _map_in_loop(fn: Callable, elems: Any, leaves: list, signature: Any) -> Any:
    """``map_fn`` over a first dimension known only when the graph runs: a ``while_loop``
    reading each slice from TensorArrays and writing ``fn``'s results to others (as
    TensorFlow builds it); ``signature`` (``dtype``/``fn_output_signature``, else the
    structure and dtypes of ``elems``) says what ``fn`` returns."""
    from retrograd.graph.control_flow import while_loop
    from retrograd.ops.tensor_array import TensorArray

    count = array_ops.shape(leaves[0])[0]
    inputs = [TensorArray(t.dtype, size=count).unstack(t) for t in leaves]
    if signature is None:
        signature = nest.pack_sequence_as(elems, [t.dtype for t in leaves])
    specs = nest.flatten(signature)
    outputs = [TensorArray(getattr(s, "dtype", s), size=count) for s in specs]

    shapes: list = []  # each result's shape, seen when the body is traced

    def body(i, *arrays):
        element = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        results = [convert_to_tensor(r) for r in nest.flatten(fn(element))]
        shapes[:] = [r.shape for r in results]
        return (i + 1, *[ta.write(i, r) for ta, r in zip(arrays, results, strict=True)])

    _, *arrays = while_loop(lambda i, *_: i < count, body, [0, *outputs])
    stacked = [ta.stack() for ta in arrays]
    for t, shape in zip(stacked, shapes, strict=True):
        t.set_shape(leaves[0].shape[:1].concatenate(shape))
    return nest.pack_sequence_as(signature, stacked)


def map_fn(
    fn: Callable[..., _T],
    elems: Any,
    dtype: Any = None,
    parallel_iterations: int | None = None,
    back_prop: bool = True,
    swap_memory: bool = False,
    infer_shape: bool = True,
    name: str | None = None,
    fn_output_signature: Any = None,
) -> _T:
    """``fn`` applied to each slice of ``elems`` (a tensor or a structure of tensors) along
    axis 0; the results stacked.

    >>> import retrograd as rg
    >>> rg.map_fn(lambda row: rg.reduce_sum(row), rg.constant([[1, 2], [3, 4]])).numpy().tolist()
    [3, 7]
    """
    signature = fn_output_signature if fn_output_signature is not None else dtype
    return _map(fn, elems, "map_fn", signature)


def vectorized_map(
    fn: Callable, elems: Any, fallback_to_while_loop: bool = True, warn: bool = True
) -> Any:
    """What ``map_fn`` computes, in one batched pass where every op of ``fn`` can be batched
    (elementwise ops, matmul, reductions, reshapes, gathers, custom gradients ...), else one
    call per slice (``fallback_to_while_loop=False`` makes that a ValueError).

    >>> import retrograd as rg
    >>> rows = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> rg.vectorized_map(lambda row: row * row, rows).numpy().tolist()
    [[1.0, 4.0], [9.0, 16.0]]
    """
    from retrograd.graph import vectorize

    leaves = [convert_to_tensor(e) for e in nest.flatten(elems)]
    count = _count(leaves, "vectorized_map")
    if context.graph is None:  # eager: one batched pass (inside a trace: the loop, unrolled)
        try:
            return vectorize.vectorized_call(fn, nest.pack_sequence_as(elems, leaves), count)
        except vectorize.NotVectorizable as reason:
            if not fallback_to_while_loop:
                raise ValueError(
                    f"vectorized_map: the function cannot be vectorised ({reason}) and "
                    "fallback_to_while_loop=False"
                ) from None
    return _map(fn, elems, "vectorized_map")
