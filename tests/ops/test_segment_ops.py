"""Segment reductions: values against NumPy, gradients against finite differences (first
and second order), TensorFlow's conventions for empty segments, ties and bad ids."""

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient, gradient_of


def _reduce(x, ids, n, fn, empty):
    ids = np.asarray(ids)
    out = np.full((n, *x.shape[ids.ndim :]), empty, dtype=x.dtype)
    for s in range(n):
        rows = x[ids == s]
        if len(rows):
            out[s] = fn(rows, axis=0)
    return out


IDS, SORTED = [0, 2, -1, 1, 0], [0, 0, 1, 2, 2]  # no empty max/min segments
CASES = [
    Case(
        "UnsortedSegmentProd",
        lambda x: rg.math.unsorted_segment_prod(x, IDS, 4),
        ((5, 2),),
        lambda x: _reduce(x, IDS, 4, np.prod, 1),
    ),
    Case(
        "SegmentProd",
        lambda x: rg.math.segment_prod(x, SORTED),
        ((5,),),
        lambda x: _reduce(x, SORTED, 3, np.prod, 1),
    ),
    # A zero in a segment: only it gets the product of the others (TensorFlow's rule).
    Case(
        "UnsortedSegmentProd",
        lambda x: rg.math.unsorted_segment_prod(x * [1.0, 0.0, 1.0, 1.0], [0, 0, 1, 0], 2),
        ((4,),),
        lambda x: _reduce(x * [1.0, 0.0, 1.0, 1.0], [0, 0, 1, 0], 2, np.prod, 1),
    ),
    Case(
        "UnsortedSegmentMax",
        lambda x: rg.math.unsorted_segment_max(x, IDS, 3),
        ((5, 2),),
        lambda x: _reduce(x, IDS, 3, np.max, np.finfo(x.dtype).min),
    ),
    Case(
        "UnsortedSegmentMin",
        lambda x: rg.math.unsorted_segment_min(x, IDS, 3),
        ((5, 2),),
        lambda x: _reduce(x, IDS, 3, np.min, np.finfo(x.dtype).max),
    ),
    Case(
        "UnsortedSegmentMean",
        lambda x: rg.math.unsorted_segment_mean(x, IDS, 4),
        ((5, 3),),
        lambda x: _reduce(x, IDS, 4, np.mean, 0),
    ),
    Case(
        "UnsortedSegmentSqrtN",
        lambda x: rg.math.unsorted_segment_sqrt_n(x, IDS, 3),
        ((5,),),
        lambda x: _reduce(x, IDS, 3, lambda r, axis: r.sum(axis) / np.sqrt(len(r)), 0),
    ),
    Case(
        "SegmentSum",
        lambda x: rg.math.segment_sum(x, SORTED),
        ((5, 2),),
        lambda x: _reduce(x, SORTED, 3, np.sum, 0),
    ),
    Case(
        "SegmentMean",
        lambda x: rg.math.segment_mean(x, SORTED),
        ((5,),),
        lambda x: _reduce(x, SORTED, 3, np.mean, 0),
    ),
    Case(
        "SegmentMax",
        lambda x: rg.math.segment_max(x, SORTED),
        ((5, 2),),
        lambda x: _reduce(x, SORTED, 3, np.max, 0),
    ),
    Case(
        "SegmentMin",
        lambda x: rg.math.segment_min(x, SORTED),
        ((5,),),
        lambda x: _reduce(x, SORTED, 3, np.min, 0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_ties_share_the_gradient_equally():
    g = gradient_of(lambda x: rg.math.segment_max(x, [0, 0, 0, 1]), [2.0, 5.0, 5.0, 1.0])
    assert g.numpy().tolist() == [0.0, 0.5, 0.5, 1.0]


def test_empty_segments_follow_tensorflow():
    assert rg.math.unsorted_segment_max([1.0], [1], 2).numpy()[0] == np.finfo(np.float32).min
    assert rg.math.unsorted_segment_min([1], [1], 2).numpy()[0] == np.iinfo(np.int32).max
    assert rg.math.segment_max([1.0, 2.0], [0, 2]).numpy().tolist() == [1.0, 0.0, 2.0]


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: rg.math.segment_sum([1.0, 2.0], [1, 0]), "not increasing"),
        (lambda: rg.math.segment_sum([1.0, 2.0], [0, 0, 1]), "same size"),
        (lambda: rg.math.unsorted_segment_max([1.0, 2.0], [0, 3], 3), "out of range"),
        (lambda: rg.math.unsorted_segment_mean([1.0], [0], -1), "negative"),
    ],
)
def test_bad_ids_are_errors_naming_the_op(call, match):
    with pytest.raises(rg.errors.InvalidArgumentError, match=match):
        call()
