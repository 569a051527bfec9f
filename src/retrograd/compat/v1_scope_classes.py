"""TensorFlow 1's ``variable_scope`` and ``name_scope`` as the classes they are in
TensorFlow (context managers made with the scope's arguments, entered by ``with``); the
scopes themselves are :mod:`retrograd.compat.variable_scopes`'.

>>> import retrograd as rg
>>> isinstance(variable_scope("a"), variable_scope)
True
"""

from __future__ import annotations

from typing import Any

from retrograd.compat import variable_scopes

__all__ = ["name_scope", "variable_scope"]


class variable_scope:  # noqa: N801  (TensorFlow's name)
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

    def __init__(
        self,
        name_or_scope: Any,
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
    ) -> None:
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        self._scope = variable_scopes.variable_scope(
            name_or_scope, default_name, values, initializer, regularizer, caching_device,
            partitioner, custom_getter, reuse, dtype, use_resource, constraint,
            auxiliary_name_scope,
        )  # fmt: skip

    def __enter__(self) -> variable_scopes.VariableScope:
        return self._scope.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._scope.__exit__(*exc)


class name_scope:  # noqa: N801  (TensorFlow's name)
    """TF1's ``name_scope(name, default_name=None, values=None)``: prefixes op names.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     with tf1.name_scope('block'):
    ...         c = rg.constant(1.0, name='c')
    ...     print(c.op.name)
    block/c
    """

    def __init__(self, name: str | None, default_name: str | None = None, values: Any = None):
        self._name = name if name is not None else default_name
        self._scope = variable_scopes.name_scope(name, default_name, values)

    @property
    def name(self) -> str | None:
        """The name given (or ``default_name``)."""
        return self._name

    def __enter__(self) -> Any:
        return self._scope.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._scope.__exit__(*exc)
