"""More of ``tf.nn``, built from ops as TensorFlow builds them: ``crelu``, moments from
sufficient statistics (``sufficient_statistics``, ``normalize_moments``,
``weighted_moments``), ``local_response_normalization`` (``lrn``), ``log_poisson_loss``,
``compute_average_loss``, ``scale_regularization_loss``,
``batch_norm_with_global_normalization``, the sampled losses (``nce_loss``,
``sampled_softmax_loss``, with ``compute_accidental_hits``) and ``isotonic_regression``.
Gradients are those of the ops they are made of (isotonic regression's: TensorFlow's, the
segment means of the upstream gradient).

>>> import retrograd as tf
>>> tf.nn.crelu([1.0, -2.0]).numpy().tolist()
[1.0, 0.0, 0.0, 2.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import (
    array_ops,
    comparison_ops,
    creation_ops,
    linalg_ops,
    math_ops,
    pad_ops,
    reduction_ops,
)
from retrograd.ops.scopes import op_scope

__all__ = [
    "batch_norm_with_global_normalization", "compute_accidental_hits", "compute_average_loss",
    "crelu", "isotonic_regression", "local_response_normalization", "log_poisson_loss", "lrn",
    "nce_loss", "normalize_moments", "sampled_softmax_loss",
    "sufficient_statistics", "weighted_moments",
]  # fmt: skip


def crelu(features: TensorLike, axis: int = -1, name: str | None = None) -> Tensor:
    """relu(x) and relu(-x) concatenated along ``axis``.

    >>> import retrograd as tf
    >>> tf.nn.crelu([[1.0, -2.0]], axis=0).numpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    from retrograd.ops.nn_ops import relu

    with op_scope(name or "CRelu"):
        x = convert_to_tensor(features)
        return relu(array_ops.concat([x, -x], axis))


def sufficient_statistics(
    x: TensorLike,
    axes: int | Sequence[int],
    shift: TensorLike | None = None,
    keepdims: bool = False,
    name: str | None = None,
) -> tuple:
    """(count, sum of x - shift, sum of (x - shift)**2, shift) over ``axes``.

    >>> import retrograd as tf
    >>> [float(t) for t in tf.nn.sufficient_statistics([1.0, 2.0, 3.0], [0])[:3]]
    [3.0, 6.0, 14.0]
    """
    with op_scope(name or "sufficient_statistics"):
        x = convert_to_tensor(x)
        axes = sorted(set(int(a) for a in np.ravel(axes)))
        counts = convert_to_tensor(
            float(math.prod(x.shape[a] for a in axes)), x.dtype
        )  # fmt: skip
        if shift is not None:
            shift = convert_to_tensor(shift, x.dtype)
            m_ss, v_ss = x - shift, math_ops.squared_difference(x, shift)
        else:
            m_ss, v_ss = x, math_ops.square(x)
        m_ss = reduction_ops.reduce_sum(m_ss, axes, keepdims=keepdims)
        v_ss = reduction_ops.reduce_sum(v_ss, axes, keepdims=keepdims)
        return counts, m_ss, v_ss, shift


def normalize_moments(
    counts: TensorLike,
    mean_ss: TensorLike,
    variance_ss: TensorLike,
    shift: TensorLike | None,
    name: str | None = None,
) -> tuple:
    """The mean and variance from sufficient statistics (and their shift, or None).

    >>> import retrograd as tf
    >>> [round(float(t), 4) for t in tf.nn.normalize_moments(3.0, 6.0, 14.0, None)]
    [2.0, 0.6667]
    """
    with op_scope(name or "normalize"):
        mean_ss = convert_to_tensor(mean_ss)
        divisor = math_ops.reciprocal(convert_to_tensor(counts, mean_ss.dtype))
        variance_ss = convert_to_tensor(variance_ss, mean_ss.dtype)
        if shift is not None:
            shifted_mean = mean_ss * divisor
            mean = shifted_mean + convert_to_tensor(shift, mean_ss.dtype)
        else:
            shifted_mean = mean_ss * divisor
            mean = shifted_mean
        variance = variance_ss * divisor - math_ops.square(shifted_mean)
        return mean, variance


def weighted_moments(
    x: TensorLike,
    axes: int | Sequence[int],
    frequency_weights: TensorLike,
    keepdims: bool = False,
    name: str | None = None,
) -> tuple:
    """The ``frequency_weights``-weighted mean and variance of ``x`` over ``axes``.

    >>> import retrograd as tf
    >>> [float(t) for t in tf.nn.weighted_moments([1.0, 3.0], [0], [1.0, 3.0])]
    [2.5, 0.75]
    """
    from retrograd.ops.safe_math_ops import divide_no_nan

    with op_scope(name or "weighted_moments"):
        x = convert_to_tensor(x)
        w = convert_to_tensor(frequency_weights, x.dtype)
        axes = [int(a) for a in np.ravel(axes)]
        total = reduction_ops.reduce_sum(x * w, axes, keepdims=True)
        weights = reduction_ops.reduce_sum(w + array_ops.zeros_like(x), axes, keepdims=True)
        mean = divide_no_nan(total, weights)
        distsq = reduction_ops.reduce_sum(w * math_ops.squared_difference(x, mean), axes,
                                          keepdims=True)  # fmt: skip
        variance = divide_no_nan(distsq, weights)
        if not keepdims:
            mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
        return mean, variance


def local_response_normalization(
    input: TensorLike, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
    beta: float = 0.5, name: str | None = None,
) -> Tensor:  # fmt: skip
    """Each entry divided by (bias + alpha * sum of squares over the ``depth_radius``
    neighbours on each side in the last dimension) ** beta (4-D input).

    >>> import retrograd as tf
    >>> tf.nn.lrn(tf.ones([1, 1, 1, 3]), depth_radius=1, bias=0.0, alpha=1.0, beta=1.0
    ...           ).numpy().ravel().astype(float).round(4).tolist()
    [0.5, 0.3333, 0.5]
    """
    x = convert_to_tensor(input)
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"input must be 4-dimensional, got {x._value.ndim}")
    with op_scope(name or "LRN"):
        r = int(depth_radius)
        squares = pad_ops.pad(math_ops.square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
        depth = x.shape[-1]
        window = math_ops.add_n([squares[..., i : i + depth] for i in range(2 * r + 1)])
        return x / math_ops.pow(bias + alpha * window, beta)


lrn = local_response_normalization


def log_poisson_loss(
    targets: TensorLike,
    log_input: TensorLike,
    compute_full_loss: bool = False,
    name: str | None = None,
) -> Tensor:
    """exp(log_input) - targets * log_input, plus Stirling's approximation of
    log(targets!) for targets > 1 when ``compute_full_loss``.

    >>> import retrograd as tf
    >>> float(tf.nn.log_poisson_loss(2.0, 0.0))
    1.0
    """
    with op_scope(name or "log_poisson_loss"):
        log_input = convert_to_tensor(log_input)
        targets = convert_to_tensor(targets, log_input.dtype)
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            stirling = targets * math_ops.log(targets) - targets + 0.5 * math_ops.log(
                2 * math.pi * targets
            )  # fmt: skip
            small = comparison_ops.logical_and(targets >= 0, targets <= 1)
            result += array_ops.where(small, array_ops.zeros_like(targets), stirling)
        return result


def compute_average_loss(
    per_example_loss: TensorLike,
    sample_weight: TensorLike | None = None,
    global_batch_size: TensorLike | None = None,
) -> Tensor:
    """The sum of the (weighted) per-example losses over the global batch size (by default
    the first dimension: one replica here).

    >>> import retrograd as tf
    >>> float(tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6))
    1.0
    """
    from retrograd.ops.safe_math_ops import divide_no_nan

    loss = convert_to_tensor(per_example_loss)
    dtype = loss.dtype
    if loss.shape.rank == 0:
        raise ValueError(
            "Invalid value passed for `per_example_loss`. Expected a tensor with at least "
            f"rank 1. Received per_example_loss={loss} with rank 0"
        )
    if sample_weight is not None:
        weight = math_ops.cast(convert_to_tensor(sample_weight), dtypes.float32)
        if weight.shape.rank == loss.shape.rank - 1:  # TensorFlow's squeeze_or_expand
            weight = array_ops.expand_dims(weight, -1)
        elif weight.shape.rank == loss.shape.rank + 1 and weight.shape[-1] == 1:
            weight = array_ops.squeeze(weight, -1)
        loss = math_ops.cast(loss, dtypes.float32) * weight
    loss = math_ops.cast(loss, dtype)
    if global_batch_size is None:
        global_batch_size = array_ops.shape(loss)[0]
    size = convert_to_tensor(global_batch_size)
    if size.shape.rank != 0:
        raise InvalidArgumentError("global_batch_size must be scalar.")
    if not size.dtype.is_integer:
        raise TypeError("global_batch_size must be an integer.")
    return divide_no_nan(reduction_ops.reduce_sum(loss), math_ops.cast(size, dtype))


def batch_norm_with_global_normalization(
    input: TensorLike,
    mean: TensorLike,
    variance: TensorLike,
    beta: TensorLike,
    gamma: TensorLike,
    variance_epsilon: float,
    scale_after_normalization: bool,
    name: str | None = None,
) -> Tensor:
    """``batch_normalization`` with ``gamma`` used only when ``scale_after_normalization``.

    >>> import retrograd as tf
    >>> tf.nn.batch_norm_with_global_normalization([[1.0, 2.0]], [1.0, 1.0], [1.0, 4.0],
    ...     [0.0, 0.0], [2.0, 2.0], 0.0, False).numpy().tolist()
    [[0.0, 0.5]]
    """
    from retrograd.ops.nn_layer_ops import batch_normalization

    scale = gamma if scale_after_normalization else None
    return batch_normalization(input, mean, variance, beta, scale, variance_epsilon, name)


# -- sampled losses ---------------------------------------------------------------------------
def _accidental_hits_kernel(true, sampled, num_true):
    # As TensorFlow's kernel: one hit per (row, true class) found among the sampled ones,
    # at the class's last position there.
    position = {int(c): j for j, c in enumerate(sampled.tolist())}
    hits = [(i, position[int(c)]) for i in range(true.shape[0]) for c in true[i].tolist()
            if int(c) in position]  # fmt: skip
    indices = np.array([i for i, _ in hits], np.int32)
    ids = np.array([j for _, j in hits], np.int64)
    weights = np.full(len(hits), np.finfo(np.float32).min, np.float32)
    return indices, ids, weights


_ComputeAccidentalHits = define_op(  # (a Python loop over pairs: on the host, explicitly)
    "ComputeAccidentalHits", host_kernel(_accidental_hits_kernel), multi_output=True
)
no_gradient("ComputeAccidentalHits")


def compute_accidental_hits(
    true_classes: TensorLike,
    sampled_candidates: TensorLike,
    num_true: int,
    seed: int | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Where a true class of a row is among the sampled candidates: (row indices, its (last)
    position in ``sampled_candidates``, weights of -FLT_MAX to add to those logits).

    >>> import retrograd as tf
    >>> [t.numpy().tolist() for t in tf.nn.compute_accidental_hits([[1], [2]], [2, 1, 2], 1)[:2]]
    [[0, 1], [1, 2]]
    """
    true = math_ops.cast(convert_to_tensor(true_classes), dtypes.int64)
    sampled = math_ops.cast(convert_to_tensor(sampled_candidates), dtypes.int64)
    return tuple(execute(_ComputeAccidentalHits, (true, sampled), {"num_true": num_true}, name))


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, remove_accidental_hits, seed):  # fmt: skip
    from retrograd.ops.embedding_ops import embedding_lookup
    from retrograd.ops.random_distribution_ops import log_uniform_candidate_sampler

    labels = math_ops.cast(convert_to_tensor(labels), dtypes.int64)
    inputs = convert_to_tensor(inputs)
    flat = array_ops.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)  # fmt: skip
    sampled, true_count, sampled_count = (array_ops.stop_gradient(s) for s in sampled_values)
    sampled = math_ops.cast(sampled, dtypes.int64)
    ids = array_ops.concat([flat, sampled], 0)
    weights = weights if isinstance(weights, (list, tuple)) else [weights]
    all_w = math_ops.cast(embedding_lookup(list(weights), ids), inputs.dtype)
    all_b = math_ops.cast(embedding_lookup(biases, ids), inputs.dtype)
    n = flat.shape[0]
    true_w, sampled_w = all_w[:n], all_w[n:]
    true_b, sampled_b = all_b[:n], all_b[n:]
    true_w = array_ops.reshape(true_w, [-1, num_true, true_w.shape[-1]])
    true_logits = reduction_ops.reduce_sum(array_ops.expand_dims(inputs, 1) * true_w, -1)
    true_logits += array_ops.reshape(true_b, [-1, num_true])
    sampled_logits = linalg_ops.matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    if remove_accidental_hits:
        from retrograd.ops.scatter_ops import tensor_scatter_nd_add

        rows, cols, penalty = compute_accidental_hits(labels, sampled, num_true)
        where = array_ops.stack([rows, math_ops.cast(cols, dtypes.int32)], 1)
        sampled_logits = tensor_scatter_nd_add(
            sampled_logits, where, math_ops.cast(penalty, sampled_logits.dtype)
        )
    true_logits -= math_ops.log(math_ops.cast(true_count, inputs.dtype))
    sampled_logits -= math_ops.log(math_ops.cast(sampled_count, inputs.dtype))
    logits = array_ops.concat([true_logits, sampled_logits], 1)
    targets = array_ops.concat(
        [array_ops.ones_like(true_logits) / num_true, array_ops.zeros_like(sampled_logits)], 1
    )
    return logits, targets


def nce_loss(
    weights: TensorLike,
    biases: TensorLike,
    labels: TensorLike,
    inputs: TensorLike,
    num_sampled: int,
    num_classes: int,
    num_true: int = 1,
    sampled_values: tuple[TensorLike, TensorLike, TensorLike] | None = None,
    remove_accidental_hits: bool = False,
    name: str | None = "nce_loss",
) -> Tensor:
    """Noise-contrastive estimation: per example, the sigmoid cross entropy of the true and
    sampled classes' logits (less log expected counts), summed.

    >>> import retrograd as tf
    >>> s = (tf.constant([0, 1], tf.int64), tf.constant([1.0]), tf.constant([1.0, 1.0]))
    >>> tf.nn.nce_loss(tf.zeros([3, 2]), tf.zeros([3]), [[2]], tf.ones([1, 2]), 2, 3,
    ...                sampled_values=s).numpy().astype(float).round(4).tolist()
    [2.0794]
    """
    from retrograd.ops.nn_losses import sigmoid_cross_entropy_with_logits

    with op_scope(name or "nce_loss"):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                          num_classes, num_true, sampled_values,
                                          remove_accidental_hits, None)  # fmt: skip
        losses = sigmoid_cross_entropy_with_logits(labels=targets, logits=logits)
        return reduction_ops.reduce_sum(losses, 1)


def sampled_softmax_loss(
    weights: TensorLike,
    biases: TensorLike,
    labels: TensorLike,
    inputs: TensorLike,
    num_sampled: int,
    num_classes: int,
    num_true: int = 1,
    sampled_values: tuple[TensorLike, TensorLike, TensorLike] | None = None,
    remove_accidental_hits: bool = True,
    seed: int | None = None,
    name: str | None = "sampled_softmax_loss",
) -> Tensor:
    """Softmax cross entropy over the true class and ``num_sampled`` sampled classes (logits
    less log expected counts; sampled classes equal to the true one removed).

    >>> import retrograd as tf
    >>> s = (tf.constant([0, 1], tf.int64), tf.constant([1.0]), tf.constant([1.0, 1.0]))
    >>> tf.nn.sampled_softmax_loss(tf.zeros([3, 2]), tf.zeros([3]), [[2]], tf.ones([1, 2]), 2,
    ...                            3, sampled_values=s).numpy().astype(float).round(4).tolist()
    [1.0986]
    """
    from retrograd.ops.nn_losses import softmax_cross_entropy_with_logits

    with op_scope(name or "sampled_softmax_loss"):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                          num_classes, num_true, sampled_values,
                                          remove_accidental_hits, seed)  # fmt: skip
        return softmax_cross_entropy_with_logits(array_ops.stop_gradient(targets), logits)


# -- isotonic regression ----------------------------------------------------------------------
def _isotonic_kernel(x, decreasing, output_dtype):
    flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
    out = np.empty_like(flat)
    segments = np.empty(flat.shape, np.int32)
    for r, row in enumerate(flat if decreasing else -flat):
        means, sizes = [], []
        for v in row:  # pool adjacent violators (non-increasing fit)
            means.append(v)
            sizes.append(1)
            while len(means) > 1 and means[-2] < means[-1]:
                m, s = means.pop(), sizes.pop()
                means[-1] = (means[-1] * sizes[-1] + m * s) / (sizes[-1] + s)
                sizes[-1] += s
        out[r] = np.repeat(means, sizes)
        segments[r] = np.repeat(np.arange(len(sizes)), sizes)
    out = out if decreasing else -out
    return out.reshape(x.shape).astype(output_dtype.as_numpy_dtype), segments.reshape(x.shape)


# Pool adjacent violators is a Python loop over elements: computed on the host, explicitly.
_IsotonicRegression = define_op(
    "IsotonicRegression", host_kernel(_isotonic_kernel), multi_output=True
)


@op_gradient("IsotonicRegression")
def _isotonic_grad(op, grad_output, grad_segments):
    # TensorFlow's: each output is the mean of its segment's inputs.
    from retrograd.ops.gather_ops import gather
    from retrograd.ops.segment_ops import unsorted_segment_mean

    segments = op.outputs[1]
    n = segments.shape[-1]
    rows = math.prod(segments.shape[:-1])
    ids = array_ops.reshape(segments, [rows, n]) + array_ops.reshape(
        creation_ops.range(rows) * n, [rows, 1]
    )  # fmt: skip
    flat_grad = array_ops.reshape(grad_output, [rows * n])
    means = unsorted_segment_mean(flat_grad, array_ops.reshape(ids, [-1]), rows * n)
    return array_ops.reshape(gather(means, array_ops.reshape(ids, [-1])), grad_output.shape)


def isotonic_regression(inputs: TensorLike, decreasing: bool = True, axis: int = -1) -> tuple:
    """The least-squares non-increasing (``decreasing``) or non-decreasing fit of each
    vector along ``axis``, and the segment each entry belongs to.

    >>> import retrograd as tf
    >>> tf.nn.isotonic_regression([[1.0, 3.0, 2.0]])[0].numpy().tolist()
    [[2.0, 2.0, 2.0]]
    """
    x = convert_to_tensor(inputs)
    rank = x._value.ndim
    axis = axis % rank
    if axis != rank - 1:
        x = array_ops.transpose(x, [*range(axis), *range(axis + 1, rank), axis])
    promoted = {"float16": dtypes.float16, "float32": dtypes.float32, "int8": dtypes.float32,
                "int16": dtypes.float32}  # fmt: skip
    out_dtype = promoted.get(x.dtype.name, dtypes.float64)  # TensorFlow's promotions
    attrs = {"decreasing": bool(decreasing), "output_dtype": out_dtype}
    output, segments = execute(_IsotonicRegression, (x,), attrs, None)
    if axis != rank - 1:
        back = [*range(axis), rank - 1, *range(axis, rank - 1)]
        output, segments = array_ops.transpose(output, back), array_ops.transpose(segments, back)
    return output, segments
