"""Keras' ``MultiHeadAttention`` and ``GroupQueryAttention``: queries, keys and values
projected per head by EinsumDense sublayers (query, key, value, attention_output; a
sigmoid ``gate`` with ``use_gate``), scaled dot-product attention over ``attention_axes``
with padding, causal and sliding-window masks, dropout on the scores while training.

>>> import retrograd as rg
>>> gqa = rg.keras.layers.GroupQueryAttention(head_dim=4, num_query_heads=4,
...                                           num_key_value_heads=2)
>>> gqa(rg.ones([2, 3, 8]), rg.ones([2, 6, 8])).shape.as_list()
[2, 3, 8]
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.keras.src import constraints, initializers, regularizers
from retrograd.keras.src.layers.activation_layers import Softmax
from retrograd.keras.src.layers.attention import (
    _attention_equations,
    _proj_equation,
    _window_mask,
    causal_mask,
)
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.layers.core import Dropout
from retrograd.keras.src.layers.einsum_dense import EinsumDense
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import nn_layers
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import config_value as serialize

__all__ = ["MultiHeadAttention", "GroupQueryAttention"]


def _positive(value: Any, name: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(
            f"Invalid value for argument `{name}`. Expected a strictly positive integer. "
            f"Received: {name}={value}"
        )


class _AttentionBase(Layer):
    """What both attention layers share: options, sublayer arguments, masks."""

    supports_masking = True

    def _options(
        self,
        dropout,
        use_bias,
        kernel_initializer,
        bias_initializer,
        kernel_regularizer,
        bias_regularizer,
        activity_regularizer,
        kernel_constraint,
        bias_constraint,
        use_gate,
        sliding_window,
        seed,
    ):
        _positive(sliding_window, "sliding_window", optional=True)
        self._dropout, self._use_bias, self._use_gate = dropout, use_bias, use_gate
        self._sliding_window, self.seed = sliding_window, seed
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)

    def _sublayer_kwargs(self) -> dict:
        """Each projection gets fresh copies of the initializers (as Keras makes them)."""

        def copy(initializer: Any) -> Any:
            return type(initializer).from_config(initializer.get_config())

        return {
            "kernel_regularizer": self._kernel_regularizer,
            "bias_regularizer": self._bias_regularizer,
            "activity_regularizer": self._activity_regularizer,
            "kernel_constraint": self._kernel_constraint,
            "bias_constraint": self._bias_constraint,
            "dtype": self.dtype_policy,
            "kernel_initializer": copy(self._kernel_initializer),
            "bias_initializer": copy(self._bias_initializer),
        }

    def _dense(self, equation, output_shape, bias_axes, name, input_shape, **extra):
        layer = EinsumDense(
            equation,
            output_shape=output_shape,
            bias_axes=bias_axes if self._use_bias else None,
            name=name,
            **extra,
            **self._sublayer_kwargs(),
        )
        with layer._name_scope:
            layer.build(input_shape)
        layer.built = True
        return layer

    def _attention_mask(
        self, query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
    ):
        auto = None
        if query_mask is not None:
            auto = knp.expand_dims(kcore.cast(query_mask, "bool"), -1)
        for mask in (value_mask, key_mask):
            if mask is not None:
                mask = knp.expand_dims(kcore.cast(mask, "bool"), -2)
                auto = mask if auto is None else knp.logical_and(auto, mask)
        q_len, v_len = kcore.shape(query)[1], kcore.shape(value)[1]
        if use_causal_mask:
            mask = causal_mask(q_len, v_len)
            auto = mask if auto is None else knp.logical_and(auto, mask)
        if self._sliding_window is not None:
            mask = _window_mask(q_len, v_len, self._sliding_window)
            auto = mask if auto is None else knp.logical_and(auto, mask)
        if attention_mask is not None:
            attention_mask = kcore.cast(attention_mask, "bool")
        if auto is not None:
            attention_mask = (
                auto if attention_mask is None else knp.logical_and(attention_mask, auto)
            )
        return attention_mask

    def _softmax_and_combine(
        self, query, key, value, mask, training, fast, equations, n_attn_axes, scale, causal_only
    ):
        """Keras' two paths: ``dot_product_attention`` when no dropout, no scores asked and
        4-D projections, else explicit scores through the masked Softmax."""
        if fast:
            if mask is not None:
                for _ in range(4 - len(mask.shape)):
                    mask = knp.expand_dims(mask, -2 * n_attn_axes - 1)
                mask = kcore.cast(mask, "bool")
            out = nn_layers.dot_product_attention(
                query, key, value, mask=mask, scale=scale, is_causal=causal_only
            )
            return out, None
        if causal_only:
            mask = causal_mask(kcore.shape(query)[1], kcore.shape(value)[1])
        query = query * kcore.cast(scale, query.dtype)
        scores = knp.einsum(equations[0], *equations[2](key, query))
        if mask is not None:
            for _ in range(len(scores.shape) - len(mask.shape)):
                mask = knp.expand_dims(mask, -2 * n_attn_axes - 1)
        scores = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(scores, training=training) if self._dropout > 0 else scores
        return knp.einsum(equations[1], dropped, value), scores

    def _common_config(self) -> dict:
        return {
            "dropout": self._dropout,
            "use_bias": self._use_bias,
            "use_gate": self._use_gate,
            "sliding_window": self._sliding_window,
            "kernel_initializer": serialize(self._kernel_initializer),
            "bias_initializer": serialize(self._bias_initializer),
            "kernel_regularizer": serialize(self._kernel_regularizer),
            "bias_regularizer": serialize(self._bias_regularizer),
            "activity_regularizer": serialize(self._activity_regularizer),
            "kernel_constraint": serialize(self._kernel_constraint),
            "bias_constraint": serialize(self._bias_constraint),
            "seed": self.seed,
        }


class MultiHeadAttention(_AttentionBase):
    """Multi-head attention (Vaswani et al.): ``num_heads`` heads of ``key_dim`` for
    queries and keys (``value_dim`` for values), over ``attention_axes`` (the sequence
    axes by default); ``output_shape`` sets the output's last sizes (the query's features
    by default).

    >>> import retrograd as rg
    >>> mha = rg.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    >>> out, scores = mha(rg.ones([1, 4, 6]), rg.ones([1, 5, 6]), return_attention_scores=True)
    >>> out.shape.as_list(), scores.shape.as_list()
    ([1, 4, 6], [1, 2, 4, 5])
    """

    def __init__(
        self,
        num_heads: int,
        key_dim: int,
        value_dim: int | None = None,
        dropout: float = 0.0,
        use_bias: bool = True,
        output_shape: Any = None,
        attention_axes: Any = None,
        sliding_window: int | None = None,
        flash_attention: Any = None,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        use_gate: bool = False,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        _positive(num_heads, "num_heads")
        _positive(key_dim, "key_dim")
        _positive(value_dim, "value_dim", optional=True)
        if flash_attention:
            raise ValueError("Flash attention is not supported in tensorflow backend.")
        super().__init__(**kwargs)
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim or key_dim
        if output_shape:
            output_shape = (output_shape,) if isinstance(output_shape, int) else output_shape
            output_shape = tuple(output_shape)
        self._output_shape = output_shape or None
        self._flash_attention = bool(flash_attention)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            raise ValueError(
                "`attention_axes` must be an int, list, or tuple. Received: "
                f"attention_axes={attention_axes}"
            )
        self._attention_axes = attention_axes
        self._options(
            dropout,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
            activity_regularizer,
            kernel_constraint,
            bias_constraint,
            use_gate,
            sliding_window,
            seed,
        )
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(key_dim))

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, must be equal. "
                f"Received: value_shape={value_shape} and key_shape={key_shape}"
            )
        heads = [self._num_heads, self._key_dim]

        def proj(shape, last, name, **extra):
            equation, bias_axes, rank = _proj_equation(len(shape) - 1, 1, 2)
            out = [None] * (rank - 1 - 2) + [self._num_heads, last]
            return self._dense(equation, out, bias_axes, name, shape, **extra)

        self._query_dense = proj(query_shape, self._key_dim, "query")
        self._key_dense = proj(key_shape, self._key_dim, "key")
        if self._use_gate:
            self._gate_dense = proj(query_shape, self._value_dim, "gate", activation="sigmoid")
        self._value_dense = proj(value_shape, self._value_dim, "value")
        rank = len(value_shape) + 1
        axes = self._attention_axes
        axes = (
            tuple(range(1, rank - 2))
            if axes is None
            else tuple(a if a >= 0 else rank - 1 + a for a in axes)
        )
        self._attention_axes = axes
        dot, combine, scores_rank = _attention_equations(rank, axes)
        self._dot_product_equation, self._combine_equation = dot, combine
        norm_axes = tuple(range(scores_rank - len(axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype_policy, seed=self.seed)
        last = list(self._output_shape or [query_shape[-1]])
        equation, bias_axes, out_rank = _proj_equation(len(query_shape) - 1, 2, len(last))
        inner = [*list(query_shape[:-1]), *heads[:1], self._value_dim]
        self._output_dense = self._dense(
            equation,
            [None] * (out_rank - 1 - len(last)) + last,
            bias_axes,
            "attention_output",
            tuple(inner),
        )

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        key = value if key is None else key
        causal_only = bool(
            use_causal_mask
            and query_mask is None
            and value_mask is None
            and key_mask is None
            and attention_mask is None
            and self._sliding_window is None
        )
        mask = (
            None
            if causal_only
            else self._attention_mask(
                query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
            )
        )
        gate = self._gate_dense(query) if self._use_gate else None
        query, key, value = self._query_dense(query), self._key_dense(key), self._value_dense(value)
        fast = not (self._dropout > 0.0 or return_attention_scores or len(query.shape) != 4)
        out, scores = self._softmax_and_combine(
            query,
            key,
            value,
            mask,
            training,
            fast,
            (self._dot_product_equation, self._combine_equation, lambda k, q: (k, q)),
            len(self._attention_axes),
            self._inverse_sqrt_key_dim,
            causal_only,
        )
        out = self._output_dense(out * gate if gate is not None else out)
        return [out, scores] if return_attention_scores else out

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {
            **super().get_config(),
            "num_heads": self._num_heads,
            "key_dim": self._key_dim,
            "value_dim": self._value_dim,
            "output_shape": self._output_shape,
            "attention_axes": self._attention_axes,
            **self._common_config(),
        }


class GroupQueryAttention(_AttentionBase):
    """Grouped-query attention: ``num_query_heads`` query heads share
    ``num_key_value_heads`` key/value heads (repeated to match), each of ``head_dim``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.GroupQueryAttention(2, 4, 2)
    >>> layer(rg.ones([1, 3, 5]), rg.ones([1, 3, 5])).shape.as_list()
    [1, 3, 5]
    """

    def __init__(
        self,
        head_dim: int,
        num_query_heads: int,
        num_key_value_heads: int,
        dropout: float = 0.0,
        use_bias: bool = True,
        sliding_window: int | None = None,
        flash_attention: Any = None,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        use_gate: bool = False,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        if flash_attention:
            raise ValueError("Flash attention is not supported in tensorflow backend.")
        super().__init__(**kwargs)
        if num_query_heads % num_key_value_heads:
            raise ValueError(
                "`num_query_heads` must be divisible by `num_key_value_heads`. Received: "
                f"num_query_heads={num_query_heads}, "
                f"num_key_value_heads={num_key_value_heads}"
            )
        self.head_dim, self.num_query_heads = head_dim, num_query_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_repeats = num_query_heads // num_key_value_heads
        self._options(
            dropout,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
            activity_regularizer,
            kernel_constraint,
            bias_constraint,
            use_gate,
            sliding_window,
            seed,
        )
        self.dropout, self.use_bias, self.use_gate = dropout, use_bias, use_gate
        self.sliding_window = sliding_window
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(head_dim))

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        q_heads, kv_heads, dim = self.num_query_heads, self.num_key_value_heads, self.head_dim
        self._query_dense = self._dense(
            "bqm,muh->bquh", (None, q_heads, dim), "uh", "query", query_shape
        )
        self._key_dense = self._dense(
            "bkm,mvh->bkvh", (None, kv_heads, dim), "vh", "key", key_shape
        )
        if self._use_gate:
            self._gate_dense = self._dense(
                "bqm,muh->bquh",
                (None, q_heads, dim),
                "uh",
                "gate",
                query_shape,
                activation="sigmoid",
            )
        self._value_dense = self._dense(
            "bkm,mvh->bkvh", (None, kv_heads, dim), "vh", "value", value_shape
        )
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype_policy, seed=self.seed)
        self._dot_product_equation = "bquh,bkuh->buqk"
        self._combine_equation = "buqk,bkuh->bquh"
        self._output_dense = self._dense(
            "bquh,uhm->bqm",
            (None, self.feature_dim),
            "m",
            "attention_output",
            (None, None, q_heads, dim),
        )

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        key = value if key is None else key
        causal_only = bool(
            use_causal_mask
            and query_mask is None
            and value_mask is None
            and key_mask is None
            and attention_mask is None
            and self._sliding_window is None
        )
        mask = (
            None
            if causal_only
            else self._attention_mask(
                query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
            )
        )
        gate = self._gate_dense(query) if self._use_gate else None
        query, key, value = self._query_dense(query), self._key_dense(key), self._value_dense(value)
        key = knp.repeat(key, self.num_repeats, axis=2)
        value = knp.repeat(value, self.num_repeats, axis=2)
        fast = not (self._dropout > 0.0 or return_attention_scores or len(query.shape) != 4)
        out, scores = self._softmax_and_combine(
            query,
            key,
            value,
            mask,
            training,
            fast,
            (self._dot_product_equation, self._combine_equation, lambda k, q: (q, k)),
            1,
            self._inverse_sqrt_head_dim,
            causal_only,
        )
        out = self._output_dense(out * gate if gate is not None else out)
        return [out, scores] if return_attention_scores else out

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {
            **super().get_config(),
            "head_dim": self.head_dim,
            "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads,
            **self._common_config(),
        }
