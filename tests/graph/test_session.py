"""Session: seeds 003 and 004 as written in graph mode, feeds, fetches, errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as tf


@pytest.fixture
def graph_mode():
    tf.compat.v1.reset_default_graph()
    tf.compat.v1.disable_eager_execution()
    yield
    tf.compat.v1.enable_eager_execution()
    tf.compat.v1.reset_default_graph()


SEED_003_OUTPUT = """\
a:
[[1. 2.]
 [3. 4.]]
b:
[[ 6.  7.  8.]
 [ 9. 10. 11.]]
c = a * b:
[[24. 27. 30.]
 [54. 61. 68.]]
tf.gradients(c, a)[0]:
[[21. 30.]
 [21. 30.]]
matmul_grad(c.op, tf.ones_like(c))[0]:
[[21. 30.]
 [21. 30.]]
tf.gradients(c * tf.stop_gradient(c), a)[0]:
[[ 573.  816.]
 [1295. 1844.]]
matmul_grad(c.op, c)[0]:
[[ 573.  816.]
 [1295. 1844.]]
"""


def test_seed_003_prints_the_seeds_output(graph_mode, capsys):
    _gradient_registry = tf.gradient_registry  # the seed imports it from TF's internals
    # Gradient function for matrix multiplication
    matmul_grad = _gradient_registry.lookup("MatMul")
    # A matrix multiplication
    a = tf.constant([[1, 2], [3, 4]], dtype=tf.float32)
    b = tf.constant([[6, 7, 8], [9, 10, 11]], dtype=tf.float32)
    c = tf.matmul(a, b)
    # Gradient of sum(c) wrt each element of a
    (grad_c_a_1,) = tf.gradients(c, a)
    # The same is obtained by backpropagating an all-ones matrix
    grad_c_a_2, _ = matmul_grad(c.op, tf.ones_like(c))
    # Multiply each element of c by itself, but stopping the gradients
    # This should scale the gradients by the values of c
    cc = c * tf.stop_gradient(c)
    # Regular gradients computation
    (grad_cc_a_1,) = tf.gradients(cc, a)
    # Gradients function called with c as backpropagated gradients
    grad_cc_a_2, _ = matmul_grad(c.op, c)
    with tf.compat.v1.Session() as sess:
        print("a:")
        print(sess.run(a))
        print("b:")
        print(sess.run(b))
        print("c = a * b:")
        print(sess.run(c))
        print("tf.gradients(c, a)[0]:")
        print(sess.run(grad_c_a_1))
        print("matmul_grad(c.op, tf.ones_like(c))[0]:")
        print(sess.run(grad_c_a_2))
        print("tf.gradients(c * tf.stop_gradient(c), a)[0]:")
        print(sess.run(grad_cc_a_1))
        print("matmul_grad(c.op, c)[0]:")
        print(sess.run(grad_cc_a_2))
    assert capsys.readouterr().out == SEED_003_OUTPUT


def test_seed_004_custom_second_derivative_in_graph_mode(graph_mode, capsys):
    from tests.test_seeds import log1pexp2

    x1 = tf.constant(1.0)
    y1 = log1pexp2(x1)
    dy1 = tf.gradients(y1, x1)
    ddy1 = tf.gradients(dy1, x1)

    x2 = tf.constant(100.0)
    y2 = log1pexp2(x2)
    dy2 = tf.gradients(y2, x2)
    ddy2 = tf.gradients(dy2, x2)

    with tf.compat.v1.Session() as sess:
        print("x=1, dy1:", dy1[0].eval(session=sess))
        print("x=1, ddy1:", ddy1[0].eval(session=sess))
        print("x=100, dy2:", dy2[0].eval(session=sess))
        print("x=100, ddy2:", ddy2[0].eval(session=sess))
    lines = capsys.readouterr().out.splitlines()
    # The seed printed 0.7310586, -1.7182817, 1.0, -inf: NumPy's float32 exp is 1 ulp from
    # TensorFlow's at 1.0, so the second value may print as -1.718282.
    values = [float(line.split(":")[1]) for line in lines]
    np.testing.assert_allclose(values[:2], [0.7310586, -1.7182817], rtol=2e-7)
    assert lines[2:] == ["x=100, dy2: 1.0", "x=100, ddy2: -inf"]


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def test_fetches_any_structure_and_ops_give_none(graph):
    a = tf.constant([1.0, 2.0])
    b = a * 3.0
    with tf.compat.v1.Session(graph=graph) as sess:
        result = sess.run({"b": b, "list": [a, (b.op,)], "name": "mul:0"})
    assert result["b"].tolist() == [3.0, 6.0] and result["list"][0].tolist() == [1.0, 2.0]
    assert result["list"][1] == (None,) and result["name"].tolist() == [3.0, 6.0]
    assert isinstance(tf.compat.v1.Session(graph=graph).run(tf.reduce_sum(b)), np.float32)


def test_feeds_are_checked_and_name_the_placeholder(graph):
    x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
    n = tf.compat.v1.placeholder(tf.int32, [], name="n")
    y = tf.reduce_sum(x, axis=1)
    with tf.compat.v1.Session(graph=graph) as sess:
        assert sess.run(y, {x: np.ones((2, 3))}).tolist() == [3.0, 3.0]  # float64 fits float32
        assert sess.run(y, {"x:0": [[1, 2, 3]]}).tolist() == [6.0]  # ints fit floats
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2, 4\) for Tensor x:0"):
            sess.run(y, {x: np.ones((2, 4))})
        with pytest.raises(TypeError, match="Cannot feed value .* for Tensor n:0 with dtype int32"):
            sess.run(n * 2, {n: 1.5})
        with pytest.raises(
            tf.errors.InvalidArgumentError,
            match="must feed a value for placeholder tensor 'x' with dtype float32 and shape \\['\\?', 3\\]",
        ):
            sess.run(y)


def test_only_the_needed_subgraph_runs(graph):
    x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
    unused = tf.debugging.check_numerics(tf.math.log(x), "never evaluated")
    used = x * 2.0
    with tf.compat.v1.Session(graph=graph) as sess:
        assert sess.run(used, {x: [-1.0, 1.0]}).tolist() == [-2.0, 2.0]
        with pytest.raises(
            tf.errors.InvalidArgumentError, match="CheckNumerics 'CheckNumerics'.*never evaluated"
        ):
            sess.run(unused, {x: [-1.0, 1.0]})


def test_eval_and_run_with_default_session(graph):
    y = tf.constant(2.0) * 3.0
    with pytest.raises(ValueError, match="No default session"):
        y.eval()
    with tf.compat.v1.Session(graph=graph):
        assert y.eval() == 6.0
        assert y.op.run() is None


def test_closed_sessions_refuse_to_run(graph):
    sess = tf.compat.v1.Session(graph=graph)
    sess.close()
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(tf.constant(1.0))


def test_variables_are_read_when_the_graph_runs(graph):
    v = tf.Variable(1.0)
    y = v * 2.0
    with tf.compat.v1.Session(graph=graph) as sess:
        sess.run(v.initializer)
        assert sess.run(y) == 2.0
        v.assign(5.0)  # in graph mode: an op, run by the session
        assert sess.run(y) == 2.0
        sess.run(graph.get_operations()[-1])
        assert sess.run(y) == 10.0


def test_seeded_random_streams_restart_with_each_session_as_tensorflow_1s():
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.set_random_seed(3)
        counter_seeded = tf.compat.v1.random_normal([4])
        op_seeded = tf.compat.v1.random_uniform([4], seed=5)
        shuffled = tf.compat.v1.random_shuffle(tf.range(8), seed=2)
        init_value = tf.compat.v1.Variable(tf.compat.v1.truncated_normal([3]))
        init = tf.compat.v1.global_variables_initializer()
    tf.random.set_seed(None)
    fetches = [counter_seeded, op_seeded, shuffled]
    with tf.compat.v1.Session(graph=g) as first, tf.compat.v1.Session(graph=g) as second:
        a1, a2 = first.run(fetches), first.run(fetches)
        b1 = second.run(fetches)  # interleaved: a stream of its own, from the start
        a3 = first.run(fetches)
        b2 = second.run(fetches)
        first.run(init)
        second.run(init)
        values = first.run(init_value), second.run(init_value)
    for x1, x2, y1 in zip(a1, a2, b1):
        np.testing.assert_array_equal(x1, y1)  # every new session replays the values
        assert not np.array_equal(x1, x2)  # successive runs in one session differ
    for x2, y2 in zip(a2, b2):
        np.testing.assert_array_equal(x2, y2)
    assert not np.array_equal(a3[0], a2[0])
    np.testing.assert_array_equal(*values)  # initial values alike in every session
    with tf.compat.v1.Session(graph=g) as third:  # one session's fetches share the stream
        np.testing.assert_array_equal(third.run(counter_seeded), a1[0])
        np.testing.assert_array_equal(third.run(fetches)[0], a2[0])
