"""``tf.keras.optimizers.schedules``: learning rates as functions of the step."""

from retrograd.keras.src.schedules import (
    CosineDecay,
    ExponentialDecay,
    InverseTimeDecay,
    LearningRateSchedule,
    PiecewiseConstantDecay,
)

__all__ = [
    "LearningRateSchedule",
    "ExponentialDecay",
    "PiecewiseConstantDecay",
    "CosineDecay",
    "InverseTimeDecay",
]
