"""retrograd's nn and random ops against TensorFlow on the same inputs: values, first- and
second-order gradients, tie rules, output shapes, and the seeding semantics of random ops.

Skipped unless TensorFlow is importable (CI does not install it). Run it with a TensorFlow
environment: ``PYTHONPATH=src:. python -m pytest tests/ops/test_against_tensorflow_nn.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

tf = pytest.importorskip("tensorflow")


def _rg_grads(fn, arrays, upstream, directions):
    """The gradient of <fn, upstream> for every argument and, when ``directions`` are given,
    the gradient of <that gradient, directions> (second order), in retrograd."""
    xs = [rg.constant(a) for a in arrays]
    with rg.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with rg.GradientTape() as inner:
            inner.watch(xs)
            y = fn(*xs)
        firsts = inner.gradient(y, xs, output_gradients=rg.constant(upstream))
        if directions is None:
            return firsts, []
        dot = sum(rg.reduce_sum(g * d) for g, d in zip(firsts, directions) if g is not None)
    return firsts, outer.gradient(dot, xs)


def _tf_grads(fn, arrays, upstream, directions):
    """The same in TensorFlow (IndexedSlices made dense)."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(*xs)
        firsts = [tf.convert_to_tensor(g) for g in inner.gradient(y, xs, output_gradients=upstream)]
        if directions is None:
            return firsts, []
        dot = tf.add_n([tf.reduce_sum(g * d) for g, d in zip(firsts, directions)])
    return firsts, [None if g is None else tf.convert_to_tensor(g) for g in outer.gradient(dot, xs)]


def _compare(rg_fn, tf_fn, shapes, dtype=np.float64, order=2, seed=0, transform=None, rtol=None):
    """Values and gradients (to ``order``) of both on the same random inputs must agree."""
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-2, 2, s).astype(dtype) for s in shapes]
    if transform is not None:
        arrays = transform(arrays)
    value = rg_fn(*[rg.constant(a) for a in arrays]).numpy()
    tol = rtol or (1e-9 if dtype == np.float64 else 2e-4)
    # tf.constant first: TensorFlow may convert a NumPy argument to the dtype of an earlier call.
    expected = tf_fn(*[tf.constant(a) for a in arrays]).numpy()
    np.testing.assert_allclose(value, expected, rtol=tol, atol=tol)
    if order == 0:
        return
    upstream = rng.standard_normal(value.shape).astype(dtype)
    directions = [rng.standard_normal(s).astype(dtype) for s in shapes] if order == 2 else None
    ours, our_seconds = _rg_grads(rg_fn, arrays, upstream, directions)
    theirs, their_seconds = _tf_grads(tf_fn, arrays, upstream, directions)
    pairs = list(zip(ours, theirs)) + list(zip(our_seconds, their_seconds))
    for i, (a, b) in enumerate(pairs):
        if b is None:
            assert a is None or not np.any(a.numpy()), f"gradient {i}: TensorFlow has none"
            continue
        np.testing.assert_allclose(
            a.numpy(), b.numpy(), rtol=tol, atol=tol, err_msg=f"gradient {i}"
        )


def _distribution(labels, axis=-1):
    """Random labels made into probability distributions along ``axis``."""
    e = np.exp(labels)
    return e / e.sum(axis=axis, keepdims=True)


# --- losses -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_and_weighted_cross_entropy(dtype):
    shapes = [(3, 4), (3, 4)]
    _compare(
        rg.nn.sigmoid_cross_entropy_with_logits,
        tf.nn.sigmoid_cross_entropy_with_logits,
        shapes,
        dtype,
    )
    _compare(
        lambda z, x, w: rg.nn.weighted_cross_entropy_with_logits(z, x, w),
        lambda z, x, w: tf.nn.weighted_cross_entropy_with_logits(z, x, w),
        [(3, 4), (3, 4), (4,)],
        dtype,
    )


@pytest.mark.parametrize("axis, shape", [(-1, (3, 4)), (0, (4, 3)), (1, (2, 4, 3)), (-1, (5,))])
def test_softmax_cross_entropy_with_label_distributions(axis, shape):
    # Labels that sum to 1 (TensorFlow's logits gradient assumes it). TensorFlow's second
    # derivative through labels is zero (its rule drops that term); retrograd's is the true
    # one (checked against finite differences in test_nn_losses), so compare order 1 there.
    def ours(labels, logits):
        return rg.nn.softmax_cross_entropy_with_logits(labels, logits, axis=axis)

    def theirs(labels, logits):
        return tf.nn.softmax_cross_entropy_with_logits(labels, logits, axis=axis)

    normalized = lambda arrays: [_distribution(arrays[0], axis), arrays[1]]  # noqa: E731
    _compare(ours, theirs, [shape, shape], transform=normalized, order=1)
    # Second order through logits alone.
    labels = _distribution(np.random.default_rng(1).uniform(-2, 2, shape), axis)
    _compare(lambda x: ours(labels, x), lambda x: theirs(labels, x), [shape])


def test_softmax_cross_entropy_large_logits():
    _compare(
        rg.nn.softmax_cross_entropy_with_logits,
        tf.nn.softmax_cross_entropy_with_logits,
        [(2, 3), (2, 3)],
        transform=lambda a: [_distribution(a[0]), a[1] * 500],
        order=1,
    )


@pytest.mark.parametrize("shape", [(4, 3), (2, 2, 5), (3,)])
def test_sparse_softmax_cross_entropy(shape):
    labels = np.random.default_rng(2).integers(0, shape[-1], shape[:-1])
    _compare(
        lambda x: rg.nn.sparse_softmax_cross_entropy_with_logits(labels, x),
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels, x),
        [shape],
    )


# --- layers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data_format, shape", [(None, (2, 3, 4)), ("NCHW", (2, 3, 4, 2)), ("NHWC", (2, 3))]
)
def test_bias_add(data_format, shape):
    channels = shape[1] if data_format == "NCHW" else shape[-1]
    _compare(
        lambda v, b: rg.nn.bias_add(v, b, data_format=data_format),
        lambda v, b: tf.nn.bias_add(v, b, data_format=data_format),
        [shape, (channels,)],
    )


def test_batch_normalization():
    positive = lambda a: [a[0], a[1], a[2] * a[2] + 0.5, a[3], a[4]]  # noqa: E731
    _compare(
        lambda x, m, v, o, s: rg.nn.batch_normalization(x, m, v, o, s, 1e-3),
        lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
        [(4, 3), (3,), (3,), (3,), (3,)],
        transform=positive,
    )


@pytest.mark.parametrize("max_norm", [None, 1.5])
def test_embedding_lookup_with_duplicate_ids(max_norm):
    ids = np.array([[0, 3], [3, 3], [1, 0]])
    _compare(
        lambda p: rg.nn.embedding_lookup(p, ids, max_norm=max_norm),
        lambda p: tf.nn.embedding_lookup(p, ids, max_norm=max_norm),
        [(4, 3)],
    )


# --- convolution and pooling -----------------------------------------------------------------

CONV_CONFIGS = [
    ((2, 5, 5, 3), (3, 3, 3, 4), 1, "SAME", None),
    ((1, 5, 6, 2), (2, 3, 2, 2), [2, 3], "SAME", None),
    ((1, 6, 5, 1), (3, 2, 1, 2), 2, "VALID", None),
    ((1, 6, 6, 2), (2, 2, 2, 3), 1, "SAME", 2),
    ((1, 7, 6, 1), (2, 3, 1, 1), [1, 2], "VALID", [2, 1]),
    ((1, 4, 4, 1), (2, 2, 1, 2), 1, [[0, 0], [1, 2], [0, 1], [0, 0]], None),
]


def _spread(w, dilations):
    """``w`` with ``d - 1`` zeros between taps: a dilated filter as an ordinary one."""
    dh, dw = (dilations, dilations) if isinstance(dilations, int) else dilations
    kh, kw = w.shape[:2]
    rows = np.eye((kh - 1) * dh + 1)[:, ::dh]
    cols = np.eye((kw - 1) * dw + 1)[:, ::dw]
    return tf.einsum(
        "ai,bj,ijco->abco",
        rows.astype(w.dtype.as_numpy_dtype),
        cols.astype(w.dtype.as_numpy_dtype),
        w,
    )


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, dilations", CONV_CONFIGS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_conv2d(x_shape, w_shape, strides, padding, dilations, dtype):
    ours = lambda x, w: rg.nn.conv2d(x, w, strides, padding, dilations=dilations)  # noqa: E731
    theirs = lambda x, w: tf.nn.conv2d(x, w, strides, padding, dilations=dilations)  # noqa: E731
    if dilations is None:
        _compare(ours, theirs, [x_shape, w_shape], dtype)
        return
    # TensorFlow's CPU kernels cannot differentiate dilated convolutions: compare the values,
    # then the gradients with those of the same convolution written with a spread-out filter.
    _compare(ours, theirs, [x_shape, w_shape], dtype, order=0)
    spread = lambda x, w: tf.nn.conv2d(x, _spread(w, dilations), strides, padding)  # noqa: E731
    _compare(ours, spread, [x_shape, w_shape], dtype)


def test_conv1d():
    _compare(
        lambda x, w: rg.nn.conv1d(x, w, 2, "SAME"),
        lambda x, w: tf.nn.conv1d(x, w, 2, "SAME"),
        [(2, 7, 3), (3, 3, 4)],
    )


@pytest.mark.parametrize(
    "dy_shape, output_shape, strides, padding",
    [
        ((1, 3, 3, 4), [1, 5, 5, 2], 2, "SAME"),
        ((1, 3, 3, 4), [1, 6, 6, 2], 2, "SAME"),
        ((2, 2, 3, 4), [2, 5, 7, 2], 2, "VALID"),
    ],
)
def test_conv2d_transpose(dy_shape, output_shape, strides, padding):
    _compare(
        lambda dy, w: rg.nn.conv2d_transpose(dy, w, output_shape, strides, padding),
        lambda dy, w: tf.nn.conv2d_transpose(dy, w, output_shape, strides, padding),
        [dy_shape, (3, 3, 2, 4)],
    )


POOL_CONFIGS = [
    ((2, 5, 5, 3), 2, 2, "VALID"),
    ((1, 5, 6, 2), 3, 2, "SAME"),
    ((1, 4, 5, 1), [2, 3], [1, 2], "SAME"),
    ((2, 7, 2), 3, 2, "SAME"),
    ((1, 4, 3, 4, 2), 2, [2, 1, 2], "SAME"),
]


@pytest.mark.parametrize("shape, ksize, strides, padding", POOL_CONFIGS)
@pytest.mark.parametrize("pool", ["max_pool", "avg_pool"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pooling(shape, ksize, strides, padding, pool, dtype):
    # TensorFlow's 3-D pools: no float64 CPU kernels, and its eager gradient needs the
    # data_format spelled out.
    if len(shape) == 5 and dtype == np.float64:
        pytest.skip("TensorFlow has no float64 MaxPool3D/AvgPool3D kernels on CPU")
    data_format = "NDHWC" if len(shape) == 5 else None
    _compare(
        lambda x: getattr(rg.nn, pool)(x, ksize, strides, padding),
        lambda x: getattr(tf.nn, pool)(x, ksize, strides, padding, data_format=data_format),
        [shape],
        dtype,
    )


def test_max_pool_routes_ties_like_tensorflow():
    x = np.array(
        [[3.0, 3.0, 1.0, 2.0], [3.0, 0.0, 2.0, 2.0], [5.0, 5.0, 5.0, 5.0], [1.0, 5.0, 5.0, 0.0]]
    )
    x = x.reshape(1, 4, 4, 1)
    for ksize, strides in ((2, 2), (3, 1), (2, 1)):
        _compare(
            lambda t, k=ksize, s=strides: rg.nn.max_pool(t, k, s, "VALID"),
            lambda t, k=ksize, s=strides: tf.nn.max_pool(t, k, s, "VALID"),
            [x.shape],
            transform=lambda _: [x],
        )


def test_max_pool_with_explicit_padding():
    # Order 1: TensorFlow's MaxPoolGradGrad has no explicit padding.
    _compare(
        lambda x: rg.nn.max_pool(x, 3, 1, [[0, 0], [1, 1], [0, 2], [0, 0]]),
        lambda x: tf.nn.max_pool(x, 3, 1, [[0, 0], [1, 1], [0, 2], [0, 0]]),
        [(1, 4, 4, 2)],
        transform=lambda a: [a[0] - 10],
        order=1,
    )


# --- random numbers ---------------------------------------------------------------------------


def test_random_distributions_agree_in_their_moments():
    n = 200_000
    for ours, theirs in (
        (rg.random.normal([n], 1.0, 2.0, seed=1), tf.random.normal([n], 1.0, 2.0, seed=1)),
        (rg.random.uniform([n], -1.0, 3.0, seed=1), tf.random.uniform([n], -1.0, 3.0, seed=1)),
        (
            rg.random.truncated_normal([n], 0.0, 2.0, seed=1),
            tf.random.truncated_normal([n], 0.0, 2.0, seed=1),
        ),
        (
            rg.random.uniform([n], 0, 7, dtype=rg.int32, seed=1),
            tf.random.uniform([n], 0, 7, dtype=tf.int32, seed=1),
        ),
    ):
        a, b = ours.numpy().astype(np.float64), theirs.numpy().astype(np.float64)
        assert ours.dtype.name == theirs.dtype.name
        assert a.min() >= b.min() - 0.1 and a.max() <= b.max() + 0.1
        assert abs(a.mean() - b.mean()) < 0.03 and abs(a.std() / b.std() - 1) < 0.01
    logits = np.log([[0.2, 0.3, 0.5]])
    a = rg.random.categorical(logits, n, seed=1).numpy()
    b = tf.random.categorical(logits, n, seed=1).numpy()
    np.testing.assert_allclose(np.bincount(a[0]) / n, np.bincount(b[0]) / n, atol=0.01)


def _draw_sequence(module, set_seed):
    """Draws in an order that exercises every seeding rule; returns the draws."""
    draws = []
    set_seed(1)
    draws += [module.uniform([3], seed=5), module.uniform([3], seed=5)]
    set_seed(1)
    draws += [module.normal([3], seed=5), module.uniform([3], seed=5)]
    draws += [module.uniform([3], seed=6), module.uniform([3]), module.uniform([3])]
    set_seed(1)
    draws += [module.uniform([3], seed=9), module.uniform([3]), module.uniform([3], seed=5)]
    set_seed(2)
    draws += [module.uniform([3], seed=5), module.uniform([3])]
    set_seed(None)
    draws += [module.uniform([3], seed=5), module.uniform([3], seed=5)]
    set_seed(None)
    draws += [module.uniform([3], seed=5)]
    return [d.numpy() for d in draws]


def test_seeding_semantics_match_tensorflow():
    # The streams differ, but which draws repeat which must be the same.
    ours = _draw_sequence(rg.random, rg.random.set_seed)
    theirs = _draw_sequence(tf.random, tf.random.set_seed)
    same = lambda draws: [[bool(np.array_equal(a, b)) for b in draws] for a in draws]  # noqa: E731
    assert same(ours) == same(theirs)
    rg.random.set_seed(None)


def _generator_sequence(module):
    g = module.Generator.from_seed(3)
    draws = [g.normal([3]), g.normal([3])]
    copy = module.Generator(copy_from=g)
    draws += [copy.uniform([3]), g.uniform([3])]
    g.reset_from_seed(3)
    draws += [g.normal([3]), module.Generator.from_seed(3).normal([3])]
    module.set_seed(1)
    draws += [g.normal([3]), module.Generator.from_seed(3).normal([3])]
    module.set_seed(None)
    return [d.numpy() for d in draws]


def test_generator_semantics_match_tensorflow():
    same = lambda draws: [[bool(np.array_equal(a, b)) for b in draws] for a in draws]  # noqa: E731
    assert same(_generator_sequence(rg.random)) == same(_generator_sequence(tf.random))
