"""Keras' ``EinsumDense`` (a dense layer whose product is an einsum equation, the kernel's
shape read from it) and ``ReversibleEmbedding`` (an embedding that also projects back to
the vocabulary, with tied or separate weights).

>>> import retrograd as rg
>>> layer = rg.keras.layers.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c")
>>> layer(rg.ones([2, 3])).shape.as_list(), layer.kernel.shape.as_list()
([2, 4], [3, 4])
"""

from __future__ import annotations

import re
from typing import Any

from retrograd.keras.src import activations, constraints, initializers, regularizers
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.core import Embedding
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["EinsumDense", "ReversibleEmbedding", "analyze_einsum_string"]


def _split(equation: str) -> tuple[str, str, str, bool, bool]:
    dots = re.sub(r"\.\.\.", "0", equation)
    for pattern, left in (
        (r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
        (r"0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
        (r"([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False),
    ):
        found = re.match(pattern, dots)
        if found:
            return (*found.groups(), left, "0" in dots)
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
        "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."
    )


def analyze_einsum_string(
    equation: str, bias_axes: str | None, input_shape: Any, output_shape: Any
) -> tuple[list, list | None, list, list, list]:
    """Keras' reading of an EinsumDense equation: the kernel's shape, the bias' shape
    (None without ``bias_axes``), the full output shape, and the kernel's input and output
    axes (for its initializer's fans)."""
    input_spec, weight_spec, output_spec, left_elided, _ = _split(equation)
    input_shape = list(input_shape)
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape.extend(input_shape[len(input_shape) - elided :])
    if left_elided:
        input_map = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_map = {d: i + elided for i, d in enumerate(output_spec)}
    else:
        input_map = {d: i for i, d in enumerate(input_spec)}
        output_map = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_map:
            expected = output_shape[output_map[d]]
            if expected is not None and expected != input_shape[input_map[d]]:
                raise ValueError(
                    f"Input shape and output shape do not match at shared dimension '{d}'. "
                    f"Input shape is {input_shape[input_map[d]]}, and output shape is "
                    f"{expected}."
                )
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(
                f"Dimension '{d}' was specified in the output '{output_spec}' but has no "
                f"corresponding dim in the input spec '{input_spec}' or weight spec "
                f"'{output_spec}'"
            )
    weight_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):
        if d in output_map:
            weight_shape.append(output_shape[output_map[d]])
            output_axes.append(i)
        elif d in input_map:
            weight_shape.append(input_shape[input_map[d]])
            input_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{d}' did not have a match in either the input spec "
                f"'{input_spec}' or the output spec '{output_spec}'. For this layer, the "
                "weight must be fully specified."
            )
    bias_shape = None
    if bias_axes is not None:
        offset = elided if left_elided else 0
        sizes = {c: output_shape[i + offset] for i, c in enumerate(output_spec)}
        for c in bias_axes:
            if c not in output_spec:
                raise ValueError(
                    f"Bias dimension '{c}' was requested, but is not part of the output spec "
                    f"'{output_spec}'"
                )
        first = min(output_spec.find(c) for c in bias_axes)
        bias_shape = [sizes[c] if c in bias_axes else 1 for c in output_spec[first:]]
        if not left_elided:
            bias_shape += [1] * max(elided, 0)
    return weight_shape, bias_shape, output_shape, input_axes, output_axes


class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``; ``output_shape`` gives the
    output's sizes after the batch axis (None for sizes taken from the input), and
    ``bias_axes`` the output letters the bias spans.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4))
    >>> layer(rg.ones([1, 5, 3])).shape.as_list(), layer.kernel.shape.as_list()
    ([1, 5, 2, 4], [3, 2, 4])
    """

    def __init__(
        self,
        equation: str,
        output_shape: Any,
        activation: Any = None,
        bias_axes: str | None = None,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        lora_rank: int | None = None,
        lora_alpha: float | None = None,
        gptq_unpacked_column_size: Any = None,
        quantization_config: Any = None,
        **kwargs: Any,
    ) -> None:
        if lora_rank or quantization_config is not None or gptq_unpacked_column_size:
            raise ValueError(
                "EinsumDense: LoRA and quantization (lora_rank, quantization_config, "
                "gptq_unpacked_column_size) are not available in retrograd"
            )
        super().__init__(**kwargs)
        _split(equation)
        self.equation = equation
        self.partial_output_shape = (
            (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        )
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.lora_rank, self.lora_alpha = lora_rank, lora_alpha

    def build(self, input_shape):
        kernel_shape, bias_shape, _, input_axes, output_axes = analyze_einsum_string(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape
        )
        initializer = self.kernel_initializer
        if isinstance(initializer, initializers.VarianceScaling) and (
            initializer.input_axes is None or initializer.output_axes is None
        ):  # Keras gives the fans from the equation's axes
            config = {**initializer.get_config(), "input_axes": input_axes}
            config["output_axes"] = output_axes
            initializer = type(initializer).from_config(config)
        self.kernel = self.add_weight(
            shape=tuple(kernel_shape),
            initializer=initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.bias = (
            None
            if bias_shape is None
            else self.add_weight(
                shape=tuple(bias_shape),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        )

    def call(self, inputs, training=None):
        x = knp.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x) if self.activation is not None else x

    def get_config(self):
        return {
            **super().get_config(),
            "output_shape": self.partial_output_shape,
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            "kernel_initializer": serialize(self.kernel_initializer),
            "bias_initializer": serialize(self.bias_initializer),
            "kernel_regularizer": serialize(self.kernel_regularizer),
            "bias_regularizer": serialize(self.bias_regularizer),
            "activity_regularizer": serialize(self.activity_regularizer),
            "kernel_constraint": serialize(self.kernel_constraint),
            "bias_constraint": serialize(self.bias_constraint),
        }


class ReversibleEmbedding(Embedding):
    """An embedding that, called with ``reverse=True``, maps vectors back to vocabulary
    logits: by the transposed embeddings (``tie_weights``) or a separate
    ``reverse_embeddings`` matrix; ``logit_soft_cap`` squashes them as ``cap * tanh(x /
    cap)``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.ReversibleEmbedding(10, 4)
    >>> hidden = layer(rg.constant([[1, 2, 3]]))
    >>> layer(hidden, reverse=True).shape.as_list()
    [1, 3, 10]
    """

    def __init__(
        self,
        input_dim: int,
        output_dim: int,
        tie_weights: bool = True,
        embeddings_initializer: Any = "uniform",
        embeddings_regularizer: Any = None,
        embeddings_constraint: Any = None,
        mask_zero: bool = False,
        reverse_dtype: Any = None,
        logit_soft_cap: float | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            input_dim,
            output_dim,
            embeddings_initializer=embeddings_initializer,
            embeddings_regularizer=embeddings_regularizer,
            embeddings_constraint=embeddings_constraint,
            mask_zero=mask_zero,
            **kwargs,
        )
        self.tie_weights, self.reverse_dtype = tie_weights, reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer,
                name="reverse_embeddings",
            )

    def _cast_inputs(self, value):
        return Layer._cast_inputs(self, value)

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(super()._cast_inputs(inputs))
        kernel = knp.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = kcore.cast(inputs, self.reverse_dtype)
            kernel = kcore.cast(kernel, self.reverse_dtype)
        logits = knp.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = knp.multiply(knp.tanh(knp.divide(logits, cap)), cap)
        return logits

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {
            **super().get_config(),
            "tie_weights": self.tie_weights,
            "reverse_dtype": self.reverse_dtype,
            "logit_soft_cap": self.logit_soft_cap,
        }
