"""``tf.keras.models``: ``Model``, ``Sequential``, and whole models in ``.keras`` files."""

from retrograd.keras.src.model_cloning import clone_model, model_from_json
from retrograd.keras.src.models import (
    Model,
    Sequential,
)
from retrograd.keras.src.saving import load_model, save_model

__all__ = [
    "Model",
    "Sequential",
    "load_model",
    "save_model",
    "clone_model",
    "model_from_json",
]
