"""tf.map_fn and tf.vectorized_map: values, structures, gradients and errors."""

import numpy as np
import pytest

import retrograd as rg


def test_map_fn_over_a_structure_returns_a_structure():
    xs, ys = rg.constant([[1.0, 2.0], [3.0, 4.0]]), rg.constant([10.0, 20.0])
    out = rg.map_fn(lambda e: {"s": rg.reduce_sum(e[0]) + e[1], "m": e[0] * 2.0}, (xs, ys))
    assert out["s"].numpy().tolist() == [13.0, 27.0]
    assert out["m"].numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]


def test_vectorized_map_per_example_gradients():
    w = rg.Variable([1.0, -1.0])
    x = rg.constant([[1.0, 2.0], [3.0, 5.0]])

    def per_example(row):
        with rg.GradientTape() as tape:
            loss = rg.square(rg.reduce_sum(w * row))
        return tape.gradient(loss, w)

    grads = rg.vectorized_map(per_example, x)
    expected = [2 * (r @ np.array([1.0, -1.0])) * r for r in x.numpy()]
    np.testing.assert_allclose(grads.numpy(), expected)


def test_gradients_flow_through_the_map():
    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.vectorized_map(lambda v: v * v * v, x))
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 12.0, 27.0]


def test_inside_a_function():
    f = rg.function(lambda x: rg.map_fn(lambda v: v + 1.0, x))
    assert f(rg.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]


@pytest.mark.parametrize(
    "elems, match",
    [
        ((rg.constant([1.0]), rg.constant([1.0, 2.0])), "same first dimension"),
        (rg.constant(1.0), "known first dimension"),
        (rg.zeros([0, 2]), "empty"),
    ],
)
def test_bad_elems_are_errors(elems, match):
    with pytest.raises(rg.errors.InvalidArgumentError, match=match):
        rg.map_fn(lambda e: e, elems)


def test_map_fn_over_an_unknown_first_dimension_loops_when_the_graph_runs():
    graph = rg.Graph()
    with graph.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [None, 2])
        w = rg.constant([0.5, -1.0])
        sums, squares = rg.map_fn(
            lambda row: (rg.reduce_sum(rg.tanh(row * w)), row * row), x, dtype=(rg.float32,) * 2
        )
        assert sums.shape.as_list() == [None] and squares.shape.as_list() == [None, 2]
        loss = rg.reduce_sum(sums) + rg.reduce_sum(squares)
        g_x, g_w = rg.gradients(loss, [x, w])
        with rg.compat.v1.Session(graph=graph) as sess:
            data = np.array([[1.0, 2.0], [-3.0, 0.5], [0.0, 1.0]], np.float32)
            got = sess.run([sums, g_x, g_w], {x: data})
    t = np.tanh(data * [0.5, -1.0])
    np.testing.assert_allclose(got[0], t.sum(1), rtol=1e-6)
    np.testing.assert_allclose(got[1], (1 - t * t) * [0.5, -1.0] + 2 * data, rtol=1e-6)
    np.testing.assert_allclose(got[2], ((1 - t * t) * data).sum(0), rtol=1e-5)


def test_scan_in_a_tf1_graph_keeps_the_static_length_of_its_elements():
    # TF1 shapes hold Dimension objects; the stacked results have the elements' length
    # (TensorFlow sets it) and the accumulator's shape.
    from retrograd.compat import v1

    g = rg.Graph()
    v1.disable_v2_tensorshape()
    try:
        with g.as_default():
            x = v1.placeholder(rg.float32, [5, None])
            w = rg.Variable(0.5)
            totals = rg.scan(lambda acc, row: acc * w + row, x, initializer=rg.zeros_like(x[0]))
            assert totals.shape.as_list() == [5, None]
            (grad,) = v1.gradients(rg.reduce_sum(totals), w)
            init = v1.global_variables_initializer()
    finally:
        v1.enable_v2_tensorshape()
    rows = np.arange(10, dtype=np.float32).reshape(5, 2)
    with v1.Session(graph=g) as sess:
        sess.run(init)
        got, g_w = sess.run([totals, grad], {x: rows})
    acc, expected, d_acc, d_w = np.zeros(2), [], np.zeros(2), 0.0
    for row in rows:  # d(acc)/dw follows the same recurrence: d = d * w + acc
        d_acc = d_acc * 0.5 + acc
        acc = acc * 0.5 + row
        expected.append(acc)
        d_w += d_acc.sum()
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    np.testing.assert_allclose(g_w, d_w, rtol=1e-5)
