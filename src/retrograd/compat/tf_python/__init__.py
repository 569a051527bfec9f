"""TensorFlow's private module tree ``tensorflow.python`` as far as programs import it:
``framework.ops`` (``RegisterGradient``, ``_gradient_registry``, graphs), ``framework
.constant_op``, and ``ops.{math_ops, array_ops, nn_ops, gen_math_ops, gen_array_ops,
gen_nn_ops}`` with TensorFlow's function names (``gen_math_ops.mat_mul``, ...). Under
``retrograd run``, ``tensorflow.python.X`` is ``retrograd.compat.tf_python.X``."""

from retrograd.compat.tf_python import framework, ops

__all__ = ["framework", "ops"]
