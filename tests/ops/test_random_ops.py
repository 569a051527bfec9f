"""Random ops: distributions checked statistically with fixed seeds, TensorFlow's seeding
semantics, dtypes, no gradients through sampling, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

N = 200_000


@pytest.fixture(autouse=True)
def _no_global_seed():
    rg.random.set_seed(None)
    yield
    rg.random.set_seed(None)


@pytest.mark.parametrize("dtype", [rg.float16, rg.float32, rg.float64])
def test_normal_has_the_requested_mean_and_deviation(dtype):
    x = rg.random.normal([N], mean=2.0, stddev=3.0, dtype=dtype, seed=1)
    assert x.dtype == dtype and x.shape == [N]
    values = x.numpy().astype(np.float64)
    assert abs(values.mean() - 2.0) < 0.03 and abs(values.std() - 3.0) < 0.03
    # Fourth moment of a normal: 3 sigma^4 (a check of the shape, not just two moments).
    assert abs(np.mean(((values - 2.0) / 3.0) ** 4) - 3.0) < 0.1


def test_uniform_floats_cover_the_interval():
    x = rg.random.uniform([N], seed=2).numpy()
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.005 and abs(x.var() - 1 / 12) < 0.002
    y = rg.random.uniform([N], minval=-3.0, maxval=5.0, dtype=rg.float64, seed=2).numpy()
    assert y.min() >= -3.0 and y.max() < 5.0 and abs(y.mean() - 1.0) < 0.05
    z = rg.random.uniform([N], maxval=4.0, seed=3).numpy()
    assert z.min() >= 0.0 and z.max() < 4.0 and abs(z.mean() - 2.0) < 0.02
    h = rg.random.uniform([N], dtype=rg.float16, seed=4)
    assert h.dtype == rg.float16 and float(rg.reduce_max(h)) < 1.0


@pytest.mark.parametrize("dtype", [rg.int32, rg.int64])
def test_uniform_integers_hit_every_value_equally_often(dtype):
    x = rg.random.uniform([N], minval=-2, maxval=3, dtype=dtype, seed=5)
    assert x.dtype == dtype
    counts = np.bincount(x.numpy() + 2, minlength=5)
    assert counts.size == 5 and np.all(np.abs(counts / N - 0.2) < 0.005)


def test_truncated_normal_stays_within_two_deviations():
    x = rg.random.truncated_normal([N], mean=1.0, stddev=0.5, dtype=rg.float64, seed=6).numpy()
    assert x.min() >= 0.0 and x.max() <= 2.0
    # The variance of a standard normal cut at +-2 is 1 - 4 phi(2) / (2 Phi(2) - 1) = 0.7737.
    assert abs(x.mean() - 1.0) < 0.005 and abs(x.var() / 0.25 - 0.7737) < 0.01


def test_categorical_frequencies_follow_the_softmax_of_the_logits():
    probs = np.array([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs)  # log 0 = -inf: a class never drawn
    samples = rg.random.categorical(logits, 50_000, seed=7)
    assert samples.dtype == rg.int64 and samples.shape == [2, 50_000]
    for row, expected in zip(samples.numpy(), probs):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / row.size, expected, atol=0.01)
    assert rg.random.categorical([[0.0, 1.0]], 3, dtype=rg.int32).dtype == rg.int32


def test_categorical_edge_rows_as_tensorflow():
    # Non-finite logits have probability zero; a row with nothing left gives num_classes.
    x = rg.random.categorical([[-np.inf, 0.0, -np.inf], [-np.inf, -np.inf, -np.inf]], 5, seed=1)
    assert x.numpy().tolist() == [[1] * 5, [3] * 5]
    assert rg.random.categorical([[np.nan, 0.0]], 4).numpy().tolist() == [[1] * 4]
    assert rg.random.categorical([[0.0, 1.0]], 0).shape == [1, 0]
    assert rg.random.categorical(rg.zeros([0, 2]), 2).shape == [0, 2]


def test_shuffle_permutes_the_first_dimension():
    value = np.arange(20).reshape(10, 2)
    out = rg.random.shuffle(value, seed=8).numpy()
    assert sorted(map(tuple, out.tolist())) == sorted(map(tuple, value.tolist()))
    assert not np.array_equal(out, value)
    assert rg.random.shuffle(3).numpy() == 3
    assert rg.random.shuffle(np.zeros((0, 2))).shape == [0, 2]


def test_shapes_and_empty_samples():
    assert rg.random.normal([]).shape == []
    assert rg.random.uniform(rg.constant([2, 0])).shape == [2, 0]
    assert rg.random.truncated_normal(rg.TensorShape([3, 1])).shape == [3, 1]


def _uniform_pair(**kw):
    return rg.random.uniform([4], seed=5, **kw).numpy(), rg.random.uniform(
        [4], seed=5, **kw
    ).numpy()


def test_an_op_seed_continues_its_stream_and_set_seed_restarts_it():
    rg.random.set_seed(1)
    first, second = _uniform_pair()
    assert not np.array_equal(first, second)
    rg.random.set_seed(1)
    assert np.array_equal(rg.random.uniform([4], seed=5).numpy(), first)
    rg.random.set_seed(2)
    assert not np.array_equal(rg.random.uniform([4], seed=5).numpy(), first)


def test_an_op_seed_without_a_global_seed_uses_the_default_global_seed():
    first, _ = _uniform_pair()
    rg.random.set_seed(None)
    assert np.array_equal(rg.random.uniform([4], seed=5).numpy(), first)
    rg.random.set_seed(rg.ops.random_seeding.DEFAULT_GRAPH_SEED)
    assert np.array_equal(rg.random.uniform([4], seed=5).numpy(), first)


def test_streams_are_separate_per_op_type_and_dtype():
    rg.random.set_seed(1)
    expected = rg.random.uniform([4], seed=5).numpy()
    rg.random.set_seed(1)
    rg.random.normal([4], seed=5)
    rg.random.uniform([4], seed=5, dtype=rg.float64)
    assert np.array_equal(rg.random.uniform([4], seed=5).numpy(), expected)


def test_unseeded_ops_repeat_after_set_seed_whatever_seeded_ops_ran_between():
    rg.random.set_seed(3)
    a, b = rg.random.normal([3]).numpy(), rg.random.normal([3]).numpy()
    assert not np.array_equal(a, b)
    rg.random.set_seed(3)
    rg.random.uniform([2], seed=9)
    assert np.array_equal(rg.random.normal([3]).numpy(), a)
    assert np.array_equal(rg.random.normal([3]).numpy(), b)


def test_without_any_seed_every_call_differs():
    assert not np.array_equal(rg.random.normal([8]).numpy(), rg.random.normal([8]).numpy())


def test_sampling_ops_have_no_gradient_but_their_parameters_do():
    for op_type in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal", "Multinomial", "RandomShuffle"):  # fmt: skip
        assert rg.gradient_registry.lookup(op_type) is None
    x = rg.constant([1.0, 2.0, 3.0])
    mean, stddev = rg.constant(2.0), rg.constant(0.5)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, mean, stddev])
        shuffled = rg.random.shuffle(x, seed=1)
        drawn = rg.random.categorical(rg.reshape(x, [1, 3]), 2, seed=1)
        sample = rg.random.normal([5], mean=mean, stddev=stddev, seed=1)
        bounded = rg.random.uniform([5], minval=mean, maxval=mean + stddev, seed=1)
    assert tape.gradient(shuffled, x) is None and tape.gradient(drawn, x) is None
    assert float(tape.gradient(sample, mean)) == 5.0
    np.testing.assert_allclose(
        float(tape.gradient(sample, stddev)), np.sum((sample.numpy() - 2.0) / 0.5), rtol=1e-5
    )
    assert float(tape.gradient(bounded, mean)) == 5.0


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.random.normal(3), rg.errors.InvalidArgumentError, "RandomStandardNormal: shape must be a vector"),
        (lambda: rg.random.normal([-1]), rg.errors.InvalidArgumentError, "dimensions must be >= 0"),
        (lambda: rg.random.normal([2], dtype=rg.int32), ValueError, "RandomStandardNormal: dtype must be one of float16, float32, float64, got int32"),
        (lambda: rg.random.normal([2], mean=rg.constant(1.0), dtype=rg.float64), TypeError, "float64 and float32"),
        (lambda: rg.random.truncated_normal([2], dtype=rg.int32), ValueError, "TruncatedNormal: dtype"),
        (lambda: rg.random.uniform([2], dtype=rg.int32), ValueError, "maxval must be given"),
        (lambda: rg.random.uniform([2], minval=5, maxval=5, dtype=rg.int32), rg.errors.InvalidArgumentError, "need minval < maxval, got 5 >= 5"),
        (lambda: rg.random.uniform([2], minval=[1, 2], maxval=[3, 4], dtype=rg.int32), rg.errors.InvalidArgumentError, "minval must be a int32 scalar"),
        (lambda: rg.random.uniform([2], maxval=rg.constant(4, rg.int64), dtype=rg.int32), rg.errors.InvalidArgumentError, "maxval must be a int32 scalar, got int64"),
        (lambda: rg.random.uniform([2], dtype=rg.uint8), ValueError, "RandomUniform: dtype must be one of .*int64, got uint8"),
        (lambda: rg.random.categorical([0.0, 1.0], 3), rg.errors.InvalidArgumentError, "Multinomial: logits must be a matrix"),
        (lambda: rg.random.categorical([[0.0, 1.0]], -1), rg.errors.InvalidArgumentError, "num_samples must be >= 0"),
        (lambda: rg.random.categorical(rg.zeros([2, 0]), 2), rg.errors.InvalidArgumentError, "num_classes must be positive"),
        (lambda: rg.random.categorical([[0, 1]], 2), TypeError, "Multinomial: `logits` must be a float"),
        (lambda: rg.random.categorical([[0.0, 1.0]], 3, dtype=rg.float32), ValueError, "Multinomial: dtype must be one of int32, int64"),
        (lambda: rg.random.categorical([[0.0, 1.0]], 2.0), TypeError, "Multinomial: num_samples must be an int"),
        (lambda: rg.random.uniform([2], maxval=rg.constant(2.0, rg.float64)), TypeError, "RandomUniform.*float32 and float64"),
        (lambda: rg.random.set_seed(1.5), TypeError, "set_seed: a seed must be an int"),
        (lambda: rg.random.uniform([2], seed="a"), TypeError, "seed: a seed must be an int"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_generator_owns_its_stream():
    g = rg.random.Generator.from_seed(1)
    a, b = g.normal([4]).numpy(), g.normal([4]).numpy()
    assert not np.array_equal(a, b)
    assert np.array_equal(rg.random.Generator.from_seed(1).normal([4]).numpy(), a)
    copy = rg.random.Generator(copy_from=g)
    assert np.array_equal(copy.uniform([3]).numpy(), g.uniform([3]).numpy())
    rg.random.set_seed(5)  # global seeds do not touch generators, as in TensorFlow
    g.reset_from_seed(1)
    assert np.array_equal(g.normal([4]).numpy(), a)


def test_generator_distributions_seeds_and_splits():
    g = rg.random.Generator.from_seed(2, alg="philox")
    x = g.normal([N], mean=1.0, stddev=2.0, dtype=rg.float64).numpy()
    assert abs(x.mean() - 1.0) < 0.02 and abs(x.std() - 2.0) < 0.02
    t = g.truncated_normal([N]).numpy()
    assert np.abs(t).max() <= 2.0 and abs(t.var() - 0.7737) < 0.01
    ints = g.uniform([N], minval=3, maxval=6, dtype=rg.int64).numpy()
    assert sorted(set(ints.tolist())) == [3, 4, 5]
    seeds = g.make_seeds(3)
    assert seeds.dtype == rg.int64 and seeds.shape == [2, 3]
    left, right = g.split(2)
    assert not np.array_equal(left.normal([4]).numpy(), right.normal([4]).numpy())
    first, second = (rg.random.Generator.from_seed(2).split(2)[0].normal([4]) for _ in range(2))
    assert np.array_equal(first.numpy(), second.numpy())


def test_the_global_generator_can_be_replaced():
    original = rg.random.get_global_generator()
    assert rg.random.get_global_generator() is original
    mine = rg.random.Generator.from_seed(7)
    rg.random.set_global_generator(mine)
    try:
        assert rg.random.get_global_generator() is mine
    finally:
        rg.random.set_global_generator(original)
    with pytest.raises(TypeError, match="expected a Generator"):
        rg.random.set_global_generator(3)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: rg.random.Generator(), "give copy_from"),
        (lambda: rg.random.Generator(state=[1, 2, 3], alg="philox"), "state vector"),
        (lambda: rg.random.Generator.from_seed(1, alg="mt19937"), "alg must be one of"),
    ],
)
def test_generator_argument_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_graph_random_ops_own_their_streams_and_draw_only_when_run():
    rg.random.set_seed(1)
    eager = rg.random.uniform([2], seed=5).numpy()
    g = rg.Graph()
    with g.as_default():
        rg.random.set_seed(1)
        a, b = rg.random.uniform([2], seed=5), rg.random.uniform([2], seed=5)
        c = rg.random.normal([2])
    with rg.compat.v1.Session(graph=g) as sess:
        first_a, first_b, _ = sess.run([a, b, c])
        second_a, second_b = sess.run([a, b])
    # Two ops with the same seeds give the same numbers, as TensorFlow's graph kernels do,
    # and the first run gives what eager execution draws first.
    assert np.array_equal(first_a, first_b) and np.array_equal(first_a, eager)
    assert np.array_equal(second_a, second_b) and not np.array_equal(first_a, second_a)


def test_dropout_inside_function_uses_one_mask_for_values_and_gradients():
    @rg.function
    def f(x):
        return rg.nn.dropout(x, 0.5, seed=1)

    x = rg.constant(np.arange(1.0, 17.0))
    for _ in range(3):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        grad = tape.gradient(y, x).numpy()
        np.testing.assert_array_equal(grad, np.where(y.numpy() != 0, 2.0, 0.0))
