"""``retrograd.bitwise``: TensorFlow's ``tf.bitwise`` namespace."""

from retrograd.ops.comparison_ops import bitwise_and, bitwise_or, bitwise_xor, invert

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert"]
