"""``tensorflow.python.framework.constant_op``."""

from retrograd.graph.graph import constant

__all__ = ["constant"]
