"""TensorFlow 1's ``tf.layers.batch_normalization`` and ``BatchNormalization``: gamma, beta
and the moving mean and variance as ``get_variable`` variables of the layer's scope; in
training, the moving averages' updates go to ``UPDATE_OPS``.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     y = batch_normalization(tf1.placeholder(rg.float32, [None, 2]), training=True)
...     print(sorted(v.name for v in tf1.global_variables()), len(tf1.get_collection('update_ops')))
['batch_normalization/beta:0', 'batch_normalization/gamma:0', \
'batch_normalization/moving_mean:0', 'batch_normalization/moving_variance:0'] 2
"""

from __future__ import annotations

from typing import Any

from retrograd.compat.initializers import ones_initializer, zeros_initializer
from retrograd.compat.tf1_layers import Layer
from retrograd.core import dtypes
from retrograd.core.shapes import TensorShape
from retrograd.graph.control_flow import cond
from retrograd.ops import array_ops, math_ops, nn_layer_ops, statistics_ops

__all__ = ["BatchNormalization", "batch_normalization"]

_ZEROS, _ONES = zeros_initializer(), ones_initializer()


class BatchNormalization(Layer):
    """Normalises over every axis but ``axis`` with the batch's moments when ``training``
    (a bool or a boolean tensor; each training run also moves ``moving_mean`` and
    ``moving_variance`` by ``1 - momentum``, an op put in ``UPDATE_OPS``) and with the moving
    ones otherwise. As TensorFlow 1, the moving variance of 4-D inputs normalised over
    their channels (TensorFlow's fused kernel) takes the unbiased batch variance; of other
    inputs, the biased one.

    >>> import retrograd as rg
    >>> y = BatchNormalization()(rg.constant([[1.0], [3.0]]), training=True)
    >>> y.numpy().round(3).tolist()
    [[-1.0], [1.0]]
    """

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer=_ZEROS,
        gamma_initializer=_ONES,
        moving_mean_initializer=_ZEROS,
        moving_variance_initializer=_ONES,
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        renorm=False,
        renorm_clipping=None,
        renorm_momentum=0.99,
        fused=None,
        trainable=True,
        virtual_batch_size=None,
        adjustment=None,
        name=None,
        **kwargs,
    ) -> None:
        super().__init__(trainable, name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise ValueError(
                "BatchNormalization: renorm, virtual_batch_size and adjustment are not "
                "supported by retrograd"
            )
        self.axis, self.momentum, self.epsilon = axis, momentum, epsilon
        self.center, self.scale, self.fused = center, scale, fused
        self.initializers = (beta_initializer, gamma_initializer, moving_mean_initializer,
                             moving_variance_initializer)  # fmt: skip
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.beta = self.gamma = self.moving_mean = self.moving_variance = None

    def build(self, input_shape: TensorShape) -> None:
        rank = input_shape.rank
        if rank is None:
            raise ValueError("BatchNormalization: the inputs' rank must be known")
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        self._axes = sorted(a % rank for a in axes)
        dims = input_shape.as_list()
        shape = self._param_shape = [dims[a] for a in self._axes]
        if any(d is None for d in shape):
            raise ValueError(
                f"BatchNormalization: axis {self.axis} of input shape {input_shape} must be known"
            )
        self._fused = len(self._axes) == 1 and rank == 4 and self._axes[0] in (1, 3)
        if self.fused is False:
            self._fused = False
        param_dtype = dtypes.float32 if self.dtype in (dtypes.float16, None) else self.dtype
        beta_init, gamma_init, mean_init, var_init = self.initializers
        if self.scale:
            self.gamma = self.add_weight(
                "gamma", shape, param_dtype, gamma_init, self.gamma_regularizer, True,
                self.gamma_constraint,
            )  # fmt: skip
        if self.center:
            self.beta = self.add_weight(
                "beta", shape, param_dtype, beta_init, self.beta_regularizer, True,
                self.beta_constraint,
            )  # fmt: skip
        self.moving_mean = self.add_weight(
            "moving_mean", shape, param_dtype, mean_init, trainable=False
        )
        self.moving_variance = self.add_weight(
            "moving_variance", shape, param_dtype, var_init, trainable=False
        )
        self.built = True

    def _broadcast(self, value: Any, rank: int) -> Any:
        """A parameter of the normalised axes' shape, shaped to broadcast against inputs."""
        if value is None or self._axes == [rank - 1]:
            return value
        sizes = iter(self._param_shape)
        return array_ops.reshape(
            value, [next(sizes) if a in self._axes else 1 for a in range(rank)]
        )

    def _normalize(self, inputs: Any, mean: Any, variance: Any) -> Any:
        rank = inputs.shape.rank
        return nn_layer_ops.batch_normalization(
            inputs,
            self._broadcast(mean, rank),
            self._broadcast(variance, rank),
            self._broadcast(None if self.beta is None else self.beta.read_value(), rank),
            self._broadcast(None if self.gamma is None else self.gamma.read_value(), rank),
            self.epsilon,
        )

    def _batch_moments(self, inputs: Any) -> tuple[Any, Any, Any]:
        rank = inputs.shape.rank
        reduce = [a for a in range(rank) if a not in self._axes]
        mean, variance = statistics_ops.moments(inputs, reduce)
        moving = variance
        if self._fused:  # TensorFlow's fused kernel hands the unbiased variance on
            size = math_ops.cast(array_ops.size(inputs), variance.dtype)
            count = size / math_ops.cast(array_ops.size(mean), variance.dtype)
            moving = variance * count / math_ops.maximum(count - 1.0, 1.0)
        return mean, variance, moving

    def call(self, inputs: Any, training: Any = False) -> Any:
        def inference() -> tuple[Any, Any, Any]:
            mean, variance = self.moving_mean.read_value(), self.moving_variance.read_value()
            return self._normalize(inputs, mean, variance), mean, variance

        def train() -> tuple[Any, Any, Any]:
            mean, variance, moving = self._batch_moments(inputs)
            return self._normalize(inputs, mean, variance), mean, moving

        if isinstance(training, bool) and not training:
            return inference()[0]
        rate = 1.0 - self.momentum
        if isinstance(training, bool):
            outputs, mean, moving = train()
        else:  # decided when the graph runs; not training, the moving averages stay
            outputs, mean, moving = cond(training, train, inference)
            rate = array_ops.where(training, rate, 0.0)
        for var, value in ((self.moving_mean, mean), (self.moving_variance, moving)):
            read = var.read_value()
            delta = (read - value) * math_ops.cast(rate, var.dtype)
            self.add_update(var.assign_sub(delta, read_value=False))
        return outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return TensorShape(input_shape)


def batch_normalization(
    inputs,
    axis=-1,
    momentum=0.99,
    epsilon=1e-3,
    center=True,
    scale=True,
    beta_initializer=_ZEROS,
    gamma_initializer=_ONES,
    moving_mean_initializer=_ZEROS,
    moving_variance_initializer=_ONES,
    beta_regularizer=None,
    gamma_regularizer=None,
    beta_constraint=None,
    gamma_constraint=None,
    training=False,
    trainable=True,
    name=None,
    reuse=None,
    renorm=False,
    renorm_clipping=None,
    renorm_momentum=0.99,
    fused=None,
    virtual_batch_size=None,
    adjustment=None,
):
    """The ``BatchNormalization`` layer applied once; its moving-average updates are in
    ``UPDATE_OPS`` (run them with the train op).

    >>> import retrograd as rg
    >>> [round(v, 3) for v in batch_normalization(rg.constant([1.0, 3.0])).numpy().tolist()]
    [1.0, 2.999]
    """
    layer = BatchNormalization(
        axis, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
        moving_mean_initializer, moving_variance_initializer, beta_regularizer,
        gamma_regularizer, beta_constraint, gamma_constraint, renorm, renorm_clipping,
        renorm_momentum, fused, trainable, virtual_batch_size, adjustment, name,
        _reuse=reuse, _scope=name,
    )  # fmt: skip
    return layer(inputs, training=training)
