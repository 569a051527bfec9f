"""Keras optimizers (``tf.keras.optimizers``, also ``tf.optimizers``), with Keras' defaults
and update formulas, and learning-rate ``schedules``.

>>> import retrograd as rg
>>> rg.keras.optimizers.SGD(learning_rate=0.5).learning_rate
0.5
"""

from retrograd.keras import schedules
from retrograd.training.optimizers import SGD, Adagrad, Adam, Optimizer, RMSprop

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "schedules"]
