"""top_k, sort and argsort: values, stable ties, gradients to the chosen positions, errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of


def _top_k(x, k):
    return -np.sort(-x, axis=-1)[..., :k]


CASES = [
    Case("TopKV2", lambda x: rg.math.top_k(x, 2).values, ((3, 4),), lambda x: _top_k(x, 2)),
    Case("TopKV2", lambda x: rg.nn.top_k(x).values, ((4,),), lambda x: _top_k(x, 1)),
    Case("TopKV2", lambda x: rg.math.top_k(x, 3).values, ((2, 1, 3),), lambda x: _top_k(x, 3)),
    Case("TopKV2", lambda x: rg.math.top_k(x, 0).values, ((2, 3),), lambda x: _top_k(x, 0)),
    Case("sort", rg.sort, ((5,),), np.sort),
    Case("sort", lambda x: rg.sort(x, axis=0), ((3, 2, 2),), lambda x: np.sort(x, axis=0)),
    Case(
        "sort",
        lambda x: rg.sort(x, axis=1, direction="DESCENDING"),
        ((2, 3, 2),),
        lambda x: -np.sort(-x, axis=1),
    ),
    Case("sort", lambda x: rg.sort(x, axis=-1), ((2, 0),), lambda x: x),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_ties_keep_index_order_and_the_gradient_goes_to_the_chosen_entries():
    # As TensorFlow: top_k and sorts are stable, and each output's gradient reaches exactly
    # the entry it came from (no sharing between equal values, unlike reduce_max).
    values, indices = rg.math.top_k([1.0, 3.0, 3.0, 2.0], 2)
    assert values.numpy().tolist() == [3.0, 3.0] and indices.numpy().tolist() == [1, 2]
    ties = [1.0, 3.0, 3.0, 2.0]
    assert gradient_of(lambda x: rg.math.top_k(x, 1).values, ties).numpy().tolist() == [0, 1, 0, 0]
    weights = rg.range(4.0)
    ascending = gradient_of(lambda x: rg.sort(x) * weights, ties)
    assert ascending.numpy().tolist() == [0, 2, 3, 1]
    descending = gradient_of(lambda x: rg.sort(x, direction="DESCENDING") * weights, ties)
    assert descending.numpy().tolist() == [3, 0, 1, 2]
    assert rg.argsort([3.0, 1.0, 3.0, 1.0]).numpy().tolist() == [1, 3, 0, 2]
    assert rg.argsort([3, 1, 3, 1], direction="DESCENDING").numpy().tolist() == [0, 2, 1, 3]
    assert rg.argsort([1, 1, 1], stable=True).numpy().tolist() == [0, 1, 2]


def test_integer_sorts_are_exact_at_the_extremes():
    x = rg.constant([3, -(2**31), 2**31 - 1, 1], rg.int32)
    assert rg.sort(x).numpy().tolist() == [-(2**31), 1, 3, 2**31 - 1]
    assert rg.sort(x, direction="DESCENDING").numpy().tolist() == [2**31 - 1, 3, 1, -(2**31)]
    u = rg.constant([3, 0, 255, 1], rg.uint8)
    assert rg.sort(u).numpy().tolist() == [0, 1, 3, 255] and rg.sort(u).dtype == rg.uint8
    assert rg.math.top_k([1, 5, 2], 2).values.numpy().tolist() == [5, 2]


def test_index_types_and_none_gradients_for_indices():
    assert rg.math.top_k([1.0, 2.0], 1, index_type=rg.int64).indices.dtype == rg.int64
    assert rg.math.top_k([1.0, 2.0], 1, index_type="int16").indices.dtype == rg.int16
    assert rg.argsort([2.0, 1.0]).dtype == rg.int32
    x = rg.constant([2.0, 1.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        i = rg.argsort(x)
    assert tape.gradient(i, x) is None


def test_nan_sorts_as_the_smallest_value():
    values, indices = rg.math.top_k([1.0, np.nan, 3.0], 3)
    assert indices.numpy().tolist() == [2, 0, 1]
    assert rg.argsort([1.0, np.nan, 0.0]).numpy().tolist() == [2, 0, 1]


ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.math.top_k([1.0, 2.0], 3),
            ERR,
            "TopKV2: input must have at least k columns. Had 2, needed 3",
        ),
        (lambda: rg.math.top_k([1.0, 2.0], -1), ERR, "Need k >= 0, got -1"),
        (lambda: rg.math.top_k(1.0, 1), ERR, r"input must be >= 1-D, got shape \[\]"),
        (lambda: rg.math.top_k([True, False], 1), TypeError, "TopKV2: `input`"),
        (lambda: rg.math.top_k([1.0], 1, index_type=rg.float32), TypeError, "index_type"),
        (lambda: rg.math.top_k([1.0], 1.0), TypeError, "`k` must be an integer"),
        (
            lambda: rg.sort([1.0, 2.0], direction="down"),
            ValueError,
            "sort: `direction` must be one of ASCENDING, DESCENDING",
        ),
        (lambda: rg.sort([1.0, 2.0], direction="descending"), ValueError, "direction"),
        (lambda: rg.sort(1.0), ERR, "sort: axis -1 is out of range for values of rank 0"),
        (lambda: rg.argsort([1.0, 2.0], axis=1), ERR, "argsort: axis 1 is out of range"),
        (lambda: rg.sort([True, False]), TypeError, "sort: `values`"),
        (lambda: rg.sort(rg.constant([1j])), TypeError, "sort"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
