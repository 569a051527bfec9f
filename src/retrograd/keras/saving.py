"""``tf.keras.saving``: whole models in ``.keras`` files, and the registry of custom classes
(see keras/src/saving.py for the format, which keeps weights without HDF5)."""

from retrograd.keras.src.saving import load_model, save_model
from retrograd.keras.src.serialization import (
    deserialize_keras_object,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)

__all__ = [
    "deserialize_keras_object",
    "get_registered_name",
    "get_registered_object",
    "load_model",
    "register_keras_serializable",
    "save_model",
    "serialize_keras_object",
]
