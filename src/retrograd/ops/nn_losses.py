"""Cross-entropy losses on logits, all numerically stable for large logits.

``SoftmaxCrossEntropyWithLogits`` and ``SparseSoftmaxCrossEntropyWithLogits`` are fused
ops with TensorFlow's two outputs, the loss and its gradient for the logits (``softmax -
labels`` for labels that sum to 1); the sigmoid and weighted losses are compositions of
stable elementwise ops.

>>> import retrograd as rg
>>> rg.nn.softmax_cross_entropy_with_logits([0.0, 1.0], [1000.0, -1000.0])
<retrograd.Tensor: shape=(), dtype=float32, numpy=2000.0>
>>> round(float(rg.nn.sparse_softmax_cross_entropy_with_logits(1, [0.0, 0.0])), 6)
0.693147
"""

from __future__ import annotations

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import TensorLike
from retrograd.core.backends import namespace_of
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, broadcast, comparison_ops, math_ops, nn_ops, reduction_ops
from retrograd.ops.define import FLOAT, INTEGER, tensor_arg, tensor_pair


def _log_softmax_last(logits):
    if logits.shape[-1] == 0:  # (no classes: nothing to shift; CuPy's max takes no initial)
        return logits - np.log(np.sum(np.exp(logits), axis=-1, keepdims=True))
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _softmax_xent_kernel(logits, labels):
    log_p = _log_softmax_last(logits)
    loss = -np.sum(labels * log_p, axis=-1)
    # d loss / d logits; TensorFlow's is softmax - labels, the same when labels sum to 1.
    backprop = np.exp(log_p) * np.sum(labels, axis=-1, keepdims=True) - labels
    return loss.astype(logits.dtype, copy=False), backprop


def _sparse_softmax_xent_kernel(logits, labels):
    classes = logits.shape[-1]
    bad = (labels < 0) | (labels >= classes)
    if np.any(bad):
        raise InvalidArgumentError(
            f"SparseSoftmaxCrossEntropyWithLogits: received a label value of "
            f"{labels[bad].ravel()[0]} which is outside the valid range of [0, {classes})"
        )
    log_p = _log_softmax_last(logits)
    index = labels[..., None].astype(np.intp)
    loss = -np.take_along_axis(log_p, index, axis=-1)[..., 0]
    one_hot = (namespace_of(logits).arange(classes) == index).astype(logits.dtype)

    return loss.astype(logits.dtype, copy=False), np.exp(log_p) - one_hot


_SoftmaxXent = define_op(
    "SoftmaxCrossEntropyWithLogits", _softmax_xent_kernel, multi_output=True, quiet=True
)
_SparseSoftmaxXent = define_op(
    "SparseSoftmaxCrossEntropyWithLogits",
    _sparse_softmax_xent_kernel,
    multi_output=True,
    quiet=True,
)


def _softmax_jacobian_product(p: Tensor, v: Tensor) -> Tensor:
    """``J^T v`` for ``J`` the Jacobian of ``p = softmax(logits)`` along the last axis."""
    return (v - reduction_ops.reduce_sum(v * p, -1, keepdims=True)) * p


@op_gradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, grad_loss, grad_backprop):
    # The op's second output is d loss / d logits = softmax(logits) * sum(labels) - labels; a
    # gradient arriving there (second order) is pulled back through that expression.
    logits, labels = op.inputs
    g = array_ops.expand_dims(grad_loss, -1)
    total = reduction_ops.reduce_sum(labels, -1, keepdims=True)
    p = nn_ops.softmax(logits)
    grad_logits = g * op.outputs[1] + _softmax_jacobian_product(p, grad_backprop * total)
    pulled = reduction_ops.reduce_sum(grad_backprop * p, -1, keepdims=True) - grad_backprop
    grad_labels = g * -nn_ops.log_softmax(logits) + pulled
    return grad_logits, grad_labels


@op_gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op, grad_loss, grad_backprop):
    p = nn_ops.softmax(op.inputs[0])
    g = array_ops.expand_dims(grad_loss, -1)
    return g * op.outputs[1] + _softmax_jacobian_product(p, grad_backprop), None


def _move_to_end(x: Tensor, axis: int) -> Tensor:
    ndim = x._value.ndim
    if axis % ndim == ndim - 1:
        return x
    perm = [i for i in range(ndim) if i != axis % ndim] + [axis % ndim]
    return array_ops.transpose(x, perm)


def softmax_cross_entropy_with_logits(
    labels: TensorLike, logits: TensorLike, axis: int = -1, name: str | None = None
) -> Tensor:
    """``-sum(labels * log_softmax(logits), axis)``: one loss per row, computed stably.

    ``labels`` are probabilities (possibly soft) and get a gradient too; they broadcast to
    ``logits``' shape. The result has ``logits``' shape without ``axis``. The gradient is
    exact even for labels that do not sum to 1 (TensorFlow's assumes that they do).

    >>> import retrograd as rg
    >>> loss = rg.nn.softmax_cross_entropy_with_logits([[0.0, 1.0]], [[0.0, 0.0]])
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931]
    """
    logits, labels = tensor_pair("SoftmaxCrossEntropyWithLogits", logits, labels, FLOAT)
    ndim = logits._value.ndim
    if ndim == 0 or not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"SoftmaxCrossEntropyWithLogits: logits of shape {plain_dims(logits.shape)} have no "
            f"axis {axis}; logits must have rank >= 1"
        )
    if labels._value.shape != logits._value.shape or None in logits._value.shape:
        labels = broadcast.broadcast_like(labels, logits)  # (known or run-time shapes)
    if logits.dtype == dtypes.float16:  # computed in float32, as TensorFlow does
        loss = softmax_cross_entropy_with_logits(
            math_ops.cast(labels, dtypes.float32), math_ops.cast(logits, dtypes.float32), axis
        )
        return math_ops.cast(loss, dtypes.float16, name=name)
    loss, _ = execute(
        _SoftmaxXent, (_move_to_end(logits, axis), _move_to_end(labels, axis)), None, name
    )
    return loss


def sparse_softmax_cross_entropy_with_logits(
    labels: TensorLike, logits: TensorLike, name: str | None = None
) -> Tensor:
    """``-log_softmax(logits)[..., labels]``: integer class ``labels`` of shape
    ``logits.shape[:-1]``, each in ``[0, num_classes)``. No gradient for ``labels``.

    >>> import retrograd as rg
    >>> loss = rg.nn.sparse_softmax_cross_entropy_with_logits([1, 0], [[0.0, 0.0], [3.0, 0.0]])
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931, 0.0486]
    """
    logits = tensor_arg("SparseSoftmaxCrossEntropyWithLogits", logits, FLOAT, "logits")
    labels = tensor_arg("SparseSoftmaxCrossEntropyWithLogits", labels, INTEGER, "labels")
    shape, label_shape = tuple(logits._value.shape), tuple(labels._value.shape)
    known = zip(label_shape, shape[:-1])  # a graph's unknown dimension (None) fits any
    if (
        not shape
        or len(label_shape) != len(shape) - 1
        or any(a is not None and b is not None and a != b for a, b in known)
    ):
        raise InvalidArgumentError(
            f"SparseSoftmaxCrossEntropyWithLogits: labels must have the shape of logits without "
            f"its last dimension; got labels {label_shape} and logits {shape}"
        )
    if logits.dtype == dtypes.float16:  # computed in float32, as TensorFlow does
        loss = sparse_softmax_cross_entropy_with_logits(
            labels, math_ops.cast(logits, dtypes.float32)
        )
        return math_ops.cast(loss, dtypes.float16, name=name)
    loss, _ = execute(_SparseSoftmaxXent, (logits, labels), None, name)
    return loss


def _same_shape(op_name: str, labels: Tensor, logits: Tensor) -> None:
    if labels._value.shape != logits._value.shape:
        raise ValueError(
            f"{op_name}: logits and labels must have the same shape, got "
            f"{plain_dims(logits.shape)} and {plain_dims(labels.shape)}"
        )


def sigmoid_cross_entropy_with_logits(
    labels: TensorLike | None = None, logits: TensorLike | None = None, name: str | None = None
) -> Tensor:
    """Elementwise ``-labels * log(sigmoid(logits)) - (1 - labels) * log(1 - sigmoid(logits))``,
    computed as ``max(x, 0) - x * z + log(1 + exp(-|x|))`` so that large logits are exact.

    >>> import retrograd as rg
    >>> loss = rg.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[0.0, 0.0])
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [0.6931, 0.6931]
    """
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits: both labels and logits are needed")
    logits, labels = tensor_pair("sigmoid_cross_entropy_with_logits", logits, labels, FLOAT)
    _same_shape("sigmoid_cross_entropy_with_logits", labels, logits)
    zeros = array_ops.zeros_like(logits)
    positive = comparison_ops.greater_equal(logits, zeros)
    relu_logits = array_ops.where(positive, logits, zeros)
    neg_abs_logits = array_ops.where(positive, -logits, logits)
    return math_ops.add(
        relu_logits - logits * labels, math_ops.log1p(math_ops.exp(neg_abs_logits)), name=name
    )


def weighted_cross_entropy_with_logits(
    labels: TensorLike, logits: TensorLike, pos_weight: TensorLike, name: str | None = None
) -> Tensor:
    """Sigmoid cross-entropy whose positive term is weighted by ``pos_weight``:
    ``(1 - z) * x + (1 + (pos_weight - 1) * z) * log(1 + exp(-x))``, computed stably.

    >>> import retrograd as rg
    >>> loss = rg.nn.weighted_cross_entropy_with_logits([1.0, 0.0], [0.0, 0.0], pos_weight=2.0)
    >>> [round(v, 4) for v in loss.numpy().tolist()]
    [1.3863, 0.6931]
    """
    logits, labels = tensor_pair("weighted_cross_entropy_with_logits", logits, labels, FLOAT)
    _same_shape("weighted_cross_entropy_with_logits", labels, logits)
    _, pos_weight = tensor_pair("weighted_cross_entropy_with_logits", logits, pos_weight, FLOAT)
    log_weight = 1 + (pos_weight - 1) * labels
    return math_ops.add((1 - labels) * logits, log_weight * nn_ops.softplus(-logits), name=name)
