"""``retrograd.compat.v1.train``: TensorFlow 1's optimizers, global step and Saver."""

from retrograd.training.saver import Saver, checkpoint_exists, latest_checkpoint
from retrograd.training.v1_optimizers import (
    AdagradOptimizer,
    AdamOptimizer,
    GradientDescentOptimizer,
    MomentumOptimizer,
    Optimizer,
    RMSPropOptimizer,
    create_global_step,
    get_global_step,
    get_or_create_global_step,
)
from retrograd.training.v1_schedules import (
    exponential_decay,
    inverse_time_decay,
    piecewise_constant,
    polynomial_decay,
)

__all__ = [
    "AdagradOptimizer",
    "AdamOptimizer",
    "GradientDescentOptimizer",
    "MomentumOptimizer",
    "Optimizer",
    "RMSPropOptimizer",
    "Saver",
    "checkpoint_exists",
    "create_global_step",
    "exponential_decay",
    "get_global_step",
    "get_or_create_global_step",
    "inverse_time_decay",
    "latest_checkpoint",
    "piecewise_constant",
    "polynomial_decay",
]
