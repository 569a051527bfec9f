"""Keras' other normalisation layers: GroupNormalization (statistics per group of
channels), UnitNormalization (unit L2 norm), RMSNormalization (root-mean-square scaling)
and SpectralNormalization (a wrapped layer's kernel divided by its largest singular value,
estimated by power iteration while training).

>>> import retrograd as rg
>>> layer = rg.keras.layers.UnitNormalization()
>>> layer(rg.constant([[3.0, 4.0]])).numpy().tolist()
[[0.6000000238418579, 0.800000011920929]]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import constraints, initializers, regularizers
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.normalization import _add_gamma_and_beta
from retrograd.keras.src.layers.wrappers import Wrapper
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import math as kmath
from retrograd.keras.src.ops import nn_activations, nn_layers
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = [
    "GroupNormalization",
    "UnitNormalization",
    "RMSNormalization",
    "SpectralNormalization",
]


class GroupNormalization(Layer):
    """Normalises each sample over groups of ``groups`` channels (``-1``: one channel per
    group, instance normalisation), then scales and shifts per channel.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.GroupNormalization(groups=2)
    >>> y = layer(rg.constant([[1.0, 3.0, 10.0, 30.0]]))
    >>> [round(v, 2) for v in y.numpy().ravel().tolist()]
    [-1.0, 1.0, -1.0, 1.0]
    """

    supports_masking = True

    def __init__(
        self,
        groups: int = 32,
        axis: int = -1,
        epsilon: float = 0.001,
        center: bool = True,
        scale: bool = True,
        beta_initializer: Any = "zeros",
        gamma_initializer: Any = "ones",
        beta_regularizer: Any = None,
        gamma_regularizer: Any = None,
        beta_constraint: Any = None,
        gamma_constraint: Any = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError(
                "Received an invalid value for argument `groups`, expected a positive integer "
                f"(or `-1` for instance normalization). Received: groups={groups}"
            )
        super().__init__(**kwargs)
        self.groups, self.axis, self.epsilon = groups, axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(
                f"Axis {self.axis} of input tensor should have a defined dimension but the "
                f"layer received an input with shape {tuple(input_shape)}."
            )
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(
                f"Number of groups ({self.groups}) cannot be more than the number of "
                f"channels ({dim})."
            )
        if dim % self.groups:
            raise ValueError(
                f"Number of groups ({self.groups}) must be a multiple of the number of "
                f"channels ({dim})."
            )
        _add_gamma_and_beta(self, (dim,))

    def _grouped(self, shape: list) -> list:
        """``shape`` with the channel axis split into (groups, channels per group)."""
        shape = list(shape)
        shape[self.axis] = shape[self.axis] // self.groups
        shape.insert(self.axis, self.groups)  # Python's insert, as Keras does, negative too
        return shape

    def call(self, inputs):
        shape = list(kcore.shape(inputs))
        grouped = knp.reshape(inputs, [-1, *self._grouped(shape)[1:]])
        group_axis = self.axis if self.axis >= 0 else len(shape) + self.axis
        axes = [a for a in range(1, len(shape) + 1) if a != group_axis]
        mean, variance = nn_layers.moments(grouped, axes, keepdims=True)
        inverse = kmath.rsqrt(variance + self.epsilon)
        broadcast = [1] * len(shape)
        broadcast[self.axis] = shape[self.axis]
        broadcast = self._grouped(broadcast)
        if self.gamma is not None:
            inverse = inverse * knp.reshape(self.gamma, broadcast)
        shift = -mean * inverse
        if self.beta is not None:
            shift = shift + knp.reshape(self.beta, broadcast)
        return knp.reshape(grouped * inverse + shift, shape)

    def get_config(self):
        return {
            **super().get_config(),
            "groups": self.groups,
            "axis": self.axis,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "beta_initializer": serialize(self.beta_initializer),
            "gamma_initializer": serialize(self.gamma_initializer),
            "beta_regularizer": serialize(self.beta_regularizer),
            "gamma_regularizer": serialize(self.gamma_regularizer),
            "beta_constraint": serialize(self.beta_constraint),
            "gamma_constraint": serialize(self.gamma_constraint),
        }


class UnitNormalization(Layer):
    """Each sample divided by its L2 norm over ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.layers.UnitNormalization()(rg.constant([[0.0, 2.0]])).numpy().tolist()
    [[0.0, 1.0]]
    """

    supports_masking = True

    def __init__(self, axis: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            axis = list(axis)
        elif not isinstance(axis, int):
            raise TypeError(
                "Invalid value for `axis` argument: expected an int or a list/tuple of ints. "
                f"Received: axis={axis}"
            )
        self.axis = axis

    def call(self, inputs):
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        return nn_activations.normalize(inputs, axis=axis, order=2, epsilon=1e-12)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class RMSNormalization(Layer):
    """``x * rsqrt(mean(x**2) + epsilon) * scale`` over ``axis`` (a learned ``scale``).

    >>> import retrograd as rg
    >>> y = rg.keras.layers.RMSNormalization()(rg.constant([[3.0, 4.0]]))
    >>> [round(v, 4) for v in y.numpy().ravel().tolist()]
    [0.8485, 1.1314]
    """

    def __init__(self, axis: Any = -1, epsilon: float = 1e-06, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[a] for a in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")

    def call(self, x):
        return nn_layers.rms_normalization(x, self.scale, self.axis, self.epsilon)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}


class SpectralNormalization(Wrapper):
    """Wraps a layer with a ``kernel`` (or ``embeddings``): while training, the kernel is
    divided by its spectral norm, estimated by ``power_iterations`` steps from the kept
    vector ``vector_u``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.SpectralNormalization(rg.keras.layers.Dense(2), power_iterations=20)
    >>> _ = layer(rg.ones([1, 3]), training=True)
    >>> s = rg.linalg.svd(layer.layer.kernel, compute_uv=False)
    >>> round(float(s[0]), 1)
    1.0
    """

    def __init__(self, layer: Layer, power_iterations: int = 1, **kwargs: Any) -> None:
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError(
                "`power_iterations` should be greater than zero. Received: "
                f"`power_iterations={power_iterations}`"
            )
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(
                f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'"
            )
        self.kernel_shape = tuple(self.kernel.shape.as_list())
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]),
            initializer=initializers.TruncatedNormal(stddev=0.02),
            trainable=False,
            name="vector_u",
            dtype=self.kernel.dtype,
        )

    def normalized_weights(self) -> tuple:
        """The next ``vector_u`` and the kernel divided by its estimated spectral norm."""
        weights = knp.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        vector_u = self.vector_u.value
        for _ in range(self.power_iterations):
            vector_v = nn_activations.normalize(
                knp.matmul(vector_u, knp.transpose(weights)), axis=None
            )
            vector_u = nn_activations.normalize(knp.matmul(vector_v, weights), axis=None)
        vector_u, vector_v = kcore.stop_gradient(vector_u), kcore.stop_gradient(vector_v)
        sigma = knp.matmul(knp.matmul(vector_v, weights), knp.transpose(vector_u))
        kernel = knp.reshape(knp.divide(self.kernel, sigma), self.kernel_shape)
        return vector_u, kernel

    def call(self, inputs, training=False):
        if training and not bool(knp.all(knp.equal(self.kernel.value, 0))):
            new_u, new_kernel = self.normalized_weights()
            self.vector_u.assign(new_u)
            self.kernel.assign(new_kernel)
        return kcore.cast(self.layer(inputs), inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
