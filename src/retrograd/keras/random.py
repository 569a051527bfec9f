"""``tf.keras.random``: Keras' random functions and ``SeedGenerator`` (Keras' numbers)."""

from retrograd.keras.src.random import (
    SeedGenerator,
    dropout,
    normal,
    truncated_normal,
    uniform,
)

__all__ = ["SeedGenerator", "dropout", "normal", "truncated_normal", "uniform"]
