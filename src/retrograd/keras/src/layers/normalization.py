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


def _renorm_clipping(clipping: dict | None) -> dict:
    """``renorm_clipping`` checked as Keras checks it (keys rmax, rmin, dmax)."""
    clipping = clipping or {}
    keys = ["rmax", "rmin", "dmax"]
    if set(clipping) - set(keys):
        raise ValueError(
            f"Received invalid keys for `renorm_clipping` argument: {clipping}. "
            f"Supported values: {keys}."
        )
    rmax, rmin, dmax = clipping.get("rmax"), clipping.get("rmin"), clipping.get("dmax")
    if rmax is not None and rmin is not None and rmax < rmin:
        raise ValueError(
            "rmax should be greater than rmin in the `renorm_clipping` argument. "
            f"Received: rmax={rmax}, rmin={rmin}."
        )
    if dmax is not None and dmax < 0:
        raise ValueError(
            f"dmax should be non-negative in the `renorm_clipping` argument. Received: dmax={dmax}."
        )
    return clipping


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

    # (made in build: the affine weights, and the batch renormalization statistics)
    gamma: Any
    beta: Any
    moving_stddev: Any
    renorm_mean: Any
    renorm_stddev: Any

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
        renorm: bool = False,
        renorm_clipping: dict | None = None,
        renorm_momentum: float = 0.99,
        synchronized: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.renorm, self.renorm_momentum = renorm, renorm_momentum
        self.renorm_clipping = _renorm_clipping(renorm_clipping) if renorm else renorm_clipping
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
        if self.renorm:  # (Keras tracks the inference statistics as a moving stddev)
            variance_initializer = self.moving_variance_initializer

            def stddev_initializer(shape, dtype=None):
                return tf_ops.sqrt(variance_initializer(shape, dtype=dtype))

            for name, initializer in (
                ("moving_stddev", stddev_initializer),
                ("renorm_mean", self.moving_mean_initializer),
                ("renorm_stddev", stddev_initializer),
            ):
                weight = self.add_weight(
                    shape=shape, initializer=initializer, trainable=False, name=name
                )
                setattr(self, name, weight)

    def _broadcast(self, value: Any, rank: int) -> Any:
        if value is None or self._axis == rank - 1:
            return value
        shape = [1] * rank
        shape[self._axis] = -1
        return tf_ops.reshape(value, shape)

    def call(self, inputs, training=None):
        rank = inputs.shape.rank
        if training and self.trainable and self.renorm:
            mean, variance = tf_ops.moments(inputs, self._reduction_axes)
            gamma, beta = self._renorm(mean, variance)
            return tf_ops.batch_normalization(
                inputs, self._broadcast(mean, rank), self._broadcast(variance, rank),
                self._broadcast(beta, rank), self._broadcast(gamma, rank), self.epsilon,
            )  # fmt: skip
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

    def _renorm(self, mean: Any, variance: Any) -> tuple[Any, Any]:
        """Batch renormalization's scale and offset for this batch (Keras': the corrections
        ``r``, ``d`` of the renorm statistics, clipped, held constant), and its updates of
        the moving statistics (``moving_variance`` derived from ``moving_stddev``)."""
        stddev = tf_ops.sqrt(variance + self.epsilon)
        renorm_mean = self.renorm_mean.read_value()
        renorm_stddev = tf_ops.maximum(
            self.renorm_stddev.read_value(), tf_ops.sqrt(tf_ops.cast(self.epsilon, mean.dtype))
        )
        r, d = stddev / renorm_stddev, (mean - renorm_mean) / renorm_stddev
        clipping = self.renorm_clipping or {}
        if clipping.get("rmin") is not None:
            r = tf_ops.maximum(r, clipping["rmin"])
        if clipping.get("rmax") is not None:
            r = tf_ops.minimum(r, clipping["rmax"])
        if clipping.get("dmax") is not None:
            d = tf_ops.clip_by_value(d, -clipping["dmax"], clipping["dmax"])
        r, d = tf_ops.stop_gradient(r), tf_ops.stop_gradient(d)
        gamma = r if self.gamma is None else r * self.gamma
        beta = d if self.gamma is None else d * self.gamma
        beta = beta if self.beta is None else beta + self.beta
        keep = self.renorm_momentum
        self.renorm_mean.assign(renorm_mean * keep + mean * (1.0 - keep))
        self.renorm_stddev.assign(self.renorm_stddev.read_value() * keep + stddev * (1.0 - keep))
        momentum = self.momentum
        self.moving_mean.assign(self.moving_mean.read_value() * momentum + mean * (1.0 - momentum))
        moving_stddev = self.moving_stddev.read_value() * momentum + stddev * (1.0 - momentum)
        self.moving_stddev.assign(moving_stddev)
        self.moving_variance.assign(tf_ops.relu(moving_stddev * moving_stddev - self.epsilon))
        return gamma, beta

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
            "renorm": self.renorm,
            "renorm_clipping": self.renorm_clipping,
            "renorm_momentum": self.renorm_momentum,
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
