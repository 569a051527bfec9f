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
from retrograd.keras.src.callbacks_more import (
    BackupAndRestore,
    CSVLogger,
    LearningRateScheduler,
    ReduceLROnPlateau,
    SwapEMAWeights,
    TerminateOnNaN,
)

__all__ = [
    "Callback",
    "CallbackList",
    "History",
    "ProgbarLogger",
    "EarlyStopping",
    "ModelCheckpoint",
    "LambdaCallback",
    "BackupAndRestore",
    "CSVLogger",
    "LearningRateScheduler",
    "ReduceLROnPlateau",
    "SwapEMAWeights",
    "TerminateOnNaN",
]
