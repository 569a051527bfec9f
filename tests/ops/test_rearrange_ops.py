"""tile, reverse and roll: values, gradients, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

CASES = [
    Case("Tile", lambda x: rg.tile(x, [2, 1, 3]), ((2, 3, 1),), lambda x: np.tile(x, (2, 1, 3))),
    Case("Tile", lambda x: rg.tile(x, [3]), ((1,),), lambda x: np.tile(x, 3)),
    Case("Tile", lambda x: rg.tile(x, []), ((),), lambda x: x),
    Case("Tile", lambda x: rg.tile(x, [0, 2]), ((2, 3),), lambda x: np.tile(x, (0, 2))),
    Case("Tile", lambda x: rg.tile(x, rg.constant([2, 2], rg.int64)), ((0, 2),), lambda x: np.tile(x, (2, 2))),
    Case("ReverseV2", lambda x: rg.reverse(x, [0, -1]), ((2, 3),), lambda x: x[::-1, ::-1]),
    Case("ReverseV2", lambda x: rg.reverse(x, [1]), ((2, 1, 2),), lambda x: x[:, ::-1]),
    Case("ReverseV2", lambda x: rg.reverse(x, []), ((3,),), lambda x: x),
    Case("Roll", lambda x: rg.roll(x, 1, 0), ((4,),), lambda x: np.roll(x, 1)),
    Case("Roll", lambda x: rg.roll(x, [1, -1, 2], [0, 1, 0]), ((3, 4),), lambda x: np.roll(x, (3, -1), (0, 1))),
    Case("Roll", lambda x: rg.roll(x, -5, -1), ((2, 3),), lambda x: np.roll(x, -5, 1)),
    Case("Roll", lambda x: rg.roll(x, 2, 0), ((0, 2),), lambda x: x),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_tile_gradient_sums_the_copies():
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.tile(x, [3]) * rg.range(6.0)
    assert tape.gradient(y, x).numpy().tolist() == [0.0 + 2 + 4, 1.0 + 3 + 5]


def test_integer_and_bool_tensors_are_rearranged():
    assert rg.tile([True], [2]).numpy().tolist() == [True, True]
    assert rg.reverse([[1, 2], [3, 4]], [-1, 0]).numpy().tolist() == [[4, 3], [2, 1]]
    assert rg.roll([[1, 2], [3, 4]], [1, 1], [0, 1]).numpy().tolist() == [[4, 3], [2, 1]]


ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.tile([[1, 2]], [2]),
            ERR,
            "Tile: Expected multiples argument to be a vector of length 2 but got length 1",
        ),
        (lambda: rg.tile([[1, 2]], [2, -1]), ERR, r"Expected multiples\[1\] >= 0, but got -1"),
        (
            lambda: rg.tile([[1, 2]], [2.0, 1.0]),
            TypeError,
            "Tile: `multiples` must be a list of ints",
        ),
        (lambda: rg.reverse([[1, 2]], [1, 1]), ERR, "ReverseV2: axis 1 specified more than once"),
        (lambda: rg.reverse([[1, 2]], [1, -1]), ERR, "specified more than once"),
        (lambda: rg.reverse([[1, 2]], [2]), ERR, r"'axis'\[0\] = 2 is out of valid range"),
        (lambda: rg.reverse([[1, 2]], 1), ERR, "1-D list"),
        (lambda: rg.roll([1, 2], [1, 2], [0]), ERR, "Roll: shift and axis must have the same size"),
        (lambda: rg.roll([1, 2], 1, 1), ERR, "Roll: axis 1 is out of range"),
        (lambda: rg.roll(1, 1, 0), ERR, "Roll: input must be 1-D or higher"),
        (lambda: rg.roll([1, 2], 0.5, 0), TypeError, "shift"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_graph_knows_a_tile_shape_without_computing_it():
    with rg.Graph().as_default():
        x = rg.compat.v1.placeholder(rg.float32, [None, 3])
        huge = rg.tile(x, [1, 10**10])  # (computed to learn its shape, it would need 120 GB)
        assert huge.shape.as_list() == [None, 3 * 10**10]
        assert rg.tile(rg.ones([2, 1]), [2, 3]).shape.as_list() == [4, 3]
