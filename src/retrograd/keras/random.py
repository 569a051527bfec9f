"""``tf.keras.random``: Keras' random functions and ``SeedGenerator`` (Keras' numbers)."""

from retrograd.keras.src.random import (
    SeedGenerator,
    dropout,
    normal,
    randint,
    shuffle,
    truncated_normal,
    uniform,
)

__all__ = ["SeedGenerator", "dropout", "normal", "randint", "shuffle", "truncated_normal"]
__all__ += ["uniform"]
