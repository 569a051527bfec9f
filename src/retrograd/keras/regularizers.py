"""``tf.keras.regularizers``: weight penalties (L1, L2, orthogonality)."""

from retrograd.keras.src.regularizers import (  # noqa: A004
    L1,
    L1L2,
    L2,
    OrthogonalRegularizer,
    Regularizer,
    deserialize,
    get,
    l1,
    l1_l2,
    l2,
    orthogonal_regularizer,
    serialize,
)

__all__ = [
    "L1",
    "L1L2",
    "L2",
    "OrthogonalRegularizer",
    "Regularizer",
    "deserialize",
    "get",
    "l1",
    "l1_l2",
    "l2",
    "orthogonal_regularizer",
    "serialize",
]
