"""TensorFlow 1's spellings: keep_dims/reduction_indices, dimension=, dim=, squeeze_dims=,
to_float, div, and tf.nn's v1 functions (labels without gradient, keep_prob)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf

X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)


@pytest.mark.parametrize(
    "name, reference",
    [
        ("reduce_sum", np.sum),
        ("reduce_mean", np.mean),
        ("reduce_max", np.max),
        ("reduce_min", np.min),
        ("reduce_prod", np.prod),
    ],
)
def test_reductions_take_the_v1_argument_names(name, reference):
    fn = getattr(tf, name)
    np.testing.assert_allclose(
        fn(X, reduction_indices=[1], keep_dims=True).numpy(), reference(X, 1, keepdims=True)
    )
    np.testing.assert_allclose(fn(X, axis=0).numpy(), reference(X, 0))
    with pytest.raises(ValueError, match="both 'axis' and 'reduction_indices'"):
        fn(X, axis=0, reduction_indices=0)


def test_old_argument_names_of_argmax_expand_dims_squeeze_softmax():
    assert tf.argmax(X, dimension=1).numpy().tolist() == [1, 2]
    assert tf.arg_min(X, 0).numpy().tolist() == [0, 1, 0]
    assert tf.expand_dims(X, dim=0).shape.as_list() == [1, 2, 3]
    assert tf.squeeze(np.ones((1, 3, 1)), squeeze_dims=[0]).shape.as_list() == [3, 1]
    np.testing.assert_allclose(tf.nn.softmax(X, dim=0).numpy().sum(0), [1, 1, 1], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.log_softmax(X).numpy(), rg.nn.log_softmax(X).numpy())


def test_casts_div_and_mod():
    assert tf.to_float(rg.constant([1, 2])).dtype == rg.float32
    assert tf.to_int64(rg.constant([1.7])).numpy().tolist() == [1]
    assert tf.to_double(1.0).dtype == rg.float64 and tf.to_int32(2.5).numpy() == 2
    assert tf.div(-7, 2).numpy() == -4 and tf.div(7.0, 2.0).numpy() == 3.5
    assert tf.mod(-7, 3).numpy() == 2


def test_v1_softmax_cross_entropy_gives_labels_no_gradient_and_v2_does():
    labels = rg.constant([[0.2, 0.8], [0.5, 0.5]])
    logits = rg.constant([[1.0, 2.0], [0.5, -0.5]])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([labels, logits])
        v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    np.testing.assert_allclose(v1.numpy(), v2.numpy())
    assert tape.gradient(v1, labels) is None
    assert tape.gradient(v2, labels) is not None
    np.testing.assert_allclose(tape.gradient(v1, logits).numpy(), tape.gradient(v2, logits).numpy())


def test_dropout_takes_keep_prob():
    x = np.ones((200, 50), np.float32)
    kept = tf.nn.dropout(x, keep_prob=0.8, seed=1).numpy()
    assert set(np.unique(kept)) <= {0.0, 1.25} and 0.7 < (kept > 0).mean() < 0.9
    assert np.array_equal(tf.nn.dropout(x, rate=0.0).numpy(), x)
    with pytest.raises(ValueError, match="exactly one of keep_prob and rate"):
        tf.nn.dropout(x, keep_prob=0.5, rate=0.5)


def test_random_v1_names():
    draws = tf.multinomial(np.log([[0.5, 0.5]]), 100, seed=1).numpy()
    assert draws.shape == (1, 100) and set(np.unique(draws)) <= {0, 1}
    assert sorted(tf.random_shuffle(np.arange(5), seed=2).numpy().tolist()) == [0, 1, 2, 3, 4]


def test_nn_namespace_lists_v1_and_shared_names_and_refuses_missing_ones():
    assert "conv2d" in dir(tf.nn) and "softmax_cross_entropy_with_logits_v2" in dir(tf.nn)
    with pytest.raises(
        AttributeError, match="retrograd does not implement tf.compat.v1.nn.rnn_cell"
    ):
        tf.nn.rnn_cell
