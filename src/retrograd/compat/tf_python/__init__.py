"""TensorFlow's private module tree ``tensorflow.python`` as far as programs import it:
``tf2``, ``eager.{backprop, context}``, ``framework.ops`` (``RegisterGradient``,
``_gradient_registry``, graphs, ``control_dependencies``), ``framework.constant_op``,
``framework.tensor_shape``, ``ops.{math_ops, array_ops, nn_ops, gen_math_ops,
gen_array_ops, gen_nn_ops}`` with TensorFlow's function names (``gen_math_ops.mat_mul``,
...), ``ops.{custom_gradient, gradients_impl, variable_scope, control_flow_util}`` and
``util.{tf_inspect, nest}``. However ``tensorflow`` resolves to retrograd (``retrograd
run``, or ``sys.modules["tensorflow"] = retrograd``), ``tensorflow.python.X`` is
``retrograd.compat.tf_python.X`` (``compat.runner.MODULES``)."""

from retrograd.compat.tf_python import eager, framework, ops, tf2, util

__all__ = ["eager", "framework", "ops", "tf2", "util"]
