"""Layers that wrap another layer: ``Wrapper`` (the base), ``TimeDistributed`` (the layer
applied to every time step) and ``Bidirectional`` (a recurrent layer run forwards and,
as a copy, backwards, the two outputs merged).

>>> import retrograd as rg
>>> layer = rg.keras.layers.Bidirectional(rg.keras.layers.LSTM(3, return_sequences=True))
>>> layer(rg.ones([2, 5, 4])).shape.as_list()
[2, 5, 6]
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["Wrapper", "TimeDistributed", "Bidirectional"]


def _build_inner(layer: Layer, shape: Any) -> None:
    if not layer.built:
        with layer._name_scope:
            layer.build(shape)
        layer.built = True


class Wrapper(Layer):
    """The base of layers that wrap ``layer`` (built with the wrapper, serialised inside
    its config).

    >>> import retrograd as rg
    >>> class Twice(rg.keras.layers.Wrapper):
    ...     def call(self, x):
    ...         return self.layer(self.layer(x))
    >>> Twice(rg.keras.layers.Dense(2, kernel_initializer='ones'))(rg.ones([1, 2])).numpy()
    array([[4., 4.]], dtype=float32)
    """

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(
                f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please "
                "ensure wrapped layer is a valid Keras layer."
            )
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        _build_inner(self.layer, input_shape)

    def get_config(self):
        return {**super().get_config(), "layer": serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = deserialize_keras_object(config.pop("layer"), custom_objects)
        return cls(layer, **config)


class TimeDistributed(Wrapper):
    """Applies ``layer`` to each time step of ``[batch, time, ...]`` inputs (the same
    weights at every step).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.TimeDistributed(rg.keras.layers.Dense(3))
    >>> layer(rg.ones([2, 4, 5])).shape.as_list(), layer.layer.kernel.shape.as_list()
    ([2, 4, 3], [5, 3])
    """

    supports_masking = True

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(
                "Please initialize `TimeDistributed` layer with a `keras.layers.Layer` "
                f"instance. Received: {layer}"
            )
        super().__init__(layer, **kwargs)

    def _child_shape(self, input_shape: Any) -> tuple:
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 3:
            raise ValueError(
                "`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                f"dimensions, received: {input_shape}"
            )
        return (input_shape[0], *input_shape[2:])

    def build(self, input_shape):
        _build_inner(self.layer, self._child_shape(input_shape))

    def call(self, inputs, training=None, mask=None):
        if mask is not None:
            mask = kcore.convert_to_tensor(mask)
            if mask.shape.rank < 2 or mask.shape.as_list()[:2] != inputs.shape.as_list()[:2]:
                raise ValueError(
                    f"The `mask` passed to the `TimeDistributed` layer has a shape "
                    f"{tuple(mask.shape.as_list())} that is incompatible with the input shape "
                    f"{tuple(inputs.shape.as_list())}. The first two dimensions of the mask "
                    "(batch size and timesteps) must match the input's first two dimensions."
                )
        steps = kcore.unstack(inputs, axis=1)
        masks = None if mask is None else kcore.unstack(mask, axis=1)
        outputs = []
        for i, step in enumerate(steps):
            kwargs = {}
            if masks is not None and self.layer._accepts("mask"):
                kwargs["mask"] = masks[i]
            if self.layer._accepts("training"):
                kwargs["training"] = training
            outputs.append(self.layer.call(step, **kwargs))
        return knp.stack(outputs, axis=1)


class Bidirectional(Layer):
    """Runs a recurrent ``layer`` forwards and a copy of it backwards (``go_backwards``
    flipped, or ``backward_layer``) and merges the outputs with ``merge_mode``: 'concat'
    (the default), 'sum', 'mul', 'ave', or None for both. The weights are the forward
    layer's, then the backward layer's.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.Bidirectional(rg.keras.layers.GRU(2), merge_mode='sum')
    >>> layer(rg.ones([1, 3, 4])).shape.as_list(), len(layer.weights)
    ([1, 2], 6)
    """

    supports_masking = True

    def __init__(
        self,
        layer: Layer,
        merge_mode: str | None = "concat",
        weights: Any = None,
        backward_layer: Layer | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(
                "Please initialize `Bidirectional` layer with a `keras.layers.Layer` "
                f"instance. Received: {layer}"
            )
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(
                "`backward_layer` need to be a `keras.layers.Layer` instance. Received: "
                f"{backward_layer}"
            )
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(
                f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                '{"sum", "mul", "ave", "concat", None}'
            )
        super().__init__(**kwargs)
        self.forward_layer = self._copy(layer, "forward_", None)
        if backward_layer is None:
            backward_layer = self._copy(layer, "backward_", True)
        self.backward_layer = backward_layer
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError(
                "Forward layer and backward layer should have different `go_backwards` value. "
                f"Received: forward_layer.go_backwards {self.forward_layer.go_backwards}, "
                f"backward_layer.go_backwards={self.backward_layer.go_backwards}"
            )
        for a in ("stateful", "return_sequences", "return_state"):
            forward_value, backward_value = (
                getattr(self.forward_layer, a),
                getattr(self.backward_layer, a),
            )
            if forward_value != backward_value:
                raise ValueError(
                    "Forward layer and backward layer are expected to have the same value for "
                    f'attribute "{a}", got "{forward_value}" for forward layer and '
                    f'"{backward_value}" for backward layer'
                )
        self.merge_mode = merge_mode
        self._initial_weights = list(weights) if weights else None
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state

    @staticmethod
    def _copy(layer: Layer, prefix: str, go_backwards: bool | None) -> Layer:
        config = serialize_keras_object(layer)
        name = layer.name.removeprefix(prefix)
        config["config"]["name"] = prefix + name
        if go_backwards is not None:
            config["config"]["go_backwards"] = go_backwards
        return deserialize_keras_object(config)

    def build(self, sequences_shape, initial_state_shape=None):
        _build_inner(self.forward_layer, sequences_shape)
        _build_inner(self.backward_layer, sequences_shape)
        if self._initial_weights:
            half = len(self._initial_weights) // 2
            self.forward_layer.set_weights(self._initial_weights[:half])
            self.backward_layer.set_weights(self._initial_weights[half:])
            self._initial_weights = None

    @property
    def states(self) -> Any:
        forward, backward = self.forward_layer.states, self.backward_layer.states
        return tuple(forward + backward) if forward and backward else None

    def reset_state(self) -> None:
        """Resets both directions' states (stateful layers only)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        self.forward_layer.reset_state()
        self.backward_layer.reset_state()

    reset_states = reset_state

    def call(self, sequences, initial_state=None, mask=None, training=None):
        kwargs: dict = {}
        if self.forward_layer._accepts("training"):
            kwargs["training"] = training
        if self.forward_layer._accepts("mask"):
            kwargs["mask"] = mask
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        states: tuple = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = knp.flip(y_rev, axis=1)
            if mask is not None:  # Keras zeroes the masked steps' outputs (both directions)
                keep = knp.expand_dims(kcore.cast(mask, "bool"), -1)
                y = knp.where(keep, y, knp.zeros_like(y))
                y_rev = knp.where(keep, y_rev, knp.zeros_like(y_rev))
        if self.merge_mode == "concat":
            output: Any = knp.concatenate([y, y_rev], axis=-1)
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return [*output, *states] if self.merge_mode is None else [output, *states]
        return output

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask: Any = mask if self.merge_mode else [mask, mask]
        else:
            output_mask = None if self.merge_mode else [None, None]
        if self.return_state and self.states is not None:
            nones = [None] * (2 * len(self.states))
            if isinstance(output_mask, list):
                return output_mask + nones
            return [output_mask, *nones]
        return output_mask

    def get_config(self):
        return {
            **super().get_config(),
            "merge_mode": self.merge_mode,
            "layer": serialize_keras_object(self.forward_layer),
            "backward_layer": serialize_keras_object(self.backward_layer),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["layer"] = deserialize_keras_object(config["layer"], custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            config["backward_layer"] = deserialize_keras_object(backward, custom_objects)
        return cls(**config)
