"""``tf.keras.constraints``: projections applied to a weight after each optimizer update
(``add_weight(constraint=...)``, ``Dense(kernel_constraint=...)``).

>>> import retrograd as rg
>>> rg.keras.constraints.NonNeg()(rg.constant([-1.0, 2.0])).numpy().tolist()
[0.0, 2.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import backend
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "Constraint",
    "MaxNorm",
    "MinMaxNorm",
    "NonNeg",
    "UnitNorm",
    "max_norm",
    "min_max_norm",
    "non_neg",
    "unit_norm",
    "get",
    "serialize",
    "deserialize",
]


class Constraint:
    """Base class: ``constraint(w)`` returns the projected weight (``w`` itself here).

    >>> import retrograd as rg
    >>> class Clip(rg.keras.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return rg.clip_by_value(w, -1.0, 1.0)
    >>> Clip()(rg.constant([3.0])).numpy().tolist()
    [1.0]
    """

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> Constraint:
        return cls(**config)


def _norms(w: Any, axis: Any) -> Any:
    return knp.sqrt(knp.sum(knp.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescales the weights along ``axis`` whose L2 norm exceeds ``max_value``.

    >>> import retrograd as rg
    >>> w = rg.keras.constraints.MaxNorm(1.0)(rg.constant([[3.0], [4.0]]))
    >>> [round(v, 4) for v in w.numpy().ravel().tolist()]
    [0.6, 0.8]
    """

    def __init__(self, max_value: float = 2, axis: Any = 0) -> None:
        self.max_value, self.axis = max_value, axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        desired = knp.clip(norms, 0, self.max_value)
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Clips the weights at 0 from below.

    >>> import retrograd as rg
    >>> rg.keras.constraints.NonNeg()(rg.constant([-2.0])).numpy().tolist()
    [0.0]
    """

    def __call__(self, w: Any) -> Any:
        return knp.maximum(w, 0)


class UnitNorm(Constraint):
    """Scales the weights along ``axis`` to unit L2 norm.

    >>> import retrograd as rg
    >>> w = rg.keras.constraints.UnitNorm()(rg.constant([[3.0], [4.0]]))
    >>> [round(v, 4) for v in w.numpy().ravel().tolist()]
    [0.6, 0.8]
    """

    def __init__(self, axis: Any = 0) -> None:
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves the L2 norm of the weights along ``axis`` into ``[min_value, max_value]``, by
    the fraction ``rate`` of the way.

    >>> import retrograd as rg
    >>> c = rg.keras.constraints.MinMaxNorm(min_value=2.0, max_value=3.0)
    >>> [round(v, 4) for v in c(rg.constant([[0.6], [0.8]])).numpy().ravel().tolist()]
    [1.2, 1.6]
    """

    def __init__(
        self, min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0, axis: Any = 0
    ) -> None:
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        desired = (
            self.rate * knp.clip(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        )
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {
            "min_value": self.min_value,
            "max_value": self.max_value,
            "rate": self.rate,
            "axis": self.axis,
        }


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm

_BY_NAME = {
    "max_norm": MaxNorm,
    "min_max_norm": MinMaxNorm,
    "non_neg": NonNeg,
    "unit_norm": UnitNorm,
    "MaxNorm": MaxNorm,
    "MinMaxNorm": MinMaxNorm,
    "NonNeg": NonNeg,
    "UnitNorm": UnitNorm,
}


def serialize(constraint: Any) -> Any:
    """The constraint as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> rg.keras.constraints.serialize(rg.keras.constraints.UnitNorm())["class_name"]
    'UnitNorm'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(constraint)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The constraint a serialized dict describes.

    >>> import retrograd as rg
    >>> c = rg.keras.constraints
    >>> type(c.deserialize(c.serialize(c.MaxNorm(3.0)))).__name__
    'MaxNorm'
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier: Any) -> Any:
    """A constraint from a name ('non_neg', 'MaxNorm', ...), a dict, an instance or a
    callable; None stays None.

    >>> import retrograd as rg
    >>> type(rg.keras.constraints.get("non_neg")).__name__
    'NonNeg'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        found = _BY_NAME.get(identifier)
        if found is None:
            raise ValueError(f"Could not interpret constraint identifier: {identifier}")
        return found()
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")
