"""``tensorflow.python.ops``: the op modules TensorFlow programs import by path."""

from retrograd.compat.tf_python.ops import (
    array_ops,
    control_flow_util,
    custom_gradient,
    gen_array_ops,
    gen_math_ops,
    gen_nn_ops,
    gradients_impl,
    math_ops,
    nn_ops,
    variable_scope,
)

__all__ = [
    "array_ops", "control_flow_util", "custom_gradient", "gen_array_ops", "gen_math_ops",
    "gen_nn_ops", "gradients_impl", "math_ops", "nn_ops", "variable_scope",
]  # fmt: skip
