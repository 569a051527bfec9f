"""TensorFlow 2's ordering and grouping functions, right in both modes: eagerly ops already
ran in order, so ``no_op`` and ``group`` give None, ``tuple`` gives its tensors and
``control_dependencies`` is a block that does nothing (after calling any callables it was
given); while a graph or a function is built they add TensorFlow's ops (``NoOp``,
``group_deps``, ``tuple/control_dependency``). Also ``init_scope`` (leave the function
being traced for the eager context or the outermost graph), ``inside_function`` and
``get_current_name_scope``.

>>> import retrograd as tf
>>> @tf.function
... def f(x):
...     done = tf.group(x * 2.0, x + 1.0)
...     with tf.control_dependencies([done]):
...         return tf.identity(x)
>>> float(f(tf.constant(3.0))), tf.group(tf.constant(1.0)) is None
(3.0, True)
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from retrograd.core.execute import context, define_op
from retrograd.core.registry import no_gradient
from retrograd.graph.function import functions_tracing
from retrograd.graph.graph import GraphOperation, SymbolicTensor
from retrograd.ops import array_ops

__all__ = [
    "control_dependencies", "executing_eagerly_outside_functions", "get_current_name_scope",
    "group", "init_scope", "inside_function", "is_symbolic_tensor", "no_op", "tuple",
]  # fmt: skip

_NoOp = define_op("NoOp", lambda: (), multi_output=True, shape_fn=lambda metas: [])
no_gradient("NoOp")


def no_op(name: str | None = None) -> GraphOperation | None:
    """An op that does nothing (a point that control dependencies can wait for); None
    eagerly.

    >>> import retrograd as tf
    >>> with tf.Graph().as_default():
    ...     print(tf.no_op(name="wait_here").name)
    wait_here
    >>> tf.no_op() is None
    True
    """
    if context.graph is None:
        return None
    return context.graph.create_operation(_NoOp, (), None, name or "NoOp")


def group(*inputs: object, **kwargs: object) -> GraphOperation | None:
    """An op that runs when all of ``inputs`` (ops, tensors, nested lists of them) have run;
    ``name`` is the only keyword. None eagerly.

    >>> import retrograd as tf
    >>> with tf.Graph().as_default():
    ...     print(tf.group(tf.constant(1.0), [tf.constant(2.0)]).name)
    group_deps
    """
    if context.graph is None:
        return None
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {', '.join(sorted(kwargs))}")
    flat = _flat(inputs)
    graph = context.graph
    with graph.name_scope(name or "group_deps") as scope, graph.control_dependencies(flat):
        return no_op(name=scope)


def _flat(values: Any) -> list:
    out = []
    for item in values:
        if isinstance(item, (list, builtins.tuple)):
            out += _flat(item)
        elif isinstance(item, dict):
            out += _flat(list(item.values()))
        elif item is not None:
            out.append(item)
    return out


def tuple(  # noqa: A001  (TensorFlow's name)
    tensors: Sequence[Any], control_inputs: Sequence[Any] | None = None, name: str | None = None
) -> list:
    """``tensors``, each available only once all of them (and ``control_inputs``) are: a
    graph synchronises them through a ``group``; eagerly they are returned as they are.

    >>> import retrograd as tf
    >>> with tf.Graph().as_default():
    ...     a, b = tf.tuple([tf.constant(1.0), tf.constant(2.0)])
    ...     print(a.name, b.name)
    tuple/control_dependency:0 tuple/control_dependency_1:0
    """
    if context.graph is None:
        return list(tensors)
    graph = context.graph
    if control_inputs is not None and not isinstance(control_inputs, (list, builtins.tuple)):
        raise TypeError(
            f"'control_inputs' must be a list or tuple, got {type(control_inputs).__name__}"
        )
    with graph.name_scope(name or "tuple"):
        gate = group(*[t for t in tensors if t is not None], *(control_inputs or []))
        out = []
        for t in tensors:
            if t is None:
                out.append(None)
                continue
            with graph.control_dependencies([gate]):
                out.append(array_ops.identity(t, name="control_dependency"))
    return out


def control_dependencies(
    control_inputs: Sequence[Any] | None,
) -> contextlib.AbstractContextManager[None]:
    """In a graph: ops created inside run after ``control_inputs`` (None clears the ones
    around). Eagerly ops already ran in order: callables among ``control_inputs`` are called
    and the block does nothing.

    >>> import retrograd as tf
    >>> with tf.control_dependencies([lambda: print("ran first")]):
    ...     pass
    ran first
    """
    if context.graph is None:
        for control in control_inputs or []:
            if callable(control):
                control()
        return contextlib.nullcontext()
    return context.graph.control_dependencies(control_inputs)


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Leaves the functions being traced: inside, ops run in the outermost context (eagerly,
    or in the outermost graph that is not a function's), with no control dependencies and
    no tape recording, as TensorFlow does to create a function's variables once.

    >>> import retrograd as tf
    >>> @tf.function
    ... def f(x):
    ...     with tf.init_scope():
    ...         eager = tf.executing_eagerly()
    ...     return x, eager
    >>> f(tf.constant(1.0))[1]
    True
    """
    target = context.graph
    while target is not None and target.traces_function():
        target = target.outer
    previous = context.graph
    context.graph = target
    try:
        with contextlib.ExitStack() as stack:
            if target is not None:
                stack.enter_context(target.control_dependencies(None))
            for tape in reversed(context.tapes):
                stack.enter_context(tape.stop_recording())
            yield
    finally:
        context.graph = previous


def inside_function() -> bool:
    """Whether a ``function`` is being traced (also inside its ``init_scope``).

    >>> import retrograd as tf
    >>> tf.inside_function(), tf.function(lambda: tf.inside_function())()
    (False, True)
    """
    return bool(functions_tracing())


def executing_eagerly_outside_functions() -> bool:
    """Whether ops run eagerly once out of every ``function`` being traced (TensorFlow 1's
    question: False inside a ``Graph`` of its own, True in a function traced eagerly).

    >>> import retrograd as tf
    >>> tf.compat.v1.executing_eagerly_outside_functions()
    True
    >>> tf.function(lambda: tf.compat.v1.executing_eagerly_outside_functions())()
    True
    >>> with tf.Graph().as_default():
    ...     tf.compat.v1.executing_eagerly_outside_functions()
    False
    """
    target = context.graph
    while target is not None and target.traces_function():
        target = target.outer
    return target is None


def get_current_name_scope() -> str:
    """The current name scope, without its trailing ``/`` ("" at the top).

    >>> import retrograd as tf
    >>> with tf.name_scope("outer"):
    ...     with tf.name_scope("inner"):
    ...         print(tf.get_current_name_scope())
    outer/inner
    """
    if context.graph is None:
        return context.eager_scope.rstrip("/")
    return context.graph._per_thread.scope.rstrip("/")


def is_symbolic_tensor(tensor: object) -> bool:
    """Whether ``tensor`` is a graph tensor (known only when its graph runs).

    >>> import retrograd as tf
    >>> with tf.Graph().as_default():
    ...     graph_value = tf.is_symbolic_tensor(tf.constant(1.0))
    >>> tf.is_symbolic_tensor(tf.constant(1.0)), graph_value
    (False, True)
    """
    return isinstance(tensor, SymbolicTensor)
