"""Arguments known only when the graph runs (ops/run_time_args.py): reduction axes,
transpose's perm, pad's paddings, split's sizes, expand_dims' axis and one_hot's depth fed
from placeholders — values against NumPy, gradients against finite differences at first and
second order, static shapes, and the errors the kernels give for bad values."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf

I32 = rg.int32


def _weights(shape):
    return np.random.default_rng(1).uniform(0.5, 1.5, shape)


# name: (program of x (fed as [None, 4], float64) and the run-time argument, the argument's
# dtype and static shape, its value, the NumPy reference of the program)
CASES = {
    "sum_axis_1": (lambda x, a: rg.reduce_sum(x**2, a), (I32, []), 1, lambda x: np.sum(x**2, 1)),
    "sum_axis_-2": (lambda x, a: rg.reduce_sum(x**3, a), (I32, []), -2, lambda x: np.sum(x**3, 0)),
    "sum_axes_vector": (lambda x, a: rg.reduce_sum(x * x, a), (I32, [None]), [0, 1], lambda x: np.sum(x * x)),
    "sum_no_axes": (lambda x, a: rg.reduce_sum(x**2, a), (I32, [None]), np.zeros(0, np.int32), lambda x: x**2),
    "sum_keepdims": (lambda x, a: rg.reduce_sum(x, a, keepdims=True) * x, (I32, [1]), [0], lambda x: np.sum(x, 0, keepdims=True) * x),
    "mean_axis": (lambda x, a: rg.reduce_mean(x**2, a), (I32, []), 0, lambda x: np.mean(x**2, 0)),
    "max_axis": (lambda x, a: rg.reduce_max(x * x, a), (I32, []), 1, lambda x: np.max(x * x, 1)),
    "min_axis_keep": (lambda x, a: rg.reduce_min(x**3, a, keepdims=True) * x, (I32, []), 0, lambda x: np.min(x**3, 0, keepdims=True) * x),
    "prod_axis": (lambda x, a: rg.reduce_prod(x, a), (I32, []), 1, lambda x: np.prod(x, 1)),
    "prod_axes": (lambda x, a: rg.reduce_prod(x * x, a, keepdims=True), (I32, [2]), [1, 0], lambda x: np.prod(x * x, keepdims=True)),
    "logsumexp_axis": (lambda x, a: rg.reduce_logsumexp(x * x, a), (I32, []), 1, lambda x: np.log(np.sum(np.exp(x * x), 1))),
    "transpose_perm": (lambda x, p: rg.transpose(x**2, p) * _weights((4, 3)), (I32, [2]), [1, 0], lambda x: x.T**2 * _weights((4, 3))),
    "transpose_3d": (lambda x, p: rg.transpose(rg.reshape(x**3, [2, 2, 3]), p), (I32, [3]), [2, 0, 1], lambda x: np.transpose((x**3).reshape(2, 2, 3), [2, 0, 1])),
    "pad_constant": (lambda x, p: rg.pad(x**2, p) * _weights((4, 6)), (I32, [2, 2]), [[1, 0], [0, 2]], lambda x: np.pad(x**2, [[1, 0], [0, 2]]) * _weights((4, 6))),
    "pad_value": (lambda x, p: rg.pad(x**3, p, constant_values=2.0), (I32, [None, 2]), [[0, 1], [1, 1]], lambda x: np.pad(x**3, [[0, 1], [1, 1]], constant_values=2.0)),
    "pad_reflect": (lambda x, p: rg.pad(x**2, p, "REFLECT") * _weights((5, 6)), (I32, [2, 2]), [[1, 1], [2, 0]], lambda x: np.pad(x**2, [[1, 1], [2, 0]], "reflect") * _weights((5, 6))),
    "pad_symmetric": (lambda x, p: rg.pad(x**2, p, "SYMMETRIC") * _weights((4, 7)), (I32, [2, 2]), [[0, 1], [1, 2]], lambda x: np.pad(x**2, [[0, 1], [1, 2]], "symmetric") * _weights((4, 7))),
    "split_sizes": (lambda x, s: (lambda a, b: a**2 + rg.reduce_sum(b**3, 1, keepdims=True))(*rg.split(x, s, axis=1)), (I32, [2]), [1, 3], lambda x: x[:, :1] ** 2 + np.sum(x[:, 1:] ** 3, 1, keepdims=True)),
    "split_sizes_minus_one": (lambda x, s: rg.concat([t * (i + 1.0) for i, t in enumerate(rg.split(x**2, s))], 0), (I32, [2]), [-1, 1], lambda x: np.concatenate([x[:2] ** 2, 2 * x[2:] ** 2])),
    "expand_dims_axis": (lambda x, a: rg.expand_dims(x**2, a) * _weights((3, 1, 4)), (I32, []), 1, lambda x: (x**2)[:, None] * _weights((3, 1, 4))),
    "expand_dims_last": (lambda x, a: rg.expand_dims(x**3, a), (I32, []), -1, lambda x: (x**3)[..., None]),
    "slice_stop": (lambda x, n: x[:, :n] ** 2, (I32, []), 3, lambda x: x[:, :3] ** 2),
    "slice_negative_start": (lambda x, n: x[n:] ** 3, (I32, []), -2, lambda x: x[-2:] ** 3),
    "slice_clamped": (lambda x, n: x[:, 1:n] * x[:, 1:n], (I32, []), 10, lambda x: x[:, 1:] ** 2),
    "slice_with_step": (lambda x, n: x[:, n::2] ** 2, (I32, []), 1, lambda x: x[:, 1::2] ** 2),
    "slice_and_index": (lambda x, n: x[1, :n] ** 3, (I32, []), -1, lambda x: x[1, :-1] ** 3),
    "slice_empty": (lambda x, n: rg.concat([x[:, n:2], x[:, :1]], 1) ** 2, (I32, []), 3, lambda x: x[:, :1] ** 2),
    "pad_list_holding_a_tensor": (lambda x, n: rg.pad(x**2, [[0, 0], [n, 0]]) * 1.5, (I32, []), 2, lambda x: np.pad(x**2, [[0, 0], [2, 0]]) * 1.5),
    "split_list_holding_a_tensor": (lambda x, n: rg.split(x, [1, n], axis=1)[1] ** 2, (I32, []), 3, lambda x: x[:, 1:] ** 2),
    "sum_list_holding_a_tensor": (lambda x, n: rg.reduce_sum(x**2, [n]), (I32, []), 1, lambda x: np.sum(x**2, 1)),
    "roll_shift": (lambda x, s: rg.roll(x**2, s, axis=1) * _weights((3, 4)), (I32, []), 3, lambda x: np.roll(x**2, 3, 1) * _weights((3, 4))),
    "roll_axes": (lambda x, a: rg.roll(x**3, [1, -1], a) * _weights((3, 4)), (I32, [2]), [0, 1], lambda x: np.roll(x**3, [1, -1], [0, 1]) * _weights((3, 4))),
    "cumsum_axis": (lambda x, a: rg.cumsum(x**2, a) * _weights((3, 4)), (I32, []), 1, lambda x: np.cumsum(x**2, 1) * _weights((3, 4))),
    "cumsum_exclusive_reverse": (lambda x, a: rg.cumsum(x**3, a, exclusive=True, reverse=True), (I32, []), 0, lambda x: np.cumsum((x**3)[::-1], 0)[::-1] - x**3),
    "top_k_values": (lambda x, k: rg.math.top_k(x**2, k).values * _weights((3, 2)), (I32, []), 2, lambda x: -np.sort(-(x**2), 1)[:, :2] * _weights((3, 2))),
    "top_k_3d": (lambda x, k: rg.math.top_k(rg.reshape(x**3, [3, 2, 2]), k)[0], (I32, []), 1, lambda x: np.max((x**3).reshape(3, 2, 2), -1, keepdims=True)),
    "reverse_axes": (lambda x, a: rg.reverse(x**2, a) * _weights((3, 4)), (I32, [None]), [0, -1], lambda x: np.flip(x**2, (0, 1)) * _weights((3, 4))),
    "concat_axis": (lambda x, a: rg.concat([x**2, x**3], a) * _weights((3, 8)), (I32, []), 1, lambda x: np.concatenate([x**2, x**3], 1) * _weights((3, 8))),
    "concat_axis_0": (lambda x, a: rg.concat([x**2, x[:2] * 2.0], a) ** 2, (I32, []), -2, lambda x: np.concatenate([x**2, x[:2] * 2], 0) ** 2),
    "index_and_slice": (lambda x, n: x[n, 1:] ** 2 + x[:n, 0][0], (I32, []), 2, lambda x: x[2, 1:] ** 2 + x[0, 0]),
}  # fmt: skip

# Ops of unknown-size dimensions that take static arguments (no run-time argument).
STATIC_CASES = {
    "split_unknown_dim_sizes": (lambda x: rg.split(x**2, [1, 2])[1] * 3.0, lambda x: 3 * x[1:] ** 2),
    "split_unknown_dim_equal": (lambda x: rg.concat(rg.split(x**3, 3)[::-1], 0), lambda x: x[::-1] ** 3),
    "pad_unknown_dim": (lambda x: rg.pad(x**2, [[1, 0], [2, 0]]) * 2.0, lambda x: 2 * np.pad(x**2, [[1, 0], [2, 0]])),
}  # fmt: skip

VALUE = np.random.default_rng(0).uniform(0.5, 1.5, (3, 4))


def _graph(build, arg_spec):
    """The program, its value, gradient and a second-order quantity, built once."""
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float64, [None, 4])
        arg = None if arg_spec is None else tf.placeholder(*arg_spec)
        y = build(x) if arg is None else build(x, arg)
        total = rg.reduce_sum(y * 0.75)
        (dx,) = tf.gradients(total, x)
        (ddx,) = tf.gradients(rg.reduce_sum(dx * dx), x)
    return g, x, arg, y, total, dx, ddx


def _check(build, arg_spec, arg_value, reference):
    g, x, arg, y, total, dx, ddx = _graph(build, arg_spec)
    feed = {} if arg is None else {arg: arg_value}
    with tf.Session(graph=g) as sess:
        got_y, got_dx, got_ddx = sess.run([y, dx, ddx], {x: VALUE, **feed})
        np.testing.assert_allclose(got_y, reference(VALUE), rtol=1e-12)
        eps = 1e-6
        num_dx, num_ddx = np.zeros_like(VALUE), np.zeros_like(VALUE)
        for i in np.ndindex(VALUE.shape):
            plus, minus = VALUE.copy(), VALUE.copy()
            plus[i] += eps
            minus[i] -= eps
            (tp, dp), (tm, dm) = (sess.run([total, dx], {x: v, **feed}) for v in (plus, minus))
            num_dx[i] = (tp - tm) / (2 * eps)
            num_ddx[i] = (np.sum(dp * dp) - np.sum(dm * dm)) / (2 * eps)
    np.testing.assert_allclose(got_dx, num_dx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_ddx, num_ddx, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_to_second_order(name):
    build, spec, value, reference = CASES[name]
    _check(build, spec, value, reference)


@pytest.mark.parametrize("name", sorted(STATIC_CASES))
def test_unknown_dimensions_with_static_arguments(name):
    build, reference = STATIC_CASES[name]
    _check(build, None, None, reference)


def test_one_hot_of_run_time_depth():
    g = rg.Graph()
    with g.as_default():
        i = tf.placeholder(rg.int32, [None])
        depth = tf.placeholder(rg.int32, [])
        hot = rg.one_hot(i, depth, on_value=5.0, off_value=-1.0, axis=0)
        assert hot.shape.as_list() == [None, None]
        (grad,) = tf.gradients(rg.reduce_sum(hot), [i])
        assert grad is None
    with tf.Session(graph=g) as sess:
        got = sess.run(hot, {i: [0, 2, 7], depth: 3})
    np.testing.assert_array_equal(got, np.where(np.arange(3)[:, None] == [0, 2, 7], 5.0, -1.0))


def test_static_shapes_keep_what_does_not_depend_on_the_value():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3, 4])
        scalar, vector, pair = (tf.placeholder(rg.int32, s) for s in ([], [None], [2]))
        # (TensorFlow gives <unknown> for a scalar axis; one axis always drops one dimension)
        assert rg.reduce_sum(x, scalar).shape.as_list() == [None, None]
        assert rg.reduce_sum(x, vector).shape.rank is None
        assert rg.reduce_mean(x, pair, keepdims=True).shape.as_list() == [None] * 3
        assert rg.transpose(x, tf.placeholder(rg.int32, [3])).shape.as_list() == [None] * 3
        assert rg.pad(x, tf.placeholder(rg.int32, [3, 2])).shape.as_list() == [None] * 3
        parts = rg.split(x, pair, axis=2)
        assert [p.shape.as_list() for p in parts] == [[None, 3, None]] * 2
        assert rg.expand_dims(x, scalar).shape.as_list() == [None] * 4
        assert rg.one_hot(tf.placeholder(rg.int32, [5]), scalar).shape.as_list() == [5, None]
        assert [p.shape.as_list() for p in rg.split(x, [1, -1])] == [[1, 3, 4], [None, 3, 4]]
        assert rg.ones(rg.shape(x)[1:]).shape.as_list() == [3, 4]  # (a slice of tf.shape)


# name: (program of x (a [None, 3] float32 placeholder) and a run-time int argument, the
# argument's static shape and fed value, the error's type and message)
ERRORS = {
    "axes_repeated": (lambda x, a: rg.reduce_max(x, a), [2], [0, -2], rg.errors.InvalidArgumentError, "Max: Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    "axis_out_of_range": (lambda x, a: rg.reduce_sum(x, a), [], 2, rg.errors.InvalidArgumentError, "Sum: Invalid reduction dimension 2 for input with 2 dimensions"),
    "perm_not_a_permutation": (lambda x, p: rg.transpose(x, p), [2], [0, 0], rg.errors.InvalidArgumentError, r"Transpose: perm \[0, 0\] is not a permutation of 2 axes"),
    "negative_paddings": (lambda x, p: rg.pad(x, p), [2, 2], [[0, -1], [0, 0]], rg.errors.InvalidArgumentError, "Pad: paddings must be non-negative"),
    "paddings_of_wrong_rank": (lambda x, p: rg.pad(x, p), [None, 2], [[0, 1]], rg.errors.InvalidArgumentError, r"Pad: paddings must be a matrix of shape \[2, 2\]"),
    "reflect_too_wide": (lambda x, p: rg.pad(x, p, "REFLECT"), [2, 2], [[0, 0], [3, 0]], rg.errors.InvalidArgumentError, "MirrorPad: REFLECT paddings must be less than the dimension size"),
    "split_sizes_do_not_add_up": (lambda x, s: rg.split(x, s, axis=1), [2], [1, 1], rg.errors.InvalidArgumentError, "SplitV: sizes .* do not add up to dimension 1 of size 3"),
    "expand_dims_out_of_range": (lambda x, a: rg.expand_dims(x, a), [], 4, rg.errors.InvalidArgumentError, "ExpandDims: axis 4 is out of range for rank 2"),
    "roll_sizes_differ": (lambda x, s: rg.roll(x, s, [0, 1]), [None], [1], rg.errors.InvalidArgumentError, "Roll: shift and axis must have the same size"),
    "argmax_axis_out_of_range": (lambda x, a: rg.argmax(x, a), [], 2, rg.errors.InvalidArgumentError, r"ArgMax: Expected dimension in the range \[-2, 2\), but got 2"),
    "cumsum_axis_out_of_range": (lambda x, a: rg.cumsum(x, a), [], -3, rg.errors.InvalidArgumentError, "Cumsum: Expected dimension in the range"),
    "top_k_too_large": (lambda x, k: rg.math.top_k(x, k).values, [], 4, rg.errors.InvalidArgumentError, "TopKV2: input must have at least k columns. Had 3, needed 4"),
    "reverse_repeated_axis": (lambda x, a: rg.reverse(x, a), [2], [1, -1], rg.errors.InvalidArgumentError, "ReverseV2: axis 1 specified more than once"),
    "concat_axis_out_of_range": (lambda x, a: rg.concat([x, x], a), [], 2, rg.errors.InvalidArgumentError, "ConcatV2: axis 2 is out of range for rank 2"),
    "one_hot_negative_depth": (lambda x, d: rg.one_hot([1], d), [], -1, rg.errors.InvalidArgumentError, "OneHot: depth must be non-negative"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_values_fail_when_the_graph_runs_naming_the_op(name):
    build, shape, value, error, message = ERRORS[name]
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        arg = tf.placeholder(rg.int32, shape)
        out = build(x, arg)
    with tf.Session(graph=g) as sess, pytest.raises(error, match=message):
        sess.run(out, {x: np.ones((2, 3), np.float32), arg: value})


def test_arguments_that_must_be_known_while_building_still_say_so():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        n = tf.placeholder(rg.int32, [])
        assert x[:, :n].shape.as_list() == [None, None] and x[n, 1:].shape.as_list() == [2]
        with pytest.raises(TypeError, match="StridedSlice: a slice step known only when"):
            x[::n]
        with pytest.raises(TypeError, match="StridedSlice: a negative step with bounds"):
            x[n::-1]
        with pytest.raises(ValueError, match="SplitV: cannot infer the number of outputs"):
            rg.split(x, tf.placeholder(rg.int32, [None]), axis=1)
        with pytest.raises(rg.errors.InvalidArgumentError, match="Transpose: perm must have 2"):
            rg.transpose(x, tf.placeholder(rg.int32, [3]))
        with pytest.raises(rg.errors.InvalidArgumentError, match="Sum: `axis` must be an int32"):
            rg.reduce_sum(x, tf.placeholder(rg.float32, []))
        with pytest.raises(ValueError, match="Cumprod: argument `axis` must be known"):
            rg.math.cumprod(x, tf.placeholder(rg.int32, []))


def test_argmax_and_argmin_along_a_run_time_axis():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 4])
        axis = tf.placeholder(rg.int32, [])
        top, bottom = rg.argmax(x, axis), rg.argmin(x, axis, output_type=rg.int32)
        assert top.shape.as_list() == [None] and bottom.dtype == rg.int32
    with tf.Session(graph=g) as sess:
        for a in (0, 1, -1):
            got = sess.run([top, bottom], {x: VALUE, axis: a})
            np.testing.assert_array_equal(got[0], np.argmax(VALUE, a))
            np.testing.assert_array_equal(got[1], np.argmin(VALUE, a))


def test_unstack_of_an_unknown_dimension_needs_num_and_checks_it_when_run():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        with pytest.raises(ValueError, match="Unpack: cannot infer argument `num`"):
            rg.unstack(x)  # (TensorFlow refuses it too)
        parts = rg.unstack(x, num=2)
    with tf.Session(graph=g) as sess:
        got = sess.run(parts, {x: [[1, 2, 3], [4, 5, 6]]})
        assert [p.tolist() for p in got] == [[1, 2, 3], [4, 5, 6]]
        with pytest.raises(rg.errors.InvalidArgumentError, match="has size 3, but num=2"):
            sess.run(parts, {x: np.ones((3, 3))})


def test_eye_of_run_time_sizes():
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None, 3])
        n = tf.placeholder(rg.int32, [])
        square, batched = rg.eye(n), rg.eye(rg.shape(x)[0], 3, batch_shape=[2], dtype=rg.float64)
        assert square.shape.as_list() == [None, None] and batched.shape.as_list() == [2, None, 3]
    with tf.Session(graph=g) as sess:
        got = sess.run([square, batched], {n: 3, x: np.ones((2, 3))})
    np.testing.assert_array_equal(got[0], np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(got[1], np.broadcast_to(np.eye(2, 3), (2, 2, 3)))
    assert got[1].dtype == np.float64
