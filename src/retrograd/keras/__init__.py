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
    mixed_precision,
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
from retrograd.keras.src.dtype_policies import DTypePolicy, FloatDTypePolicy
from retrograd.keras.src.initializers import Initializer
from retrograd.keras.src.keras_tensor import KerasTensor
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.losses import Loss
from retrograd.keras.src.metrics import Metric
from retrograd.keras.src.ops.operation import Operation
from retrograd.keras.src.optimizer_base import Optimizer
from retrograd.keras.src.regularizers import Regularizer
from retrograd.keras.src.scopes import (
    Function,
    InputSpec,
    StatelessScope,
    SymbolicScope,
    device,
    name_scope,
    version,
)
from retrograd.keras.src.variables import Variable

__all__ = [
    "DTypePolicy",
    "FloatDTypePolicy",
    "Function",
    "Initializer",
    "InputSpec",
    "Loss",
    "Metric",
    "Optimizer",
    "Regularizer",
    "StatelessScope",
    "SymbolicScope",
    "device",
    "name_scope",
    "version",
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
    "mixed_precision",
    "models",
    "ops",
    "optimizers",
    "random",
    "regularizers",
    "saving",
    "utils",
]
