"""Shape and selection ops: values, gradients, and the errors for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.core.execute import OP_DEFS, execute
from tests.ops.table import Case, check_forward, check_gradient


def _shape_of(op_type, like_shape):
    """The dynamic-shape op ``op_type`` (used in graphs) applied with a tensor of like_shape."""
    like = rg.zeros(like_shape)
    return lambda x: execute(OP_DEFS[op_type], (x, like))


CASES = [
    Case("Reshape", lambda x: rg.reshape(x, [3, 2]), ((2, 3),), lambda x: x.reshape(3, 2)),
    Case("Reshape", lambda x: rg.reshape(x, [-1]), ((2, 3),), lambda x: x.reshape(-1)),
    Case("Transpose", rg.transpose, ((2, 3),), np.transpose),
    Case(
        "Transpose",
        lambda x: rg.transpose(x, [1, 2, 0]),
        ((2, 3, 2),),
        lambda x: x.transpose(1, 2, 0),
    ),
    Case("ExpandDims", lambda x: rg.expand_dims(x, -1), ((2, 3),), lambda x: x[..., None]),
    Case("Squeeze", rg.squeeze, ((2, 1, 3),), np.squeeze),
    Case("Squeeze", lambda x: rg.squeeze(x, [1]), ((1, 1, 3),), lambda x: x[:, 0]),
    Case(
        "ConcatV2",
        lambda a, b: rg.concat([a, b], 1),
        ((2, 3), (2, 1)),
        lambda a, b: np.concatenate([a, b], 1),
    ),
    Case(
        "ConcatV2",
        lambda a, b: rg.concat([a, b, a], -2),
        ((2, 3), (1, 3)),
        lambda a, b: np.concatenate([a, b, a], 0),
    ),
    Case(
        "Pack", lambda a, b: rg.stack([a, b], 1), ((2, 3), (2, 3)), lambda a, b: np.stack([a, b], 1)
    ),
    Case(
        "StridedSlice",
        lambda x: rg.slice(x, [1, 0, 1], [-1, 2, 2]),
        ((3, 2, 4),),
        lambda x: x[1:, 0:2, 1:3],
    ),
    Case("Pack", lambda a, b: rg.stack([a, b]), ((), ()), lambda a, b: np.stack([a, b])),
    Case("Unpack", lambda x: rg.unstack(x, axis=1)[2], ((2, 3),), lambda x: x[:, 2]),
    Case("Unpack", lambda x: rg.unstack(x)[0] * rg.unstack(x)[1], ((2, 3),), lambda x: x[0] * x[1]),
    Case("SplitV", lambda x: rg.split(x, [1, 2], axis=1)[1], ((2, 3),), lambda x: x[:, 1:]),
    Case(
        "SplitV",
        lambda x: rg.split(x, 2)[0] * rg.split(x, 2)[1],
        ((4, 2),),
        lambda x: x[:2] * x[2:],
    ),
    Case("StridedSlice", lambda x: x[1], ((3, 2),), lambda x: x[1]),
    Case("StridedSlice", lambda x: x[::-2, None, 1:], ((3, 3),), lambda x: x[::-2, None, 1:]),
    Case("StridedSlice", lambda x: x[..., -1], ((2, 2, 3),), lambda x: x[..., -1]),
    Case(
        "BroadcastTo",
        lambda x: rg.broadcast_to(x, [2, 3, 2]),
        ((3, 1),),
        lambda x: np.broadcast_to(x, (2, 3, 2)),
    ),
    Case(
        "BroadcastLike",
        _shape_of("BroadcastLike", (2, 3, 2)),
        ((3, 1),),
        lambda x: np.broadcast_to(x, (2, 3, 2)),
    ),
    Case(
        "UnbroadcastLike",
        _shape_of("UnbroadcastLike", (3, 1)),
        ((2, 3, 1),),
        lambda g: g.sum(axis=0),
    ),
    Case(
        "UnbroadcastLike",
        _shape_of("UnbroadcastLike", (1, 2)),
        ((3, 2),),
        lambda g: g.sum(axis=0, keepdims=True),
    ),
    Case("ReshapeLike", _shape_of("ReshapeLike", (3, 2)), ((2, 3),), lambda x: x.reshape(3, 2)),
    Case("Fill", lambda v: rg.fill([2, 2], v), ((),), lambda v: np.full((2, 2), v)),
    Case("Identity", rg.identity, ((2, 3),), lambda x: x),
    Case(
        "SelectV2",
        lambda x, y: rg.where(x > 0, x, y),
        ((2, 3), (3,)),
        lambda x, y: np.where(x > 0, x, y),
    ),
    Case(
        "SelectV2",
        lambda x, y: rg.where([True, False, True], x, y),
        ((2, 3), ()),
        lambda x, y: np.where([True, False, True], x, y),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_strided_slice_grad_is_differentiable_in_its_upstream_gradient():
    # The gradient of a slice is a StridedSliceGrad; its own gradient is a slice again.
    like = rg.zeros([4, 3], rg.float64)
    rg.check_gradients(
        lambda g: rg.ops.array_ops.strided_slice_grad(g, like, (slice(1, 3), 0)),
        np.ones(2),
        order=2,
    )


def test_unused_outputs_of_multi_output_ops_get_zero_gradients():
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        first, _ = rg.unstack(x)
    assert tape.gradient(first, x).numpy().tolist() == [1.0, 0.0]


def test_stop_gradient_blocks_only_its_path():
    x = rg.constant(3.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.stop_gradient(x) * x
    assert tape.gradient(y, x).numpy() == 3.0


def test_zeros_ones_and_like_functions():
    assert rg.zeros([2]).dtype == rg.float32 and rg.zeros([2], rg.int32).dtype == rg.int32
    assert rg.ones_like(rg.constant([1, 2])).numpy().tolist() == [1, 1]
    assert rg.zeros_like([1.0, 2.0], dtype=rg.int64).dtype == rg.int64
    assert rg.fill([2], 3).numpy().tolist() == [3, 3]


def test_shape_rank_size():
    x = rg.zeros([2, 3])
    assert rg.shape(x).numpy().tolist() == [2, 3] and rg.shape(x).dtype == rg.int32
    assert int(rg.rank(x)) == 2 and int(rg.size(x)) == 6


def test_where_with_one_argument_gives_indices():
    assert rg.where([[True, False], [False, True]]).numpy().tolist() == [[0, 0], [1, 1]]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.reshape(rg.zeros([2, 3]), [4]), rg.errors.InvalidArgumentError, "Reshape"),
        (lambda: rg.transpose(rg.zeros([2, 3]), [0, 0]), rg.errors.InvalidArgumentError, "perm"),
        (lambda: rg.squeeze(rg.zeros([2, 3]), [1]), rg.errors.InvalidArgumentError, "squeeze dim"),
        (lambda: rg.expand_dims(rg.zeros([2]), 3), rg.errors.InvalidArgumentError, "ExpandDims"),
        (
            lambda: rg.concat([rg.zeros([2]), rg.zeros([2], rg.int32)], 0),
            TypeError,
            "ConcatV2.*float32.*int32",
        ),
        (
            lambda: rg.concat([rg.zeros([2]), rg.zeros([2, 1])], 0),
            rg.errors.InvalidArgumentError,
            "ConcatV2",
        ),
        (
            lambda: rg.stack([rg.zeros([2]), rg.zeros([3])]),
            rg.errors.InvalidArgumentError,
            "same shape",
        ),
        (lambda: rg.split(rg.zeros([5]), 2), rg.errors.InvalidArgumentError, "equal parts"),
        (lambda: rg.split(rg.zeros([5]), [2, 2]), rg.errors.InvalidArgumentError, "add up"),
        (lambda: rg.unstack(rg.constant(1.0)), ValueError, "scalar"),
        (lambda: rg.where([True], [1.0], None), ValueError, "both"),
        (lambda: rg.where([1.0], [1.0], [2.0]), TypeError, "bool"),
        (
            lambda: rg.broadcast_to(rg.zeros([3]), [2]),
            rg.errors.InvalidArgumentError,
            "BroadcastTo",
        ),
        (lambda: rg.fill([2], [1.0, 2.0]), rg.errors.InvalidArgumentError, "scalar"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_split_accepts_one_inferred_size():
    parts = rg.split(rg.constant([1, 2, 3, 4, 5]), [2, -1])
    assert [p.numpy().tolist() for p in parts] == [[1, 2], [3, 4, 5]]


@pytest.mark.parametrize(
    "begin, size, message",
    [
        ([0, 2], [1, 2], r"size\[1\] in \[0, 1\], but got 2"),
        ([4, 0], [0, 1], r"begin\[0\]"),
        ([0], [1], "2 entries"),
    ],
)
def test_slice_bounds_are_checked(begin, size, message):
    with pytest.raises(rg.errors.InvalidArgumentError, match=message):
        rg.slice(rg.zeros([3, 3]), begin, size)
