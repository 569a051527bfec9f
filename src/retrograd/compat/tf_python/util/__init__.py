"""``tensorflow.python.util``: ``tf_inspect`` (signatures through decorators) and ``nest``."""

from retrograd.compat.tf_python.util import nest, tf_inspect

__all__ = ["nest", "tf_inspect"]
