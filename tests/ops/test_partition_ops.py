"""dynamic_partition, dynamic_stitch, reverse_sequence, repeat and the space/batch/depth
moves: values against NumPy and gradients against finite differences to second order
(TensorFlow goldens: tests/api/data/cases_array.py)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _np_partition(x, parts, n):
    return [x[parts == k] for k in range(n)]


CASES = [
    Case("DynamicPartition", lambda x: rg.add_n([rg.reduce_sum(p * (k + 1.0)) for k, p in
                                                  enumerate(rg.dynamic_partition(x, [1, 0, 1], 2))]),
         ((3, 2),), lambda x: sum((k + 1.0) * np.sum(p) for k, p in
                                  enumerate(_np_partition(x, np.array([1, 0, 1]), 2)))),
    Case("DynamicStitch", lambda a, b: rg.dynamic_stitch([[0, 2], [1, 3]], [a, b]),
         ((2, 3), (2, 3)), lambda a, b: np.stack([a[0], b[0], a[1], b[1]])),
    Case("ReverseSequence", lambda x: rg.reverse_sequence(x, [2, 3], seq_axis=1, batch_axis=0),
         ((2, 4),), lambda x: np.stack([np.r_[x[0, 1::-1], x[0, 2:]], np.r_[x[1, 2::-1], x[1, 3:]]])),
    Case("Repeat", lambda x: rg.repeat(x, [2, 0, 1], axis=0), ((3, 2),),
         lambda x: np.repeat(x, [2, 0, 1], axis=0)),
    Case("Repeat", lambda x: rg.repeat(x, 2), ((2, 2),), lambda x: np.repeat(x, 2)),
    Case("space_to_batch_nd", lambda x: rg.space_to_batch_nd(x, [2], [[1, 1]]), ((2, 4, 3),)),
    Case("batch_to_space", lambda x: rg.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]),
         ((4, 2, 2, 1),)),
    Case("space_to_depth", lambda x: rg.nn.space_to_depth(x, 2), ((1, 4, 2, 3),)),
    Case("depth_to_space", lambda x: rg.nn.depth_to_space(x, 2), ((1, 2, 2, 8),)),
    Case("depth_to_space", lambda x: rg.nn.depth_to_space(x, 2, data_format="NCHW"),
         ((1, 8, 2, 1),)),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_space_moves_round_trip():
    x = rg.reshape(rg.range(48.0), [2, 4, 6, 1])
    there = rg.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]])
    assert there.shape.as_list() == [12, 2, 2, 1]
    assert np.array_equal(rg.batch_to_space(there, [2, 3], [[0, 0], [0, 0]]).numpy(), x.numpy())
    y = rg.reshape(rg.range(32.0), [1, 4, 4, 2])
    assert np.array_equal(rg.nn.depth_to_space(rg.nn.space_to_depth(y, 2), 2).numpy(), y.numpy())


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: rg.dynamic_partition([1, 2], [0, 5], 2),
            rg.errors.InvalidArgumentError,
            r"not in \[0, 2\)",
        ),
        (lambda: rg.dynamic_stitch([[0]], [[1], [2]]), ValueError, "same length"),
        (
            lambda: rg.reverse_sequence([[1, 2]], [3], 1, 0),
            rg.errors.InvalidArgumentError,
            "seq_lens",
        ),
        (lambda: rg.repeat([1, 2], [-1, 1]), rg.errors.InvalidArgumentError, ">= 0"),
        (
            lambda: rg.space_to_batch_nd(rg.zeros([1, 3, 1]), [2], [[0, 0]]),
            rg.errors.InvalidArgumentError,
            "divisible",
        ),
        (
            lambda: rg.nn.space_to_depth(rg.zeros([1, 3, 4, 1]), 2),
            rg.errors.InvalidArgumentError,
            "divisible",
        ),
        (lambda: rg.unique([[1, 2]]), rg.errors.InvalidArgumentError, "vector"),
    ],
)
def test_bad_arguments_raise_tensorflow_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
