"""identity_n, ensure_shape, bitcast, guarantee_const, check_pinned, timestamp and the casts
with TensorFlow's rules (saturate_cast, truncatediv/mod): values, gradients, errors (their
TensorFlow goldens are in tests/api/data/cases_control.py)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

CASES = [
    Case("IdentityN", lambda x, y: rg.add_n([a * 2.0 for a in rg.identity_n([x, y])]),
         ((2, 3), (2, 3)), lambda x, y: 2 * x + 2 * y),
    Case("IdentityN", lambda x: rg.identity_n([x])[0] ** 2, ((3,),), lambda x: x**2),
    Case("EnsureShape", lambda x: rg.ensure_shape(x, [None, 3]) * x, ((2, 3),), lambda x: x * x),
    Case("saturate_cast", lambda x: rg.saturate_cast(x * 100.0, x.dtype), ((3,),),
         lambda x: x * 100.0),
    Case("scalar_mul", lambda s, x: rg.scalar_mul(s, x), ((), (2, 2)), lambda s, x: s * x),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_guarantee_const_has_no_gradient_as_in_tensorflow():
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.guarantee_const(x) * x
    with pytest.raises(LookupError):
        tape.gradient(y, x)


def test_ops_without_gradients_give_none():
    x, y = rg.constant([-7.5, 7.5]), rg.constant([2.0, -2.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        quotient, remainder = rg.truncatediv(x, y), rg.truncatemod(x, y)
        bits = rg.bitcast(x, rg.int32)
    assert tape.gradient(quotient, [x, y]) == [None, None]
    assert tape.gradient(remainder, [x, y]) == [None, None]
    assert bits.dtype == rg.int32


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: rg.ensure_shape([1.0, 2.0], [3]),
            rg.errors.InvalidArgumentError,
            "not compatible",
        ),
        (
            lambda: rg.bitcast(rg.constant([1, 2, 3], rg.uint8), rg.int32),
            rg.errors.InvalidArgumentError,
            "last dimension",
        ),
        (
            lambda: rg.truncatediv(rg.constant([1]), rg.constant([0])),
            rg.errors.InvalidArgumentError,
            "Integer division by zero",
        ),
        (lambda: rg.scalar_mul([1.0, 2.0], [1.0, 2.0]), ValueError, "must be a 0-D value"),
        (lambda: rg.identity_n(rg.constant(1.0)), TypeError, "must be a list"),
        (
            lambda: rg.check_pinned(rg.constant(1.0)),
            rg.errors.FailedPreconditionError,
            "pinnedness",
        ),
    ],
)
def test_bad_arguments_raise_tensorflow_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_timestamp_runs_again_in_each_graph_run():
    g = rg.Graph()
    with g.as_default():
        t = rg.timestamp()
    with rg.compat.v1.Session(graph=g) as sess:
        first, second = sess.run(t), sess.run(t)
    assert second >= first and np.asarray(first).dtype == np.float64
