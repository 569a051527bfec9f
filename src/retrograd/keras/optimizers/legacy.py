"""``tf.keras.optimizers.legacy``: in Keras 3 the same optimizers as
``tf.keras.optimizers`` (the Keras 2 classes are gone; these names remain for programs that
import them)."""

from retrograd.keras.src.optimizer_base import Optimizer
from retrograd.keras.src.optimizers import SGD, Adagrad, Adam, RMSprop
from retrograd.keras.src.optimizers_more import Ftrl

__all__ = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]
