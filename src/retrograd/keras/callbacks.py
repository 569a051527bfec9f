"""``tf.keras.callbacks``: hooks for ``fit``/``evaluate``/``predict``."""

from retrograd.keras.src.callbacks import (
    Callback,
    CallbackList,
    EarlyStopping,
    History,
    LambdaCallback,
    ModelCheckpoint,
    ProgbarLogger,
)

__all__ = [
    "Callback",
    "CallbackList",
    "History",
    "ProgbarLogger",
    "EarlyStopping",
    "ModelCheckpoint",
    "LambdaCallback",
]
