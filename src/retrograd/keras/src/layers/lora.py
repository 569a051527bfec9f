"""Low-rank adaptation (LoRA) of Keras' Dense and Embedding layers: ``enable_lora(rank)``
freezes the layer's matrix ``W`` and adds two trainable float32 factors ``A`` (he_uniform)
and ``B`` (zeros), so that the layer computes with ``W + (lora_alpha / rank) * A @ B``;
``lora_rank=`` in the constructor enables it when the layer is built, as in Keras 3.

>>> import retrograd as rg
>>> dense = rg.keras.layers.Dense(2, lora_rank=1)
>>> _ = dense(rg.ones([1, 3]))
>>> [w.name for w in dense.trainable_weights]
['bias', 'lora_kernel_a', 'lora_kernel_b']
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import initializers, tf_ops

__all__ = ["check_quantization_config", "config_of", "enable_lora", "lora_delta"]


def check_quantization_config(quantization_config: Any, who: str) -> None:
    """Keras' quantized Dense/Embedding (int8, int4, float8, GPTQ): refused with a
    ValueError naming the argument (retrograd's weights are float)."""
    if quantization_config is not None:
        raise ValueError(
            f"{who}: quantization_config={quantization_config!r} asks for quantized weights, "
            "which retrograd does not have (leave quantization_config=None)"
        )


def enable_lora(
    layer: Any, frozen_name: str, names: tuple[str, str], rank: int, lora_alpha: Any,
    a_initializer: Any, b_initializer: Any, regularizer: Any,
) -> None:  # fmt: skip
    """Adds the factors ``names`` of ``layer`` for its matrix ``frozen_name`` (Keras' checks
    and messages), which stops training."""
    if getattr(layer, "kernel_constraint", None) or getattr(layer, "embeddings_constraint", None):
        raise ValueError(
            "Lora is incompatible with kernel constraints. In order to enable lora on this "
            "layer, remove the `kernel_constraint` argument."
        )
    if not layer.built:
        raise ValueError("Cannot enable lora on a layer that isn't yet built.")
    if layer.lora_enabled:
        raise ValueError("lora is already enabled. This can only be done once per layer.")
    frozen = getattr(layer, frozen_name)
    rows, cols = (int(d) for d in frozen.shape)
    first = layer.add_weight(
        name=names[0], shape=(rows, rank), initializer=initializers.get(a_initializer),
        dtype="float32", regularizer=regularizer,
    )  # fmt: skip
    second = layer.add_weight(
        name=names[1], shape=(rank, cols), initializer=initializers.get(b_initializer),
        dtype="float32", regularizer=regularizer,
    )  # fmt: skip
    setattr(layer, names[0], first)
    setattr(layer, names[1], second)
    frozen.trainable = False
    layer.lora_enabled, layer.lora_rank = True, rank
    layer.lora_alpha = lora_alpha if lora_alpha is not None else rank


def lora_delta(layer: Any, names: tuple[str, str], dtype: Any) -> Any:
    """``(lora_alpha / lora_rank) * A @ B`` in ``dtype`` (what LoRA adds to the matrix)."""
    product = tf_ops.matmul(getattr(layer, names[0]), getattr(layer, names[1]))
    return tf_ops.cast((layer.lora_alpha / layer.lora_rank) * product, dtype)


def config_of(layer: Any) -> dict:
    """``lora_rank`` and ``lora_alpha`` for ``get_config`` (Keras adds them when set)."""
    return {"lora_rank": layer.lora_rank, "lora_alpha": layer.lora_alpha} if layer.lora_rank else {}
