"""Activation layers with parameters: ReLU, LeakyReLU, Softmax, ELU, PReLU (a learned
slope), ThresholdedReLU.

>>> import retrograd as rg
>>> rg.keras.layers.ReLU(max_value=1.0)(rg.constant([-1.0, 0.5, 3.0])).numpy().tolist()
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import constraints, initializers, regularizers, tf_ops
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops import numpy_reduce
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["ReLU", "LeakyReLU", "Softmax", "ELU", "PReLU", "ThresholdedReLU"]


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
    """Softmax over ``axis`` (an int, or several axes); a ``mask`` (True = keep) pushes the
    masked logits to -1e9 and zeroes their outputs, as Keras does.

    >>> import retrograd as rg
    >>> rg.keras.layers.Softmax()(rg.constant([[0.0, 0.0]])).numpy().tolist()
    [[0.5, 0.5]]
    >>> rg.keras.layers.Softmax()(rg.constant([[0.0, 0.0]]), mask=[[True, False]]).numpy()
    array([[1., 0.]], dtype=float32)
    """

    supports_masking = True

    def __init__(self, axis: Any = -1, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            keep = tf_ops.cast(tf_ops.convert_to_tensor(mask), inputs.dtype)
            large = 65504.0 if inputs.dtype.name == "float16" else 1e9
            inputs = inputs + (1.0 - keep) * -large
        axis = self.axis
        if isinstance(axis, (list, tuple)) and len(axis) > 1:
            outputs = tf_ops.exp(
                inputs - numpy_reduce.logsumexp(inputs, axis=tuple(axis), keepdims=True)
            )
        else:
            axis = axis[0] if isinstance(axis, (list, tuple)) else axis
            outputs = tf_ops.softmax(inputs, axis=axis)
        if mask is not None:
            outputs = outputs * keep
        return outputs

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class PReLU(Layer):
    """A leaky ReLU whose negative slope ``alpha`` is learned (one per input entry, shared
    along ``shared_axes``, counted from 1).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.PReLU(alpha_initializer=rg.keras.initializers.Constant(0.1))
    >>> layer(rg.constant([[-2.0, 3.0]])).numpy().tolist()
    [[-0.20000000298023224, 3.0]]
    """

    supports_masking = True

    def __init__(
        self,
        alpha_initializer: Any = "Zeros",
        alpha_regularizer: Any = None,
        alpha_constraint: Any = None,
        shared_axes: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is not None and not isinstance(shared_axes, (list, tuple)):
            shared_axes = [shared_axes]
        self.shared_axes = None if shared_axes is None else list(shared_axes)

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or []:
            shape[axis - 1] = 1
        self.alpha = self.add_weight(
            shape=shape,
            initializer=self.alpha_initializer,
            regularizer=self.alpha_regularizer,
            constraint=self.alpha_constraint,
            name="alpha",
        )

    def call(self, inputs):
        return tf_ops.relu(inputs) - self.alpha * tf_ops.relu(-inputs)

    def get_config(self):
        return {
            **super().get_config(),
            "alpha_initializer": serialize(self.alpha_initializer),
            "alpha_regularizer": serialize(self.alpha_regularizer),
            "alpha_constraint": serialize(self.alpha_constraint),
            "shared_axes": self.shared_axes,
        }


class ThresholdedReLU(Layer):
    """``x`` where ``x > theta``, zero elsewhere.

    >>> import retrograd as rg
    >>> rg.keras.layers.ThresholdedReLU(1.0)(rg.constant([0.5, 1.0, 2.0])).numpy().tolist()
    [0.0, 0.0, 2.0]
    """

    supports_masking = True

    def __init__(self, theta: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError(
                "Theta of a Thresholded ReLU layer cannot be None, expecting a float. "
                f"Received: {theta}"
            )
        if theta < 0:
            raise ValueError(
                f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}"
            )
        self.theta = float(theta)

    def call(self, inputs):
        theta = tf_ops.constant(self.theta, dtype=inputs.dtype)
        return inputs * tf_ops.cast(tf_ops.greater(inputs, theta), inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "theta": self.theta}
