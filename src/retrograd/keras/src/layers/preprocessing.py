"""Keras' numeric preprocessing layers: Rescaling, Normalization (with ``adapt``),
Discretization (bin boundaries, or Keras' approximate quantiles from ``adapt``),
CategoryEncoding, and Pipeline (layers applied in order, outside a model's graph).

>>> import numpy as np, retrograd as rg
>>> norm = rg.keras.layers.Normalization()
>>> norm.adapt(np.array([[1.0], [3.0]], "float32"))
>>> norm(np.array([[3.0]], "float32")).numpy().tolist()
[[1.0]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.layers.base import Layer
from retrograd.keras.src.ops import core as kcore
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.serialization import deserialize_keras_object, serialize_keras_object

__all__ = [
    "Rescaling",
    "Normalization",
    "Discretization",
    "CategoryEncoding",
    "Pipeline",
    "encode_categorical",
]


class Rescaling(Layer):
    """``inputs * scale + offset`` in the compute dtype (image pixels to [0, 1] ...).

    >>> import retrograd as rg
    >>> rg.keras.layers.Rescaling(1 / 255)(rg.constant([[255.0, 51.0]])).numpy().tolist()
    [[1.0, 0.20000001788139343]]
    """

    supports_masking = True

    def __init__(self, scale: Any, offset: Any = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        dtype = self.compute_dtype
        scale = kcore.cast(self.scale, dtype)
        offset = kcore.cast(self.offset, dtype)
        rank = len(kcore.shape(scale))
        if rank > 0 and backend.image_data_format() == "channels_first":
            scale = knp.reshape(scale, tuple(kcore.shape(scale)) + (1,) * (3 - rank))
        return kcore.cast(inputs, dtype) * scale + offset

    def get_config(self):
        return {
            **super().get_config(),
            "scale": serialize_keras_object(self.scale),
            "offset": serialize_keras_object(self.offset),
        }


class Normalization(Layer):
    """``(x - mean) / sqrt(variance)`` per position of ``axis`` (the features), from given
    statistics or from ``adapt(data)``; ``invert`` undoes it.

    >>> import numpy as np, retrograd as rg
    >>> layer = rg.keras.layers.Normalization(mean=2.0, variance=4.0)
    >>> layer(np.array([[4.0, 0.0]], "float32")).numpy().tolist()
    [[1.0, -1.0]]
    """

    supports_masking = True

    def __init__(
        self,
        axis: Any = -1,
        mean: Any = None,
        variance: Any = None,
        invert: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        self.mean = self.variance = None
        if (mean is None) != (variance is None):
            raise ValueError(
                "When setting values directly, both `mean` and `variance` must be set. "
                f"Received: mean={mean} and variance={variance}"
            )
        if mean is not None and np.shape(mean) != np.shape(variance):
            raise ValueError(
                "When setting values directly, `mean` and `variance` must have the same "
                f"shape. Received: mean={mean} and variance={variance}"
            )

    def build(self, input_shape):
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(
                f"All `axis` values must be in the range [-ndim, ndim). Received inputs with "
                f"ndim={ndim}, while axis={self.axis}"
            )
        self._build_input_shape = tuple(input_shape)
        keep = tuple(sorted(a % ndim for a in self.axis))
        for d in keep:
            if input_shape[d] is None:
                raise ValueError(
                    "All `axis` values to be kept must have a known shape. Received axis="
                    f"{self.axis}, inputs.shape={tuple(input_shape)}, with unknown axis at "
                    f"index {d}"
                )
        self._keep_axis = keep
        self._reduce_axis = tuple(d for d in range(ndim) if d not in keep)
        self._broadcast_shape = [input_shape[d] if d in keep else 1 for d in range(ndim)]
        shape = tuple(input_shape[d] for d in keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                name="mean", shape=shape, initializer="zeros", trainable=False
            )
            self.adapt_variance = self.add_weight(
                name="variance", shape=shape, initializer="ones", trainable=False
            )
            self.count = self.add_weight(
                name="count", shape=(), dtype="int32", initializer="zeros", trainable=False
            )
            self.finalize_state()
            return
        mean, variance = np.asarray(self.input_mean), np.asarray(self.input_variance)
        if mean.ndim:
            expanded = [1] * ndim
            for i in range(1, mean.ndim + 1):
                expanded[keep[-i]] = mean.shape[-i]
            mean, variance = mean.reshape(expanded), variance.reshape(expanded)
        target = tuple(self._broadcast_shape)
        self.mean = kcore.cast(np.broadcast_to(mean, target), self.compute_dtype)
        self.variance = kcore.cast(np.broadcast_to(variance, target), self.compute_dtype)

    def adapt(self, data: Any) -> None:
        """Computes the mean and variance of ``data`` (an array, a tensor, a dataset or an
        iterable of batches) over the non-``axis`` dimensions."""
        batches = [data] if hasattr(data, "shape") else list(data)
        batches = [b[0] if isinstance(b, tuple) else b for b in batches]
        first = np.asarray(batches[0])
        if not self.built:
            self._maybe_build((first,), {})
        if len(batches) == 1:
            total_mean = first.mean(axis=self._reduce_axis)
            total_var = first.var(axis=self._reduce_axis)
        else:
            total_mean = np.zeros(self.adapt_mean.shape.as_list(), "float32")
            total_var = np.zeros_like(total_mean)
            count = 0
            for batch in batches:
                batch = np.asarray(batch, dtype=self.compute_dtype)
                batch_mean = batch.mean(axis=self._reduce_axis)
                batch_var = batch.var(axis=self._reduce_axis)
                size = math.prod(batch.shape[d] for d in self._reduce_axis)
                count += size
                weight = float(size) / count
                new_mean = total_mean * (1 - weight) + batch_mean * weight
                total_var = (total_var + (total_mean - new_mean) ** 2) * (1 - weight) + (
                    batch_var + (batch_mean - new_mean) ** 2
                ) * weight
                total_mean = new_mean
        self.adapt_mean.assign(np.asarray(total_mean, "float32"))
        self.adapt_variance.assign(np.asarray(total_var, "float32"))
        self.finalize_state()

    def finalize_state(self) -> None:
        """Reads the adapted statistics into the layer's broadcast mean and variance."""
        if self.input_mean is not None or not hasattr(self, "adapt_mean"):
            return
        self.mean = kcore.cast(
            knp.reshape(self.adapt_mean.value, self._broadcast_shape), self.compute_dtype
        )
        self.variance = kcore.cast(
            knp.reshape(self.adapt_variance.value, self._broadcast_shape), self.compute_dtype
        )

    def call(self, inputs):
        if self.mean is None:
            raise ValueError("You must call `.build(input_shape)` on the layer before using it.")
        x = kcore.cast(inputs, self.compute_dtype)
        scale = knp.maximum(knp.sqrt(self.variance), backend.epsilon())
        return self.mean + x * scale if self.invert else (x - self.mean) / scale

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "invert": self.invert,
            "mean": np.array(self.input_mean).tolist(),
            "variance": np.array(self.input_variance).tolist(),
        }


def encode_categorical(
    inputs: Any, output_mode: str, depth: int, dtype: Any, count_weights: Any = None
) -> Any:
    """Keras' encodings of integer ids: 'int' (as is), 'one_hot', 'multi_hot' (1 where an
    id occurs, per sample), 'count' (occurrences, weighted by ``count_weights``)."""
    if output_mode == "int":
        return kcore.cast(inputs, dtype)
    x = kcore.convert_to_tensor(inputs)
    if len(x.shape) == 0:
        x = knp.expand_dims(x, -1)
    if output_mode == "one_hot" and x.shape[-1] != 1:
        x = knp.expand_dims(x, -1)
    if len(x.shape) > 2:
        raise ValueError(
            "When output_mode is not `'int'`, maximum supported output rank is 2. Received "
            f"output_mode {output_mode} and input shape {tuple(inputs.shape)}, which would "
            f"result in output rank {len(x.shape)}."
        )
    hot = knp.take(
        knp.eye(depth, dtype="float32"), knp.clip(kcore.cast(x, "int32"), 0, depth - 1), axis=0
    )
    inside = kcore.cast((x >= 0) & (x < depth), "float32")[..., None]
    hot = hot * inside
    if count_weights is not None and output_mode == "count":
        hot = hot * kcore.cast(count_weights, "float32")[..., None]
    counts = knp.sum(hot, axis=-2)
    if output_mode in ("one_hot", "multi_hot"):
        counts = knp.minimum(counts, 1.0)
    return kcore.cast(counts, dtype)


class Discretization(Layer):
    """Bucket indices of ``bin_boundaries`` (``x < b[0]`` is 0 ...), or of ``num_bins``
    boundaries found by ``adapt`` (Keras' approximate quantiles, tolerance ``epsilon``),
    encoded by ``output_mode``.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.Discretization(bin_boundaries=[0.0, 1.0])
    >>> layer(rg.constant([[-0.5, 0.5, 2.0]])).numpy().tolist()
    [[0, 1, 2]]
    """

    def __init__(
        self,
        bin_boundaries: Any = None,
        num_bins: int | None = None,
        epsilon: float = 0.01,
        output_mode: str = "int",
        sparse: bool = False,
        dtype: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name, dtype=dtype)
        if sparse:
            raise ValueError("`sparse=True` is not available: retrograd has no sparse tensors")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(
                "Unknown value for argument `output_mode`. Allowed values are: 'int', "
                f"'one_hot', 'multi_hot', 'count'. Received: output_mode={output_mode}"
            )
        if num_bins is not None and num_bins < 0:
            raise ValueError(
                f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`"
            )
        if (num_bins is None) == (bin_boundaries is None):
            raise ValueError(
                "Exactly one of `num_bins` and `bin_boundaries` must be given. Received: "
                f"bin_boundaries={bin_boundaries} and num_bins={num_bins}"
            )
        self.bin_boundaries, self.num_bins = bin_boundaries, num_bins
        self.epsilon, self.output_mode, self.sparse = epsilon, output_mode, sparse
        self.summary = None if bin_boundaries else np.zeros((2, 0), "float32")

    def adapt(self, data: Any, steps: int | None = None) -> None:
        """Finds ``num_bins`` boundaries from the data's quantiles."""
        if self.num_bins is None:
            raise ValueError(
                "Cannot adapt a Discretization layer that has been initialized with "
                "`bin_boundaries`, use `num_bins` instead."
            )
        self.reset_state()
        batches = [data] if hasattr(data, "shape") else list(data)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data: Any) -> None:
        values = np.sort(np.asarray(data, "float32").reshape(-1))
        step = max(values.size / (1.0 / self.epsilon), 1)
        picked = values[int(step - 1) :: int(step)]
        summary = np.stack([picked, np.ones_like(picked) * step])
        self.summary = _compress(np.concatenate((summary, self.summary), axis=1), self.epsilon)

    def finalize_state(self) -> None:
        if self.num_bins is not None:
            self.bin_boundaries = _compress(self.summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def reset_state(self) -> None:
        if self.num_bins is not None:
            self.summary = np.zeros((2, 0), "float32")

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(
                "You need to either pass the `bin_boundaries` argument at construction time "
                "or call `adapt(dataset)` before you can start using the `Discretization` "
                "layer."
            )
        indices = knp.digitize(inputs, self.bin_boundaries)
        dtype = self.compute_dtype if self.output_mode != "int" else "int32"
        return encode_categorical(indices, self.output_mode, len(self.bin_boundaries) + 1, dtype)

    def get_config(self):
        return {
            "bin_boundaries": self.bin_boundaries,
            "num_bins": self.num_bins,
            "epsilon": self.epsilon,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "name": self.name,
            "dtype": self.dtype,
        }


def _compress(summary: np.ndarray, epsilon: float) -> np.ndarray:
    """Keras' summary compression: weighted values sorted, resampled at ``epsilon`` steps
    of cumulative weight."""
    summary = summary[:, np.argsort(summary[0])]
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    fractions = cumulative / cumulative[-1]
    bins = np.interp(percents, fractions, summary[0])
    cumulative = np.interp(percents, fractions, cumulative)
    weights = cumulative - np.concatenate((np.array([0]), cumulative[:-1]))
    return np.stack((bins, weights)).astype("float32")


class CategoryEncoding(Layer):
    """Integer ids (below ``num_tokens``) as 'one_hot', 'multi_hot' or 'count' vectors.

    >>> import retrograd as rg
    >>> layer = rg.keras.layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    >>> layer(rg.constant([[0, 1], [3, 3]])).numpy().tolist()
    [[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    """

    def __init__(
        self,
        num_tokens: int | None = None,
        output_mode: str = "multi_hot",
        sparse: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(
                "Unknown value for argument `output_mode`. Allowed values are: 'count', "
                f"'one_hot', 'multi_hot'. Received: output_mode={output_mode}"
            )
        if num_tokens is None or num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise ValueError("`sparse=True` is not available: retrograd has no sparse tensors")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse

    def _cast_inputs(self, value):
        return kcore.convert_to_tensor(value)

    def call(self, inputs, count_weights=None):
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(
                "`count_weights` is not used when `output_mode` is not `'count'`. Received "
                f"`count_weights={count_weights}`."
            )
        return encode_categorical(
            inputs, self.output_mode, self.num_tokens, self.compute_dtype, count_weights
        )

    def get_config(self):
        return {
            **super().get_config(),
            "num_tokens": self.num_tokens,
            "output_mode": self.output_mode,
        }


class Pipeline(Layer):
    """Applies ``layers`` one after the other (preprocessing outside a model: no graph
    nodes are made for the inner layers).

    >>> import retrograd as rg
    >>> pipeline = rg.keras.layers.Pipeline([rg.keras.layers.Rescaling(2.0),
    ...                                      rg.keras.layers.Rescaling(1.0, offset=1.0)])
    >>> pipeline(rg.constant([1.0, 2.0])).numpy().tolist()
    [3.0, 5.0]
    """

    def __init__(self, layers: list, name: str | None = None) -> None:
        super().__init__(name=name)
        self._pipeline_layers = list(layers)

    @property
    def layers(self) -> list:
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {}
            if layer._accepts("mask") and mask is not None:
                kwargs["mask"] = mask
            if layer._accepts("training") and training is not None:
                kwargs["training"] = training
            inputs = layer(inputs, **kwargs)
        return inputs

    def get_config(self):
        return {"layers": serialize_keras_object(self._pipeline_layers), "name": self.name}

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(
                "`Pipeline` config must contain a `layers` key mapping to a list of "
                f"serialized layers. Received config with layers={layers}."
            )
        return cls([deserialize_keras_object(x) for x in layers], name=config.get("name"))
