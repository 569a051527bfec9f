"""Shapes known only when a graph runs: Slice (eagerly and in graphs) and the Dynamic* ops
that reshape, fill and tile to a run-time shape — values, static shapes with unknown
dimensions, and gradients against finite differences to second order."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf
from tests.ops.table import Case, check_forward, check_gradient

CASES = [
    Case("Slice", lambda x: rg.slice(x, [1, 0], [2, -1]), ((3, 4),), lambda x: x[1:3, :]),
    Case("Slice", lambda x: rg.slice(x, [0, 1, 1], [1, 1, 2]), ((2, 3, 4),), lambda x: x[0:1, 1:2, 1:3]),
    Case("Slice", lambda x: rg.slice(x, rg.constant([2]), rg.constant([-1])), ((5,),), lambda x: x[2:]),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


# Graph programs of x (fed as [None, 3]) whose shapes are known only when they run.
GRAPH_CASES = {
    "reshape_to_run_time_shape": lambda x: rg.reshape(x, rg.shape(rg.transpose(x))) ** 2,
    "reshape_with_batch_size": lambda x: rg.reshape(x * x, [rg.shape(x)[0] * 3]),
    "fill_of_run_time_shape": lambda x: x * rg.fill(rg.shape(x), rg.reduce_sum(x * x)),
    "zeros_plus": lambda x: (rg.zeros([rg.shape(x)[0], 3], rg.float64) + x) ** 3,
    "tile_run_time_multiples": lambda x: rg.tile(x * x, [rg.shape(x)[0], 2]),
    "gather_nd_run_time_batch": lambda x: rg.gather_nd(
        x * x, rg.stack([rg.range(rg.shape(x)[0]), rg.range(rg.shape(x)[0]) % 3], axis=1)
    ),
    "gather_rows_of_unknown_batch": lambda x: rg.gather(x * x, [2, 0, 2]),
    "gather_columns_of_unknown_batch": lambda x: rg.gather(x**3, [1, 1], axis=1),
    "slice_run_time_size": lambda x: rg.slice(x, [1, 0], [rg.shape(x)[0] - 1, 2]) ** 2,
}


def _run(build, value, order):
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float64, [None, 3])
        y = build(x)
        w = rg.constant(0.75, rg.float64)
        total = rg.reduce_sum(y * w)
        (dx,) = tf.gradients(total, x)
        (ddx,) = tf.gradients(rg.reduce_sum(dx * dx), x)
    with tf.Session(graph=g) as sess:
        return sess.run([total, dx, ddx][: order + 1], {x: value})


@pytest.mark.parametrize("name", sorted(GRAPH_CASES))
def test_graph_gradients_match_finite_differences(name):
    build = GRAPH_CASES[name]
    value = np.random.default_rng(0).uniform(0.5, 1.5, (3, 3))
    _, dx, ddx = _run(build, value, 2)
    eps = 1e-6
    num_dx, num_ddx = np.zeros_like(value), np.zeros_like(value)
    for i in np.ndindex(value.shape):
        plus, minus = value.copy(), value.copy()
        plus[i] += eps
        minus[i] -= eps
        (tp, dp), (tm, dm) = _run(build, plus, 1), _run(build, minus, 1)
        num_dx[i] = (tp - tm) / (2 * eps)
        num_ddx[i] = (np.sum(dp * dp) - np.sum(dm * dm)) / (2 * eps)
    np.testing.assert_allclose(dx, num_dx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ddx, num_ddx, rtol=1e-4, atol=1e-5)


def test_static_shapes_keep_unknown_dimensions():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        batch = rg.shape(x)[0]
        assert x.get_shape().as_list() == [None, 3]
        assert rg.reshape(x, [batch, 3, 1]).shape.as_list() == [None, 3, 1]
        assert rg.reshape(x, [-1]).shape.as_list() == [None]
        assert rg.zeros(rg.shape(x)).shape.as_list() == [None, 3]
        assert rg.ones([batch, 2]).shape.as_list() == [None, 2]
        assert rg.tile(x, [batch, 1]).shape.as_list() == [None, 3]
        assert rg.slice(x, [0, 1], [-1, 2]).shape.as_list() == [None, 2]
        assert tf.random_normal(rg.shape(x)).shape.as_list() == [None, 3]
        assert tf.random_uniform([batch]).shape.as_list() == [None]
        assert rg.matmul(x, rg.ones([3, 4])).shape.as_list() == [None, 4]
        noise = tf.truncated_normal(rg.shape(x), seed=1)
    with tf.Session(graph=g) as sess:
        assert sess.run(noise, {x: np.ones((5, 3))}).shape == (5, 3)


def test_where_a_shape_must_be_known_the_error_names_the_op_and_argument():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        n = tf.placeholder(rg.int32, None)
        with pytest.raises(
            ValueError, match=r"Reshape: argument `shape` must be a vector of known length"
        ):
            rg.reshape(x, n)
        with pytest.raises(ValueError, match=r"zeros: argument `shape` is \(None, 3\)"):
            rg.zeros(x.shape)
        with pytest.raises(
            rg.errors.InvalidArgumentError,
            match=r"Slice: expected `size` to have 2 entries \(one per dimension\)",
        ):
            rg.slice(x, [0, 0], [1])


def test_slice_out_of_range_is_an_error_when_it_runs():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None])
        y = rg.slice(x, [1], [3])
    with tf.Session(graph=g) as sess, pytest.raises(rg.errors.InvalidArgumentError, match="Slice"):
        sess.run(y, {x: [1.0, 2.0]})


def test_indexing_with_tensors_known_only_when_the_graph_runs():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float64, [None, 3, 4])
        i, j = tf.placeholder(rg.int32, []), tf.placeholder(rg.int32, [])
        picks = [x[i], x[1, i], x[i, 1:, j], x[:, j]]
        assert [p.shape.as_list() for p in picks] == [[3, 4], [4], [2], [None, 4]]
        (grad,) = tf.gradients(rg.reduce_sum(x[i, 1:, j] * 2.0), x)
        with pytest.raises(TypeError, match="cannot be combined with"):
            x[..., i]
    value = np.arange(24.0).reshape(2, 3, 4)
    with tf.Session(graph=g) as sess:
        got = sess.run(picks + [grad], {x: value, i: -1, j: 2})
    for p, want in zip(got, [value[-1], value[1, -1], value[-1, 1:, 2], value[:, 2]]):
        np.testing.assert_array_equal(p, want)
    expected = np.zeros_like(value)
    expected[-1, 1:, 2] = 2.0
    np.testing.assert_array_equal(got[-1], expected)


def test_arguments_that_must_be_static_name_the_op_and_argument():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        axis = tf.placeholder(rg.int32, [])
        with pytest.raises(
            ValueError, match=r"GatherV2: argument `axis` must be known while the graph is built"
        ):
            rg.gather(x, [0], axis=axis)
        with pytest.raises(ValueError, match=r"must be known while the graph is built"):
            rg.stack([x, x], axis)


def test_shape_inference_where_unknown_dimensions_meet_known_ones():
    g = rg.Graph()
    with g.as_default():
        a = tf.placeholder(rg.float32, [None, 3])
        b = tf.placeholder(rg.float32, [2, None])
        assert rg.concat([a, b], 0).shape.as_list() == [None, 3]
        assert rg.add_n([a, b]).shape.as_list() == [2, 3]
        assert rg.stack([a, b]).shape.as_list() == [2, 2, 3]
        assert rg.reshape(a, [6]).shape.as_list() == [6]
        assert rg.matmul(a, rg.transpose(b)).shape.as_list() == [None, 2]
        with pytest.raises(
            rg.errors.InvalidArgumentError, match="Pack: all values must have the same shape"
        ):
            rg.stack([a, tf.placeholder(rg.float32, [None, 4])])
        # each value is compatible with the one before, not with all: [2, None] and [3, None]
        with pytest.raises(rg.errors.InvalidArgumentError, match=r"\(2, None\), \(3, None\)"):
            rg.stack([a, b, tf.placeholder(rg.float32, [3, None])])
        assert rg.stack([a, b, a]).shape.as_list() == [3, 2, 3]


def test_batch_indices_from_the_run_time_batch_size():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        labels = tf.placeholder(rg.int32, [None])
        n = rg.shape(x)[0]
        picked = rg.gather_nd(x, rg.stack([rg.range(n), labels], axis=1))
        mean = tf.reduce_mean(x, axis=tf.rank(x) - 1)  # an axis computed from known values
        spread = rg.broadcast_to(rg.reshape(x[:, 0], [-1, 1]), [n, 3])
        assert rg.range(n).shape.as_list() == [None] and picked.shape.as_list() == [None]
        assert spread.shape.as_list() == [None, 3]
        (grad,) = tf.gradients(rg.reduce_sum(spread * spread), x)
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.Session(graph=g) as sess:
        got = sess.run([picked, mean, spread, grad], {x: value, labels: [2, 0]})
    assert got[0].tolist() == [2.0, 3.0] and got[1].tolist() == [1.0, 4.0]
    assert got[2].tolist() == [[0.0] * 3, [3.0] * 3]
    # d/dx of sum_ij x[i, 0]^2 over three copies: 6 x[i, 0] in column 0.
    np.testing.assert_allclose(got[3], [[0.0, 0.0, 0.0], [18.0, 0.0, 0.0]])


def test_range_from_a_run_time_limit_and_tensordot_over_unknown_dimensions():
    # range(1, n + 1): the dummy limit 0 is refused while the graph is built; the limit is
    # read when it runs (integer or cast to float); tensordot contracts a [T, None, H] tensor.
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 4])
        n = rg.shape(x)[0]
        ints = rg.range(1, n + 1)
        floats = rg.range(1, n + 1, dtype=rg.float32)
        halves = rg.range(0.0, rg.cast(n, rg.float32), 0.5)
        assert ints.shape.as_list() == floats.shape.as_list() == halves.shape.as_list() == [None]
        states = tf.placeholder(rg.float32, [3, None, 4])
        w = tf.placeholder(rg.float32, [4, 2])
        out = rg.tensordot(states, w, axes=[[2], [0]])
        assert out.shape.as_list() == [3, None, 2]
        (grad,) = tf.gradients(rg.reduce_sum(out * out), w)
    s = np.arange(24, dtype=np.float32).reshape(3, 2, 4) / 10
    wv = np.arange(8, dtype=np.float32).reshape(4, 2) / 10
    with tf.Session(graph=g) as sess:
        got = sess.run([ints, floats, halves, out, grad], {x: np.zeros((3, 4)), states: s, w: wv})
    assert got[0].tolist() == [1, 2, 3] and got[1].tolist() == [1.0, 2.0, 3.0]
    assert got[2].tolist() == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
    np.testing.assert_allclose(got[3], np.tensordot(s, wv, axes=[[2], [0]]), rtol=1e-6)
    np.testing.assert_allclose(got[4], 2 * np.einsum("tbh,tbk->hk", s, s @ wv), rtol=1e-5)
