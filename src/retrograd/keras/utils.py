"""``tf.keras.utils``: ``to_categorical``, ``set_random_seed``."""

from retrograd.keras.src.utils import (
    set_random_seed,
    to_categorical,
)

__all__ = [
    "to_categorical",
    "set_random_seed",
]
