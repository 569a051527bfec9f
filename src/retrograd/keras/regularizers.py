"""``tf.keras.regularizers``: weight penalties (L1, L2)."""

from retrograd.keras.src.regularizers import (
    L1,
    L1L2,
    L2,
    Regularizer,
    get,
    l1,
    l1_l2,
    l2,
)

__all__ = [
    "Regularizer",
    "L1",
    "L2",
    "L1L2",
    "l1",
    "l2",
    "l1_l2",
    "get",
]
