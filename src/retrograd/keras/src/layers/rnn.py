"""Keras' generic recurrent layer ``RNN`` and its cells: ``SimpleRNNCell``, ``LSTMCell``,
``GRUCell`` (Keras 3's equations, weights and dropout masks) and ``StackedRNNCells``. A cell
maps ``(inputs_t, states)`` to ``(output_t, new_states)``; ``RNN`` runs it along the time
axis of ``[batch, time, features]`` (backwards, masked, stateful as asked).

>>> import retrograd as rg
>>> rnn = rg.keras.layers.RNN(rg.keras.layers.LSTMCell(3), return_sequences=True)
>>> rnn(rg.ones([2, 4, 5])).shape.as_list()
[2, 4, 3]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import activations, constraints, initializers, regularizers
from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["DropoutRNNCell", "SimpleRNNCell", "LSTMCell", "GRUCell"]


class DropoutRNNCell:
    """What a cell with ``dropout``/``recurrent_dropout`` shares: masks drawn once per
    sequence (``dropout_mask_count`` of them, one per gate, when set) and reset after."""

    dropout_mask_count: int | None = None

    def _create_dropout_mask(self, step_input: Any, rate: float) -> Any:
        ones = knp.ones_like(step_input)
        draw = lambda: keras_random.dropout(ones, rate, seed=self.seed_generator)  # noqa: E731
        count = self.dropout_mask_count
        return draw() if count is None else [draw() for _ in range(count)]

    def get_dropout_mask(self, step_input: Any) -> Any:
        """The inputs' dropout mask of this sequence (drawn on first use)."""
        if getattr(self, "_dropout_mask", None) is None and self.dropout > 0:
            self._dropout_mask = self._create_dropout_mask(step_input, self.dropout)
        return getattr(self, "_dropout_mask", None)

    def get_recurrent_dropout_mask(self, step_input: Any) -> Any:
        """The states' dropout mask of this sequence (drawn on first use)."""
        if getattr(self, "_recurrent_dropout_mask", None) is None and self.recurrent_dropout > 0:
            self._recurrent_dropout_mask = self._create_dropout_mask(
                step_input, self.recurrent_dropout
            )
        return getattr(self, "_recurrent_dropout_mask", None)

    def reset_dropout_mask(self) -> None:
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self) -> None:
        self._recurrent_dropout_mask = None


class _Cell(Layer, DropoutRNNCell):
    gates = 1
    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | {
        "_dropout_mask",
        "_recurrent_dropout_mask",
    }

    def __init__(
        self,
        units: int,
        activation: Any = "tanh",
        recurrent_activation: Any = "sigmoid",
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal",
        bias_initializer: Any = "zeros",
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
        if not isinstance(units, int) or units <= 0:
            raise ValueError(
                "Received an invalid value for argument `units`, expected a positive "
                f"integer, got {units}."
            )
        self.implementation = kwargs.pop("implementation", 2)
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
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
        if self.gates > 1 and self.recurrent_dropout != 0.0:
            self.implementation = 1
        if self.gates > 1 and self.implementation == 1:
            self.dropout_mask_count = self.gates
        self.seed = seed
        self.seed_generator = keras_random.SeedGenerator(seed)
        self.state_size: Any = units
        self.output_size = units

    def _add_weights(self, input_dim: int, bias_shape: tuple, bias_initializer: Any) -> None:
        width = self.gates * self.units
        self.kernel = self.add_weight(
            shape=(input_dim, width),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, width),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
            name="recurrent_kernel",
        )
        self.bias = (
            self.add_weight(
                shape=bias_shape,
                initializer=bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
            if self.use_bias
            else None
        )

    def build(self, input_shape):
        self._add_weights(input_shape[-1], (self.gates * self.units,), self.bias_initializer)

    def get_initial_state(self, batch_size: Any = None) -> list:
        """Zeros for each state."""
        sizes = self.state_size if isinstance(self.state_size, list) else [self.state_size]
        return [knp.zeros((batch_size, size), dtype=self.compute_dtype) for size in sizes]

    def _split(self, inputs: Any, mask: Any, kernel_rows: Any) -> list:
        """``inputs @ kernel`` per gate, each with its own dropout mask (implementation 1)."""
        u = self.units
        return [
            knp.matmul(
                inputs if mask is None else inputs * mask[k], kernel_rows[:, k * u : (k + 1) * u]
            )
            for k in range(self.gates)
        ]

    def get_config(self):
        config = {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": serialize(self.kernel_initializer),
            "recurrent_initializer": serialize(self.recurrent_initializer),
            "bias_initializer": serialize(self.bias_initializer),
            "kernel_regularizer": serialize(self.kernel_regularizer),
            "recurrent_regularizer": serialize(self.recurrent_regularizer),
            "bias_regularizer": serialize(self.bias_regularizer),
            "kernel_constraint": serialize(self.kernel_constraint),
            "recurrent_constraint": serialize(self.recurrent_constraint),
            "bias_constraint": serialize(self.bias_constraint),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        }
        if self.gates > 1:
            config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
            config["implementation"] = self.implementation
        return config


class SimpleRNNCell(_Cell):
    """``h = activation(x @ kernel + bias + h @ recurrent_kernel)``.

    >>> import retrograd as rg
    >>> cell = rg.keras.layers.SimpleRNNCell(2, kernel_initializer='ones',
    ...                                      recurrent_initializer='zeros')
    >>> out, state = cell(rg.constant([[0.5]]), [rg.zeros([1, 2])])
    >>> [round(v, 4) for v in out.numpy().ravel().tolist()]
    [0.4621, 0.4621]
    """

    def __init__(
        self,
        units: int,
        activation: Any = "tanh",
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal",
        bias_initializer: Any = "zeros",
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
        super().__init__(
            units,
            activation,
            "sigmoid",
            use_bias,
            kernel_initializer,
            recurrent_initializer,
            bias_initializer,
            kernel_regularizer,
            recurrent_regularizer,
            bias_regularizer,
            kernel_constraint,
            recurrent_constraint,
            bias_constraint,
            dropout,
            recurrent_dropout,
            seed,
            **kwargs,
        )

    def call(self, sequence, states, training=False):
        prev = states[0] if isinstance(states, (list, tuple)) else states
        dp_mask = self.get_dropout_mask(sequence)
        rec_mask = self.get_recurrent_dropout_mask(prev)
        if training and dp_mask is not None:
            sequence = sequence * dp_mask
        h = knp.matmul(sequence, self.kernel)
        if self.bias is not None:
            h = h + self.bias
        if training and rec_mask is not None:
            prev = prev * rec_mask
        output = h + knp.matmul(prev, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, [output] if isinstance(states, (list, tuple)) else output


class LSTMCell(_Cell):
    """The long short-term memory cell (gates i, f, c, o); states ``[h, c]``; the forget
    gate's bias starts at one with ``unit_forget_bias``.

    >>> import retrograd as rg
    >>> cell = rg.keras.layers.LSTMCell(3)
    >>> out, (h, c) = cell(rg.ones([2, 4]), cell.get_initial_state(2))
    >>> out.shape.as_list(), c.shape.as_list()
    ([2, 3], [2, 3])
    """

    gates = 4

    def __init__(
        self,
        units: int,
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
        super().__init__(
            units,
            activation,
            recurrent_activation,
            use_bias,
            kernel_initializer,
            recurrent_initializer,
            bias_initializer,
            kernel_regularizer,
            recurrent_regularizer,
            bias_regularizer,
            kernel_constraint,
            recurrent_constraint,
            bias_constraint,
            dropout,
            recurrent_dropout,
            seed,
            **kwargs,
        )
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [units, units]

    def build(self, input_shape):
        base, units = self.bias_initializer, self.units

        def forget_ones(shape, dtype=None):
            return knp.concatenate(
                [
                    base((units,), dtype=dtype),
                    knp.ones((units,), dtype=dtype),
                    base((2 * units,), dtype=dtype),
                ]
            )

        initializer = forget_ones if self.unit_forget_bias else base
        self._add_weights(input_shape[-1], (4 * units,), initializer)

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        act, rec = self.activation, self.recurrent_activation
        if self.implementation == 1:
            dp = self.get_dropout_mask(inputs) if training and 0 < self.dropout < 1 else None
            x = self._split(inputs, dp, self.kernel)
            if self.use_bias:
                x = [x[k] + self.bias[k * self.units : (k + 1) * self.units] for k in range(4)]
            rdp = (
                self.get_recurrent_dropout_mask(h_tm1)
                if training and 0 < self.recurrent_dropout < 1
                else None
            )
            r = self._split(h_tm1, rdp, self.recurrent_kernel)
            z = [x[k] + r[k] for k in range(4)]
        else:
            if training and 0 < self.dropout < 1:
                inputs = inputs * self.get_dropout_mask(inputs)
            z = knp.matmul(inputs, self.kernel) + knp.matmul(h_tm1, self.recurrent_kernel)
            if self.use_bias:
                z = z + self.bias
            z = knp.split(z, 4, axis=1)
        i, f, o = rec(z[0]), rec(z[1]), rec(z[3])
        c = f * c_tm1 + i * act(z[2])
        h = o * act(c)
        return h, [h, c]

    def get_config(self):
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """The gated recurrent unit cell (gates z, r, h); with ``reset_after`` (Keras' default)
    the reset gate applies after the recurrent product and the bias has two rows.

    >>> import retrograd as rg
    >>> cell = rg.keras.layers.GRUCell(3)
    >>> out, states = cell(rg.ones([2, 4]), [rg.zeros([2, 3])])
    >>> out.shape.as_list(), cell.bias.shape.as_list()
    ([2, 3], [2, 9])
    """

    gates = 3

    def __init__(
        self,
        units: int,
        activation: Any = "tanh",
        recurrent_activation: Any = "sigmoid",
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        recurrent_regularizer: Any = None,
        bias_regularizer: Any = None,
        kernel_constraint: Any = None,
        recurrent_constraint: Any = None,
        bias_constraint: Any = None,
        dropout: float = 0.0,
        recurrent_dropout: float = 0.0,
        reset_after: bool = True,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            units,
            activation,
            recurrent_activation,
            use_bias,
            kernel_initializer,
            recurrent_initializer,
            bias_initializer,
            kernel_regularizer,
            recurrent_regularizer,
            bias_regularizer,
            kernel_constraint,
            recurrent_constraint,
            bias_constraint,
            dropout,
            recurrent_dropout,
            seed,
            **kwargs,
        )
        self.reset_after = reset_after

    def build(self, input_shape):
        shape = (2, 3 * self.units) if self.reset_after else (3 * self.units,)
        self._add_weights(input_shape[-1], shape, self.bias_initializer)

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        u, act, rec = self.units, self.activation, self.recurrent_activation
        in_bias = rec_bias = None
        if self.use_bias:
            in_bias, rec_bias = (
                (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None)
            )
        if self.implementation == 1:
            dp = self.get_dropout_mask(inputs) if training and 0 < self.dropout < 1 else None
            x = self._split(inputs, dp, self.kernel)
            if in_bias is not None:
                x = [x[k] + in_bias[k * u : (k + 1) * u] for k in range(3)]
            rdp = (
                self.get_recurrent_dropout_mask(h_tm1)
                if training and 0 < self.recurrent_dropout < 1
                else None
            )
            hs = [h_tm1 if rdp is None else h_tm1 * rdp[k] for k in range(3)]
            rz = knp.matmul(hs[0], self.recurrent_kernel[:, :u])
            rr = knp.matmul(hs[1], self.recurrent_kernel[:, u : 2 * u])
            if self.reset_after and rec_bias is not None:
                rz, rr = rz + rec_bias[:u], rr + rec_bias[u : 2 * u]
            z, r = rec(x[0] + rz), rec(x[1] + rr)
            if self.reset_after:
                rh = knp.matmul(hs[2], self.recurrent_kernel[:, 2 * u :])
                if rec_bias is not None:
                    rh = rh + rec_bias[2 * u :]
                rh = r * rh
            else:
                rh = knp.matmul(r * hs[2], self.recurrent_kernel[:, 2 * u :])
            hh = act(x[2] + rh)
        else:
            if training and 0 < self.dropout < 1:
                inputs = inputs * self.get_dropout_mask(inputs)
            mx = knp.matmul(inputs, self.kernel)
            if in_bias is not None:
                mx = mx + in_bias
            if self.reset_after:
                inner = knp.matmul(h_tm1, self.recurrent_kernel)
                if rec_bias is not None:
                    inner = inner + rec_bias
            else:
                inner = knp.matmul(h_tm1, self.recurrent_kernel[:, : 2 * u])
            z = rec(mx[:, :u] + inner[:, :u])
            r = rec(mx[:, u : 2 * u] + inner[:, u : 2 * u])
            if self.reset_after:
                rh = r * inner[:, 2 * u :]
            else:
                rh = knp.matmul(r * h_tm1, self.recurrent_kernel[:, 2 * u :])
            hh = act(mx[:, 2 * u :] + rh)
        h = z * h_tm1 + (1 - z) * hh
        return h, [h] if isinstance(states, (list, tuple)) else h

    def get_config(self):
        return {**super().get_config(), "reset_after": self.reset_after}
