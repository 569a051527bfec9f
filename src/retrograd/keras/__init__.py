"""``retrograd.keras`` (``tf.keras``): layers, models, training loops, losses, metrics,
initializers, callbacks and optimizers with Keras 3's semantics and defaults."""

from retrograd.keras import (
    activations,
    backend,
    callbacks,
    constraints,
    initializers,
    layers,
    losses,
    metrics,
    models,
    ops,
    optimizers,
    random,
    regularizers,
    saving,
    utils,
)
from retrograd.keras.layers import Input
from retrograd.keras.models import Model, Sequential
from retrograd.keras.src.keras_tensor import KerasTensor
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops.operation import Operation
from retrograd.keras.src.variables import Variable

__all__ = [
    "Input",
    "KerasTensor",
    "Layer",
    "Model",
    "Operation",
    "Sequential",
    "Variable",
    "activations",
    "backend",
    "callbacks",
    "constraints",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "models",
    "ops",
    "optimizers",
    "random",
    "regularizers",
    "saving",
    "utils",
]
