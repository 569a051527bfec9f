"""The Keras layers' implementations, one module per family; ``retrograd.keras.layers`` is
the public namespace."""

__all__ = [
    "activation_layers",
    "attention",
    "base",
    "building",
    "conv",
    "conv_lstm",
    "conv_more",
    "core",
    "einsum_dense",
    "input_layer",
    "layer_config",
    "merge",
    "multi_head_attention",
    "normalization",
    "normalization_more",
    "pooling",
    "recurrent",
    "regularization",
    "reshaping",
    "reshaping_more",
    "rnn",
    "rnn_layer",
    "wrappers",
]
