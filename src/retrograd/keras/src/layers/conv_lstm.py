"""Keras' convolutional LSTMs, ConvLSTM1D/2D/3D: an LSTM whose gates are convolutions of
the step's image and of the previous state (Keras' cell, weights and dropout masks), run
by :class:`RNN` over ``[batch, time, *spatial, channels]``.

>>> import retrograd as rg
>>> layer = rg.keras.layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)
>>> layer(rg.ones([1, 4, 5, 5, 3])).shape.as_list()
[1, 4, 5, 5, 2]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import activations, constraints, initializers, regularizers
from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.conv import _padding, _tuple, data_format_of
from retrograd.keras.src.layers.rnn import DropoutRNNCell
from retrograd.keras.src.layers.rnn_layer import RNN
from retrograd.keras.src.ops import nn_layers
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["ConvLSTMCell", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

_CELL_OPTIONS = (
    "strides",
    "padding",
    "data_format",
    "dilation_rate",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "unit_forget_bias",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "seed",
)


class ConvLSTMCell(Layer, DropoutRNNCell):
    """One step of a convolutional LSTM of ``rank`` spatial dimensions (gates i, f, c, o
    from ``filters * 4`` kernels; the states' convolutions are 'same', stride 1).

    >>> import retrograd as rg
    >>> from retrograd.keras.src.layers.conv_lstm import ConvLSTMCell
    >>> cell = ConvLSTMCell(1, 2, 3, padding="same")
    >>> cell.build((1, 6, 4))
    >>> h, (h2, c) = cell(rg.ones([1, 6, 4]), cell.get_initial_state(1))
    >>> h.shape.as_list()
    [1, 6, 2]
    """

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | {
        "_dropout_mask",
        "_recurrent_dropout_mask",
    }
    dropout_mask_count = 4

    def __init__(
        self,
        rank: int,
        filters: int,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        data_format: Any = None,
        dilation_rate: Any = 1,
        activation: Any = "tanh",
        recurrent_activation: Any = "sigmoid",
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal",
        bias_initializer: Any = "zeros",
        unit_forget_bias: bool = True,
        kernel_regularizer: Any = None,
        recurrent_regularizer: Any = None,
        bias_regularizer: Any = None,
        kernel_constraint: Any = None,
        recurrent_constraint: Any = None,
        bias_constraint: Any = None,
        dropout: float = 0.0,
        recurrent_dropout: float = 0.0,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = keras_random.SeedGenerator(seed)
        if rank > 3:
            raise ValueError(
                f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}"
            )
        self.rank, self.filters = rank, filters
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = _padding(padding, ("valid", "same"))
        self.data_format = data_format_of(data_format, "ConvLSTM")
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                f"Received: strides={self.strides} and dilation_rate={self.dilation_rate}"
            )
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = use_bias, unit_forget_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.state_size = -1

    def build(self, inputs_shape, states_shape=None):
        first = self.data_format == "channels_first"
        self.spatial_dims = tuple(inputs_shape[2:] if first else inputs_shape[1:-1])
        if None in self.spatial_dims:
            raise ValueError(
                "ConvLSTM layers only support static input shapes for the spatial dimension. "
                f"Received invalid input shape: input_shape={tuple(inputs_shape)}"
            )
        self.input_dim = inputs_shape[1 if first else -1]
        if self.input_dim is None:
            raise ValueError(
                "The channel dimension of the inputs (last axis) should be defined. Found "
                f"None. Full input shape received: input_shape={tuple(inputs_shape)}"
            )
        f = self.filters
        self.kernel = self.add_weight(
            shape=(*self.kernel_size, self.input_dim, 4 * f),
            initializer=self.kernel_initializer,
            name="kernel",
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
        )
        self.recurrent_kernel = self.add_weight(
            shape=(*self.kernel_size, f, 4 * f),
            initializer=self.recurrent_initializer,
            name="recurrent_kernel",
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
        )
        self.bias = None
        if self.use_bias:
            base = self.bias_initializer

            def forget_ones(shape, dtype=None):
                parts = [base((f,), dtype=dtype), knp.ones((f,), dtype=dtype)]
                return knp.concatenate([*parts, base((2 * f,), dtype=dtype)])

            self.bias = self.add_weight(
                shape=(4 * f,),
                name="bias",
                initializer=forget_ones if self.unit_forget_bias else base,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
            )

    def _conv(self, x, w, b=None, padding="same", strides=None, dilation=None):
        out = nn_layers.conv(
            x, w, strides or self.strides, padding, self.data_format, dilation or 1
        )
        if b is not None:
            shape = [1] * (self.rank + 2)
            shape[-1 if self.data_format == "channels_last" else 1] = self.filters
            out = out + knp.reshape(b, shape)
        return out

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        xs = [inputs] * 4
        if training and 0.0 < self.dropout < 1.0:
            xs = [inputs * m for m in self.get_dropout_mask(inputs)]
        hs = [h_tm1] * 4
        if training and 0.0 < self.recurrent_dropout < 1.0:
            hs = [h_tm1 * m for m in self.get_recurrent_dropout_mask(h_tm1)]
        kernels = knp.split(self.kernel, 4, axis=self.rank + 1)
        recurrent = knp.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = knp.split(self.bias, 4) if self.use_bias else [None] * 4
        z = [
            self._conv(xs[k], kernels[k], biases[k], self.padding, None, self.dilation_rate)
            + self._conv(hs[k], recurrent[k], None, "same", (1,) * self.rank)
            for k in range(4)
        ]
        i, f = self.recurrent_activation(z[0]), self.recurrent_activation(z[1])
        c = f * c_tm1 + i * self.activation(z[2])
        h = self.recurrent_activation(z[3]) * self.activation(c)
        return h, [h, c]

    def get_initial_state(self, batch_size: Any = None) -> list:
        """Zero ``h`` and ``c`` of the output's spatial shape."""
        sizes = []
        for size, k, s, d in zip(
            self.spatial_dims, self.kernel_size, self.strides, self.dilation_rate
        ):
            span = d * (k - 1) + 1
            sizes.append(-(-size // s) if self.padding == "same" else (size - span) // s + 1)
        shape = (
            (batch_size, *sizes, self.filters)
            if self.data_format == "channels_last"
            else (batch_size, self.filters, *sizes)
        )
        return [knp.zeros(shape, dtype=self.compute_dtype) for _ in range(2)]

    def get_config(self):
        config = {"filters": self.filters, "kernel_size": self.kernel_size}
        for name in _CELL_OPTIONS:
            value = getattr(self, name)
            config[name] = serialize(value) if hasattr(value, "get_config") else value
        config["activation"] = activations.serialize(self.activation)
        config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        return {**super().get_config(), "rank": self.rank, **config}


class _ConvLSTM(RNN):
    rank = 2

    def __init__(
        self,
        filters: int,
        kernel_size: Any,
        strides: Any = 1,
        padding: str = "valid",
        data_format: Any = None,
        dilation_rate: Any = 1,
        activation: Any = "tanh",
        recurrent_activation: Any = "sigmoid",
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal",
        bias_initializer: Any = "zeros",
        unit_forget_bias: bool = True,
        kernel_regularizer: Any = None,
        recurrent_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        recurrent_constraint: Any = None,
        bias_constraint: Any = None,
        dropout: float = 0.0,
        recurrent_dropout: float = 0.0,
        seed: int | None = None,
        return_sequences: bool = False,
        return_state: bool = False,
        go_backwards: bool = False,
        stateful: bool = False,
        **kwargs: Any,
    ) -> None:
        options = dict(locals())
        cell_options = {k: options[k] for k in _CELL_OPTIONS}
        cell = ConvLSTMCell(
            self.rank,
            filters,
            kernel_size,
            name="conv_lstm_cell",
            dtype=kwargs.get("dtype"),
            **cell_options,
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            activity_regularizer=activity_regularizer,
            **kwargs,
        )

    def get_config(self):
        config = super().get_config()
        del config["cell"], config["unroll"], config["zero_output_for_mask"]
        cell = self.cell.get_config()
        for key in ("filters", "kernel_size", *_CELL_OPTIONS):
            config[key] = cell[key]
        config["activity_regularizer"] = serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


def _cell_property(name: str) -> property:
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's ``{name}``.")


for _name in ("filters", "kernel_size", *_CELL_OPTIONS):  # Keras' properties of the cell's
    setattr(_ConvLSTM, _name, _cell_property(_name))


class ConvLSTM1D(_ConvLSTM):
    """A convolutional LSTM over sequences of 1-D signals ``[batch, time, steps, channels]``.

    >>> import retrograd as rg
    >>> rg.keras.layers.ConvLSTM1D(3, 2)(rg.ones([2, 4, 6, 1])).shape.as_list()
    [2, 5, 3]
    """

    rank = 1


class ConvLSTM2D(_ConvLSTM):
    """A convolutional LSTM over image sequences ``[batch, time, rows, cols, channels]``.

    >>> import retrograd as rg
    >>> rg.keras.layers.ConvLSTM2D(2, 3)(rg.ones([1, 3, 5, 5, 1])).shape.as_list()
    [1, 3, 3, 2]
    """

    rank = 2


class ConvLSTM3D(_ConvLSTM):
    """A convolutional LSTM over volume sequences.

    >>> import retrograd as rg
    >>> rg.keras.layers.ConvLSTM3D(1, 2)(rg.ones([1, 2, 3, 3, 3, 1])).shape.as_list()
    [1, 2, 2, 2, 1]
    """

    rank = 3
