"""``tensorflow.python.eager.context``: whether ops run eagerly, and the switches of the
mode (``context.executing_eagerly()`` is what programs read).

>>> from retrograd.compat.tf_python.eager import context
>>> context.executing_eagerly()
True
"""

from retrograd.graph.graph import (
    disable_eager_execution,
    enable_eager_execution,
    executing_eagerly,
)

__all__ = ["disable_eager_execution", "enable_eager_execution", "executing_eagerly"]
