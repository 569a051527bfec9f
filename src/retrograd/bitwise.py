"""``retrograd.bitwise``: TensorFlow's ``tf.bitwise`` namespace."""

from retrograd.ops.bit_ops import left_shift, right_shift
from retrograd.ops.comparison_ops import bitwise_and, bitwise_or, bitwise_xor, invert

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
