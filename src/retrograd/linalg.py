"""``retrograd.linalg``: TensorFlow's ``tf.linalg`` namespace."""

from retrograd.ops.clip_ops import global_norm
from retrograd.ops.linalg_ops import matmul

__all__ = ["matmul"]
__all__ += ["global_norm"]
