"""``tf.keras.optimizers`` (also ``tf.optimizers``): Keras 3's optimizers with their
options, the loss-scaling wrapper, ``get``/``serialize``/``deserialize``, and the learning-rate
``schedules``."""

from retrograd.keras.optimizers import legacy, schedules
from retrograd.keras.src.loss_scale_optimizer import LossScaleOptimizer
from retrograd.keras.src.optimizer_base import Optimizer
from retrograd.keras.src.optimizer_names import Adafactor, deserialize, get, serialize
from retrograd.keras.src.optimizers import SGD, Adagrad, Adam, Adamax, AdamW, RMSprop
from retrograd.keras.src.optimizers_more import Adadelta, Ftrl, Lamb, Lion, Nadam

__all__ = [
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "Nadam",
    "Optimizer",
    "RMSprop",
    "SGD",
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]
