"""The implementation of ``retrograd.keras`` (as ``keras.src`` in Keras 3): layers, models
and their training loop, losses, metrics, initializers, callbacks, schedules. Programs use
the public namespaces ``retrograd.keras.*``, which re-export from here."""

__all__ = [
    "activations",
    "backend",
    "callbacks",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "models",
    "progbar",
    "regularizers",
    "schedules",
    "tf_ops",
    "trainer",
    "utils",
]
