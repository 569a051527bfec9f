"""``tensorflow.python.framework``: graphs and gradient registration (``ops``), constants
(``constant_op``), shapes (``tensor_shape``); ``dtypes`` is retrograd's (see
compat.runner.MODULES)."""

from retrograd.compat.tf_python.framework import constant_op, ops, tensor_shape

__all__ = ["constant_op", "ops", "tensor_shape"]
