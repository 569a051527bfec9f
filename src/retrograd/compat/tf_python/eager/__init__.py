"""``tensorflow.python.eager``: the tape (``backprop``) and the execution context
(``context``)."""

from retrograd.compat.tf_python.eager import backprop, context

__all__ = ["backprop", "context"]
