"""Higher-order functions over tensors: ``scan``, ``foldl``, ``foldr`` (a function carried
along the first axis of ``elems``), ``case`` and ``switch_case`` (one of several functions,
chosen by tensors). Eagerly they run Python loops and calls; in a graph they build
``while_loop``/``cond`` (with TensorArrays for the slices and the results), as TensorFlow
does, so the first dimension may be known only when the graph runs. Gradients flow to
``elems``, the initializer and what the functions use.

>>> import retrograd as tf
>>> tf.scan(lambda total, x: total + x, tf.constant([1.0, 2.0, 3.0])).numpy().tolist()
[1.0, 3.0, 6.0]
>>> int(tf.switch_case(tf.constant(1), [lambda: tf.constant(10), lambda: tf.constant(20)]))
20
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import nest
from retrograd.core.annotations import TensorLike
from retrograd.core.dimensions import dimension_value
from retrograd.core.errors import InvalidArgumentError, OutOfRangeError
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.graph.control_flow import cond, while_loop
from retrograd.ops import array_ops, comparison_ops, debug_ops, join_ops
from retrograd.ops.tensor_array import TensorArray

__all__ = ["case", "foldl", "foldr", "scan", "switch_case"]


def _leaves(elems: Any, what: str) -> list[Tensor]:
    leaves = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not leaves:
        raise ValueError(f"{what}: elems must hold at least one tensor")
    for t in leaves:
        if t.shape.rank == 0:
            raise ValueError(f"{what}: elements in elems must be 1+ dimensional, got {t!r}")
    return leaves


def _length(leaves: list[Tensor]) -> Any:
    """The common first dimension: an int when known, else an int32 tensor."""
    firsts = (dimension_value(t.shape[0]) for t in leaves)  # (TF1 shapes hold Dimensions)
    known = {d for d in firsts if d is not None}
    if len(known) > 1:
        raise ValueError(f"elems must have the same first dimension, got {sorted(known)}")
    return known.pop() if known else array_ops.shape(leaves[0])[0]


def scan(
    fn: Callable[..., Any],
    elems: Any,
    initializer: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    infer_shape: bool = True,
    reverse: bool = False,
    name: str | None = None,
) -> Any:
    """The accumulators ``a = fn(a, x)`` after each slice ``x`` of ``elems`` (along axis 0,
    last first with ``reverse``), stacked; ``a`` starts as ``initializer``, or as the first
    slice (which is then the first result). ``elems`` and the accumulator may be nested.

    >>> import retrograd as tf
    >>> tf.scan(lambda a, x: a * x, tf.constant([1.0, 2.0, 3.0]), initializer=tf.constant(2.0),
    ...         reverse=True).numpy().tolist()
    [12.0, 12.0, 6.0]
    """
    leaves = _leaves(elems, "scan")
    n = _length(leaves)
    if not back_prop:
        leaves = [array_ops.stop_gradient(t) for t in leaves]
    order = (lambda i: n - 1 - i) if reverse else (lambda i: i)
    pack = lambda xs: nest.pack_sequence_as(elems, xs)  # noqa: E731
    if context.graph is None:
        count = int(n)
        slices = [join_ops.unstack(t) if count else [] for t in leaves]
        if initializer is None:
            if not count:
                raise OutOfRangeError("Tried to read from index 0 but array size is: 0 ")
            accumulator, start = pack([s[order(0)] for s in slices]), 1
            results = [accumulator]
        else:
            accumulator, start, results = initializer, 0, []
        for i in range(start, count):
            accumulator = fn(accumulator, pack([s[order(i)] for s in slices]))
            results.append(accumulator)
        if reverse:
            results.reverse()
        if not results:  # an empty scan: TensorFlow's empty stack of the accumulator's shape
            return nest.map_structure(
                lambda a: array_ops.zeros([0, *convert_to_tensor(a).shape], a.dtype), initializer
            )
        flat = [nest.flatten(r) for r in results]
        stacked = [join_ops.stack([row[j] for row in flat]) for j in range(len(flat[0]))]
        return nest.pack_sequence_as(results[0], stacked)
    return _graph_scan(fn, elems, leaves, n, initializer, reverse)


def _graph_scan(fn: Callable, elems: Any, leaves: list, n: Any, initializer: Any,
                reverse: bool) -> Any:  # fmt: skip
    inputs = [TensorArray(t.dtype, size=n, element_shape=t.shape[1:]).unstack(t) for t in leaves]
    index = (lambda i: n - 1 - i) if reverse else (lambda i: i)
    element = lambda i: nest.pack_sequence_as(elems, [ta.read(index(i)) for ta in inputs])  # noqa: E731
    if initializer is None:
        accumulator, start = element(0), 1
    else:
        accumulator, start = initializer, 0
    flat_initial = [convert_to_tensor(a) for a in nest.flatten(accumulator)]
    outputs = [TensorArray(a.dtype, size=n, element_shape=a.shape) for a in flat_initial]
    if initializer is None:
        outputs = [ta.write(index(0), a) for ta, a in zip(outputs, flat_initial)]

    def body(i, flat_accumulator, arrays):
        result = fn(nest.pack_sequence_as(accumulator, flat_accumulator), element(i))
        flat_result = [convert_to_tensor(r) for r in nest.flatten(result)]
        arrays = [ta.write(index(i), r) for ta, r in zip(arrays, flat_result)]
        return i + 1, flat_result, arrays

    _, _, outputs = while_loop(
        lambda i, *_: i < n, body, (convert_to_tensor(start), flat_initial, outputs)
    )
    stacked = [ta.stack() for ta in outputs]
    for t in stacked:  # (TensorFlow's static shape: the elements' length when known)
        if isinstance(n, int) and t.shape.rank is not None:
            t.set_shape([n, *t.shape.as_list()[1:]])
    return nest.pack_sequence_as(accumulator, stacked)


def _fold(fn: Callable, elems: Any, initializer: Any, back_prop: bool, reverse: bool,
          what: str) -> Any:  # fmt: skip
    leaves = _leaves(elems, what)
    n = _length(leaves)
    if not back_prop:
        leaves = [array_ops.stop_gradient(t) for t in leaves]
    pack = lambda xs: nest.pack_sequence_as(elems, xs)  # noqa: E731
    order = (lambda i: n - 1 - i) if reverse else (lambda i: i)
    if context.graph is None:
        count = int(n)
        slices = [join_ops.unstack(t) if count else [] for t in leaves]
        if initializer is None:
            if not count:
                raise OutOfRangeError("Tried to read from index 0 but array size is: 0 ")
            accumulator, start = pack([s[order(0)] for s in slices]), 1
        else:
            accumulator, start = initializer, 0
        for i in range(start, count):
            accumulator = fn(accumulator, pack([s[order(i)] for s in slices]))
        return accumulator
    inputs = [TensorArray(t.dtype, size=n, element_shape=t.shape[1:]).unstack(t) for t in leaves]
    element = lambda i: pack([ta.read(order(i)) for ta in inputs])  # noqa: E731
    accumulator, start = (element(0), 1) if initializer is None else (initializer, 0)
    flat = [convert_to_tensor(a) for a in nest.flatten(accumulator)]

    def body(i, flat_accumulator):
        result = fn(nest.pack_sequence_as(accumulator, flat_accumulator), element(i))
        return i + 1, [convert_to_tensor(r) for r in nest.flatten(result)]

    _, flat = while_loop(lambda i, _: i < n, body, (convert_to_tensor(start), flat))
    return nest.pack_sequence_as(accumulator, flat)


def foldl(
    fn: Callable[..., Any],
    elems: Any,
    initializer: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    name: str | None = None,
) -> Any:
    """The last accumulator of ``a = fn(a, x)`` over the slices of ``elems``, first to last
    (``a`` starts as ``initializer``, or as the first slice).

    >>> import retrograd as tf
    >>> float(tf.foldl(lambda a, x: a - x, tf.constant([1.0, 2.0, 3.0])))
    -4.0
    """
    return _fold(fn, elems, initializer, back_prop, False, "foldl")


def foldr(
    fn: Callable[..., Any],
    elems: Any,
    initializer: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    name: str | None = None,
) -> Any:
    """``foldl`` from the last slice to the first.

    >>> import retrograd as tf
    >>> float(tf.foldr(lambda a, x: a - x, tf.constant([1.0, 2.0, 3.0])))
    0.0
    """
    return _fold(fn, elems, initializer, back_prop, True, "foldr")


def _no_condition_true(preds: list) -> Any:
    """In a graph: fails when it runs (as TensorFlow's ``case`` without a default)."""
    return debug_ops.Assert(
        False, ["Input error: None of conditions evaluated as True:", join_ops.stack(preds)]
    )


def case(
    pred_fn_pairs: Any,
    default: Callable[[], Any] | None = None,
    exclusive: bool = False,
    strict: bool = False,
    name: str = "case",
) -> Any:
    """The result of the function of the first true predicate of ``pred_fn_pairs`` (a list
    of ``(pred, fn)`` pairs, or a dict), else of ``default``; without one, no true
    predicate is an InvalidArgumentError (in a graph, when it runs).

    >>> import retrograd as tf
    >>> x = tf.constant(3.0)
    >>> int(tf.case([(x > 5, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))],
    ...             default=lambda: tf.constant(3)))
    2
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if not pairs:
        raise ValueError("case: pred_fn_pairs must hold at least one (pred, fn) pair")
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and callable(pair[1])):
            raise TypeError(f"case: each pair must be (pred, callable), got {pair!r}")
    if default is not None and not callable(default):
        raise TypeError(f"case: default must be callable, got {default!r}")
    if context.graph is None:
        for pred, fn in pairs:
            if bool(pred):
                return fn()
        if default is not None:
            return default()
        raise InvalidArgumentError(
            "Input error: None of conditions evaluated as True: "
            + ", ".join(str(bool(p)) for p, _ in pairs)
        )
    preds = [convert_to_tensor(p) for p, _ in pairs]

    def otherwise() -> Any:
        if default is not None:
            return default()
        with context.graph.control_dependencies([_no_condition_true(preds)]):
            return nest.map_structure(array_ops.identity, pairs[-1][1]())

    def chain(k: int) -> Any:
        if k == len(pairs):
            return otherwise()
        return cond(preds[k], pairs[k][1], lambda: chain(k + 1))

    return chain(0)


def switch_case(
    branch_index: TensorLike,
    branch_fns: Any,
    default: Callable[[], Any] | None = None,
    name: str = "switch_case",
) -> Any:
    """``branch_fns[branch_index]()``: branches as a list, as ``(index, fn)`` pairs or as a
    dict with keys ``0 .. n-1``; an index out of range calls ``default`` (the last branch
    when there is none).

    >>> import retrograd as tf
    >>> int(tf.switch_case(tf.constant(7), {0: lambda: tf.constant(10), 1: lambda: tf.constant(20)},
    ...                    default=lambda: tf.constant(-1)))
    -1
    """
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    items = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if not items:
        raise ValueError("Must provide at least one item in branch_fns")
    if all(isinstance(i, (tuple, list)) and len(i) == 2 for i in items):
        keys = sorted(k for k, _ in items)
        if keys != list(range(len(items))):
            raise ValueError(
                f"branch indices (keys) must form contiguous range of [0 to {len(items)}) but "
                f"found {{{','.join(str(k) for k in keys)}}}"
            )
        fns = [fn for _, fn in sorted(items, key=lambda kv: kv[0])]
    else:
        fns = items
    if not all(callable(f) for f in fns):
        raise TypeError("switch_case: branch_fns must be callables")
    fallback = default if default is not None else fns[-1]
    if context.graph is None:
        index = int(branch_index)
        return fns[index]() if 0 <= index < len(fns) else fallback()
    index = convert_to_tensor(branch_index)

    def chain(k: int) -> Any:
        if k == len(fns):
            return fallback()
        return cond(comparison_ops.equal(index, k), fns[k], lambda: chain(k + 1))

    return chain(0)
