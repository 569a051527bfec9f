"""``BatchNormalization``: normalises with the batch's statistics while training (and moves
the running averages towards them), with the running averages otherwise.

>>> import numpy as np, retrograd as rg
>>> bn = rg.keras.layers.BatchNormalization()
>>> y = bn(np.array([[1.0], [3.0]]), training=True)
>>> [round(float(v), 4) for v in y.numpy().ravel()], round(float(bn.moving_mean.numpy()[0]), 4)
([-0.9995, 0.9995], 0.02)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import constraints, initializers, regularizers, tf_ops
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["BatchNormalization", "LayerNormalization"]


def _add_gamma_and_beta(layer: Any, shape: tuple) -> None:
    """A normalization layer's scale ``gamma`` (when ``scale``) and offset ``beta`` (when
    ``center``), of ``shape``; None where the layer has none."""
    layer.gamma = (
        layer.add_weight(
            shape=shape,
            initializer=layer.gamma_initializer,
            regularizer=layer.gamma_regularizer,
            constraint=layer.gamma_constraint,
            name="gamma",
        )
        if layer.scale or getattr(layer, "rms_scaling", False)
        else None
    )
    layer.beta = (
        layer.add_weight(
            shape=shape,
            initializer=layer.beta_initializer,
            regularizer=layer.beta_regularizer,
            constraint=layer.beta_constraint,
            name="beta",
        )
        if layer.center and not getattr(layer, "rms_scaling", False)
        else None
    )


class BatchNormalization(Layer):
    """Keras' defaults: ``axis=-1``, ``momentum=0.99``, ``epsilon=1e-3``.

    >>> import retrograd as rg
    >>> bn = rg.keras.layers.BatchNormalization()
    >>> x = rg.constant([[1.0], [3.0]])
    >>> [round(v, 3) for v in bn(x, training=True).numpy().ravel().tolist()]
    [-1.0, 1.0]
    >>> [round(v, 4) for v in bn.moving_mean.numpy().tolist()]  # 1% toward the batch mean
    [0.02]
    """

    supports_masking = True

    def __init__(
        self,
        axis: int = -1,
        momentum: float = 0.99,
        epsilon: float = 1e-3,
        center: bool = True,
        scale: bool = True,
        beta_initializer: Any = "zeros",
        gamma_initializer: Any = "ones",
        moving_mean_initializer: Any = "zeros",
        moving_variance_initializer: Any = "ones",
        beta_regularizer: Any = None,
        gamma_regularizer: Any = None,
        beta_constraint: Any = None,
        gamma_constraint: Any = None,
        synchronized: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"{type(self).__name__}: axis must be an integer, got {axis!r}")
        self.axis, self.momentum, self.epsilon = int(axis), float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.synchronized = synchronized

    def build(self, input_shape):
        rank = len(input_shape)
        axis = self.axis % rank
        self._axis = axis
        self._reduction_axes = [i for i in range(rank) if i != axis]
        shape = (input_shape[axis],)
        _add_gamma_and_beta(self, shape)
        self.moving_mean = self.add_weight(
            shape=shape,
            initializer=self.moving_mean_initializer,
            trainable=False,
            name="moving_mean",
        )
        self.moving_variance = self.add_weight(
            shape=shape,
            initializer=self.moving_variance_initializer,
            trainable=False,
            name="moving_variance",
        )

    def _broadcast(self, value: Any, rank: int) -> Any:
        if value is None or self._axis == rank - 1:
            return value
        shape = [1] * rank
        shape[self._axis] = -1
        return tf_ops.reshape(value, shape)

    def call(self, inputs, training=None):
        rank = inputs.shape.rank
        if training and self.trainable:
            mean, variance = tf_ops.moments(inputs, self._reduction_axes)
            momentum = self.momentum
            self.moving_mean.assign(
                self.moving_mean.read_value() * momentum + mean * (1.0 - momentum)
            )
            self.moving_variance.assign(
                self.moving_variance.read_value() * momentum + variance * (1.0 - momentum)
            )
        else:
            mean, variance = self.moving_mean.read_value(), self.moving_variance.read_value()
        return tf_ops.batch_normalization(
            inputs,
            self._broadcast(mean, rank),
            self._broadcast(variance, rank),
            self._broadcast(self.beta, rank),
            self._broadcast(self.gamma, rank),
            self.epsilon,
        )

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "momentum": self.momentum,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "beta_initializer": serialize(self.beta_initializer),
            "gamma_initializer": serialize(self.gamma_initializer),
            "moving_mean_initializer": serialize(self.moving_mean_initializer),
            "moving_variance_initializer": serialize(self.moving_variance_initializer),
            "beta_regularizer": serialize(self.beta_regularizer),
            "gamma_regularizer": serialize(self.gamma_regularizer),
            "beta_constraint": serialize(self.beta_constraint),
            "gamma_constraint": serialize(self.gamma_constraint),
            "synchronized": self.synchronized,
        }


class LayerNormalization(Layer):
    """Normalises each sample over ``axis`` (the last by default), then scales and shifts;
    Keras' ``epsilon=1e-3``.

    >>> import retrograd as rg
    >>> ln = rg.keras.layers.LayerNormalization()
    >>> [round(v, 3) for v in ln(rg.constant([[1.0, 3.0]])).numpy().ravel().tolist()]
    [-1.0, 1.0]
    """

    supports_masking = True

    def __init__(
        self,
        axis: Any = -1,
        epsilon: float = 1e-3,
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
        # deprecated in Keras 3.15 (it scales by the variance, as Keras does; a gamma, no beta)
        self.rms_scaling = bool(kwargs.pop("rms_scaling", False))
        super().__init__(**kwargs)
        self.axis = axis if isinstance(axis, (list, tuple)) else [axis]
        self.epsilon, self.center, self.scale = float(epsilon), center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        rank = len(input_shape)
        self._axes = sorted(a % rank for a in self.axis)
        shape = tuple(input_shape[a] for a in self._axes)
        _add_gamma_and_beta(self, shape)

    def _broadcast(self, value: Any, rank: int) -> Any:
        if value is None:
            return None
        shape = [1] * rank
        for a, size in zip(self._axes, value.shape.as_list()):
            shape[a] = size
        return tf_ops.reshape(value, shape)

    def call(self, inputs):
        rank = inputs.shape.rank
        if self.rms_scaling:
            _, variance = tf_ops.moments(inputs, self._axes, keepdims=True)
            out = inputs * tf_ops.rsqrt(variance + self.epsilon)
            return out * self._broadcast(self.gamma, rank)
        mean, variance = tf_ops.moments(inputs, self._axes, keepdims=True)
        return tf_ops.batch_normalization(
            inputs,
            mean,
            variance,
            self._broadcast(self.beta, rank),
            self._broadcast(self.gamma, rank),
            self.epsilon,
        )

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "rms_scaling": self.rms_scaling,
            "beta_initializer": serialize(self.beta_initializer),
            "gamma_initializer": serialize(self.gamma_initializer),
            "beta_regularizer": serialize(self.beta_regularizer),
            "gamma_regularizer": serialize(self.gamma_regularizer),
            "beta_constraint": serialize(self.beta_constraint),
            "gamma_constraint": serialize(self.gamma_constraint),
        }
