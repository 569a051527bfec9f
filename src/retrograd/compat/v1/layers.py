"""``retrograd.compat.v1.layers``: TensorFlow 1's ``tf.layers`` (layers whose weights are
``get_variable`` variables of their scope: ``dense``, ``conv2d``, ``batch_normalization``,
``dropout``, pooling, ...).

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> tf1.layers.dense(rg.ones([1, 2]), 1, kernel_initializer=tf1.ones_initializer()).numpy().tolist()
[[2.0]]
"""

from retrograd.compat.tf1_batch_norm import (
    BatchNormalization,
    batch_normalization,
)
from retrograd.compat.tf1_conv_layers import (
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
    average_pooling1d,
    average_pooling2d,
    average_pooling3d,
    conv1d,
    conv2d,
    conv2d_transpose,
    max_pooling1d,
    max_pooling2d,
    max_pooling3d,
)
from retrograd.compat.tf1_layers import (
    Dense,
    Dropout,
    Flatten,
    InputSpec,
    Layer,
    dense,
    dropout,
    flatten,
)

__all__ = [
    "average_pooling1d",
    "average_pooling2d",
    "average_pooling3d",
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "batch_normalization",
    "BatchNormalization",
    "Conv1D",
    "conv1d",
    "Conv2D",
    "conv2d",
    "conv2d_transpose",
    "Conv2DTranspose",
    "Dense",
    "dense",
    "Dropout",
    "dropout",
    "Flatten",
    "flatten",
    "InputSpec",
    "Layer",
    "max_pooling1d",
    "max_pooling2d",
    "max_pooling3d",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
]
