"""``tensorflow.python.framework``: graphs and gradient registration (``ops``), constants
(``constant_op``); ``dtypes`` is retrograd's (see compat.runner.MODULES)."""

from retrograd.compat.tf_python.framework import constant_op, ops

__all__ = ["constant_op", "ops"]
