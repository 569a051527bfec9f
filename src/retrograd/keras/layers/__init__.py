"""``tf.keras.layers``: the layers custom-gradient programs use, and ``Layer`` to subclass."""

from retrograd.keras.layers.base import Input, InputLayer, KerasTensor, Layer
from retrograd.keras.layers.conv import (
    AveragePooling2D,
    Conv1D,
    Conv2D,
    GlobalAveragePooling2D,
    GlobalMaxPooling2D,
    MaxPooling2D,
)
from retrograd.keras.layers.core import (
    Activation,
    Dense,
    Dropout,
    Embedding,
    Flatten,
    Lambda,
    Reshape,
)
from retrograd.keras.layers.merge import Add, Concatenate, Multiply, add, concatenate, multiply
from retrograd.keras.layers.normalization import BatchNormalization

__all__ = [
    "Activation",
    "Add",
    "AveragePooling2D",
    "BatchNormalization",
    "Concatenate",
    "Conv1D",
    "Conv2D",
    "Dense",
    "Dropout",
    "Embedding",
    "Flatten",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
    "Input",
    "InputLayer",
    "KerasTensor",
    "Lambda",
    "Layer",
    "MaxPooling2D",
    "Multiply",
    "Reshape",
    "add",
    "concatenate",
    "multiply",
]
