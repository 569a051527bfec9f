"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.linalg_ops import matmul

__all__ = ["matmul"]
