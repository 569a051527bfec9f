"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.einsum_ops import einsum
from retrograd.ops.linalg_ops import matmul
from retrograd.ops.statistics_ops import l2_normalize

__all__ = ["matmul", "einsum", "l2_normalize"]
