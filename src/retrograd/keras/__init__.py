"""``retrograd.keras`` (``tf.keras``): layers, models, training loops, losses, metrics,
initializers, callbacks and optimizers with Keras 3's semantics and defaults."""

from retrograd.keras import (
    activations,
    backend,
    callbacks,
    initializers,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    random,
    regularizers,
    saving,
    utils,
)
from retrograd.keras.layers import Input
from retrograd.keras.models import Model, Sequential

__all__ = [
    "Input",
    "Model",
    "Sequential",
    "activations",
    "backend",
    "callbacks",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "models",
    "optimizers",
    "random",
    "regularizers",
    "saving",
    "utils",
]
