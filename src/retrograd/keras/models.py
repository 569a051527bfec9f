"""``tf.keras.models``: ``Model`` and ``Sequential``."""

from retrograd.keras.src.models import (
    Model,
    Sequential,
)

__all__ = [
    "Model",
    "Sequential",
]
