"""The Keras layers' implementations, one module per family; ``retrograd.keras.layers`` is
the public namespace."""

__all__ = [
    "activation_layers",
    "base",
    "building",
    "conv",
    "core",
    "input_layer",
    "merge",
    "normalization",
    "recurrent",
    "reshaping",
]
