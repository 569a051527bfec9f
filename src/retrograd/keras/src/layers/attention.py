"""Keras' attention layers: ``Attention`` (Luong, dot or concat scores),
``AdditiveAttention`` (Bahdanau), ``MultiHeadAttention`` and ``GroupQueryAttention``
(projections by EinsumDense sublayers named query/key/value/attention_output, masks from
the inputs' masks, causal and sliding-window masks).

>>> import retrograd as rg
>>> mha = rg.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
>>> mha(rg.ones([1, 3, 8]), rg.ones([1, 5, 8])).shape.as_list()
[1, 3, 8]
"""

from __future__ import annotations

import string
from typing import Any

from retrograd.keras.src import random as keras_random
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import nn_activations
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "Attention",
    "AdditiveAttention",
    "causal_mask",
]


def causal_mask(q_length: int, v_length: int) -> Any:
    """``(1, q, v)`` booleans: query ``i`` sees values ``j <= i`` (Keras' cumsum rule)."""
    ones = knp.ones((1, q_length, v_length), dtype="int32")
    return knp.greater_equal(knp.cumsum(ones, axis=-2), knp.cumsum(ones, axis=-1))


def _window_mask(q_length: int, v_length: int, window: int) -> Any:
    rows = knp.reshape(knp.arange(q_length, dtype="int32"), (1, q_length, 1))
    cols = knp.reshape(knp.arange(v_length, dtype="int32"), (1, 1, v_length))
    return knp.less(knp.abs(rows - cols), window)


class Attention(Layer):
    """Dot-product (``score_mode='dot'``, scaled by a learned ``scale`` with ``use_scale``)
    or concat (``sum(tanh(q + k))``) attention of ``[query, value]`` or ``[query, value,
    key]``; ``mask=[query_mask, value_mask]``.

    >>> import retrograd as rg
    >>> q, v = rg.constant([[[1.0, 0.0]]]), rg.constant([[[1.0, 0.0], [0.0, 1.0]]])
    >>> out = rg.keras.layers.Attention()([q, v])
    >>> [round(x, 4) for x in out.numpy().ravel().tolist()]
    [0.7311, 0.2689]
    """

    def __init__(
        self,
        use_scale: bool = False,
        score_mode: str = "dot",
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.use_scale, self.score_mode, self.dropout, self.seed = (
            use_scale,
            score_mode,
            dropout,
            seed,
        )
        if dropout > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)
        if score_mode not in ("dot", "concat"):
            raise ValueError(
                "Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                f"Received: score_mode={score_mode}"
            )

    def _validate(self, inputs: Any, mask: Any = None) -> None:
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                f"{name} layer must be called on a list of inputs, namely [query, value] or "
                f"[query, value, key]. Received: inputs={inputs}."
            )
        if not 2 <= len(inputs) <= 3:
            raise ValueError(
                f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] "
                f"or [query, value, key]. Received length: {len(inputs)}."
            )
        if mask is not None and (not isinstance(mask, (list, tuple)) or not 2 <= len(mask) <= 3):
            raise ValueError(
                f"{name} layer mask must be a list of length 2 or 3, namely [query_mask, "
                f"value_mask]. Received: mask={mask}."
            )

    def build(self, input_shape):
        self._validate(input_shape)
        self.scale = self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(
                name="concat_score_weight", shape=(), initializer="ones"
            )

    def _scores(self, query: Any, key: Any) -> Any:
        if self.score_mode == "dot":
            scores = knp.matmul(query, knp.swapaxes(key, -2, -1))
            return scores if self.scale is None else scores * self.scale
        total = knp.expand_dims(query, -2) + knp.expand_dims(key, -3)
        if self.scale is not None:
            total = self.scale * total
        return self.concat_score_weight * knp.sum(knp.tanh(total), axis=-1)

    def call(
        self,
        inputs,
        mask=None,
        training=False,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        self._validate(inputs, mask)
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._scores(q, k)
        keep = None if v_mask is None else kcore.cast(v_mask, "bool")
        if use_causal_mask:
            shape = kcore.shape(scores)
            causal = causal_mask(shape[-2], shape[-1])
            keep = causal if keep is None else knp.logical_and(knp.expand_dims(keep, -2), causal)
        if keep is not None:
            if len(keep.shape) == 2:
                keep = knp.expand_dims(keep, -2)
            large = 65504.0 if scores.dtype.name == "float16" else 1e9
            scores = knp.where(knp.logical_not(keep), scores - large, scores)
        weights = nn_activations.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = keras_random.dropout(weights, self.dropout, seed=self.seed_generator)
        output = knp.matmul(weights, v)
        if q_mask is not None:
            output = knp.where(knp.expand_dims(kcore.cast(q_mask, "bool"), -1), output, 0.0)
        return [output, weights] if return_attention_scores else output

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return kcore.convert_to_tensor(mask[0])

    def get_config(self):
        return {
            **super().get_config(),
            "use_scale": self.use_scale,
            "score_mode": self.score_mode,
            "dropout": self.dropout,
            "seed": self.seed,
        }


class AdditiveAttention(Attention):
    """Bahdanau attention: scores ``sum(scale * tanh(q + k))`` (a learned ``scale`` per
    feature with ``use_scale``).

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.AdditiveAttention()
    >>> layer([rg.ones([2, 3, 4]), rg.ones([2, 5, 4])]).shape.as_list()
    [2, 3, 4]
    """

    def __init__(self, use_scale: bool = True, dropout: float = 0.0, **kwargs: Any) -> None:
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate(input_shape)
        self.scale = self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(
                name="scale", shape=[input_shape[0][-1]], initializer="glorot_uniform"
            )

    def _scores(self, query: Any, key: Any) -> Any:
        scale = self.scale if self.use_scale else 1.0
        total = knp.tanh(knp.expand_dims(query, -2) + knp.expand_dims(key, -3))
        return knp.sum(scale * total, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config


def _proj_equation(free: int, bound: int, out: int) -> tuple[str, str, int]:
    """An EinsumDense projection: ``free`` kept axes, ``bound`` contracted, ``out`` new."""
    letters = string.ascii_lowercase
    kept, summed, new = (
        letters[:free],
        letters[free : free + bound],
        letters[free + bound : free + bound + out],
    )
    return f"{kept}{summed},{summed}{new}->{kept}{new}", new, free + out


def _attention_equations(rank: int, attn_axes: tuple) -> tuple[str, str, int]:
    """The scores' and the combination's einsum equations for ``attn_axes`` of projected
    tensors of ``rank`` (batch axes, attention axes, heads and features as Keras lays
    them out)."""
    target = string.ascii_lowercase[:rank]
    batch = [i for i in range(rank) if i not in attn_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch or i == rank - 1:
            source += target[i]
        else:
            source += string.ascii_lowercase[offset]
            offset += 1
    product = "".join(
        [target[i] for i in batch] + [target[i] for i in attn_axes] + [source[i] for i in attn_axes]
    )
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)
