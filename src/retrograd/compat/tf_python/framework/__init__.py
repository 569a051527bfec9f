"""``tensorflow.python.framework``: graphs and gradient registration (``ops``), constants
(``constant_op``), shapes (``tensor_shape``), ``dtypes`` and ``errors``."""

from retrograd.compat.tf_python.framework import constant_op, dtypes, errors, ops, tensor_shape

__all__ = ["constant_op", "dtypes", "errors", "ops", "tensor_shape"]
