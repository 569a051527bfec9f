"""Whether a TF1 graph variable holds a value yet, as an op (``is_variable_initialized``):
read when the op runs, so a Session answers for that moment.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     v = tf1.Variable(1.0)
...     ready = is_variable_initialized(v)
...     with tf1.Session() as sess:
...         before = sess.run(ready)
...         sess.run(v.initializer)
...         print(before, sess.run(ready))
False True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.ops import math_ops

__all__ = ["is_variable_initialized"]


def _is_initialized_kernel(*, variable: Any) -> Any:
    return np.array(variable.is_initialized_now)


_IsVariableInitialized = define_op(
    "IsVariableInitialized",
    _is_initialized_kernel,
    stateful=True,
    shape_fn=lambda metas, variable: [((), np.bool_)],
)
no_gradient("IsVariableInitialized")


def is_variable_initialized(variable: Any) -> Any:
    """A boolean scalar: whether ``variable`` holds a value when the op runs (eagerly a
    variable always does: True).

    >>> import retrograd as rg
    >>> bool(is_variable_initialized(rg.Variable(1.0)))
    True
    """
    if context.graph is None or not hasattr(variable, "is_initialized_now"):
        return math_ops.cast(True, dtypes.bool)
    return execute(_IsVariableInitialized, (), {"variable": variable}, "IsVariableInitialized")
