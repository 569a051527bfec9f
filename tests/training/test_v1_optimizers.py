"""TF1 optimizers (compat.v1.train) take the steps TensorFlow 1 takes: 20 steps of each,
in graph mode, against goldens made by real TensorFlow (data/make_v1_optimizer_goldens.py),
to 1e-6; eagerly the same steps; the global step counts them."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf

GOLDENS = json.loads(
    (pathlib.Path(__file__).parent / "data" / "v1_optimizer_goldens.json").read_text()
)
X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-1.0, 1.0, 0.75], [0.3, -0.2, 0.1]], np.float32)
Y = np.array([[1.0, -2.0], [0.5, 0.0], [-1.5, 1.0], [0.2, 0.3]], np.float32)
W0 = np.array([[0.1, -0.2], [0.3, 0.05], [-0.4, 0.25]], np.float32)
B0 = np.array([0.05, -0.1], np.float32)


def _loss(w, b):
    return rg.reduce_sum(rg.square(rg.tanh(rg.matmul(X, w) + b) - Y))


@pytest.mark.parametrize("case", sorted(GOLDENS["cases"]))
def test_twenty_graph_steps_match_tensorflow(case):
    cls, kwargs = GOLDENS["cases"][case]
    g = rg.Graph()
    with g.as_default():
        w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
        step = tf.train.get_or_create_global_step()
        train = getattr(tf.train, cls)(**kwargs).minimize(_loss(w, b), global_step=step)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        for i, (w_ref, b_ref) in enumerate(GOLDENS["steps"][case]):
            sess.run(train)
            wv, bv = sess.run([w, b])
            np.testing.assert_allclose(wv, w_ref, rtol=0, atol=1e-6, err_msg=f"step {i + 1}")
            np.testing.assert_allclose(bv, b_ref, rtol=0, atol=1e-6, err_msg=f"step {i + 1}")
        assert sess.run(step) == 20


@pytest.mark.parametrize("case", ["sgd", "nesterov", "adam", "rmsprop_centered", "adagrad"])
def test_eager_steps_match_the_graph_goldens(case):
    cls, kwargs = GOLDENS["cases"][case]
    w, b = rg.Variable(W0), rg.Variable(B0)
    opt = getattr(tf.train, cls)(**kwargs)
    for w_ref, b_ref in GOLDENS["steps"][case][:5]:
        opt.minimize(lambda: _loss(w, b), var_list=[w, b])
        np.testing.assert_allclose(w.numpy(), w_ref, rtol=0, atol=1e-6)
        np.testing.assert_allclose(b.numpy(), b_ref, rtol=0, atol=1e-6)


def test_slots_have_tensorflow_names_and_compute_apply_split_works():
    g = rg.Graph()
    with g.as_default():
        w = tf.Variable(W0, name="w")
        opt = tf.train.AdamOptimizer(0.1)
        pairs = opt.compute_gradients(rg.reduce_sum(w * w))
        assert [v for _, v in pairs] == [w]
        train = opt.apply_gradients([(g_ * 0.5, v) for g_, v in pairs])
        names = sorted(v.name for v in tf.global_variables())
        init = tf.global_variables_initializer()
    assert names == ["beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0", "w:0"]
    assert opt.get_slot(w, "m").name == "w/Adam:0"
    with tf.Session(graph=g) as sess:
        sess.run(init)
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), W0 - 0.1 * np.sign(W0), atol=1e-5)


def test_minimize_without_any_gradient_says_so():
    g = rg.Graph()
    with g.as_default():
        w = tf.Variable(1.0, name="w")
        tf.Variable(2.0, name="unused")
        with pytest.raises(ValueError, match="No gradients provided for any variable"):
            tf.train.GradientDescentOptimizer(0.1).minimize(rg.stop_gradient(w * 2.0))


def test_global_step_helpers():
    g = rg.Graph()
    with g.as_default():
        assert tf.train.get_global_step() is None
        step = tf.train.get_or_create_global_step()
        assert tf.train.get_or_create_global_step() is step
        assert step.name == "global_step:0" and step.dtype == rg.int64 and not step.trainable
        with pytest.raises(ValueError, match="already exists"):
            tf.train.create_global_step()


# TensorFlow 1 fails on a None hyperparameter with ValueError ("None values not supported.")
# when the update is built, and Adagrad's None initial_accumulator_value with TypeError at
# construction; retrograd fails at construction, naming the argument.
V1_NONE_HYPERPARAMETERS = [
    ("GradientDescentOptimizer", {"learning_rate": None}, "learning_rate"),
    ("MomentumOptimizer", {"learning_rate": None, "momentum": 0.9}, "learning_rate"),
    ("MomentumOptimizer", {"learning_rate": 0.1, "momentum": None}, "momentum"),
    ("AdamOptimizer", {"learning_rate": None}, "learning_rate"),
    ("AdamOptimizer", {"beta1": None}, "beta1"),
    ("AdamOptimizer", {"beta2": None}, "beta2"),
    ("AdamOptimizer", {"epsilon": None}, "epsilon"),
    ("RMSPropOptimizer", {"learning_rate": None}, "learning_rate"),
    ("RMSPropOptimizer", {"learning_rate": 0.1, "decay": None}, "decay"),
    ("RMSPropOptimizer", {"learning_rate": 0.1, "momentum": None}, "momentum"),
    ("RMSPropOptimizer", {"learning_rate": 0.1, "epsilon": None}, "epsilon"),
    ("AdagradOptimizer", {"learning_rate": None}, "learning_rate"),
]


@pytest.mark.parametrize("name,kwargs,argument", V1_NONE_HYPERPARAMETERS)
def test_none_hyperparameters_raise_value_error(name, kwargs, argument):
    with pytest.raises(ValueError, match=f"None values not supported.*{argument}"):
        getattr(tf.train, name)(**kwargs)


def test_adagrad_initial_accumulator_value_errors_match_tensorflow():
    with pytest.raises(TypeError, match="initial_accumulator_value"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=None)
    with pytest.raises(ValueError, match="must be positive"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0)
