"""The implementation of ``keras.ops`` (Keras 3's backend-independent ops) on retrograd's
ops: one module per family, gathered by ``numpy`` (``keras.ops.numpy``), ``nn``,
``linalg``, ``math``, ``image`` and ``core``; ``operation`` holds ``keras.Operation`` and
the symbolic calls that put ops into functional models."""

__all__ = [
    "convolution",
    "core",
    "linalg",
    "math",
    "nn_activations",
    "nn_layers",
    "nn_misc",
    "numpy",
    "numpy_binary",
    "numpy_create",
    "numpy_index",
    "numpy_logic",
    "numpy_nan",
    "numpy_products",
    "numpy_reduce",
    "numpy_rounding",
    "numpy_shape",
    "numpy_unary",
    "operation",
    "tensors",
]
