"""``tf.keras.optimizers.schedules``: learning rates as functions of the step."""

from retrograd.keras.src.schedules import (
    CosineDecay,
    ExponentialDecay,
    InverseTimeDecay,
    LearningRateSchedule,
    PiecewiseConstantDecay,
)
from retrograd.keras.src.schedules_more import (
    CosineDecayRestarts,
    PolynomialDecay,
    deserialize,
    serialize,
)

__all__ = [
    "CosineDecay",
    "CosineDecayRestarts",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
    "deserialize",
    "serialize",
]
