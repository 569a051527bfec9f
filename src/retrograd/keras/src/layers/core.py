"""Keras' core layers: Dense, Activation, Flatten, Reshape, Dropout, Lambda, Embedding.

>>> import numpy as np, retrograd as rg
>>> dense = rg.keras.layers.Dense(2, kernel_initializer="ones", activation="relu")
>>> dense(np.array([[1.0, -3.0]])).numpy()
array([[0., 0.]], dtype=float32)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from retrograd.core import dtypes
from retrograd.core.dimensions import dimension_value
from retrograd.keras.src import activations, constraints, initializers, regularizers, tf_ops
from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers import lora
from retrograd.keras.src.layers.arguments import positive_int
from retrograd.keras.src.layers.base import Layer, add_kernel_and_bias
from retrograd.keras.src.layers.conv import data_format_of, to_channels_last
from retrograd.keras.src.serialization import config_value as serialize

__all__ = [
    "Dense",
    "Activation",
    "Flatten",
    "Reshape",
    "Dropout",
    "Lambda",
    "Embedding",
    "Masking",
]


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``, the kernel ``[input_dim, units]``.

    >>> import retrograd as rg
    >>> dense = rg.keras.layers.Dense(2, kernel_initializer='ones', bias_initializer='zeros')
    >>> dense(rg.constant([[1.0, 2.0, 3.0]])).numpy().tolist(), dense.kernel.shape.as_list()
    ([[6.0, 6.0]], [3, 2])
    """

    input_rank = (2, None)  # Keras: InputSpec(min_ndim=2)

    supports_masking = True

    def __init__(
        self,
        units: int,
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        lora_rank: int | None = None,
        lora_alpha: float | None = None,
        quantization_config: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        lora.check_quantization_config(quantization_config, "Dense")
        self.quantization_config = quantization_config
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        if not isinstance(units, int) or units <= 0:
            raise ValueError(
                f"Received an invalid value for `units`, expected a positive integer. "
                f"Received: units={units}"
            )
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"Dense {self.name}: the last dimension of the inputs must be known")
        add_kernel_and_bias(self, (input_dim, self.units), self.units)
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank)

    def enable_lora(
        self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"
    ) -> None:
        """Freezes the kernel and trains a low-rank update of it (see ``lora``)."""
        names = ("lora_kernel_a", "lora_kernel_b")
        lora.enable_lora(
            self, "kernel", names, rank, lora_alpha, a_initializer, b_initializer,
            self.kernel_regularizer,
        )  # fmt: skip

    def call(self, inputs):
        kernel = self.kernel
        if self.lora_enabled:
            kernel = kernel + lora.lora_delta(
                self, ("lora_kernel_a", "lora_kernel_b"), kernel.dtype
            )
        if inputs.shape.rank == 2:
            x = tf_ops.matmul(inputs, kernel)
        else:
            x = tf_ops.tensordot(inputs, kernel, [[inputs.shape.rank - 1], [0]])
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": serialize(self.kernel_initializer),
            "bias_initializer": serialize(self.bias_initializer),
            "kernel_regularizer": serialize(self.kernel_regularizer),
            "bias_regularizer": serialize(self.bias_regularizer),
            "activity_regularizer": serialize(self.activity_regularizer),
            "kernel_constraint": serialize(self.kernel_constraint),
            "bias_constraint": serialize(self.bias_constraint),
            "quantization_config": None,
            **(
                {"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha}
                if self.lora_rank
                else {}
            ),
        }


class Activation(Layer):
    """Applies an activation function (a name or a callable).

    >>> import retrograd as rg
    >>> rg.keras.layers.Activation('relu')(rg.constant([-1.0, 2.0])).numpy().tolist()
    [0.0, 2.0]
    """

    supports_masking = True

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


class Flatten(Layer):
    """Flattens every dimension but the batch one.

    >>> import retrograd as rg
    >>> rg.keras.layers.Flatten()(rg.zeros([2, 3, 4])).shape.as_list()
    [2, 12]
    """

    input_rank = (1, None)

    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_of(data_format, "Flatten")

    def call(self, inputs):
        if inputs.shape.rank <= 1:
            return tf_ops.expand_dims(inputs, -1)
        inputs = to_channels_last(inputs, self.data_format)  # Keras flattens channels last
        batch = dimension_value(inputs.shape[0])
        return tf_ops.reshape(inputs, [batch, math.prod(inputs.shape.as_list()[1:])])

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class Reshape(Layer):
    """Reshapes each sample to ``target_shape`` (one entry may be -1).

    >>> import retrograd as rg
    >>> rg.keras.layers.Reshape((2, -1))(rg.zeros([5, 6])).shape.as_list()
    [5, 2, 3]
    """

    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return tf_ops.reshape(inputs, [dimension_value(inputs.shape[0]), *self.target_shape])

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}


class Dropout(Layer):
    """Zeroes a fraction ``rate`` of the inputs while training (scaling the rest by
    ``1 / (1 - rate)``); the identity otherwise.

    >>> import retrograd as rg
    >>> dropout = rg.keras.layers.Dropout(0.5, seed=1)
    >>> x = rg.ones([2, 4])
    >>> dropout(x).numpy().tolist()  # not training: unchanged
    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    >>> y = dropout(x, training=True).numpy()
    >>> sorted(set(y.ravel().tolist()))  # kept values are scaled by 1 / (1 - rate)
    [0.0, 2.0]
    """

    supports_masking = True

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(
                f"Invalid value received for argument `rate`. Expected a float value between "
                f"0 and 1. Received: rate={rate}"
            )
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        if rate > 0:  # Keras' masks, call by call (and its draw from Python's random)
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return keras_random.dropout(inputs, self.rate, self.noise_shape, self.seed_generator)
        return inputs

    def get_config(self):
        return {
            **super().get_config(),
            "rate": self.rate,
            "seed": self.seed,
            "noise_shape": self.noise_shape,
        }


class Lambda(Layer):
    """Wraps a function of the inputs as a layer.

    >>> import retrograd as rg
    >>> rg.keras.layers.Lambda(lambda x: x * 2.0)(rg.constant([1.0, 2.0])).numpy().tolist()
    [2.0, 4.0]
    """

    supports_masking = True

    def __init__(
        self, function: Callable, output_shape: Any = None, mask=None, arguments=None, **kwargs
    ):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda: function must be callable, got {function!r}")
        self.function, self.arguments = function, dict(arguments or {})

    def call(self, inputs, training=None):
        return self.function(inputs, **self.arguments)

    def get_config(self):
        return {**super().get_config(), "function": self.function, "arguments": self.arguments}


class Embedding(Layer):
    """Looks up rows of an ``[input_dim, output_dim]`` table by integer index.

    >>> import retrograd as rg
    >>> embedding = rg.keras.layers.Embedding(10, 3)
    >>> embedding(rg.constant([[1, 2]])).shape.as_list()
    [1, 2, 3]
    """

    def __init__(
        self,
        input_dim: int,
        output_dim: int,
        embeddings_initializer: Any = "uniform",
        embeddings_regularizer: Any = None,
        embeddings_constraint: Any = None,
        mask_zero: bool = False,
        weights: Any = None,
        lora_rank: int | None = None,
        lora_alpha: float | None = None,
        quantization_config: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        lora.check_quantization_config(quantization_config, "Embedding")
        self.quantization_config = quantization_config
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.input_dim = positive_int(input_dim, "input_dim")
        self.output_dim = positive_int(output_dim, "output_dim")
        self.mask_zero = mask_zero
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        if weights is not None:  # (Keras: built now, with the given table)
            self.build()
            if not (isinstance(weights, list) and len(weights) == 1):
                weights = [weights]
            self.set_weights(weights)

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer,
            regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint,
            name="embeddings",
        )
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank)

    def enable_lora(
        self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"
    ) -> None:
        """Freezes the table and trains a low-rank update of it (see ``lora``)."""
        names = ("lora_embeddings_a", "lora_embeddings_b")
        lora.enable_lora(
            self, "embeddings", names, rank, lora_alpha, a_initializer, b_initializer,
            self.embeddings_regularizer,
        )  # fmt: skip

    def _cast_inputs(self, value):
        value = tf_ops.convert_to_tensor(value)
        return value if value.dtype.is_integer else tf_ops.cast(value, dtypes.int32)

    def call(self, inputs):
        table = self.embeddings
        if self.lora_enabled:
            names = ("lora_embeddings_a", "lora_embeddings_b")
            table = table + lora.lora_delta(self, names, table.dtype)
        return tf_ops.gather(table, inputs, axis=0)

    def compute_mask(self, inputs, mask=None):
        """With ``mask_zero``, index 0 is padding: the mask is ``inputs != 0``."""
        if not self.mask_zero:
            return None
        return tf_ops.not_equal(tf_ops.convert_to_tensor(inputs), 0)

    def get_config(self):
        return {
            **super().get_config(),
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            "embeddings_initializer": serialize(self.embeddings_initializer),
            "embeddings_regularizer": serialize(self.embeddings_regularizer),
            "embeddings_constraint": serialize(self.embeddings_constraint),
            "mask_zero": self.mask_zero,
            "quantization_config": None,
            **(
                {"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha}
                if self.lora_rank
                else {}
            ),
        }


class Masking(Layer):
    """Masks the timesteps whose features all equal ``mask_value`` (zeroing them): the
    layers after it (LSTM, GlobalAveragePooling1D ...) skip those steps.

    >>> import retrograd as rg
    >>> x = rg.constant([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]])
    >>> rg.keras.layers.Masking().compute_mask(x).numpy().tolist()
    [[True, False, True]]
    """

    supports_masking = True

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _keep(self, inputs):
        differs = tf_ops.not_equal(inputs, tf_ops.cast(self.mask_value, inputs.dtype))
        return tf_ops.reduce_max(tf_ops.cast(differs, "int32"), axis=-1, keepdims=True) > 0

    def compute_mask(self, inputs, mask=None):
        inputs = tf_ops.convert_to_tensor(inputs)
        return tf_ops.squeeze(self._keep(inputs), -1)

    def call(self, inputs):
        return tf_ops.where(self._keep(inputs), inputs, tf_ops.zeros_like(inputs))

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
