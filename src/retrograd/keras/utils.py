"""``tf.keras.utils``: ``to_categorical``, ``set_random_seed``,
``register_keras_serializable``."""

from retrograd.keras.src.serialization import register_keras_serializable
from retrograd.keras.src.utils import (
    set_random_seed,
    to_categorical,
)

__all__ = [
    "to_categorical",
    "set_random_seed",
    "register_keras_serializable",
]
