"""TensorFlow 1 functions with no TensorFlow 2 spelling: ``py_func`` (NumPy code as a
``PyFunc`` op, whose gradient a ``gradient_override_map`` can give), ``make_template``,
``get_local_variable``, ``op_scope``/``variable_op_scope``, ``is_variable_initialized``,
and the old names of initializer ops and casts.

>>> import numpy as np, retrograd as rg
>>> py_func(np.square, [rg.constant([1.0, 2.0])], rg.float32).numpy().tolist()
[1.0, 4.0]
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from retrograd.compat.graph_collections import (
    global_variables,
    local_variables_initializer,
    tables_initializer,
    variables_initializer,
)
from retrograd.compat.replicas import VariableAggregation, one_replica
from retrograd.compat.variable_scopes import (
    GraphKeys,
    VariableScope,
    get_variable,
    name_scope,
    variable_scope,
)
from retrograd.core import dtypes
from retrograd.ops import math_ops, numpy_function_ops
from retrograd.training.aggregation import VariableSynchronization
from retrograd.training.v1_variable_state import is_variable_initialized

__all__ = [
    "all_variables",
    "get_local_variable",
    "initialize_all_tables",
    "initialize_local_variables",
    "initialize_variables",
    "is_variable_initialized",
    "make_template",
    "op_scope",
    "py_func",
    "to_complex128",
    "to_complex64",
    "variable_op_scope",
]


def py_func(
    func: Callable[..., Any],
    inp: Sequence[Any],
    Tout: Any,  # noqa: N803 (TensorFlow's name)
    stateful: bool = True,
    name: str | None = None,
) -> Any:
    """Calls ``func`` on the NumPy values of ``inp``: an op of type ``PyFunc`` (or
    ``PyFuncStateless`` with ``stateful=False``) whose outputs have the types ``Tout``. It has
    no gradient unless one is registered for its type through
    ``Graph.gradient_override_map({"PyFunc": "MyGrad"})``, TensorFlow 1's idiom.

    >>> import numpy as np, retrograd as rg, retrograd.compat.v1 as tf1
    >>> @rg.RegisterGradient('PyCubeGrad')
    ... def _cube_grad(op, grad):
    ...     return grad * 3.0 * op.inputs[0] ** 2
    >>> g = rg.Graph()
    >>> with g.as_default():
    ...     x = tf1.placeholder(rg.float32, [2])
    ...     with g.gradient_override_map({'PyFunc': 'PyCubeGrad'}):
    ...         y = tf1.py_func(lambda a: a ** 3, [x], rg.float32)
    ...     dy = tf1.gradients(y, x)[0]
    >>> with tf1.Session(graph=g) as sess:
    ...     sess.run(dy, {x: [1.0, 2.0]}).tolist()
    [3.0, 12.0]
    """
    return numpy_function_ops.numpy_function(func, inp, Tout, stateful=stateful, name=name)


def get_local_variable(
    name: str,
    shape: Any = None,
    dtype: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    trainable: bool = False,
    collections: Any = None,
    caching_device: Any = None,
    partitioner: Any = None,
    validate_shape: bool = True,
    use_resource: Any = None,
    custom_getter: Any = None,
    constraint: Any = None,
    synchronization: Any = VariableSynchronization.AUTO,
    aggregation: Any = VariableAggregation.NONE,
) -> Any:
    """``get_variable`` for a local variable: in ``GraphKeys.LOCAL_VARIABLES`` (added to
    ``collections``), not trainable, not saved by default.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     c = tf1.get_local_variable('count', [], initializer=tf1.zeros_initializer())
    ...     print([v.name for v in tf1.local_variables()], tf1.global_variables())
    ['count:0'] []
    """
    if trainable:
        raise ValueError(f"get_local_variable: a local variable is not trainable ({name})")
    one_replica("get_local_variable", synchronization, aggregation)
    collections = [*(collections or []), GraphKeys.LOCAL_VARIABLES]
    return get_variable(
        name,
        shape,
        dtype,
        initializer,
        regularizer,
        False,
        collections,
        caching_device,
        partitioner,
        validate_shape,
        use_resource,
        custom_getter,
        constraint,
    )


class _Template:
    """A function whose variables are made on its first call and shared by the later ones."""

    def __init__(self, name: str, func: Callable, create_scope_now: bool, unique_name: Any,
                 custom_getter: Any) -> None:  # fmt: skip
        self._func, self._name, self._unique_name = func, name, unique_name
        self._custom_getter = custom_getter
        self._scope: VariableScope | None = None
        self._calls = 0
        if create_scope_now:
            with self._enter(first=True):
                pass

    @contextlib.contextmanager
    def _enter(self, first: bool) -> Iterator[VariableScope]:
        if self._scope is None:
            name = self._unique_name or None
            default = None if name else self._name
            with variable_scope(name, default, custom_getter=self._custom_getter) as scope:
                self._scope = scope
                yield scope
            return
        with variable_scope(self._scope, reuse=None if first else True) as scope:
            yield scope

    @property
    def variable_scope(self) -> VariableScope | None:
        """The variable scope of the template (None before it is made)."""
        return self._scope

    @property
    def name(self) -> str:
        return self._name

    @property
    def variable_scope_name(self) -> str | None:
        return None if self._scope is None else self._scope.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        first = self._calls == 0
        with self._enter(first):
            result = self._func(*args, **kwargs)
        self._calls += 1
        return result


def make_template(
    name_: str,
    func_: Callable,
    create_scope_now_: bool = False,
    unique_name_: str | None = None,
    custom_getter_: Any = None,
    **kwargs: Any,
) -> _Template:
    """``func_`` (with ``kwargs`` bound) as a template: the first call makes its variables
    in a scope named after ``name_`` (made unique), later calls reuse them.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> def scale(x):
    ...     w = tf1.get_variable('w', [], initializer=tf1.constant_initializer(2.0))
    ...     return x * w
    >>> with rg.Graph().as_default():
    ...     t = tf1.make_template('scale', scale)
    ...     a, b = t(1.0), t(3.0)
    ...     print([v.name for v in tf1.global_variables()])
    ['scale/w:0']
    """
    if not callable(func_):
        raise ValueError(f"make_template: func_ must be callable, got {func_!r}")
    func = functools.partial(func_, **kwargs) if kwargs else func_
    return _Template(name_, func, create_scope_now_, unique_name_, custom_getter_)


@contextlib.contextmanager
def op_scope(values: Any, name: str | None, default_name: str | None = None) -> Iterator[Any]:
    """TF1's oldest ``name_scope`` spelling (``values`` first).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.op_scope([], 'block'):
    ...         print(rg.constant(1.0, name='c').op.name)
    block/c
    """
    with name_scope(name, default_name, values) as scope:
        yield scope


@contextlib.contextmanager
def variable_op_scope(
    values: Any,
    name_or_scope: Any,
    default_name: str | None = None,
    initializer: Any = None,
    regularizer: Any = None,
    caching_device: Any = None,
    partitioner: Any = None,
    custom_getter: Any = None,
    reuse: Any = None,
    dtype: Any = None,
    use_resource: Any = None,
    constraint: Any = None,
) -> Iterator[VariableScope]:
    """TF1's old ``variable_scope`` spelling (``values`` first).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.variable_op_scope([], 'layer'):
    ...         print(tf1.get_variable_scope().name)
    layer
    """
    with variable_scope(
        name_or_scope,
        default_name,
        values,
        initializer,
        regularizer,
        caching_device,
        partitioner,
        custom_getter,
        reuse,
        dtype,
        use_resource,
        constraint,
    ) as scope:
        yield scope


def all_variables() -> list:
    """The old name of ``global_variables``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0, name='v')
    ...     print([x.name for x in tf1.all_variables()])
    ['v:0']
    """
    return global_variables()


def initialize_variables(var_list: Sequence[Any], name: str = "init") -> Any:
    """The old name of ``variables_initializer``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     print(tf1.initialize_variables([]).type)
    NoOp
    """
    return variables_initializer(var_list, name)


def initialize_local_variables() -> Any:
    """The old name of ``local_variables_initializer``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     print(tf1.initialize_local_variables().type)
    NoOp
    """
    return local_variables_initializer()


def initialize_all_tables(name: str = "init_all_tables") -> Any:
    """The old name of ``tables_initializer``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     print(tf1.initialize_all_tables().name)
    init_all_tables
    """
    return tables_initializer(name)


def to_complex64(x: Any, name: str = "ToComplex64") -> Any:
    """``cast(x, complex64)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_complex64([1.0]).dtype.name
    'complex64'
    """
    return math_ops.cast(x, dtypes.complex64, name=name)


def to_complex128(x: Any, name: str = "ToComplex128") -> Any:
    """``cast(x, complex128)``.

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.to_complex128([1.0]).dtype.name
    'complex128'
    """
    return math_ops.cast(x, dtypes.complex128, name=name)
