"""Recurrent layers with Keras 3's cell equations: SimpleRNN, LSTM (gates i, f, c, o) and
GRU (gates z, r, h; ``reset_after=True``), unrolled over the time axis of
``[batch, time, features]`` inputs.

>>> import numpy as np, retrograd as rg
>>> rnn = rg.keras.layers.SimpleRNN(2, return_sequences=True)
>>> rnn(np.zeros((1, 3, 4))).shape
TensorShape([1, 3, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import tf_ops
from retrograd.keras.src.layers.arguments import given_arguments
from retrograd.keras.src.layers.recurrent_base import _Recurrent
from retrograd.ops import rnn_ops

__all__ = ["SimpleRNN", "LSTM", "GRU"]


class SimpleRNN(_Recurrent):
    """``h = activation(x @ kernel + h @ recurrent_kernel + bias)``.

    >>> import retrograd as rg
    >>> rnn = rg.keras.layers.SimpleRNN(4)
    >>> rnn(rg.zeros([2, 5, 3])).shape.as_list()
    [2, 4]
    >>> rg.keras.layers.SimpleRNN(4, return_sequences=True)(rg.zeros([2, 5, 3])).shape.as_list()
    [2, 5, 4]
    """

    _seed_first = True

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
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        recurrent_constraint: Any = None,
        bias_constraint: Any = None,
        dropout: float = 0.0,
        recurrent_dropout: float = 0.0,
        return_sequences: bool = False,
        return_state: bool = False,
        go_backwards: bool = False,
        stateful: bool = False,
        unroll: bool = False,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))

    def _step(self, xz, hz, state):
        z = xz + hz
        if self.bias is not None:
            z = z + self.bias
        h = self.activation(z)
        return h, [h]


class LSTM(_Recurrent):
    """Long short-term memory; the forget gate's bias starts at one (``unit_forget_bias``).

    >>> import retrograd as rg
    >>> rg.keras.layers.LSTM(4)(rg.zeros([2, 5, 3])).shape.as_list()
    [2, 4]
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
        unroll: bool = False,
        use_cudnn: Any = "auto",
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))

    def _bias_initializer(self):
        if not self._layer_options.get("unit_forget_bias", True):
            return self.bias_initializer
        units, base = self.units, self.bias_initializer

        def initializer(shape, dtype=None):
            parts = [
                np.asarray(base((units,), dtype)),
                np.ones(units),
                np.asarray(base((2 * units,), dtype)),
            ]
            return tf_ops.constant(np.concatenate(parts).astype(np.asarray(parts[0]).dtype))

        return initializer

    def _initial_state(self, batch, dtype):
        return [tf_ops.zeros(self._state_shape(batch), dtype=dtype)] * 2

    def _fused_op(self, x, state):
        h, c = state
        u, steps = self.units, int(x.shape[0])
        w = tf_ops.concat([self.kernel.read_value(), self.recurrent_kernel.read_value()], axis=0)
        b = (
            self.bias.read_value()
            if self.bias is not None
            else tf_ops.zeros([4 * u], dtype=x.dtype)
        )
        none = tf_ops.zeros([u], dtype=x.dtype)  # (no peepholes)
        out = rnn_ops.block_lstm_v2(steps, x, c, h, w, none, none, none, b)
        return out.h, [out.h[-1], out.cs[-1]]

    def _step(self, xz, hz, state):
        h, c = state
        z = xz + hz
        if self.bias is not None:
            z = z + self.bias
        u = self.units
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u : 2 * u])
        c = f * c + i * self.activation(z[:, 2 * u : 3 * u])
        o = self.recurrent_activation(z[:, 3 * u :])
        h = o * self.activation(c)
        return h, [h, c]


class GRU(_Recurrent):
    """Gated recurrent unit; by default (Keras' ``reset_after=True``) the reset gate applies
    after the recurrent product and the bias has two rows; with ``reset_after=False`` it
    applies to the state before the product (one bias row).

    >>> import retrograd as rg
    >>> rg.keras.layers.GRU(4)(rg.zeros([2, 5, 3])).shape.as_list()
    [2, 4]
    >>> rg.keras.layers.GRU(4, reset_after=False)(rg.zeros([2, 5, 3])).shape.as_list()
    [2, 4]
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
        unroll: bool = False,
        reset_after: bool = True,
        use_cudnn: Any = "auto",
        **kwargs: Any,
    ) -> None:
        super().__init__(**given_arguments(locals()))

    def _reset_after(self) -> bool:
        return self._layer_options.get("reset_after", True)

    def _bias_shape(self):
        return (2, 3 * self.units) if self._reset_after() else (3 * self.units,)

    @property
    def _fused_op(self):
        return self._fused_gru if self._reset_after() else None

    def _fused_gru(self, x, state):
        # (read_value: the weights as the compute dtype of a mixed precision layer)
        b = (
            self.bias.read_value()
            if self.bias is not None
            else tf_ops.zeros([2, 3 * self.units], x.dtype)
        )
        h = rnn_ops.block_gru(
            x, state[0], self.kernel.read_value(), self.recurrent_kernel.read_value(), b
        ).h
        return h, [h[-1]]

    def _state_product(self, h, masks):
        if self._reset_after():
            return super()._state_product(h, masks)
        # The candidate's recurrent product needs the reset gate first: the update and
        # reset products here, the state (dropped out for the candidate) kept for later.
        u, dropped = self.units, masks or [None] * 3
        states = [h if m is None else h * m for m in dropped]
        hz = tf_ops.concat(
            [
                tf_ops.matmul(states[k], self.recurrent_kernel[:, k * u : (k + 1) * u])
                for k in (0, 1)
            ],
            axis=1,
        )
        return hz, states[2]

    def _step(self, xz, hz, state):
        (h,) = state
        u = self.units
        if not self._reset_after():
            hz, h_candidate = hz
            x = xz if self.bias is None else xz + self.bias
            z = self.recurrent_activation(x[:, :u] + hz[:, :u])
            reset = self.recurrent_activation(x[:, u : 2 * u] + hz[:, u:])
            recurrent = tf_ops.matmul(reset * h_candidate, self.recurrent_kernel[:, 2 * u :])
            candidate = self.activation(x[:, 2 * u :] + recurrent)
            h = z * h + (1.0 - z) * candidate
            return h, [h]
        x, r = xz, hz
        if self.bias is not None:
            x, r = x + self.bias[0], r + self.bias[1]
        z = self.recurrent_activation(x[:, :u] + r[:, :u])
        reset = self.recurrent_activation(x[:, u : 2 * u] + r[:, u : 2 * u])
        candidate = self.activation(x[:, 2 * u :] + reset * r[:, 2 * u :])
        h = z * h + (1.0 - z) * candidate
        return h, [h]
