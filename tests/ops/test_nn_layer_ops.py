"""bias_add, dropout, batch_normalization and embedding_lookup: values, gradients to second
order, dropout's seeding and scaling, duplicate ids accumulating, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.nn_reference import vjp
from tests.ops.table import Case, check_forward, check_gradient


def _seeded(fn):
    """``fn`` run after resetting the seeds, so that every call draws the same numbers."""

    def call(*args):
        rg.random.set_seed(1234)
        try:
            return fn(*args)
        finally:
            rg.random.set_seed(None)

    return call


def _kept(shape, seed, noise_shape=None, dtype=np.float64):
    """Dropout's keep decisions, drawn as dropout draws them: uniform(noise_shape) >= rate."""
    rg.random.set_seed(1234)
    noise = rg.random.uniform(noise_shape or shape, dtype=dtype, seed=seed).numpy()
    rg.random.set_seed(None)
    return noise


def _dropout_reference(rate, seed, noise_shape=None):
    def reference(x):
        u = _kept(x.shape, seed, noise_shape, x.dtype)
        return np.where(u >= rate, x / np.asarray(1 - rate, x.dtype), 0).astype(x.dtype)

    return reference


def _batch_norm(x, mean, var, offset, scale):
    return rg.nn.batch_normalization(x, mean, var * var + 0.5, offset, scale, 1e-3)


def _batch_norm_reference(x, mean, var, offset, scale):
    return scale * (x - mean) / np.sqrt(var * var + 0.5 + 1e-3) + offset


IDS = np.array([[0, 2], [2, 2], [3, 0]])

CASES = [
    Case("BiasAdd", rg.nn.bias_add, ((2, 3), (3,)), lambda v, b: v + b),
    Case("BiasAdd", rg.nn.bias_add, ((2, 2, 1, 3), (3,)), lambda v, b: v + b),
    Case(
        "BiasAdd[NCHW]",
        lambda v, b: rg.nn.bias_add(v, b, data_format="NCHW"),
        ((2, 3, 2), (3,)),
        lambda v, b: v + b[:, None],
    ),
    Case(
        "BiasAdd[NC]",
        lambda v, b: rg.nn.bias_add(v, b, data_format="NC..."),
        ((2, 3), (3,)),
        lambda v, b: v + b,
    ),
    Case(
        "dropout",
        _seeded(lambda x: rg.nn.dropout(x, 0.5, seed=7)),
        ((4, 3),),
        _dropout_reference(0.5, 7),
    ),
    Case(
        "dropout[noise_shape]",
        _seeded(lambda x: rg.nn.dropout(x, 0.3, noise_shape=[4, 1], seed=2)),
        ((4, 3),),
        _dropout_reference(0.3, 2, (4, 1)),
    ),
    # A tensor rate gets a gradient too (through x / (1 - rate)).
    Case(
        "dropout[rate tensor]",
        _seeded(lambda x, r: rg.nn.dropout(x, 0.25 + 0.1 * r, seed=3)),
        ((3, 3), ()),
    ),
    Case(
        "batch_normalization", _batch_norm, ((4, 3), (3,), (3,), (3,), (3,)), _batch_norm_reference
    ),
    Case(
        "batch_normalization[no offset or scale]",
        lambda x, m, v: rg.nn.batch_normalization(x, m, v * v + 0.5, None, None, 0.0),
        ((2, 3), (2, 1), ()),
        lambda x, m, v: (x - m) / np.sqrt(v * v + 0.5),
    ),
    Case(
        "embedding_lookup",
        lambda p: rg.nn.embedding_lookup(p, IDS),
        ((4, 2),),
        lambda p: p[IDS],
    ),
    Case(
        "embedding_lookup[1-D params]",
        lambda p: rg.nn.embedding_lookup(p, [1, 1, 0]),
        ((3,),),
        lambda p: p[[1, 1, 0]],
    ),  # fmt: skip
    Case(
        "embedding_lookup[scalar id]",
        lambda p: rg.nn.embedding_lookup(p, 2),
        ((3, 2, 2),),
        lambda p: p[2],
    ),  # fmt: skip
    Case(
        "embedding_lookup[shards]",
        lambda a, b: rg.nn.embedding_lookup([a, b], IDS),
        ((2, 2), (2, 2)),
        lambda a, b: np.concatenate([a, b])[IDS],
    ),
    Case(
        "embedding_lookup[max_norm]",
        lambda p: rg.nn.embedding_lookup(p, IDS, max_norm=1.5),
        ((4, 2),),
        lambda p: p[IDS] * np.minimum(1, 1.5 / np.linalg.norm(p[IDS], axis=-1, keepdims=True)),
        avoid=lambda a: np.abs(np.linalg.norm(a, axis=-1, keepdims=True) - 1.5) < 0.1,
    ),
    Case(
        "embedding_lookup[gradient, duplicate ids]",
        vjp(lambda p: rg.nn.embedding_lookup(p, IDS)),
        ((4, 2), (3, 2, 2)),
        lambda p, dy: np.stack([dy[row == IDS].sum(axis=0) for row in range(4)]),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_bias_add_accepts_integers():
    assert rg.nn.bias_add([[1, 2]], [10, 20]).numpy().tolist() == [[11, 22]]


def test_dropout_keeps_the_expected_fraction_and_scales_the_rest():
    y = rg.nn.dropout(rg.ones([100_000]), rate=0.3, seed=5).numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.7) < 0.01
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)
    assert rg.nn.dropout(rg.ones([3], rg.float64), 0.5, seed=1).dtype == rg.float64


def test_dropout_is_repeatable_with_seeds_and_shares_noise_along_noise_shape():
    rg.random.set_seed(3)
    first = rg.nn.dropout(rg.ones([6, 5]), 0.5, seed=1).numpy()
    second = rg.nn.dropout(rg.ones([6, 5]), 0.5, seed=1).numpy()
    rg.random.set_seed(3)
    again = rg.nn.dropout(rg.ones([6, 5]), 0.5, seed=1).numpy()
    rg.random.set_seed(None)
    assert (first == again).all() and not (first == second).all()
    rows = rg.nn.dropout(rg.ones([8, 5]), 0.5, noise_shape=[None, 1], seed=4).numpy()
    assert all(len(set(row)) == 1 for row in rows.tolist())


def test_dropout_gradient_flows_through_the_kept_elements_only():
    x = rg.constant(np.arange(1.0, 7.0))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.nn.dropout(x, 0.5, seed=1)
    grad = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(grad, np.where(y.numpy() != 0, 2.0, 0.0))


def test_rate_zero_returns_the_input():
    x = rg.constant([1.0, 2.0])
    assert rg.nn.dropout(x, 0) is x


def test_embedding_gradient_accumulates_duplicate_ids():
    params = rg.constant(np.arange(12.0).reshape(4, 3))
    with rg.GradientTape() as tape:
        tape.watch(params)
        rows = rg.nn.embedding_lookup(params, [[0, 3], [3, 3]])
    assert rows.shape == [2, 2, 3]
    g = tape.gradient(rows, params)
    assert isinstance(g, rg.IndexedSlices)  # as in TensorFlow
    assert rg.convert_to_tensor(g).numpy().tolist() == [
        [1.0] * 3,
        [0.0] * 3,
        [0.0] * 3,
        [3.0] * 3,
    ]


def test_embedding_lookup_of_integers_empty_ids_and_max_norm_values():
    assert rg.nn.embedding_lookup(rg.constant([[1, 2], [3, 4]]), [1]).numpy().tolist() == [[3, 4]]
    # A Python list is a list of shards, as in TensorFlow: here two shards of two ids each.
    assert rg.nn.embedding_lookup([[1, 2], [3, 4]], [1, 3]).numpy().tolist() == [2, 4]
    assert rg.nn.embedding_lookup(rg.ones([4, 3]), rg.zeros([0, 2], rg.int64)).shape == [0, 2, 3]
    clipped = rg.nn.embedding_lookup(
        rg.constant(np.arange(12.0).reshape(4, 3)), [0, 1, 3], max_norm=5.0
    )
    np.testing.assert_allclose(
        clipped.numpy(),
        [
            [0.0, 1.0, 2.0],
            [2.12132034, 2.82842712, 3.53553391],
            [2.58945902, 2.87717669, 3.16489436],
        ],
    )


def test_integer_ids_get_no_gradient():
    params = rg.constant([[1.0], [2.0]])
    ids = rg.constant([1, 0])
    with rg.GradientTape() as tape:
        tape.watch(params)
        out = rg.nn.embedding_lookup(params, ids)
    assert tape.gradient(out, ids) is None


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.nn.bias_add(rg.ones([3]), rg.ones([3])), rg.errors.InvalidArgumentError, "BiasAdd: value must be at least 2-D"),
        (lambda: rg.nn.bias_add(rg.ones([2, 3]), rg.ones([4])), rg.errors.InvalidArgumentError, "BiasAdd: bias has 4 elements but value \\(2, 3\\) has 3 channels"),
        (lambda: rg.nn.bias_add(rg.ones([2, 3]), rg.ones([1, 3])), rg.errors.InvalidArgumentError, "bias must be 1-D"),
        (lambda: rg.nn.bias_add(rg.ones([2, 3]), rg.ones([3]), data_format="CHW"), ValueError, "N...C or NC..."),
        (lambda: rg.nn.bias_add(rg.ones([2, 3]), rg.ones([3], rg.float64)), TypeError, "BiasAdd.*float32 and float64"),
        (lambda: rg.nn.dropout(rg.ones([3]), 1.0), ValueError, "dropout: rate must be .* in \\[0, 1\\), got 1.0"),
        (lambda: rg.nn.dropout(rg.ones([3]), -0.1), ValueError, "dropout: rate"),
        (lambda: rg.nn.dropout(rg.ones([3], rg.int32), 0.5), TypeError, "dropout: `x` must be a float"),
        (lambda: rg.nn.dropout(rg.ones([3, 4]), 0.5, noise_shape=[2, 1]), rg.errors.InvalidArgumentError, "noise_shape \\[2, 1\\] must broadcast"),
        (lambda: rg.nn.dropout(rg.ones([3, 4]), 0.5, noise_shape=[3]), rg.errors.InvalidArgumentError, "noise_shape"),
        (lambda: rg.nn.dropout(rg.ones([3]), rg.constant([0.5, 0.5])), rg.errors.InvalidArgumentError, "rate must be a scalar"),
        (lambda: rg.nn.dropout(rg.ones([3]), rg.constant(0.5, rg.float64)), TypeError, "dropout.*float32 and float64"),
        (lambda: rg.nn.batch_normalization(rg.ones([2]), rg.ones([2], rg.float64), 1.0, None, None, 0.0), TypeError, "batch_normalization.*float32 and float64"),
        (lambda: rg.nn.batch_normalization(rg.ones([2], rg.int32), 0, 1, None, None, 0), TypeError, "batch_normalization: `x` must be a float"),
        (lambda: rg.nn.embedding_lookup(rg.ones([4, 3]), [4]), rg.errors.InvalidArgumentError, "GatherV2: indices\\[0\\] = 4 is not in \\[0, 4\\)"),
        (lambda: rg.nn.embedding_lookup(rg.ones([4, 3]), [[0, 1], [-1, 2]]), rg.errors.InvalidArgumentError, "indices\\[1,0\\] = -1"),
        (lambda: rg.nn.embedding_lookup(rg.ones([4, 3]), [1.0]), TypeError, "GatherV2: `indices` must be an int16 or int32 or int64"),
        (lambda: rg.nn.embedding_lookup(rg.constant(1.0), [0]), rg.errors.InvalidArgumentError, "params must be at least 1 dimensional"),
        (lambda: rg.nn.embedding_lookup([], [0]), ValueError, "empty list"),
        (lambda: rg.nn.embedding_lookup([rg.ones([2, 1]), rg.ones([5, 1])], [0]), rg.errors.InvalidArgumentError, "'div' partition of 7 ids, which needs \\[4, 3\\]"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
