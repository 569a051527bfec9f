"""Keras' ``RNN`` layer, which runs a cell along the time axis, and ``StackedRNNCells``,
which makes several cells one.

>>> import retrograd as rg
>>> cells = [rg.keras.layers.SimpleRNNCell(4), rg.keras.layers.GRUCell(2)]
>>> rg.keras.layers.RNN(cells)(rg.ones([3, 5, 6])).shape.as_list()
[3, 2]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import nest
from retrograd.keras.src import backend
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.rnn import DropoutRNNCell
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import deserialize_keras_object, serialize_keras_object
from retrograd.keras.src.variables import Variable

__all__ = ["RNN", "StackedRNNCells"]


def _output_size(cell: Any) -> int:
    if getattr(cell, "output_size", None) is not None:
        return cell.output_size
    size = cell.state_size
    return size[0] if isinstance(size, (list, tuple)) else size


def _zero_states(cell: Any, batch: Any, dtype: str) -> Any:
    getter = getattr(cell, "get_initial_state", None)
    if getter is not None:
        return getter(batch_size=batch)
    if isinstance(cell.state_size, int):
        return [knp.zeros((batch, cell.state_size), dtype=dtype)]
    return [knp.zeros((batch, d), dtype=dtype) for d in cell.state_size]


class StackedRNNCells(Layer):
    """Several cells run one after the other at each step: each cell's output is the next
    one's input; the states are one list per cell.

    >>> import retrograd as rg
    >>> stack = rg.keras.layers.StackedRNNCells([rg.keras.layers.LSTMCell(3),
    ...                                          rg.keras.layers.SimpleRNNCell(2)])
    >>> stack.state_size, stack.output_size
    ([[3, 3], 2], 2)
    """

    def __init__(self, cells: list, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call"):
                raise ValueError(
                    "All cells must have a `call` method. Received cell without a `call` "
                    f"method: {cell}"
                )
            if not hasattr(cell, "state_size"):
                raise ValueError(
                    "All cells must have a `state_size` attribute. Received cell without a "
                    f"`state_size`: {cell}"
                )
        self.cells = list(cells)

    @property
    def state_size(self) -> list:
        return [c.state_size for c in self.cells]

    @property
    def output_size(self) -> int:
        return _output_size(self.cells[-1])

    def get_initial_state(self, batch_size: Any = None) -> list:
        """Each cell's zero states."""
        return [_zero_states(c, batch_size, self.compute_dtype) for c in self.cells]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with cell._name_scope:
                    cell.build(input_shape)
                cell.built = True
            input_shape = (input_shape[0], _output_size(cell))

    def call(self, inputs, states, training=False, **kwargs):
        new_states = []
        for cell, state in zip(self.cells, states):
            was_list = isinstance(state, (list, tuple))
            state = list(state) if was_list else [state]
            if isinstance(cell, Layer) and cell._accepts("training"):
                kwargs["training"] = training
            else:
                kwargs.pop("training", None)
            inputs, state = cell(inputs, state, **kwargs)
            if not isinstance(state, (list, tuple)):
                state = [state]
            if len(state) == 1 and not was_list:
                state = state[0]
            new_states.append(state)
        return inputs, new_states[0] if len(new_states) == 1 else new_states

    def get_config(self):
        cells = [serialize_keras_object(c) for c in self.cells]
        return {**super().get_config(), "cells": cells}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cells = [deserialize_keras_object(c, custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)


class RNN(Layer):
    """Runs ``cell`` over the time axis; ``return_sequences`` gives every step's output,
    ``return_state`` the last states too; masked steps keep the states and repeat the
    previous output (zeros with ``zero_output_for_mask``).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.RNN(rg.keras.layers.SimpleRNNCell(2), return_state=True)
    >>> out, state = layer(rg.ones([1, 3, 4]))
    >>> out.shape.as_list(), state.shape.as_list()
    ([1, 2], [1, 2])
    """

    supports_masking = True
    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | {"states"}

    def __init__(
        self,
        cell: Any,
        return_sequences: bool = False,
        return_state: bool = False,
        go_backwards: bool = False,
        stateful: bool = False,
        unroll: bool = False,
        zero_output_for_mask: bool = False,
        **kwargs: Any,
    ) -> None:
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call"):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        if getattr(cell, "state_size", None) is None:
            raise ValueError(
                "The RNN cell should have a `state_size` attribute (single integer or list "
                f"of integers, one integer per RNN state). Received: cell={cell}"
            )
        super().__init__(**kwargs)
        self.zero_output_for_mask = zero_output_for_mask
        self.cell = cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.stateful, self.unroll = go_backwards, stateful, unroll
        self.states: list | None = None
        size = cell.state_size
        self.state_size = [size] if isinstance(size, int) else list(size)
        self.single_state = isinstance(size, int)

    def build(self, sequences_shape, initial_state_shape=None):
        step_shape = (sequences_shape[0], *sequences_shape[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            with self.cell._name_scope:
                self.cell.build(step_shape)
            self.cell.built = True
        if self.stateful:
            if sequences_shape[0] is None:
                raise ValueError(
                    "When using `stateful=True` in a RNN, the batch size must be static. "
                    f"Found dynamic batch size: sequence.shape={tuple(sequences_shape)}"
                )
            zeros = self.get_initial_state(sequences_shape[0])
            self.states = [
                Variable(z, trainable=False, name="rnn_state") for z in nest.flatten(zeros)
            ]

    def get_initial_state(self, batch_size: Any) -> list:
        """The cell's zero states for ``batch_size`` sequences."""
        states = _zero_states(self.cell, batch_size, self.compute_dtype)
        return list(states) if isinstance(states, (list, tuple)) else [states]

    def reset_state(self) -> None:
        """Sets a stateful layer's states back to zeros."""
        for variable in self.states or []:
            variable.assign(knp.zeros_like(variable.value))

    reset_states = reset_state

    def compute_mask(self, inputs, mask=None):
        mask = nest.flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.state_size]
        return output_mask

    def _configure_masks(self, cell: Any, step: Any, state: Any) -> None:
        """Draws each cell's dropout masks for this sequence (Keras draws them at every
        call, training or not)."""
        if isinstance(cell, DropoutRNNCell):
            cell.get_dropout_mask(step)
            cell.get_recurrent_dropout_mask(nest.flatten(state)[0])
        if isinstance(cell, StackedRNNCells):
            for inner, s in zip(cell.cells, state):
                self._configure_masks(inner, step, s)
                step = knp.zeros((step.shape[0], _output_size(inner)), dtype=step.dtype)

    def _reset_masks(self, cell: Any) -> None:
        if isinstance(cell, DropoutRNNCell):
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        for inner in getattr(cell, "cells", []) if isinstance(cell, StackedRNNCells) else []:
            self._reset_masks(inner)

    def call(self, sequences, initial_state=None, mask=None, training=False):
        batch = kcore.shape(sequences)[0]
        if initial_state is None:
            if self.stateful:
                template = self.get_initial_state(batch)
                initial_state = nest.pack_sequence_as(template, [v.value for v in self.states])
            else:
                initial_state = self.get_initial_state(batch)
        if not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        if self.stateful and self.states and int(self.states[0].shape[0]) != batch:
            raise ValueError(
                "If an RNN is stateful, the batch size of the input sequences must be the "
                f"same as the batch size of the initial state. \n- Expected batch size: "
                f"{int(self.states[0].shape[0])}\n- Received batch size: {batch}"
            )
        states = list(initial_state)
        steps = kcore.unstack(sequences, axis=1)
        masks = None if mask is None else kcore.unstack(kcore.convert_to_tensor(mask), axis=1)
        if self.go_backwards:
            steps = steps[::-1]
            masks = None if masks is None else masks[::-1]
        self._configure_masks(self.cell, steps[0], states)
        kwargs = {}
        if isinstance(self.cell, Layer) and self.cell._accepts("training"):
            kwargs["training"] = training
        outputs: list = []
        for t, x_t in enumerate(steps):
            output, new_states = self.cell(x_t, states, **kwargs)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            if masks is not None:
                keep = knp.expand_dims(kcore.cast(masks[t], "bool"), -1)
                if self.zero_output_for_mask or not outputs:
                    before = knp.zeros_like(output)
                else:
                    before = outputs[-1]
                output = knp.where(keep, output, before)
                flat = [
                    knp.where(keep, n, o)
                    for n, o in zip(nest.flatten(new_states), nest.flatten(states))
                ]
                new_states = nest.pack_sequence_as(new_states, flat)
            states = list(new_states)
            outputs.append(output)
        self._reset_masks(self.cell)
        if self.stateful and not backend.layer_calls.symbolic:
            for variable, value in zip(self.states, nest.flatten(states)):
                variable.assign(value)
        output = knp.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [output, *states] if self.return_state else output

    def get_config(self):
        return {
            **super().get_config(),
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "stateful": self.stateful,
            "unroll": self.unroll,
            "zero_output_for_mask": self.zero_output_for_mask,
            "cell": serialize_keras_object(self.cell),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cell = deserialize_keras_object(config.pop("cell"), custom_objects)
        return cls(cell, **config)
