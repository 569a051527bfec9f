"""``keras.layers.serialize`` and ``keras.layers.deserialize``: a layer as Keras' config
dict and back (its class found among Keras' layers, registered classes or
``custom_objects``; no code is loaded).

>>> import retrograd as rg
>>> config = rg.keras.layers.serialize(rg.keras.layers.Dense(3, name="d"))
>>> rg.keras.layers.deserialize(config).units
3
"""

from __future__ import annotations

from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["serialize", "deserialize"]


def serialize(layer: Layer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of ``layer``.

    >>> import retrograd as rg
    >>> rg.keras.layers.serialize(rg.keras.layers.ReLU())["class_name"]
    'ReLU'
    """
    return serialize_keras_object(layer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Layer:
    """The layer a :func:`serialize` result describes.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.deserialize({"class_name": "Dropout", "config": {"rate": 0.5}})
    >>> type(layer).__name__, layer.rate
    ('Dropout', 0.5)
    """
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not interpret serialized layer: {config!r}")
    layer = deserialize_keras_object(config, custom_objects)
    if not isinstance(layer, Layer):
        raise ValueError(f"The config does not describe a layer: {config!r}")
    return layer
