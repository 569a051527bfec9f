"""Gathers: values, gradients (duplicates accumulate), batch dimensions, and index errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of


def _batch_gather(x, idx, axis, batch_dims):
    """NumPy reference for gather with batch dimensions: one np.take per batch entry."""
    idx = np.asarray(idx)
    if batch_dims == 0:
        return np.take(x, idx, axis=axis)
    return np.stack([_batch_gather(xb, ib, axis - 1, batch_dims - 1) for xb, ib in zip(x, idx)])


def _gather_nd(x, idx):
    idx = np.asarray(idx)
    return x[tuple(np.moveaxis(idx, -1, 0))]


def _segment_sum(x, ids, n):
    out = np.zeros((n, *x.shape[np.ndim(ids) :]))
    for i, s in np.ndenumerate(np.asarray(ids)):
        if s >= 0:
            out[s] += x[i]
    return out


DUP = [2, 0, 2, 2]
BATCH_IDX = [[0, 2, 2], [1, 1, 0]]

CASES = [
    Case("GatherV2", lambda x: rg.gather(x, DUP), ((3,),), lambda x: x[DUP]),
    Case(
        "GatherV2",
        lambda x: rg.gather(x, [[1, 0], [1, 1]]),
        ((2, 3),),
        lambda x: x[[[1, 0], [1, 1]]],
    ),
    Case("GatherV2", lambda x: rg.gather(x, DUP, axis=-1), ((2, 3),), lambda x: x[:, DUP]),
    Case("GatherV2", lambda x: rg.gather(x, 1, axis=1), ((2, 3, 2),), lambda x: x[:, 1]),
    Case("GatherV2", lambda x: rg.gather(x, [], axis=1), ((2, 3),), lambda x: x[:, []]),
    Case("GatherV2", lambda x: rg.gather(x, [0, 0]), ((1, 2),), lambda x: x[[0, 0]]),
    Case(
        "GatherV2",
        lambda x: rg.gather(x, BATCH_IDX, axis=1, batch_dims=1),
        ((2, 3, 2),),
        lambda x: _batch_gather(x, BATCH_IDX, 1, 1),
    ),
    Case(
        "GatherV2",
        lambda x: rg.gather(x, BATCH_IDX, axis=2, batch_dims=1),
        ((2, 2, 3),),
        lambda x: _batch_gather(x, BATCH_IDX, 2, 1),
    ),
    Case(
        "GatherV2",
        lambda x: rg.gather(x, [[1, 0], [2, 2]], batch_dims=-1),
        ((2, 3),),
        lambda x: np.take_along_axis(x, np.array([[1, 0], [2, 2]]), 1),
    ),
    Case(
        "GatherNd",
        lambda x: rg.gather_nd(x, [[0, 2], [1, 1], [0, 2]]),
        ((2, 3, 2),),
        lambda x: _gather_nd(x, [[0, 2], [1, 1], [0, 2]]),
    ),
    Case(
        "GatherNd",
        lambda x: rg.gather_nd(x, [[[1], [1]], [[0], [1]]]),
        ((2, 3),),
        lambda x: _gather_nd(x, [[[1], [1]], [[0], [1]]]),
    ),
    Case(
        "GatherNd",
        lambda x: rg.gather_nd(x, np.zeros((2, 0), np.int32)),
        ((2, 2),),
        lambda x: np.stack([x, x]),
    ),
    Case(
        "GatherNd",
        lambda x: rg.gather_nd(x, [[[2], [0]], [[1], [1]]], batch_dims=1),
        ((2, 3, 2),),
        lambda x: np.stack([x[0, [2, 0]], x[1, [1, 1]]]),
    ),
    Case(
        "UnsortedSegmentSum",
        lambda x: rg.math.unsorted_segment_sum(x, [0, 2, -1, 2], 3),
        ((4, 2),),
        lambda x: _segment_sum(x, [0, 2, -1, 2], 3),
    ),
    Case(
        "UnsortedSegmentSum",
        lambda x: rg.math.unsorted_segment_sum(x, [[1, 0], [1, 1]], 2),
        ((2, 2),),
        lambda x: _segment_sum(x, [[1, 0], [1, 1]], 2),
    ),
    Case(
        "boolean_mask",
        lambda x: rg.boolean_mask(x, [True, False, True]),
        ((3, 2),),
        lambda x: x[[True, False, True]],
    ),
    Case(
        "boolean_mask",
        lambda x: rg.boolean_mask(x, [[True, False, True], [False, True, True]], axis=1),
        ((2, 2, 3),),
        lambda x: x[:, np.array([[True, False, True], [False, True, True]])],
    ),
    Case(
        "boolean_mask",
        lambda x: rg.boolean_mask(x, [False, False], axis=-1),
        ((3, 2),),
        lambda x: x[:, [False, False]],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_duplicate_indices_accumulate_gradients():
    weights = rg.constant([1.0, 2.0, 3.0, 4.0])
    g = gradient_of(lambda x: rg.gather(x, [2, 0, 2, 2]) * weights, [1.0, 2.0, 3.0])
    assert g.numpy().tolist() == [2.0, 0.0, 8.0]
    g = gradient_of(
        lambda x: rg.gather_nd(x, [[1, 0], [1, 0]]) * weights[:2], [[1.0, 2.0], [3.0, 4.0]]
    )
    assert g.numpy().tolist() == [[0.0, 0.0], [3.0, 0.0]]
    g = gradient_of(
        lambda x: rg.gather(x, [[0, 0], [1, 1]], axis=1, batch_dims=1), [[1.0, 2.0]] * 2
    )
    assert g.numpy().tolist() == [[2.0, 0.0], [0.0, 2.0]]


def test_gathers_keep_dtypes_and_accept_int16_and_int64_indices():
    x = rg.constant([[1, 2], [3, 4]])
    assert rg.gather(x, rg.constant([1], rg.int16)).numpy().tolist() == [[3, 4]]
    assert rg.gather([True, False], rg.constant([1], rg.int64)).dtype == rg.bool
    assert rg.gather_nd(x, rg.constant([[1, 1]], rg.int64)).numpy().tolist() == [4]
    assert rg.gather(x, 1).shape == (2,)


def test_gather_nd_ignore_policy_gives_zeros_for_bad_indices():
    got = rg.gather_nd([1.0, 2.0], [[1], [7]], bad_indices_policy="IGNORE")
    assert got.numpy().tolist() == [2.0, 0.0]


P = np.zeros((2, 3, 4))
ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.gather([1.0, 2.0, 3.0], [[2, 0], [5, 1]]),
            ERR,
            r"GatherV2: indices\[1,0\] = 5 is not in \[0, 3\)",
        ),
        (lambda: rg.gather([1.0, 2.0, 3.0], [-1]), ERR, r"indices\[0\] = -1 is not in \[0, 3\)"),
        (lambda: rg.gather(P, [0], axis=3), ERR, "GatherV2: axis 3 is out of range"),
        (lambda: rg.gather(P, [[0, 2], [1, 1]], axis=0, batch_dims=1), ERR, "batch_dims"),
        (
            lambda: rg.gather(P, [0, 2], axis=1, batch_dims=2),
            ERR,
            r"batch_dims in the range \[-1, 1\]",
        ),
        (
            lambda: rg.gather(P, [[0], [1], [2]], axis=1, batch_dims=1),
            ERR,
            r"params.shape\[0\]: 2 should be equal to indices.shape\[0\]: 3",
        ),
        (
            lambda: rg.gather(P, [0.0]),
            TypeError,
            "GatherV2: `indices` must be an int16 or int32 or int64",
        ),
        (lambda: rg.gather(1.0, [0]), ERR, "at least 1 dimensional"),
        (lambda: rg.gather(P, [0], axis=0.5), TypeError, "axis"),
        (
            lambda: rg.gather_nd(P, [[0, 5]]),
            ERR,
            r"GatherNd: indices\[0\] = \[0, 5\] does not index into param shape \[2,3,4\]",
        ),
        (lambda: rg.gather_nd(P, [[[0, -1]]]), ERR, r"indices\[0,0\] = \[0, -1\]"),
        (
            lambda: rg.gather_nd(P, [[0, 1, 2, 3]]),
            ERR,
            "innermost dimension length must be <= params rank; saw: 4 vs. 3",
        ),
        (lambda: rg.gather_nd(P, 1), ERR, "at least a vector"),
        (lambda: rg.gather_nd(P, [[1], [2], [0]], batch_dims=1), ERR, "should be equal"),
        (lambda: rg.gather_nd(P, [[1]], batch_dims=2), ERR, "batch_dims"),
        (lambda: rg.gather_nd(P, [[1]], bad_indices_policy="FOO"), ERR, "Unknown bad indices"),
        (
            lambda: rg.math.unsorted_segment_sum([1.0, 2.0], [0, 3], 3),
            ERR,
            r"segment_ids\[1\] = 3 is out of range \[0, 3\)",
        ),
        (
            lambda: rg.math.unsorted_segment_sum([1.0, 2.0], [1, 1, 0], 2),
            ERR,
            "does not start with",
        ),
        (lambda: rg.math.unsorted_segment_sum([1.0, 2.0], [1, 1], -1), ERR, "negative"),
        (lambda: rg.math.unsorted_segment_sum([True], [0], 1), TypeError, "data"),
        (lambda: rg.boolean_mask(P, True), ValueError, "mask cannot be scalar"),
        (
            lambda: rg.boolean_mask(P, [True, False, True]),
            ValueError,
            r"does not match dimensions 0 to 0",
        ),
        (
            lambda: rg.boolean_mask([1.0, 2.0], [1, 0]),
            TypeError,
            "boolean_mask: `mask` must be a bool",
        ),
        (lambda: rg.boolean_mask(P, [True], axis=3), ValueError, "axis 3 is out of range"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
