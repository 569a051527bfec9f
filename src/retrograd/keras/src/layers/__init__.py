"""The Keras layers' implementations, one module per family; ``retrograd.keras.layers`` is
the public namespace."""

__all__ = [
    "activation_layers",
    "arguments",
    "base",
    "conv",
    "core",
    "merge",
    "normalization",
    "recurrent",
    "reshaping",
]
