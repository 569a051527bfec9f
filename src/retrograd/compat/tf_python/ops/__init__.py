"""``tensorflow.python.ops``: the op modules TensorFlow programs import by path."""

from retrograd.compat.tf_python.ops import (
    array_ops,
    gen_array_ops,
    gen_math_ops,
    gen_nn_ops,
    math_ops,
    nn_ops,
)

__all__ = ["array_ops", "gen_array_ops", "gen_math_ops", "gen_nn_ops", "math_ops", "nn_ops"]
