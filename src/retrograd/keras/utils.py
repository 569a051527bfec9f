"""``tf.keras.utils``: data helpers (``to_categorical``, ``pad_sequences``, ``PyDataset``,
``timeseries_dataset_from_array`` ...), seeding, serialization and custom objects,
``Progbar``, ``Config``."""

from retrograd.keras.src.backend import clear_session
from retrograd.keras.src.dtype_rules import standardize_dtype
from retrograd.keras.src.keras_tensor import is_keras_tensor
from retrograd.keras.src.py_dataset import PyDataset, Sequence
from retrograd.keras.src.serialization import (
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)
from retrograd.keras.src.utils import set_random_seed, to_categorical
from retrograd.keras.src.utils_more import (
    Config,
    Progbar,
    disable_interactive_logging,
    enable_interactive_logging,
    get_source_inputs,
    is_interactive_logging_enabled,
    normalize,
    pack_x_y_sample_weight,
    pad_sequences,
    split_dataset,
    timeseries_dataset_from_array,
    unpack_x_y_sample_weight,
)

__all__ = [
    "Config",
    "CustomObjectScope",
    "Progbar",
    "PyDataset",
    "Sequence",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "register_keras_serializable",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
