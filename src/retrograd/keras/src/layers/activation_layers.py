"""Activation layers with parameters: ReLU, LeakyReLU, Softmax, ELU.

>>> import retrograd as rg
>>> rg.keras.layers.ReLU(max_value=1.0)(rg.constant([-1.0, 0.5, 3.0])).numpy().tolist()
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import tf_ops
from retrograd.keras.src.layers.base import Layer

__all__ = ["ReLU", "LeakyReLU", "Softmax", "ELU"]


class ReLU(Layer):
    """``max_value``-capped ReLU with ``negative_slope`` below ``threshold``.

    >>> import retrograd as rg
    >>> rg.keras.layers.ReLU(max_value=6.0)(rg.constant([-1.0, 3.0, 9.0])).numpy().tolist()
    [0.0, 3.0, 6.0]
    """

    supports_masking = True

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs: Any):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError(f"ReLU: max_value must be non-negative, got {max_value}")
        if negative_slope < 0:
            raise ValueError(f"ReLU: negative_slope must be non-negative, got {negative_slope}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        if self.negative_slope == 0 and self.threshold == 0:
            x = tf_ops.relu(inputs)
        else:
            below = self.negative_slope * (inputs - self.threshold)
            x = tf_ops.where(inputs >= self.threshold, inputs, below)
        if self.max_value is not None:
            x = tf_ops.minimum(x, tf_ops.constant(self.max_value, dtype=inputs.dtype))
        return x

    def get_config(self):
        return {
            **super().get_config(),
            "max_value": self.max_value,
            "negative_slope": self.negative_slope,
            "threshold": self.threshold,
        }


class LeakyReLU(Layer):
    """``x`` for positive inputs, ``negative_slope * x`` otherwise (Keras' default 0.3).

    >>> import retrograd as rg
    >>> rg.keras.layers.LeakyReLU(negative_slope=0.5)(rg.constant([-2.0, 2.0])).numpy().tolist()
    [-1.0, 2.0]
    """

    supports_masking = True

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        self.negative_slope = negative_slope

    def call(self, inputs):
        return tf_ops.where(inputs > 0, inputs, inputs * self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    """``x`` for positive inputs, ``alpha * (exp(x) - 1)`` otherwise.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.layers.ELU()(rg.constant([-1.0, 2.0])).numpy().tolist()]
    [-0.6321, 2.0]
    """

    supports_masking = True

    def __init__(self, alpha: float = 1.0, **kwargs: Any):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return tf_ops.where(inputs > 0, inputs, self.alpha * (tf_ops.exp(inputs) - 1.0))

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class Softmax(Layer):
    """Softmax over ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.layers.Softmax()(rg.constant([[0.0, 0.0]])).numpy().tolist()
    [[0.5, 0.5]]
    """

    supports_masking = True

    def __init__(self, axis: int = -1, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return tf_ops.softmax(inputs, axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
