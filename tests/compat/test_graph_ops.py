"""TF1 graph functions: control dependencies, Assert and Print as ops, placeholder with
default, v1 signatures of cond/while_loop/gradients, configuration records, sessions."""

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


def test_control_dependencies_order_assignments_before_reads(graph):
    w = tf.Variable(1.0, name="w")
    step = tf.assign_add(w, 1.0)
    with tf.control_dependencies([step]):
        after = tf.identity(w.read_value() * 10.0)
    grouped = tf.group(step, tf.no_op())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(after) == 20.0
        assert sess.run(grouped) is None and sess.run(w) == 3.0


def test_assert_passes_or_raises_when_run(graph):
    x = tf.placeholder(rg.float32, [None])
    check = tf.Assert(rg.reduce_all(x > 0.0), [x], name="positive")
    with tf.control_dependencies([check]):
        y = rg.identity(x)
    with tf.Session() as sess:
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
        with pytest.raises(rg.errors.InvalidArgumentError, match="assertion failed"):
            sess.run(y, {x: [1.0, -2.0]})


def test_print_passes_its_input_and_gradients_through(graph, capsys):
    x = tf.placeholder(rg.float64, [3])
    printed = tf.Print(x, [x, rg.reduce_sum(x)], message="x: ")
    y = rg.reduce_sum(printed**3)
    (dx,) = tf.gradients(y, x)
    (ddx,) = tf.gradients(dx, x)
    values = np.array([1.0, -2.0, 0.5])
    with tf.Session() as sess:
        got_y, got_dx, got_ddx = sess.run([y, dx, ddx], {x: values})
    np.testing.assert_allclose(got_y, np.sum(values**3))
    np.testing.assert_allclose(got_dx, 3 * values**2)
    np.testing.assert_allclose(got_ddx, 6 * values)
    assert "x: [" in capsys.readouterr().err


def test_v1_print_returns_an_op_for_control_dependencies(graph, capsys):
    x = rg.constant(4.0)
    op = tf.print("value", x)
    with tf.control_dependencies([op]):
        y = rg.identity(x)
    with tf.Session() as sess:
        assert sess.run(y) == 4.0
    assert capsys.readouterr().err == "value 4\n"


def test_placeholder_with_default(graph):
    x = tf.placeholder_with_default(rg.constant([1.0, 2.0]), [None])
    y = x * 2.0
    assert x.shape.as_list() == [None]
    with tf.Session() as sess:
        assert sess.run(y).tolist() == [2.0, 4.0]
        assert sess.run(y, {x: [5.0, 6.0, 7.0]}).tolist() == [10.0, 12.0, 14.0]
    with pytest.raises(ValueError, match="not compatible"):
        tf.placeholder_with_default(rg.constant([1.0, 2.0]), [3])


def test_v1_cond_while_loop_and_gradients_signatures(graph):
    x = tf.placeholder(rg.float32, [])
    y = tf.cond(x > 0.0, fn1=lambda: x * 2.0, fn2=lambda: -x)
    _, total = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * x), [0, 1.0])
    (dy,) = tf.gradients(y, x, colocate_gradients_with_ops=True)
    with tf.Session() as sess:
        assert sess.run([y, total, dy], {x: 2.0}) == [4.0, 8.0, 2.0]
        assert sess.run([y, dy], {x: -3.0}) == [3.0, -1.0]


def test_session_configuration_records_are_accepted(graph):
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    config.gpu_options.allow_growth = True
    assert config.gpu_options.allow_growth and config.allow_soft_placement
    assert tf.GPUOptions(per_process_gpu_memory_fraction=0.5).per_process_gpu_memory_fraction == 0.5
    x = rg.constant(2.0) * 3.0
    with tf.Session(config=config) as sess:
        assert sess.run(x, options=tf.RunOptions(), run_metadata=tf.RunMetadata()) == 6.0


def test_interactive_session_is_the_default_until_closed(graph):
    x = rg.constant(2.0) + 1.0
    sess = tf.InteractiveSession()
    try:
        assert x.eval() == 3.0 and tf.get_default_session() is sess
    finally:
        sess.close()
    assert tf.get_default_session() is None


def test_session_as_default_makes_eval_work(graph):
    x = rg.constant(5.0)
    sess = tf.Session()
    with sess.as_default():
        assert x.eval() == 5.0


def test_every_op_of_retrograd_is_reachable_under_its_tf1_name():
    assert tf.matmul is rg.matmul and tf.nn.relu is rg.nn.relu
    assert tf.log is rg.math.log and tf.squared_difference is rg.math.squared_difference
    for name in rg.__all__:
        assert hasattr(tf, name), name
    assert "matmul" in dir(tf) and "variable_scope" in dir(tf)
    with pytest.raises(AttributeError, match="retrograd does not implement tf.compat.v1.contrib"):
        tf.contrib


def test_disable_v2_behavior_switches_to_graph_mode():
    try:
        tf.disable_v2_behavior()
        assert not tf.executing_eagerly()
        assert (rg.constant(1.0) * 2.0).op.type == "Mul"
    finally:
        tf.enable_v2_behavior()
        tf.reset_default_graph()
    assert tf.executing_eagerly()


def test_hessians_by_nested_gradients(graph):
    x = tf.placeholder(rg.float64, [3])
    A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 1.0]])
    f = 0.5 * rg.reduce_sum(x * rg.linalg.matvec(A, x)) + rg.reduce_sum(x**3)
    (h,) = tf.hessians(f, x)
    assert h.shape.as_list() == [3, 3]
    value = np.array([1.0, -2.0, 0.5])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(h, {x: value}), A + np.diag(6 * value))
    with pytest.raises(ValueError, match="must be fully defined"):
        tf.hessians(f, tf.placeholder(rg.float64, [None]))


def test_dropout_with_an_unknown_batch_dimension(graph):
    x = tf.placeholder(rg.float32, [None, 4])
    keep = tf.placeholder_with_default(rg.constant(1.0), [])
    y = tf.nn.dropout(x, keep_prob=keep, seed=1)
    half = tf.nn.dropout(x, keep_prob=0.5, noise_shape=[None, 1], seed=2)
    assert y.shape.as_list() == [None, 4]
    with tf.Session() as sess:
        value = np.ones((300, 4), np.float32)
        assert np.array_equal(sess.run(y, {x: value}), value)
        rows = sess.run(half, {x: value})
        assert set(np.unique(rows)) <= {0.0, 2.0} and all(len(set(r)) == 1 for r in rows)


def test_tensorflow_2_variables_made_in_a_graph_are_initialized_assigned_and_trained(graph):
    v = rg.Variable(1.0, name="v")  # TensorFlow 2's Variable, in a graph: as TF1's
    assert v.initializer.type == "AssignVariableOp" and v.op.type == "VarHandleOp"
    assert any(x is v for x in tf.global_variables())
    bump = tf.assign_add(v, 2.0)
    train = tf.train.GradientDescentOptimizer(0.25).minimize(v * v, var_list=[v])
    with tf.Session() as sess:
        with pytest.raises(rg.errors.FailedPreconditionError, match="uninitialized value v"):
            sess.run(v * 2.0)
        sess.run(tf.global_variables_initializer())
        assert sess.run(bump) == 3.0
        sess.run(train)
        assert sess.run(v) == 1.5


def test_tensorflow_2_code_after_disable_eager_execution_trains_with_tf1_optimizers():
    g = rg.Graph()
    with g.as_default():
        w = rg.Variable([1.0, -2.0], name="w")  # TensorFlow 2's Variable, made in a graph
        frozen = rg.Variable(3.0, trainable=False)
        loss = rg.reduce_sum(w * w) * frozen
        train = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss)
        assert tf.trainable_variables() == [w] and any(v is frozen for v in tf.global_variables())
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [0.9, -1.9], rtol=1e-5)


def test_tf_logging_is_python_logging_under_tensorflow(caplog):
    tf.logging.set_verbosity(tf.logging.INFO)
    assert tf.logging.get_verbosity() == tf.logging.INFO
    with caplog.at_level(tf.logging.INFO, logger="tensorflow"):
        tf.logging.info("step %d", 3)
        tf.logging.debug("hidden")
    assert [r.getMessage() for r in caplog.records] == ["step 3"]


def test_print_and_assert_show_values_as_tensorflow_1(capfd):
    # TF 2.21 (compat.v1): "x: [1 2][3.5]" and "assertion failed: [x is] [1 2] [3.5]"
    with rg.Graph().as_default():
        x, s = tf.constant([1, 2]), tf.constant(3.5)
        y = tf.Print(x, [x, s], message="x: ")
        check = tf.Assert(tf.constant(False), ["x is", x, s])
        with tf.Session() as sess:
            sess.run(y)
            with pytest.raises(
                rg.errors.InvalidArgumentError, match=r"assertion failed: \[x is\] \[1 2\] \[3\.5\]"
            ):
                sess.run(check)
    assert capfd.readouterr().err == "x: [1 2][3.5]\n"


def test_tensorflow_1_behaviour_compares_graph_values_by_identity():
    # As TensorFlow 1 (checked with tf.compat.v1.disable_v2_behavior()): == and != are
    # identities, so `v in some_list` works; TensorFlow 2's elementwise == comes back after.
    tf1 = rg.compat.v1
    tf1.disable_v2_behavior()
    try:
        x = tf1.placeholder(rg.float32, [2])
        y = tf1.placeholder(rg.float32, [2])
        assert (x == x, x == y, x != y, x in [y, x]) == (True, False, True, True)
        v = tf1.get_variable("identity_v", [2])
        assert v in [x, v] and v == v
    finally:
        tf1.enable_v2_behavior()
    assert (rg.constant([1.0, 2.0]) == 2.0).numpy().tolist() == [False, True]
