"""``retrograd.nn``: TensorFlow's ``tf.nn`` namespace."""

from retrograd.ops.activation_ops import elu, gelu, leaky_relu, relu6, selu, silu, softsign, swish
from retrograd.ops.math_ops import sigmoid, tanh
from retrograd.ops.nn_ops import l2_loss, log_softmax, relu, softmax, softplus
from retrograd.ops.sort_ops import top_k
from retrograd.ops.statistics_ops import l2_normalize, moments

__all__ = ["sigmoid", "tanh", "l2_loss", "log_softmax", "relu", "softmax", "softplus"]
__all__ += ["top_k", "l2_normalize", "moments"]
__all__ += ["elu", "gelu", "leaky_relu", "relu6", "selu", "silu", "softsign", "swish"]
