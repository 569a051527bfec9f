"""Cross-entropy losses: values against NumPy, gradients (labels included) against finite
differences to second order, stability for large logits, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _softmax_xent(labels, logits, axis=-1):
    return -(labels * _log_softmax(logits, axis)).sum(axis=axis)


def _sparse_xent(labels):
    labels = np.asarray(labels)
    return lambda logits: -np.take_along_axis(_log_softmax(logits), labels[..., None], -1)[..., 0]


def _sigmoid_xent(labels, logits):
    p = 1 / (1 + np.exp(-logits))
    return -labels * np.log(p) - (1 - labels) * np.log(1 - p)


def _weighted_xent(labels, logits, pos_weight):
    p = 1 / (1 + np.exp(-logits))
    return -pos_weight * labels * np.log(p) - (1 - labels) * np.log(1 - p)


def _sparse_case(labels, logits_shape):
    labels = np.asarray(labels)
    return Case(
        "SparseSoftmaxCrossEntropyWithLogits",
        lambda logits: rg.nn.sparse_softmax_cross_entropy_with_logits(labels, logits),
        (logits_shape,),
        _sparse_xent(labels),
    )


SOFTMAX = rg.nn.softmax_cross_entropy_with_logits
CASES = [
    # Labels and logits both random (soft labels, even negative ones): the gradient for
    # labels and the mixed second derivative are checked too.
    Case("SoftmaxCrossEntropyWithLogits", SOFTMAX, ((2, 3), (2, 3)), _softmax_xent),
    Case("SoftmaxCrossEntropyWithLogits", SOFTMAX, ((3,), (3,)), _softmax_xent),
    Case("SoftmaxCrossEntropyWithLogits", SOFTMAX, ((3,), (2, 3)), _softmax_xent),
    Case("SoftmaxCrossEntropyWithLogits", SOFTMAX, ((2, 2, 3), (2, 2, 3)), _softmax_xent),
    Case("SoftmaxCrossEntropyWithLogits", SOFTMAX, ((2, 1), (2, 1)), _softmax_xent),
    Case(
        "SoftmaxCrossEntropyWithLogits[axis=0]",
        lambda labels, logits: SOFTMAX(labels, logits, axis=0),
        ((3, 2), (3, 2)),
        lambda labels, logits: _softmax_xent(labels, logits, 0),
    ),
    Case(
        "SoftmaxCrossEntropyWithLogits[axis=1]",
        lambda labels, logits: SOFTMAX(labels, logits, axis=1),
        ((2, 3, 2), (2, 3, 2)),
        lambda labels, logits: _softmax_xent(labels, logits, 1),
    ),
    _sparse_case([0, 2], (2, 3)),
    _sparse_case(1, (3,)),
    _sparse_case([[1, 1], [0, 2]], (2, 2, 3)),
    _sparse_case([0, 0], (2, 1)),
    Case(
        "sigmoid_cross_entropy_with_logits",
        lambda z, x: rg.nn.sigmoid_cross_entropy_with_logits(z, x),
        ((2, 3), (2, 3)),
        _sigmoid_xent,
        avoid=lambda a: np.abs(a) < 0.05,  # the where() branches switch at logits == 0
    ),
    Case(
        "sigmoid_cross_entropy_with_logits",
        lambda z, x: rg.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
        ((), ()),
        _sigmoid_xent,
        avoid=lambda a: np.abs(a) < 0.05,
    ),
    Case(
        "weighted_cross_entropy_with_logits",
        rg.nn.weighted_cross_entropy_with_logits,
        ((2, 3), (2, 3), (3,)),
        _weighted_xent,
    ),
    Case(
        "weighted_cross_entropy_with_logits",
        lambda z, x: rg.nn.weighted_cross_entropy_with_logits(z, x, 2.5),
        ((3,), (3,)),
        lambda z, x: _weighted_xent(z, x, 2.5),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def _grads(fn, *args):
    tensors = [rg.constant(np.asarray(a, np.float32)) for a in args]
    with rg.GradientTape() as tape:
        tape.watch(tensors)
        loss = fn(*tensors)
    return loss, tape.gradient(loss, tensors)


def test_losses_are_exact_for_large_logits():
    loss, (g_labels, g_logits) = _grads(SOFTMAX, [0.0, 1.0], [1000.0, -1000.0])
    assert loss.numpy() == 2000.0
    assert g_logits.numpy().tolist() == [1.0, -1.0] and g_labels.numpy().tolist() == [0.0, 2000.0]
    loss = rg.nn.sparse_softmax_cross_entropy_with_logits([0, 1], [[1e4, -1e4], [1e4, -1e4]])
    assert loss.numpy().tolist() == [0.0, 20000.0]
    logits = [-1000.0, -1.0, 0.0, 1.0, 1000.0]
    labels = [0.0, 0.3, 0.5, 1.0, 1.0]
    loss, (g_labels, g_logits) = _grads(rg.nn.sigmoid_cross_entropy_with_logits, labels, logits)
    np.testing.assert_allclose(loss.numpy(), [0.0, 0.6132617, 0.6931472, 0.3132617, 0.0], rtol=1e-6)
    np.testing.assert_allclose(
        g_logits.numpy(), [0.0, -0.03105858, 0.0, -0.26894143, 0.0], atol=1e-7
    )
    assert g_labels.numpy().tolist() == [1000.0, 1.0, -0.0, -1.0, -1000.0]
    loss = rg.nn.weighted_cross_entropy_with_logits(labels, logits, 2.0)
    np.testing.assert_allclose(loss.numpy(), [0.0, 1.0072403, 1.0397208, 0.6265234, 0.0], rtol=1e-6)


def test_weighted_loss_gradient_at_zero_logits_is_the_true_derivative():
    # TensorFlow's formula goes through relu and abs, whose derivatives at 0 make its
    # gradient 0.5 there; the loss is smooth and its derivative is (1 - z) - (1 + z) / 2.
    _, (_, g_logits) = _grads(
        lambda z, x: rg.nn.weighted_cross_entropy_with_logits(z, x, 2.0), [0.5], [0.0]
    )
    np.testing.assert_allclose(g_logits.numpy(), [-0.25])


def test_sparse_labels_have_no_gradient_and_empty_batches_work():
    logits = rg.constant([[1.0, 2.0]])
    labels = rg.constant([1])
    with rg.GradientTape() as tape:
        tape.watch(logits)
        with pytest.warns(UserWarning, match="no gradient"):
            tape.watch(labels)
        loss = rg.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    assert tape.gradient(loss, labels) is None
    empty = rg.nn.sparse_softmax_cross_entropy_with_logits(rg.zeros([0], rg.int64), rg.ones([0, 3]))
    assert empty.shape == [0]
    assert SOFTMAX(rg.zeros([2, 0]), rg.zeros([2, 0])).numpy().tolist() == [0.0, 0.0]


def test_half_precision_losses_are_computed_in_float32():
    logits = rg.constant([[2.0, -1.0, 0.5]], rg.float16)
    with rg.GradientTape() as tape:
        tape.watch(logits)
        loss = SOFTMAX(rg.constant([[0.2, 0.3, 0.5]], rg.float16), logits)
        sparse = rg.nn.sparse_softmax_cross_entropy_with_logits([2], logits)
    assert loss.dtype == rg.float16 and sparse.dtype == rg.float16
    x = np.array([[2.0, -1.0, 0.5]])
    np.testing.assert_allclose(
        loss.numpy(), _softmax_xent(np.array([[0.2, 0.3, 0.5]]), x), rtol=1e-3
    )
    np.testing.assert_allclose(sparse.numpy(), _sparse_xent([2])(x), rtol=1e-3)
    assert tape.gradient([loss, sparse], logits).dtype == rg.float16


def test_numpy_labels_take_the_dtype_of_the_logits():
    loss = SOFTMAX(np.array([0.25, 0.75]), rg.constant([1.0, 2.0]))
    assert loss.dtype == rg.float32


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: SOFTMAX(1.0, 2.0), rg.errors.InvalidArgumentError, "SoftmaxCrossEntropyWithLogits: logits of shape \\(\\) have no axis -1"),
        (lambda: SOFTMAX(rg.ones([2, 3]), rg.ones([2, 3]), axis=2), rg.errors.InvalidArgumentError, "no axis 2"),
        (lambda: SOFTMAX(rg.ones([4]), rg.ones([2, 3])), rg.errors.InvalidArgumentError, "BroadcastTo"),
        (lambda: SOFTMAX(rg.ones([2, 3], rg.float64), rg.ones([2, 3])), TypeError, "float32 and float64"),
        (lambda: SOFTMAX(rg.ones([2, 3], rg.int32), rg.ones([2, 3], rg.int32)), TypeError, "must be a float"),
        (lambda: rg.nn.sparse_softmax_cross_entropy_with_logits([0, 3], rg.ones([2, 3])), rg.errors.InvalidArgumentError, "label value of 3 which is outside the valid range of \\[0, 3\\)"),
        (lambda: rg.nn.sparse_softmax_cross_entropy_with_logits([0, -1], rg.ones([2, 3])), rg.errors.InvalidArgumentError, "label value of -1"),
        (lambda: rg.nn.sparse_softmax_cross_entropy_with_logits([0, 1, 1], rg.ones([2, 3])), rg.errors.InvalidArgumentError, "labels must have the shape of logits without"),
        (lambda: rg.nn.sparse_softmax_cross_entropy_with_logits(1, 2.0), rg.errors.InvalidArgumentError, "labels must have the shape"),
        (lambda: rg.nn.sparse_softmax_cross_entropy_with_logits([1.0, 0.0], rg.ones([2, 3])), TypeError, "`labels` must be a int or unsigned int tensor"),
        (lambda: rg.nn.sigmoid_cross_entropy_with_logits(rg.ones([3]), rg.ones([2])), ValueError, "logits and labels must have the same shape"),
        (lambda: rg.nn.sigmoid_cross_entropy_with_logits(None, rg.ones([2])), ValueError, "both labels and logits"),
        (lambda: rg.nn.sigmoid_cross_entropy_with_logits(rg.ones([2], rg.float64), rg.ones([2])), TypeError, "float32 and float64"),
        (lambda: rg.nn.weighted_cross_entropy_with_logits(rg.ones([2]), rg.ones([3]), 1.0), ValueError, "same shape"),
        (lambda: rg.nn.weighted_cross_entropy_with_logits(rg.ones([2]), rg.ones([2]), rg.ones([2], rg.float64)), TypeError, "float32 and float64"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
