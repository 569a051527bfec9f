"""The recurrent layers' shared machinery (``_Recurrent``): weights, states, dropout masks,
the step loop over a sequence, masks, ``stateful``, and the fused ops (``ops.rnn_ops``) where
they compute what the loop computes (Keras' cuDNN conditions). The layers themselves, with
their cell equations, are in ``recurrent``.
"""

from __future__ import annotations

from typing import Any

from retrograd.core.dimensions import dimension_value
from retrograd.keras.src import activations, backend, initializers, regularizers, tf_ops
from retrograd.keras.src import constraints as constraints_module
from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.arguments import positive_int
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.serialization import config_value as serialize
from retrograd.ops import array_ops, rearrange_ops

__all__: list[str] = []


class _Recurrent(Layer):
    input_rank = (3, 3)  # (batch, time, features)
    gates = 1
    _seed_first = False  # whether Keras' cell makes its seed generator before its initializers

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
        return_sequences: bool = False,
        return_state: bool = False,
        go_backwards: bool = False,
        **kwargs: Any,
    ) -> None:
        seed = kwargs.pop("seed", None)
        dropout = min(1.0, max(0.0, float(kwargs.pop("dropout", 0.0))))
        recurrent_dropout = min(1.0, max(0.0, float(kwargs.pop("recurrent_dropout", 0.0))))
        self.unroll = bool(kwargs.pop("unroll", False))  # retrograd's loop is unrolled anyway
        self.stateful = bool(kwargs.pop("stateful", False))
        self.states: list | None = None  # a stateful layer's last states (variables)
        self._layer_options = {
            k: kwargs.pop(k) for k in ("unit_forget_bias", "reset_after") if k in kwargs
        }
        constraints = [kwargs.pop(f"{k}_constraint", None) for k in ("kernel", "recurrent", "bias")]
        use_cudnn = kwargs.pop("use_cudnn", "auto")
        if use_cudnn not in ("auto", True, False):
            raise ValueError(
                "Invalid valid received for argument `use_cudnn`. Expected one of {'auto', True, "
                f"False}}. Received: use_cudnn={use_cudnn}"
            )
        self.use_cudnn = use_cudnn
        super().__init__(**kwargs)
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            constraints_module.get(c) for c in constraints
        )
        if not isinstance(units, int) or units <= 0:
            raise ValueError(
                f"{type(self).__name__}: units must be a positive integer, got {units}"
            )
        self.units = positive_int(units, "units")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        # Keras' cells make their dropout's generator (drawing from Python's random when
        # unseeded) before their initializers (SimpleRNN) or after them (LSTM, GRU): made in
        # the same order, the layers get Keras' weights
        if self._seed_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        if not self._seed_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.seed = seed
        self.dropout, self.recurrent_dropout = dropout, recurrent_dropout
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards = go_backwards

    def _bias_shape(self) -> tuple[int, ...]:
        return (self.gates * self.units,)

    def _bias_initializer(self) -> Any:
        return self.bias_initializer

    # A stateful layer's states are variables of its own, not weights (as in Keras)
    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | {"states"}

    def reset_state(self) -> None:
        """Sets a stateful layer's states back to zeros."""
        for variable in self.states or []:
            variable.assign(tf_ops.zeros_like(variable.read_value()))

    reset_states = reset_state

    def _stateful_initial_state(self, inputs) -> list:
        batch = int(inputs.shape[0])
        if self.states is None:
            zeros = self._initial_state(batch, inputs.dtype)
            self.states = [tf_ops.Variable(z, trainable=False, name="rnn_state") for z in zeros]
        expected = int(self.states[0].shape[0])
        if batch != expected:
            raise ValueError(
                "If an RNN is stateful, the batch size of the input sequences must be the same "
                f"as the batch size of the initial state. \n- Expected batch size: {expected}"
                f"\n- Received batch size: {batch}"
            )
        return [v.read_value() for v in self.states]

    def build(self, input_shape):
        if self.stateful and input_shape[0] is None:
            raise ValueError(
                "When using `stateful=True` in a RNN, the batch size must be static. Found "
                f"dynamic batch size: sequence.shape={tuple(input_shape)}"
            )
        width = self.gates * self.units
        self.kernel = self.add_weight(
            shape=(input_shape[-1], width),
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
                shape=self._bias_shape(),
                initializer=self._bias_initializer(),
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
            if self.use_bias
            else None
        )

    @staticmethod
    def _batch_size(inputs) -> Any:
        """The batch size: a number, or a tensor where a graph knows it only at run time."""
        batch = dimension_value(inputs.shape[0])
        return tf_ops.shape(inputs)[0] if batch is None else batch

    def _state_shape(self, batch: Any) -> Any:
        return (
            [batch, self.units] if isinstance(batch, int) else array_ops.stack([batch, self.units])
        )

    def _initial_state(self, batch: Any, dtype: Any) -> list:
        return [tf_ops.zeros(self._state_shape(batch), dtype=dtype)]

    def _dropout_masks(self, inputs: Any, state: list) -> tuple:
        """Keras' dropout masks of one call (drawn at every call, training or not, as Keras
        draws them): one per gate with recurrent dropout (Keras' implementation 1 for
        LSTM and GRU), else one for the inputs."""
        per_gate = self.gates if self.recurrent_dropout and self.gates > 1 else 0

        def masks(rate, like):
            if not rate:
                return None
            ones = tf_ops.ones_like(like)
            return [
                keras_random.dropout(ones, rate, seed=self.seed_generator)
                for _ in range(per_gate or 1)
            ]

        first = array_ops.unstack(inputs, axis=1)[0]
        return masks(self.dropout, first), masks(self.recurrent_dropout, state[0])

    def _input_products(self, inputs, masks) -> list:
        """``x_t @ kernel`` for every step ``t``, dropped out by ``masks`` (the same for
        every step): one product for the whole sequence, hoisted out of the time loop."""
        _, steps, features = inputs.shape  # (the batch may be known only at run time)
        if masks is not None:  # (one mask per call, shared by the steps)
            masks = [m[:, None, :] for m in masks]
        flat = self._product(inputs, self.kernel, masks, (-1, features))
        width = self.kernel.shape[-1]
        return array_ops.unstack(array_ops.reshape(flat, (-1, steps, width)), axis=1)

    def _state_product(self, h, masks) -> Any:
        """``h @ recurrent_kernel``, dropped out by ``masks``."""
        return self._product(h, self.recurrent_kernel, masks)

    def _product(self, x, kernel, masks, shape=None):
        """``x @ kernel`` with ``x`` dropped out by ``masks`` (per gate, on the gate's
        columns, when there is one mask per gate), ``x`` reshaped to ``shape`` first."""

        def rows(x):
            return x if shape is None else array_ops.reshape(x, shape)

        if masks is None:
            return tf_ops.matmul(rows(x), kernel)
        if len(masks) == 1:
            return tf_ops.matmul(rows(x * masks[0]), kernel)
        u = self.units
        return tf_ops.concat(
            [
                tf_ops.matmul(rows(x * m), kernel[:, k * u : (k + 1) * u])
                for k, m in enumerate(masks)
            ],
            axis=1,
        )

    def _step(self, xz, hz, state):
        raise NotImplementedError(f"{type(self).__name__}._step")

    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        return (
            [output_mask] + [None] * (2 if self.gates == 4 else 1)
            if self.return_state
            else output_mask
        )

    def call(self, inputs, initial_state=None, training=None, mask=None):
        if self.use_cudnn is True:  # (Keras on TensorFlow's CPU: no cuDNN kernel to use)
            raise ValueError(
                "use_cudnn=True was specified, but cuDNN is not supported for this layer "
                "configuration with this backend. Pass use_cudnn='auto' to fallback to a "
                "non-cuDNN implementation."
            )
        inputs = tf_ops.convert_to_tensor(inputs)
        state = (
            list(initial_state)
            if isinstance(initial_state, (list, tuple))
            else [initial_state]
            if initial_state is not None
            else self._stateful_initial_state(inputs)
            if self.stateful
            else self._initial_state(self._batch_size(inputs), inputs.dtype)
        )
        dropped = self._dropout_masks(inputs, state)
        if not training:
            dropped = (None, None)
        if mask is None and self._fusable(inputs):
            sequence, state = self._fused(inputs, state, dropped[0])
            result = array_ops.transpose(sequence, [1, 0, 2]) if self.return_sequences else state[0]
        else:
            result, state = self._loop(inputs, state, dropped, mask)
        if self.stateful and not backend.layer_calls.symbolic:  # kept for the next call
            for variable, value in zip(self.states or [], state):
                variable.assign(value)
        return [result, *state] if self.return_state else result

    def _fusable(self, inputs) -> bool:
        """Whether a fused op computes this layer's result as the step loop does (where
        Keras runs cuDNN): Keras' default activations, no recurrent dropout, a known
        number of steps. A mask takes the loop."""
        return (
            self._fused_op is not None
            and self.activation is activations.tanh
            and self.recurrent_activation is activations.sigmoid
            and not self.recurrent_dropout
            and not self.unroll
            and dimension_value(inputs.shape[1]) is not None
            and inputs.dtype.is_floating
        )

    _fused_op: Any = None

    def _fused(self, inputs, state, input_masks) -> tuple:
        """The whole sequence by one fused op (``ops.rnn_ops``): every step's output
        [time, batch, units] and the last states (the first is the last output)."""
        if input_masks is not None:  # (one mask per call, shared by the steps)
            inputs = inputs * input_masks[0][:, None, :]
        x = array_ops.transpose(inputs, [1, 0, 2])  # time-major
        if self.go_backwards:
            x = rearrange_ops.reverse(x, [0])
        return self._fused_op(x, state)

    def _loop(self, inputs, state, dropped, mask) -> tuple:
        """The step loop: the last output (every step's with ``return_sequences``) and the
        last states."""
        masks = None if mask is None else array_ops.unstack(tf_ops.convert_to_tensor(mask), axis=1)
        if self.go_backwards:
            masks = None if masks is None else masks[::-1]
        products = self._input_products(inputs, dropped[0])
        if self.go_backwards:
            products = products[::-1]
        outputs: list[Any] = []
        for t, xz in enumerate(products):
            output, new_state = self._step(xz, self._state_product(state[0], dropped[1]), state)
            if masks is not None:  # a masked step keeps the states and repeats the output
                keep = tf_ops.cast(masks[t], "bool")[:, None]
                before = outputs[-1] if outputs else tf_ops.zeros_like(output)
                output = tf_ops.where(keep, output, before)
                new_state = [tf_ops.where(keep, n, o) for n, o in zip(new_state, state)]
            state = new_state
            outputs.append(output)
        result = array_ops.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return result, state

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
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
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "unroll": self.unroll,
            "stateful": self.stateful,
            "seed": self.seed,
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            **self._layer_options,
        }
