"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.einsum_ops import einsum
from retrograd.ops.linalg_ops import matmul

__all__ = ["matmul", "einsum"]
