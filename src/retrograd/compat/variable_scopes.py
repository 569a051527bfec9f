"""TensorFlow 1 variables: ``Variable`` in graphs, ``get_variable`` and ``variable_scope``
(with ``reuse``, default initializers, regularizers and custom getters); collections and
the initializer ops are in :mod:`retrograd.compat.graph_collections`.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     with variable_scope("layer"):
...         w = get_variable("w", [2], initializer=rg.compat.v1.ones_initializer())
...     with variable_scope("layer", reuse=True):
...         same = get_variable("w")
...     init = rg.compat.v1.global_variables_initializer()
>>> same is w, w.name
(True, 'layer/w:0')
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     print(sess.run(w))
[1. 1.]
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from typing import Any

from retrograd.compat.initializers import glorot_uniform_initializer, zeros_initializer
from retrograd.compat.replicas import VariableAggregation, one_replica
from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.shapes import TensorShape
from retrograd.core.variables import Variable as EagerVariable
from retrograd.core.variables import graph_variable
from retrograd.graph.graph import get_default_graph
from retrograd.graph.variables import GLOBAL_VARIABLES, TRAINABLE_VARIABLES, GraphVariable
from retrograd.training.aggregation import VariableSynchronization

__all__ = [
    "AUTO_REUSE",
    "GraphKeys",
    "Variable",
    "VariableScope",
    "get_variable",
    "get_variable_scope",
    "name_scope",
    "variable_scope",
]


class GraphKeys:
    """Names of the standard collections.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.TRAINABLE_VARIABLES
    ('variables', 'trainable_variables')
    """

    ACTIVATIONS = "activations"
    ASSET_FILEPATHS = "asset_filepaths"
    BIASES = "biases"
    CONCATENATED_VARIABLES = "concatenated_variables"
    COND_CONTEXT = "cond_context"
    EVAL_STEP = "eval_step"
    GLOBAL_STEP = "global_step"
    GLOBAL_VARIABLES = GLOBAL_VARIABLES
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    LOCAL_RESOURCES = "local_resources"
    LOCAL_VARIABLES = "local_variables"
    LOSSES = "losses"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    QUEUE_RUNNERS = "queue_runners"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    READY_OP = "ready_op"
    REGULARIZATION_LOSSES = "regularization_losses"
    RESOURCES = "resources"
    SAVEABLE_OBJECTS = "saveable_objects"
    SAVERS = "savers"
    SUMMARIES = "summaries"
    SUMMARY_OP = "summary_op"
    TABLE_INITIALIZERS = "table_initializer"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    TRAINABLE_VARIABLES = TRAINABLE_VARIABLES
    TRAIN_OP = "train_op"
    UPDATE_OPS = "update_ops"
    VARIABLES = GLOBAL_VARIABLES
    WEIGHTS = "weights"
    WHILE_CONTEXT = "while_context"


class _AutoReuse:
    def __repr__(self) -> str:
        return "AUTO_REUSE"


AUTO_REUSE = _AutoReuse()


class _VariableType(type):
    def __call__(
        cls, initial_value: Any = None, trainable: Any = None, collections: Any = None,
        validate_shape: bool = True, caching_device: Any = None, name: Any = None,
        variable_def: Any = None, dtype: Any = None, expected_shape: Any = None,
        import_scope: Any = None, constraint: Any = None, use_resource: Any = None,
        synchronization: Any = VariableSynchronization.AUTO,
        aggregation: Any = VariableAggregation.NONE, shape: Any = None,
    ) -> Any:  # fmt: skip
        # (expected_shape, use_resource and caching_device: nothing to do, as in TF 2)
        options = dict(
            validate_shape=validate_shape, name=name, variable_def=variable_def, dtype=dtype,
            import_scope=import_scope, constraint=constraint, synchronization=synchronization,
            aggregation=aggregation, shape=shape,
        )  # fmt: skip
        if context.graph is None:
            return EagerVariable(initial_value, trainable, **options)
        return graph_variable(initial_value, trainable, collections, **options)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, EagerVariable)


class Variable(metaclass=_VariableType):
    """TF1's ``Variable(initial_value, trainable=True, name=None, dtype=None, ...)``: in a
    graph, a :class:`GraphVariable` (uninitialised until its initializer runs); eagerly, an
    ordinary variable. Every variable is an instance.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> v = tf1.Variable(1.0)  # eagerly: a retrograd.Variable
    >>> isinstance(v, rg.Variable)
    True
    >>> with rg.Graph().as_default():
    ...     w = tf1.Variable([1.0, 2.0], name='w')
    ...     print(w.name, isinstance(w, tf1.Variable))
    w:0 True
    """


class VariableScope:
    """A variable scope: its name (prefix of the variables made inside), ``reuse`` and the
    defaults of ``get_variable`` inside it: ``initializer``, ``dtype``, ``regularizer`` and
    ``custom_getter``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.variable_scope('layer') as scope:
    ...         print(type(scope).__name__, scope.name)
    VariableScope layer
    """

    def __init__(
        self,
        reuse: Any,
        name: str = "",
        initializer: Any = None,
        regularizer: Any = None,
        caching_device: Any = None,
        partitioner: Any = None,
        custom_getter: Any = None,
        name_scope: str = "",
        dtype: Any = dtypes.float32,
        use_resource: Any = None,
        constraint: Any = None,
    ) -> None:
        _refuse_unsupported("VariableScope", partitioner=partitioner, constraint=constraint)
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.dtype = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
        self.regularizer = regularizer
        self.custom_getter = custom_getter
        self.caching_device, self.use_resource = caching_device, use_resource
        self.partitioner, self.constraint = partitioner, constraint
        self.original_name_scope = name_scope

    def set_initializer(self, initializer: Any) -> None:
        """The default initializer of ``get_variable`` in this scope."""
        self.initializer = initializer

    def set_dtype(self, dtype: Any) -> None:
        """The default dtype of ``get_variable`` in this scope."""
        self.dtype = dtypes.as_dtype(dtype)

    def set_regularizer(self, regularizer: Any) -> None:
        """The default regularizer of ``get_variable`` in this scope."""
        self.regularizer = regularizer

    def set_custom_getter(self, custom_getter: Any) -> None:
        """The custom getter of ``get_variable`` in this scope."""
        self.custom_getter = custom_getter

    def set_use_resource(self, use_resource: Any) -> None:
        """Accepted: retrograd's variables are all of one kind."""
        self.use_resource = use_resource

    def set_caching_device(self, caching_device: Any) -> None:
        """Accepted: retrograd runs on one device."""
        self.caching_device = caching_device

    def get_variable(self, var_store: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        """``get_variable(name, ...)`` inside this scope (``var_store`` is TensorFlow's
        internal store, unused here)."""
        with variable_scope(self):
            return get_variable(name, *args, **kwargs)

    def reuse_variables(self) -> None:
        """From now on, ``get_variable`` in this scope returns existing variables."""
        self.reuse = True

    def __repr__(self) -> str:
        return f"<VariableScope '{self.name}' reuse={self.reuse}>"


def get_variable_scope() -> VariableScope:
    """The current variable scope of the default graph.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.variable_scope('outer'):
    ...         print(tf1.get_variable_scope().name)
    outer
    """
    graph = get_default_graph()
    if graph._variable_scope is None:
        graph._variable_scope = VariableScope(None, "")
    return graph._variable_scope


@contextlib.contextmanager
def variable_scope(
    name_or_scope: Any = None,
    default_name: str | None = None,
    values: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    caching_device: Any = None,
    partitioner: Any = None,
    custom_getter: Any = None,
    reuse: Any = None,
    dtype: Any = None,
    use_resource: Any = None,
    constraint: Any = None,
    auxiliary_name_scope: bool = True,
) -> Iterator[VariableScope]:
    """Prefixes variables (and op names) with the scope's name; ``reuse=True`` makes
    ``get_variable`` return existing variables, ``AUTO_REUSE`` creates or returns.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.variable_scope('layer'):
    ...         w = tf1.get_variable('w', [2], initializer=tf1.zeros_initializer())
    ...     with tf1.variable_scope('layer', reuse=True):
    ...         print(tf1.get_variable('w') is w, w.name)
    True layer/w:0
    """
    _refuse_unsupported("variable_scope", partitioner=partitioner, constraint=constraint)
    graph = get_default_graph()
    parent = get_variable_scope()
    if isinstance(name_or_scope, VariableScope):
        full, base = name_or_scope.name, name_or_scope.name.rpartition("/")[2]
        inherited = name_or_scope
    else:
        base = name_or_scope if name_or_scope is not None else default_name
        if base is None:
            raise ValueError("variable_scope: give name_or_scope or default_name")
        if name_or_scope is None:  # default_name: made unique, like a name scope
            base = _unique_scope_name(graph, parent.name, base)
        full = f"{parent.name}/{base}" if parent.name else base
        inherited = parent
    if reuse is None or reuse is False:
        reuse = True if parent.reuse is True else (parent.reuse if reuse is None else None)
    scope = VariableScope(
        reuse,
        full,
        initializer=initializer if initializer is not None else inherited.initializer,
        regularizer=regularizer if regularizer is not None else inherited.regularizer,
        custom_getter=_nested_getter(custom_getter, inherited.custom_getter),
        dtype=dtype if dtype is not None else inherited.dtype,
    )
    graph._variable_scope = scope
    try:
        if isinstance(name_or_scope, VariableScope) and name_or_scope.original_name_scope:
            names = graph.name_scope(name_or_scope.original_name_scope)
        else:
            names = graph.name_scope(base) if auxiliary_name_scope else contextlib.nullcontext()
        with names as op_scope:
            scope.original_name_scope = op_scope or ""
            yield scope
    finally:
        graph._variable_scope = parent


def _refuse_unsupported(where: str, **options: Any) -> None:
    """Options retrograd has no meaning for: an error rather than a silent difference."""
    for option, value in options.items():
        if value is not None:
            raise ValueError(
                f"{where}: `{option}` is not supported by retrograd (partitioned variables and "
                f"variable constraints are not implemented); got {value!r}"
            )


def _nested_getter(inner: Any, outer: Any) -> Any:
    """A scope's custom getter inside an enclosing scope's: TensorFlow calls the inner one
    with a getter that goes through the outer one."""
    if inner is None or outer is None:
        return inner if inner is not None else outer
    if not callable(inner):
        raise ValueError(f"variable_scope: custom_getter must be callable, got {inner!r}")

    def nested(getter: Any, *args: Any, **kwargs: Any) -> Any:
        return inner(lambda *a, **k: outer(getter, *a, **k), *args, **kwargs)

    return nested


def _unique_scope_name(graph: Any, parent: str, base: str) -> str:
    counts = graph._variable_scope_counts
    key = f"{parent}/{base}"
    count = counts.get(key, 0)
    counts[key] = count + 1
    return base if count == 0 else f"{base}_{count}"


def get_variable(
    name: str,
    shape: Any = None,
    dtype: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    trainable: bool | None = None,
    collections: Any = None,
    caching_device: Any = None,
    partitioner: Any = None,
    validate_shape: bool = True,
    use_resource: Any = None,
    custom_getter: Any = None,
    constraint: Any = None,
    synchronization: Any = VariableSynchronization.AUTO,
    aggregation: Any = VariableAggregation.NONE,
    **kwargs: Any,
) -> GraphVariable | EagerVariable:
    """The variable ``scope/name``: an existing one when the scope reuses, else a new one
    made with ``initializer`` (the scope's, else Glorot uniform for floats, zeros else). A
    ``custom_getter`` (this call's, else the scope's) is called as TensorFlow calls it:
    ``custom_getter(getter, name, *args, **kwargs)`` with the full name. Eagerly (as
    TensorFlow 2) each call makes a new ``retrograd.Variable``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.get_variable('v', [2], initializer=tf1.ones_initializer()).numpy().tolist()
    [1.0, 1.0]
    >>> with rg.Graph().as_default():
    ...     w = tf1.get_variable('w', [2, 3], initializer=tf1.ones_initializer())
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         print(w.name, sess.run(w).sum())
    w:0 6.0
    """
    _refuse_unsupported("get_variable", partitioner=partitioner, constraint=constraint)
    one_replica("get_variable", synchronization, aggregation)
    scope = get_variable_scope()
    full = f"{scope.name}/{name}" if scope.name else name
    if context.graph is None:
        return _eager_variable(full, shape, dtype, initializer, trainable, scope)
    arguments = dict(
        shape=shape,
        dtype=dtype,
        initializer=initializer,
        regularizer=regularizer,
        trainable=trainable,
        collections=collections,
        validate_shape=validate_shape,
    )
    getter = _nested_getter(custom_getter, scope.custom_getter)
    if getter is not None:
        return getter(_true_getter, full, **arguments, **kwargs)
    return _true_getter(full, **arguments)


def _eager_variable(
    full: str, shape: Any, dtype: Any, initializer: Any, trainable: Any, scope: VariableScope
) -> EagerVariable:
    """TensorFlow 2's eager ``get_variable``: a new variable on every call (eagerly nothing
    is shared or collected), made as the graph's would be."""
    resolved = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
    init = initializer if initializer is not None else scope.initializer
    if init is None:
        init = glorot_uniform_initializer() if resolved.is_floating else zeros_initializer()
    initial = _initial_value(init, shape, resolved, full)
    if callable(initial):  # made by an initializer: of the resolved dtype
        initial, dtype = initial(), resolved
    return EagerVariable(
        initial,
        trainable=True if trainable is None else trainable,
        name=full,
        dtype=dtype,
        shape=shape,
    )


def _initial_value(init: Any, shape: Any, dtype: dtypes.DType, full: str) -> Any:
    """What makes the initial value, as TensorFlow's variable store does: a class is
    instantiated; a callable is called ``init(shape, dtype=dtype)`` (with
    ``partition_info=None`` too when it takes that argument) once the shape is known, or with
    no arguments when it needs none; a tensor or value is its own initial value."""
    if isinstance(init, type):
        init = init()
    if not callable(init):
        return init
    if shape is not None and TensorShape(shape).is_fully_defined():
        dims = TensorShape(shape).as_list()
        try:
            takes_partition = "partition_info" in inspect.signature(init).parameters
        except (TypeError, ValueError):  # a callable without a signature: no partition_info
            takes_partition = False
        if takes_partition:
            return lambda: init(dims, dtype=dtype, partition_info=None)
        return lambda: init(dims, dtype=dtype)
    if _needs_no_arguments(init):
        return init
    raise ValueError(
        f"get_variable: the initializer of new variable {full} needs the variable's shape: "
        f"give a fully defined shape (got {shape}), or an initializer that takes no arguments"
    )


def _needs_no_arguments(init: Any) -> bool:
    try:
        parameters = inspect.signature(init).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters
    )


def _true_getter(
    name: str,
    shape: Any = None,
    dtype: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    trainable: bool | None = None,
    collections: Any = None,
    validate_shape: bool = True,
    **unused: Any,
) -> GraphVariable:
    """get_variable's own getter: ``name`` is the full name (scope included)."""
    graph = get_default_graph()
    scope = get_variable_scope()
    full = name
    existing = graph._variables_by_name.get(full)
    if existing is not None:
        if scope.reuse is None:
            raise ValueError(
                f"Variable {full} already exists, disallowed. Did you mean to set reuse=True "
                f"or reuse=tf.AUTO_REUSE in VarScope?"
            )
        if shape is not None and not TensorShape(shape).is_compatible_with(existing.shape):
            raise ValueError(
                f"Trying to share variable {full}, but specified shape {TensorShape(shape)} "
                f"and found shape {existing.shape}."
            )
        wanted = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype  # (TF's rule)
        if wanted != existing.dtype:
            raise ValueError(
                f"Trying to share variable {full}, but specified dtype {wanted.name} and found "
                f"dtype {existing.dtype.name}."
            )
        return existing
    if scope.reuse is True:
        raise ValueError(
            f"Variable {full} does not exist, or was not created with tf.get_variable(). Did "
            f"you mean to set reuse=tf.AUTO_REUSE in VarScope?"
        )
    resolved = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
    init = initializer if initializer is not None else scope.initializer
    if init is None:
        init = glorot_uniform_initializer() if resolved.is_floating else zeros_initializer()
    initial = _initial_value(init, shape, resolved, full)
    if callable(initial):  # made by an initializer: of the resolved dtype; a value keeps its own
        dtype = resolved
    with graph.name_scope(None):
        variable = GraphVariable(
            initial,
            trainable=True if trainable is None else trainable,
            name=full,
            dtype=dtype,
            shape=shape,
            collections=collections,
            validate_shape=validate_shape,
        )
    graph._variables_by_name[full] = variable
    regularizer = regularizer if regularizer is not None else scope.regularizer
    if regularizer is not None:
        loss = regularizer(variable)
        if loss is not None:
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return variable


@contextlib.contextmanager
def name_scope(name: str | None, default_name: str | None = None, values: Any = None):
    """TF1's ``name_scope(name, default_name=None, values=None)``: prefixes op names.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.name_scope('block'):
    ...         c = rg.constant(1.0, name='c')
    ...     print(c.op.name)
    block/c
    """
    name = name if name is not None else default_name
    if context.graph is None:
        yield name
        return
    with context.graph.name_scope(name) as scope:
        yield scope
