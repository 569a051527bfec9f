"""Padding: constant and mirror modes, values, gradients (the mirror fold), and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import pad_ops
from tests.ops.table import Case, check_forward, check_gradient


def _mirror_fold(g, paddings, mode):
    """NumPy reference for MirrorPadGrad: add each padded entry onto the entry it copied."""
    np_mode = mode.lower()
    for axis, (before, after) in enumerate(paddings):
        n = g.shape[axis] - before - after
        source = np.pad(np.arange(n), (before, after), mode=np_mode)
        moved = np.moveaxis(g, axis, 0)
        out = np.zeros((n, *moved.shape[1:]))
        np.add.at(out, source, moved)
        g = np.moveaxis(out, 0, axis)
    return g


PADS = [[1, 0], [0, 2]]
MIRROR = [[2, 1], [0, 2]]

CASES = [
    Case("Pad", lambda x: rg.pad(x, PADS), ((2, 3),), lambda x: np.pad(x, PADS)),
    Case("Pad", lambda x: rg.pad(x, [[0, 0], [0, 0]]), ((2, 1),), lambda x: x),
    Case("Pad", lambda x: rg.pad(x, [[2, 1]]), ((0,),), lambda x: np.zeros(3)),
    Case("Pad", lambda x: rg.pad(x, []), ((),), lambda x: x),
    Case(
        "PadV2",
        lambda x: rg.pad(x, PADS, constant_values=3.0),
        ((2, 3),),
        lambda x: np.pad(x, PADS, constant_values=3.0),
    ),
    Case(
        "MirrorPad",
        lambda x: rg.pad(x, MIRROR, mode="REFLECT"),
        ((3, 3),),
        lambda x: np.pad(x, MIRROR, mode="reflect"),
    ),
    Case(
        "MirrorPad",
        lambda x: rg.pad(x, [[3, 2], [1, 1]], mode="symmetric"),
        ((3, 1),),
        lambda x: np.pad(x, [[3, 2], [1, 1]], mode="symmetric"),
    ),
    Case(
        "MirrorPad",
        lambda x: rg.pad(x, [[0, 0]], mode="REFLECT"),
        ((2,),),
        lambda x: x,
    ),
    Case(
        "MirrorPadGrad",
        lambda g: pad_ops.mirror_pad_grad(g, ((2, 1), (0, 2)), "REFLECT"),
        ((6, 5),),
        lambda g: _mirror_fold(g, ((2, 1), (0, 2)), "REFLECT"),
    ),
    Case(
        "MirrorPadGrad",
        lambda g: pad_ops.mirror_pad_grad(g, ((3, 3),), "SYMMETRIC"),
        ((9,),),
        lambda g: _mirror_fold(g, ((3, 3),), "SYMMETRIC"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_constant_values_get_no_gradient_as_in_tensorflow():
    x, c = rg.constant([1.0, 2.0]), rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch([x, c])
        y = rg.pad(x, [[1, 1]], constant_values=c)
    gx, gc = tape.gradient(y, [x, c])
    assert gx.numpy().tolist() == [1.0, 1.0] and gc is None


def test_mirror_gradients_fold_back_onto_the_copied_values():
    x = rg.constant([1.0, 2.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.pad(x, [[2, 2]], mode="REFLECT") * rg.range(1.0, 8.0)
    assert tape.gradient(y, x).numpy().tolist() == [10.0, 12.0, 6.0]


def test_integer_and_bool_tensors_pad_and_paddings_may_be_a_tensor():
    assert rg.pad([[1, 2], [3, 4]], rg.constant([[1, 0], [0, 1]])).numpy().tolist() == [
        [0, 0, 0],
        [1, 2, 0],
        [3, 4, 0],
    ]
    assert rg.pad([True], [[1, 0]], constant_values=True).numpy().tolist() == [True, True]


ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.pad([[1, 2, 3]], [[0, 0], [1, 1]], mode="wrap"),
            ValueError,
            "pad: `mode` must be one of",
        ),
        (lambda: rg.pad([[1, 2, 3]], [[0, 0], [-1, 1]]), ERR, "Pad: paddings must be non-negative"),
        (
            lambda: rg.pad([[1, 2, 3]], [[0, 0]]),
            ERR,
            "first dimension of paddings must be the rank",
        ),
        (lambda: rg.pad([[1, 2, 3]], [0, 0, 1, 1]), ERR, "matrix with 2 columns"),
        (lambda: rg.pad([1.0], [[0.5, 1]]), TypeError, "paddings must be integers"),
        (
            lambda: rg.pad([[1, 2, 3]], [[0, 0], [3, 0]], mode="REFLECT"),
            ERR,
            "MirrorPad: REFLECT paddings must be less than the dimension size: 3, 0 not less than 3",
        ),
        (
            lambda: rg.pad([[1, 2, 3]], [[0, 0], [4, 0]], mode="SYMMETRIC"),
            ERR,
            "no greater than the dimension size: 4, 0 greater than 3",
        ),
        (lambda: rg.pad(rg.zeros([0]), [[0, 0]], mode="REFLECT"), ERR, "0, 0 not less than 0"),
        (
            lambda: rg.pad([1.0, 2.0], [[1, 1]], constant_values=[3.0, 4.0]),
            ERR,
            "PadV2: constant_values must be a scalar",
        ),
        (lambda: rg.pad([1, 2], [[1, 1]], constant_values=2.5), TypeError, "int32"),
        (
            lambda: rg.pad(rg.constant([1.0]), [[1, 1]], constant_values=rg.constant(3)),
            TypeError,
            "PadV2: x and y must have the same dtype",
        ),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_a_graph_knows_a_padded_shape_without_computing_it(mode):
    with rg.Graph().as_default():
        x = rg.compat.v1.placeholder(rg.float32, [None, 3])
        if mode == "CONSTANT":
            huge = rg.pad(x, [[0, 0], [10**10, 10**10]])  # (computed: 80 GB)
            assert huge.shape.as_list() == [None, 3 + 2 * 10**10]
        small = rg.pad(rg.ones([2, 3]), [[1, 1], [2, 0]], mode=mode)
        assert small.shape.as_list() == [4, 5]
