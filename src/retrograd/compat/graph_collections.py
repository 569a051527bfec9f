"""TF1's graph collections and the ops that initialise variables: ``add_to_collection``,
``get_collection``, ``global_variables``, ``trainable_variables``, ``group``, ``no_op``,
``variables_initializer`` and ``global_variables_initializer``.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     tf1.add_to_collection("losses", rg.constant(1.0))
...     print(len(tf1.get_collection("losses")))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from retrograd.compat.variable_scopes import GraphKeys
from retrograd.core.execute import context, execute
from retrograd.graph.control_ops import _NoOp
from retrograd.graph.graph import get_default_graph
from retrograd.graph.graph_tensors import GraphOperation
from retrograd.graph.variables import GraphVariable

__all__ = [
    "add_to_collection",
    "get_collection",
    "get_collection_ref",
    "global_variables",
    "local_variables",
    "trainable_variables",
    "no_op",
    "group",
    "variables_initializer",
    "global_variables_initializer",
    "local_variables_initializer",
    "initialize_all_variables",
    "add_to_collections",
    "model_variables",
    "moving_average_variables",
    "tables_initializer",
]


def add_to_collection(name: str, value: Any) -> None:
    """Adds ``value`` to the collection ``name`` of the default graph.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     tf1.add_to_collection('losses', rg.constant(1.0))
    ...     print(len(tf1.get_collection('losses')))
    1
    """
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Any, value: Any) -> None:
    """Adds ``value`` to each collection of ``names`` (one name or several).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     tf1.add_to_collections(['a', 'b'], 1.0)
    ...     print(tf1.get_collection('a'), tf1.get_collection('b'))
    [1.0] [1.0]
    """
    names = (names,) if isinstance(names, str) else set(names)
    for name in names:
        add_to_collection(name, value)


def get_collection(key: str, scope: str | None = None) -> list[Any]:
    """The collection ``key`` of the default graph (items under ``scope`` with a scope).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.variable_scope('a'):
    ...         v = tf1.get_variable('v', [], initializer=tf1.zeros_initializer())
    ...     print([x.name for x in tf1.get_collection(tf1.GraphKeys.GLOBAL_VARIABLES, scope='a')])
    ['a/v:0']
    """
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list[Any]:
    """The list holding the collection ``key`` of the default graph.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     ref = tf1.get_collection_ref('my_items')
    ...     ref.append(1)
    ...     print(tf1.get_collection('my_items'))
    [1]
    """
    return get_default_graph().get_collection_ref(key)


def global_variables(scope: str | None = None) -> list[GraphVariable]:
    """The variables of the default graph (``GraphKeys.GLOBAL_VARIABLES``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0, name='v')
    ...     print([x.name for x in tf1.global_variables()])
    ['v:0']
    """
    return get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def local_variables(scope: str | None = None) -> list[GraphVariable]:
    """The local variables of the default graph (``GraphKeys.LOCAL_VARIABLES``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.get_variable('v', [], collections=[tf1.GraphKeys.LOCAL_VARIABLES])
    ...     print([x.name for x in tf1.local_variables()])
    ['v:0']
    """
    return get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope: str | None = None) -> list[GraphVariable]:
    """The variables in ``GraphKeys.MODEL_VARIABLES``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.get_variable('v', [], collections=[tf1.GraphKeys.MODEL_VARIABLES])
    ...     print([x.name for x in tf1.model_variables()])
    ['v:0']
    """
    return get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope: str | None = None) -> list[GraphVariable]:
    """The variables an ``ExponentialMovingAverage`` averages
    (``GraphKeys.MOVING_AVERAGE_VARIABLES``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     print(tf1.moving_average_variables())
    []
    """
    return get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def trainable_variables(scope: str | None = None) -> list[GraphVariable]:
    """The variables created with ``trainable=True``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     a = tf1.Variable(1.0, name='a')
    ...     b = tf1.Variable(2.0, name='b', trainable=False)
    ...     print([x.name for x in tf1.trainable_variables()])
    ['a:0']
    """
    return get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def no_op(name: str | None = None) -> GraphOperation:
    """An op that does nothing (with control dependencies, a point to wait for).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     op = tf1.no_op(name='wait_here')
    ...     print(op.name)
    wait_here
    """
    graph = get_default_graph()
    execute(_NoOp, (), None, name or "NoOp")
    return graph._operations[-1]


def group(*inputs: object, **kwargs: Any) -> GraphOperation:
    """An op that runs all of ``inputs`` (ops or tensors).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0)
    ...     both = tf1.group(tf1.assign_add(v, 1.0), tf1.assign_add(v, 10.0))
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         sess.run(both)
    ...         print(sess.run(v))
    12.0
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    flat = []
    for item in inputs:
        flat += list(item) if isinstance(item, (list, tuple)) else [item]
    graph = get_default_graph()
    with graph.control_dependencies([i for i in flat if i is not None]):
        return no_op(name or "group_deps")


def variables_initializer(var_list: Sequence[Any], name: str = "init") -> GraphOperation:
    """An op running the initializers of ``var_list`` (variables made with a value, as
    TensorFlow 2's ``Variable`` in a graph, have none to run).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     a, b = tf1.Variable(1.0), tf1.Variable(2.0)
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.variables_initializer([a]))
    ...         print(sess.run(a))
    1.0
    """
    return group(*[getattr(v, "initializer", None) for v in var_list], name=name)


def global_variables_initializer() -> GraphOperation:
    """An op initialising every global variable of the default graph.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(3.0)
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         print(sess.run(v))
    3.0
    """
    return variables_initializer(global_variables())


def local_variables_initializer() -> GraphOperation:
    """An op initialising every local variable of the default graph (a no-op if none).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     local = [tf1.GraphKeys.LOCAL_VARIABLES]
    ...     v = tf1.get_variable('v', [], initializer=tf1.ones_initializer(), collections=local)
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.local_variables_initializer())
    ...         print(sess.run(v))
    1.0
    """
    return variables_initializer(local_variables(), name="init_1")


def initialize_all_variables() -> GraphOperation:
    """Old name of :func:`global_variables_initializer`.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(3.0)
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.initialize_all_variables())
    ...         print(sess.run(v))
    3.0
    """
    return global_variables_initializer()


def tables_initializer(name: str = "init_all_tables") -> GraphOperation | None:
    """The op initialising the graph's lookup tables: retrograd has no lookup tables, so it
    is a no-op in a graph and None eagerly, as TensorFlow's with no tables.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     print(tf1.tables_initializer().type)
    NoOp
    """
    if context.graph is None:
        return None
    return no_op(name)
