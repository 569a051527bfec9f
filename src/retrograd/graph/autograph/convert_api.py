"""``to_graph`` and ``to_code``: AutoGraph's conversion as a user calls it directly."""

from __future__ import annotations

import types
from collections.abc import Callable

from retrograd.graph.autograph.conversion import convert, source_of

__all__ = ["to_graph", "to_code"]


def to_graph(entity: Callable, recursive: bool = True, experimental_optional_features=None):
    """``entity`` (a Python function or method) converted: its control flow on graph tensors
    becomes ``cond``/``while_loop`` (``tf.autograph.to_graph``). Call the result inside
    ``function`` or a graph; on Python values and eager tensors it runs as written. The user
    functions it calls are converted when called (``recursive`` is accepted for
    TensorFlow's signature; ``recursive=False`` is not supported and raises).

    >>> import retrograd as tf
    >>> def relu(x):
    ...     return x if x > 0 else 0.0 * x
    >>> g = tf.autograph.to_graph(relu)
    >>> tf.function(g, autograph=False)(tf.constant(-2.0))
    <retrograd.Tensor: shape=(), dtype=float32, numpy=-0.0>
    """
    if not isinstance(entity, (types.FunctionType, types.MethodType)):
        raise TypeError(f"to_graph: expected a Python function or method, got {entity!r}")
    if not recursive:
        raise NotImplementedError("to_graph(recursive=False): retrograd converts called functions")
    return convert(entity)


def to_code(entity: Callable, recursive: bool = True, experimental_optional_features=None) -> str:
    """The Python source AutoGraph makes of ``entity`` (``tf.autograph.to_code``).

    >>> import retrograd as rg
    >>> def f(x):
    ...     if x > 0:
    ...         x = x * 2
    ...     return x
    >>> code = rg.autograph.to_code(f)  # the if statement becomes a call that works in graphs
    >>> [line.strip() for line in code.splitlines() if 'if_stmt' in line]
    ["ag__.if_stmt(x > 0, ag__if_true_1, ag__if_false_1, ag__get_1, ag__set_1, ('x',), ('x',), 2)"]
    """
    function = entity.__func__ if isinstance(entity, types.MethodType) else entity
    if not isinstance(function, types.FunctionType):
        raise TypeError(f"to_code: expected a Python function or method, got {entity!r}")
    return source_of(function)
