"""``keras.ops`` neural-network computations (``keras.ops.nn``): convolutions and their
transposes, pooling (adaptive too), normalisations, attention, cross-entropies, ``psnr``,
block rearrangements (``space_to_depth``, ``unfold``/``fold``). ``data_format`` is
'channels_last' (the default) or 'channels_first'.

>>> import numpy as np
>>> from retrograd.keras import ops
>>> ops.conv(np.ones((1, 4, 4, 1), "float32"), np.ones((2, 2, 1, 1), "float32")).shape
TensorShape([1, 3, 3, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src import backend
from retrograd.keras.src.dtype_rules import result_type
from retrograd.keras.src.ops import convolution, tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    einsum_ops,
    join_ops,
    math_ops,
    nn_ops,
    pool_ops,
    reduction_ops,
    statistics_ops,
)

__all__ = [
    "conv",
    "conv_transpose",
    "depthwise_conv",
    "separable_conv",
    "max_pool",
    "average_pool",
    "adaptive_average_pool",
    "adaptive_max_pool",
    "moments",
    "batch_normalization",
    "layer_normalization",
    "rms_normalization",
    "dot_product_attention",
]


def _format(data_format: Any) -> str:
    value = backend.image_data_format() if data_format is None else str(data_format).lower()
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            "The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
            f"Received: data_format={data_format}"
        )
    return value


def _padding(padding: str) -> str:
    value = str(padding).lower()
    if value not in ("valid", "same"):
        raise ValueError(
            f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}"
        )
    return value


def _to_last(t: Any, data_format: str) -> Any:
    if data_format == "channels_last":
        return t
    return array_ops.transpose(t, [0, *range(2, t.shape.rank), 1])


def _from_last(t: Any, data_format: str) -> Any:
    if data_format == "channels_last":
        return t
    rank = t.shape.rank
    return array_ops.transpose(t, [0, rank - 1, *range(1, rank - 1)])


def conv(
    inputs: Any,
    kernel: Any,
    strides: Any = 1,
    padding: str = "valid",
    data_format: Any = None,
    dilation_rate: Any = 1,
) -> Any:
    """An N-D convolution of ``inputs`` with ``kernel`` (``(*k, in_channels / groups,
    filters)``; groups are inferred from the channel counts).

    >>> conv(np.ones((1, 5, 2), "float32"), np.ones((3, 2, 1), "float32")).numpy().ravel().tolist()
    [6.0, 6.0, 6.0]
    """
    if any_symbolic(inputs, kernel):
        return symbolic_call(conv, inputs, kernel, strides, padding, data_format, dilation_rate)
    fmt = _format(data_format)
    x, w = tensors.convert(inputs), tensors.convert(kernel)
    x = _to_last(x, fmt)
    out = convolution.conv_nd(x, w, strides, _padding(padding), dilation_rate)
    return _from_last(out, fmt)


def depthwise_conv(
    inputs: Any,
    kernel: Any,
    strides: Any = 1,
    padding: str = "valid",
    data_format: Any = None,
    dilation_rate: Any = 1,
) -> Any:
    """A depthwise convolution: each input channel with its own filters (``kernel`` is
    ``(*k, in_channels, multiplier)``).

    >>> depthwise_conv(np.ones((1, 4, 2), "float32"), np.ones((2, 2, 1), "float32")).shape
    TensorShape([1, 3, 2])
    """
    if any_symbolic(inputs, kernel):
        return symbolic_call(
            depthwise_conv, inputs, kernel, strides, padding, data_format, dilation_rate
        )
    fmt = _format(data_format)
    x, w = tensors.convert(inputs), tensors.convert(kernel)
    out = convolution.depthwise_nd(_to_last(x, fmt), w, strides, _padding(padding), dilation_rate)
    return _from_last(out, fmt)


def separable_conv(
    inputs: Any,
    depthwise_kernel: Any,
    pointwise_kernel: Any,
    strides: Any = 1,
    padding: str = "valid",
    data_format: Any = None,
    dilation_rate: Any = 1,
) -> Any:
    """A depthwise convolution followed by a 1x1 (pointwise) convolution.

    >>> x = np.ones((1, 4, 2), "float32")
    >>> separable_conv(x, np.ones((2, 2, 1), "float32"), np.ones((1, 2, 3), "float32")).shape
    TensorShape([1, 3, 3])
    """
    if any_symbolic(inputs, depthwise_kernel, pointwise_kernel):
        return symbolic_call(
            separable_conv,
            inputs,
            depthwise_kernel,
            pointwise_kernel,
            strides,
            padding,
            data_format,
            dilation_rate,
        )
    depthwise = depthwise_conv(
        inputs, depthwise_kernel, strides, padding, data_format, dilation_rate
    )
    return conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


def conv_transpose(
    inputs: Any,
    kernel: Any,
    strides: Any = 1,
    padding: str = "valid",
    output_padding: Any = None,
    data_format: Any = None,
    dilation_rate: Any = 1,
) -> Any:
    """The transposed convolution (``kernel`` is ``(*k, filters, in_channels)``), whose
    output size Keras' rule gives.

    >>> conv_transpose(np.ones((1, 3, 1), "float32"), np.ones((2, 1, 1), "float32")).shape
    TensorShape([1, 4, 1])
    """
    if any_symbolic(inputs, kernel):
        return symbolic_call(
            conv_transpose,
            inputs,
            kernel,
            strides,
            padding,
            output_padding,
            data_format,
            dilation_rate,
        )
    fmt = _format(data_format)
    x, w = tensors.convert(inputs), tensors.convert(kernel)
    out = convolution.conv_transpose_nd(
        _to_last(x, fmt), w, strides, _padding(padding), output_padding, dilation_rate
    )
    return _from_last(out, fmt)


def _pool(kind: str, inputs: Any, pool_size: Any, strides: Any, padding: str, data_format: Any):
    fmt = _format(data_format)
    x = _to_last(tensors.convert(inputs), fmt)
    n = x.shape.rank - 2
    size = convolution.spatial_tuple(pool_size, n, "pool_size")
    step = size if strides is None else convolution.spatial_tuple(strides, n, "strides")
    pool = pool_ops.max_pool if kind == "max" else pool_ops.avg_pool
    out = pool(x, list(size), list(step), _padding(padding).upper())
    return _from_last(out, fmt)


def max_pool(
    inputs: Any,
    pool_size: Any,
    strides: Any = None,
    padding: str = "valid",
    data_format: Any = None,
) -> Any:
    """The maximum of each window (``strides`` default to ``pool_size``).

    >>> max_pool(np.arange(8, dtype="float32").reshape(1, 8, 1), 2).numpy().ravel().tolist()
    [1.0, 3.0, 5.0, 7.0]
    """
    if any_symbolic(inputs):
        return symbolic_call(max_pool, inputs, pool_size, strides, padding, data_format)
    return _pool("max", inputs, pool_size, strides, padding, data_format)


def average_pool(
    inputs: Any,
    pool_size: Any,
    strides: Any = None,
    padding: str = "valid",
    data_format: Any = None,
) -> Any:
    """The mean of each window (``strides`` default to ``pool_size``).

    >>> average_pool(np.arange(4, dtype="float32").reshape(1, 4, 1), 2).numpy().ravel().tolist()
    [0.5, 2.5]
    """
    if any_symbolic(inputs):
        return symbolic_call(average_pool, inputs, pool_size, strides, padding, data_format)
    return _pool("avg", inputs, pool_size, strides, padding, data_format)


def _adaptive(inputs: Any, output_size: Any, data_format: Any, largest: bool) -> Any:
    fmt = _format(data_format)
    x = _to_last(tensors.convert(inputs), fmt)
    n = x.shape.rank - 2
    if n not in (1, 2, 3):
        raise ValueError("adaptive pooling supports 1D, 2D, or 3D inputs only.")
    sizes = convolution.spatial_tuple(output_size, n, "output_size")
    reduce = reduction_ops.reduce_max if largest else reduction_ops.reduce_mean
    for axis, out in enumerate(sizes, start=1):
        length = x.shape.as_list()[axis]
        pieces = []
        for i in range(out):
            start, stop = (i * length) // out, -(-((i + 1) * length) // out)
            index = [slice(None)] * x.shape.rank
            index[axis] = slice(start, stop)
            pieces.append(reduce(x[tuple(index)], axis, keepdims=True))
        x = join_ops.concat(pieces, axis)
    return _from_last(x, fmt)


def adaptive_average_pool(inputs: Any, output_size: Any, data_format: Any = None) -> Any:
    """Mean pooling into ``output_size`` bins per spatial axis (bin ``i`` of ``L`` inputs
    covers ``floor(i L / n)`` to ``ceil((i + 1) L / n)``).

    >>> adaptive_average_pool(np.arange(6, dtype="float32").reshape(1, 6, 1), 2).numpy().ravel()
    array([1., 4.], dtype=float32)
    """
    if any_symbolic(inputs):
        return symbolic_call(adaptive_average_pool, inputs, output_size, data_format)
    return _adaptive(inputs, output_size, data_format, False)


def adaptive_max_pool(inputs: Any, output_size: Any, data_format: Any = None) -> Any:
    """Max pooling into ``output_size`` bins per spatial axis.

    >>> adaptive_max_pool(np.arange(6, dtype="float32").reshape(1, 6, 1), 2).numpy().ravel()
    array([2., 5.], dtype=float32)
    """
    if any_symbolic(inputs):
        return symbolic_call(adaptive_max_pool, inputs, output_size, data_format)
    return _adaptive(inputs, output_size, data_format, True)


def moments(x: Any, axes: Any, keepdims: bool = False, synchronized: bool = False) -> Any:
    """The mean and variance of ``x`` over ``axes``.

    >>> [t.numpy().tolist() for t in moments([1.0, 3.0], axes=[0])]
    [2.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(moments, x, axes, keepdims, synchronized)
    t = tensors.convert(x)
    name = t.dtype.name
    if name in ("float16", "bfloat16"):
        t = math_ops.cast(t, "float32")
    mean, variance = statistics_ops.moments(t, list(axes), keepdims=keepdims)
    if name in ("float16", "bfloat16"):
        mean, variance = math_ops.cast(mean, name), math_ops.cast(variance, name)
    return mean, variance


def batch_normalization(
    x: Any,
    mean: Any,
    variance: Any,
    axis: int,
    offset: Any = None,
    scale: Any = None,
    epsilon: float = 1e-3,
) -> Any:
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset``, the statistics laid
    along ``axis``.

    >>> batch_normalization([[1.0, 3.0]], [1.0, 1.0], [1.0, 4.0], axis=-1, epsilon=0.0).numpy()
    array([[0., 1.]], dtype=float32)
    """
    if any_symbolic(x, mean, variance, offset, scale):
        return symbolic_call(batch_normalization, x, mean, variance, axis, offset, scale, epsilon)
    t = tensors.convert(x)
    stats = [
        None if v is None else tensors.convert(v, t.dtype) for v in (mean, variance, offset, scale)
    ]
    if axis != -1 and axis != t.shape.rank - 1:
        shape = [1] * t.shape.rank
        shape[axis] = -1
        stats = [None if v is None else array_ops.reshape(v, shape) for v in stats]
    m, v, b, g = stats
    inverse = math_ops.rsqrt(v + tensors.convert(epsilon, t.dtype))
    if g is not None:
        inverse = inverse * g
    return t * inverse + ((b - m * inverse) if b is not None else -m * inverse)


def layer_normalization(
    x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1, epsilon: Any = None, **kwargs: Any
) -> Any:
    """``x`` normalised over ``axis`` (zero mean, unit variance), scaled by ``gamma`` and
    shifted by ``beta``.

    >>> layer_normalization([[1.0, 3.0]], epsilon=0.0).numpy().tolist()
    [[-1.0, 1.0]]
    """
    if any_symbolic(x, gamma, beta):
        return symbolic_call(layer_normalization, x, gamma, beta, axis, epsilon, **kwargs)
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"layer_normalization: unexpected arguments {sorted(kwargs)}")
    eps = backend.epsilon() if epsilon is None else epsilon
    t = tensors.convert(x)
    original = t.dtype.name
    t = math_ops.cast(t, result_type(original, "float32"))
    rank = t.shape.rank
    axes = sorted(a % rank for a in ([axis] if isinstance(axis, int) else axis))
    shape = [t.shape.as_list()[a] if a in axes else 1 for a in range(rank)]

    def spread(v: Any) -> Any:
        if v is None:
            return None
        v = tensors.convert(v, t.dtype)
        return v if axes == [rank - 1] and v.shape.rank != rank else array_ops.reshape(v, shape)

    g, b = spread(gamma), spread(beta)
    if rms_scaling:
        variance = statistics_ops.reduce_variance(t, axes, keepdims=True)
        out = t * math_ops.rsqrt(variance + tensors.convert(eps, t.dtype))
        return math_ops.cast(out if g is None else out * g, original)
    mean, variance = statistics_ops.moments(t, axes, keepdims=True)
    inverse = math_ops.rsqrt(variance + tensors.convert(eps, t.dtype))
    if g is not None:
        inverse = inverse * g
    shift = -mean * inverse
    if b is not None:
        shift = shift + b
    return math_ops.cast(t * inverse + shift, original)


def rms_normalization(x: Any, scale: Any = None, axis: Any = -1, epsilon: Any = None) -> Any:
    """``x / sqrt(mean(x**2) + epsilon)`` over ``axis``, times ``scale``.

    >>> [round(v, 4) for v in rms_normalization([[3.0, 4.0]], epsilon=0.0).numpy()[0].tolist()]
    [0.8485, 1.1314]
    """
    if any_symbolic(x, scale):
        return symbolic_call(rms_normalization, x, scale, axis, epsilon)
    eps = backend.epsilon() if epsilon is None else epsilon
    t = tensors.convert(x)
    original = t.dtype.name
    t = math_ops.cast(t, result_type(original, "float32"))
    if t.shape.rank == 0:
        t = array_ops.expand_dims(t, 0)
    axes = sorted(axis) if isinstance(axis, (list, tuple)) else axis
    mean_square = reduction_ops.reduce_mean(math_ops.square(t), axes, keepdims=True)
    out = t * math_ops.rsqrt(mean_square + tensors.convert(eps, t.dtype))
    if scale is not None:
        out = out * tensors.convert(scale, t.dtype)
    return math_ops.cast(out, original)


def dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    bias: Any = None,
    mask: Any = None,
    scale: Any = None,
    is_causal: bool = False,
    flash_attention: Any = None,
    attn_logits_soft_cap: Any = None,
) -> Any:
    """Scaled dot-product attention over inputs laid out ``(batch, length, heads, dim)``;
    ``mask`` (True = attend) and ``is_causal`` hide keys; ``scale`` defaults to
    ``1 / sqrt(dim)``.

    >>> q = np.ones((1, 2, 1, 4), "float32")
    >>> dot_product_attention(q, q, q).shape
    TensorShape([1, 2, 1, 4])
    """
    if any_symbolic(query, key, value, bias, mask):
        return symbolic_call(
            dot_product_attention,
            query,
            key,
            value,
            bias,
            mask,
            scale,
            is_causal,
            flash_attention,
            attn_logits_soft_cap,
        )
    if flash_attention:
        raise ValueError("Flash attention is not supported in tensorflow backend.")
    q, k, v = (tensors.convert(t) for t in (query, key, value))
    if q.shape.rank != 4:
        raise ValueError(
            "`dot_product_attention` only supports 4D inputs. Received: "
            f"query.shape={tuple(q.shape.as_list())}, key.shape={tuple(k.shape.as_list())}, "
            f"value.shape={tuple(v.shape.as_list())}."
        )
    dtype = result_type(q.dtype.name, k.dtype.name, v.dtype.name)
    q, k, v = (math_ops.cast(t, dtype) for t in (q, k, v))
    heads_q, heads_kv = q.shape.as_list()[2], k.shape.as_list()[2]
    if heads_q > heads_kv > 1:
        groups = np.repeat(np.arange(heads_kv), heads_q // heads_kv)
        k = _repeat_heads(k, groups)
        v = _repeat_heads(v, groups)
    if scale is None:
        scale = 1.0 / np.sqrt(np.float32(k.shape.as_list()[-1]))
    logits_dtype = result_type(dtype, "float32")
    logits = math_ops.cast(einsum_ops.einsum("BTNH,BSNH->BNTS", q, k), logits_dtype)
    logits = logits * tensors.convert(scale, logits_dtype)
    if bias is not None:
        logits = logits + tensors.convert(bias, logits_dtype)
    if attn_logits_soft_cap is not None:
        cap = tensors.convert(attn_logits_soft_cap, logits_dtype)
        logits = math_ops.tanh(logits / cap) * cap
    if mask is not None or is_causal:
        keep = None if mask is None else math_ops.cast(tensors.convert(mask), "bool")
        if is_causal:
            t, s = logits.shape.as_list()[2:]
            causal = tensors.convert(np.tril(np.ones((t, s), bool)))
            keep = causal if keep is None else comparison_ops.logical_and(keep, causal)
        lowest = tensors.convert(float(np.finfo(logits_dtype).min) * 0.7, logits_dtype)
        logits = array_ops.where(keep, logits, lowest + array_ops.zeros_like(logits))
    probs = math_ops.cast(nn_ops.softmax(logits, axis=-1), dtype)
    return einsum_ops.einsum("BNTS,BSNH->BTNH", probs, v)


def _repeat_heads(t: Any, groups: np.ndarray) -> Any:
    from retrograd.ops import gather_ops

    return gather_ops.gather(t, tensors.convert(groups.astype(np.int32)), axis=2)
