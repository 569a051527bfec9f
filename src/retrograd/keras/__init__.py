"""``retrograd.keras``: where Keras programs look for optimizers (``tf.keras.optimizers``)."""

from retrograd.keras import optimizers

__all__ = ["optimizers"]
