"""TF1 variables in graphs and variable scopes: names as TensorFlow gives them, an
initializer op, FailedPreconditionError before it runs, get_variable's reuse rules,
collections and the initializer ops."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf


@pytest.fixture
def graph():
    g = rg.Graph()
    with g.as_default():
        yield g


def test_variable_ops_are_named_as_in_tensorflow(graph):
    w = tf.Variable([1.0, 2.0], name="w")
    w2 = tf.Variable(3.0, name="w")
    with tf.name_scope("layer"):
        v = tf.Variable(0.0, name="v")
        y = w * 2.0
    assert (w.name, w.op.name, w.op.type, w.initializer.name) == (
        "w:0",
        "w",
        "VarHandleOp",
        "w/Assign",
    )
    assert w2.name == "w_1:0" and v.name == "layer/v:0"
    assert w.shape.as_list() == [2] and w.dtype == rg.float32 and w.graph is graph
    assert y.op.name == "layer/mul" or y.op.name.startswith("layer/")
    assert y.op.inputs[0].op.type == "ReadVariableOp"


def test_reading_before_initialisation_is_a_failed_precondition_naming_the_variable(graph):
    w = tf.Variable([1.0, 2.0], name="weights")
    y = w * 2.0
    with tf.Session() as sess:
        for fetch in (w, y):
            with pytest.raises(
                rg.errors.FailedPreconditionError, match="uninitialized value weights"
            ):
                sess.run(fetch)
        sess.run(w.initializer)
        assert sess.run(y).tolist() == [2.0, 4.0]
    assert rg.errors.FailedPreconditionError.__module__ == "retrograd.errors"
    assert issubclass(rg.errors.FailedPreconditionError, rg.errors.OpError)


def test_initial_values_that_depend_on_random_ops_and_other_variables(graph):
    tf.set_random_seed(3)
    a = tf.Variable(tf.random_normal([2, 3], seed=1), name="a")
    b = tf.Variable(a.initialized_value() * 2.0, name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        av, bv = sess.run([a, b])
    np.testing.assert_allclose(bv, 2 * av)
    rg.random.set_seed(None)


def test_assign_ops_run_when_fetched(graph):
    w = tf.Variable(1.0, name="w")
    add = tf.assign_add(w, 2.0)
    sub = tf.assign_sub(w, 0.5)
    set_ = tf.assign(w, 10.0)
    with tf.Session() as sess:
        sess.run(tf.initialize_all_variables())
        assert sess.run(add) == 3.0
        assert sess.run(add) == 5.0
        assert sess.run(sub) == 4.5
        assert sess.run(set_) == 10.0 and sess.run(w) == 10.0


def test_get_variable_reuse_rules(graph):
    with tf.variable_scope("net", initializer=tf.constant_initializer(0.5)):
        w = tf.get_variable("w", [2, 2])
        with pytest.raises(ValueError, match=r"Variable net/w already exists, disallowed"):
            tf.get_variable("w", [2, 2])
    with tf.variable_scope("net", reuse=True):
        assert tf.get_variable("w") is w
        with pytest.raises(ValueError, match=r"Variable net/u does not exist"):
            tf.get_variable("u", [1])
        with pytest.raises(ValueError, match=r"Trying to share variable net/w"):
            tf.get_variable("w", [3])
    with tf.variable_scope("net", reuse=tf.AUTO_REUSE):
        assert tf.get_variable("w", [2, 2]) is w
        u = tf.get_variable("u", [1], initializer=tf.zeros_initializer())
    with tf.variable_scope("outer"), tf.variable_scope("inner"):
        z = tf.get_variable("z", [3], dtype=rg.float64)
        scope = tf.get_variable_scope()
        assert scope.name == "outer/inner"
    with tf.variable_scope(scope, reuse=True):
        assert tf.get_variable("z", dtype=rg.float64) is z
        # as TensorFlow: the wanted dtype defaults to the scope's (float32), not the found one
        with pytest.raises(ValueError, match=r"specified dtype float32 and found dtype float64"):
            tf.get_variable("z")
    assert (w.name, u.name, z.name, z.dtype) == (
        "net/w:0",
        "net/u:0",
        "outer/inner/z:0",
        rg.float64,
    )
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(w).tolist() == [[0.5, 0.5], [0.5, 0.5]]
        assert sess.run(z).min() > -1 and sess.run(z).max() < 1  # Glorot uniform by default


def test_reuse_variables_and_ops_in_scopes_get_unique_name_prefixes(graph):
    def layer(x):
        w = tf.get_variable("w", [], initializer=tf.ones_initializer())
        return x * w

    with tf.variable_scope("shared") as scope:
        a = layer(rg.constant(2.0))
        scope.reuse_variables()
        b = layer(rg.constant(3.0))
    assert len(tf.global_variables()) == 1
    assert a.op.name.startswith("shared/") and b.op.name.startswith("shared/")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([a, b]) == [2.0, 3.0]


def test_collections_and_trainable_variables(graph):
    w = tf.Variable(1.0, name="w")
    frozen = tf.Variable(2.0, name="frozen", trainable=False)
    tf.add_to_collection("losses", w * 2.0)
    assert tf.global_variables() == [w, frozen] and tf.trainable_variables() == [w]
    assert len(tf.get_collection("losses")) == 1
    assert tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES) == [w]
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="fro") == [frozen]
    tf.get_collection_ref("extra").append(3)
    assert tf.get_collection("extra") == [3]
    init = tf.variables_initializer([w])
    with tf.Session() as sess:
        sess.run(init)
        assert sess.run(w) == 1.0
        with pytest.raises(rg.errors.FailedPreconditionError, match="frozen"):
            sess.run(frozen)


def test_variable_is_an_instance_check_for_both_kinds(graph):
    assert isinstance(tf.Variable(1.0), tf.Variable)
    assert isinstance(rg.Variable(1.0), tf.Variable)
    assert not isinstance(rg.constant(1.0), tf.Variable)


def test_eager_compat_variable_is_an_ordinary_variable():
    v = tf.Variable(2.0, name="v")
    assert type(v) is rg.Variable and v.numpy() == 2.0


def test_initializers_give_tensorflow_shapes_and_ranges():
    glorot = tf.glorot_uniform_initializer(seed=1)([100, 50]).numpy()
    limit = np.sqrt(6 / 150)
    assert glorot.shape == (100, 50) and np.abs(glorot).max() <= limit
    assert tf.xavier_initializer() is not None
    normal = tf.random_normal_initializer(1.0, 0.5, seed=2)([2000]).numpy()
    assert abs(normal.mean() - 1.0) < 0.1 and abs(normal.std() - 0.5) < 0.1
    truncated = tf.truncated_normal_initializer(0.0, 1.0, seed=2)([2000]).numpy()
    assert np.abs(truncated).max() <= 2.0
    uniform = tf.random_uniform_initializer(-2.0, 2.0, seed=3)([1000]).numpy()
    assert uniform.min() >= -2 and uniform.max() < 2
    assert tf.constant_initializer([1, 2, 3, 4])([2, 2]).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="needs 6"):
        tf.constant_initializer([1, 2])([2, 3])
    scaled = tf.variance_scaling_initializer(2.0, "fan_in", "uniform", seed=4)([10, 20]).numpy()
    assert np.abs(scaled).max() <= np.sqrt(3 * 2.0 / 10)


def test_local_variables_and_their_initializer(graph):
    counter = tf.Variable(
        0, name="counter", trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES]
    )
    assert tf.local_variables() == [counter] and tf.global_variables() == []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(counter) == 0


def test_custom_getters_wrap_get_variable_as_in_tensorflow():
    seen = []

    def outer(getter, name, *args, **kwargs):
        seen.append(("outer", name))
        return getter(name, *args, **kwargs)

    def doubled(getter, name, *args, **kwargs):
        seen.append(("inner", name))
        return getter(name, *args, **kwargs) * 2.0

    with rg.Graph().as_default():
        with (
            tf.variable_scope("net", custom_getter=outer),
            tf.variable_scope("layer", custom_getter=doubled),
        ):
            w = tf.get_variable("w", [2], initializer=tf.constant_initializer(1.5))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(w).tolist() == [3.0, 3.0]
    assert seen == [("inner", "net/layer/w"), ("outer", "net/layer/w")]


def test_a_scopes_regularizer_applies_to_its_variables():
    with rg.Graph().as_default():
        with tf.variable_scope("s", regularizer=lambda v: tf.reduce_sum(v * v)):
            tf.get_variable("w", [2], initializer=tf.constant_initializer(3.0))
        (loss,) = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(loss) == 18.0


@pytest.mark.parametrize("option", ["partitioner", "constraint"])
def test_options_without_meaning_here_are_refused_not_ignored(option):
    with rg.Graph().as_default():
        with pytest.raises(ValueError, match=f"`{option}` is not supported"):
            tf.get_variable("w", [2], **{option: lambda *a: None})
        with (
            pytest.raises(ValueError, match=f"`{option}` is not supported"),
            tf.variable_scope("s", **{option: lambda *a: None}),
        ):
            pass


def test_print_prints_only_its_first_n_runs(capfd):
    with rg.Graph().as_default():
        x = tf.placeholder(rg.float32, [])
        y = tf.Print(x, [x], message="x=", first_n=2)
        with tf.Session() as sess:
            values = [sess.run(y, {x: float(i)}) for i in range(4)]
    assert values == [0.0, 1.0, 2.0, 3.0]
    assert capfd.readouterr().err == "x=[0]\nx=[1]\n"
