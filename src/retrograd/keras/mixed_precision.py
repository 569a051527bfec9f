"""``tf.keras.mixed_precision``: dtype policies (16-bit computation with float32 variables)
and dynamic loss scaling."""

from retrograd.keras.src.dtype_policies import (
    DTypePolicy,
    Policy,
    dtype_policy,
    global_policy,
    set_dtype_policy,
    set_global_policy,
)
from retrograd.keras.src.loss_scale_optimizer import LossScaleOptimizer

__all__ = [
    "DTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]
