"""Scatters: values, gradients, duplicate indices, slicing assignment, and index errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _scatter(out, indices, updates, add=True):
    out = np.array(out, dtype=np.result_type(out, updates))
    indices = np.asarray(indices)
    rows = indices.reshape(-1, indices.shape[-1])
    values = np.asarray(updates).reshape((len(rows), *out.shape[indices.shape[-1] :]))
    for row, value in zip(rows, values):
        if add:
            out[tuple(row)] += value
        else:
            out[tuple(row)] = value
    return out


def _combine(ufunc, out, indices, updates):
    out = np.array(out)
    for row, value in zip(np.asarray(indices).reshape(-1, 1), np.asarray(updates)):
        out[tuple(row)] = ufunc(out[tuple(row)], value)
    return out


def _assign(x, key, value):
    out = np.array(x)
    out[key] = value
    return out


IDX = [[1], [3], [1]]
IDX2 = [[[0, 1], [2, 0]], [[1, 1], [0, 1]]]

CASES = [
    Case(
        "ScatterNd",
        lambda u: rg.scatter_nd(IDX, u, [5]),
        ((3,),),
        lambda u: _scatter(np.zeros(5), IDX, u),
    ),
    Case(
        "ScatterNd",
        lambda u: rg.scatter_nd(IDX2, u, [3, 2, 2]),
        ((2, 2, 2),),
        lambda u: _scatter(np.zeros((3, 2, 2)), IDX2, u),
    ),
    Case(
        "ScatterNd",
        lambda u: rg.scatter_nd([2], u, [3]),
        ((),),
        lambda u: np.array([0.0, 0.0, u]),
    ),
    Case(
        "ScatterNd",
        lambda u: rg.scatter_nd([[0]], u, [1]),
        ((1,),),
        lambda u: u,
    ),
    Case(
        "TensorScatterAdd",
        lambda t, u: rg.tensor_scatter_nd_add(t, IDX, u),
        ((5, 2), (3, 2)),
        lambda t, u: _scatter(t, IDX, u),
    ),
    Case(
        "TensorScatterAdd",
        lambda t, u: rg.tensor_scatter_nd_add(t, np.zeros((2, 0), np.int32), u),
        ((2,), (2, 2)),
        lambda t, u: t + u.sum(0),
    ),
    Case(
        "TensorScatterSub",
        lambda t, u: rg.tensor_scatter_nd_sub(t, IDX, u),
        ((5, 2), (3, 2)),
        lambda t, u: _scatter(t, IDX, -u),
    ),
    Case(
        "TensorScatterMin",
        lambda t, u: rg.tensor_scatter_nd_min(t, IDX, u),
        ((5, 2), (3, 2)),
        lambda t, u: _combine(np.minimum, t, IDX, u),
    ),
    Case(
        "TensorScatterMax",
        lambda t, u: rg.tensor_scatter_nd_max(t, IDX, u),
        ((5, 2), (3, 2)),
        lambda t, u: _combine(np.maximum, t, IDX, u),
    ),
    Case(
        "TensorScatterUpdate",
        lambda t, u: rg.tensor_scatter_nd_update(t, [[3], [1]], u),
        ((5, 2), (2, 2)),
        lambda t, u: _scatter(t, [[3], [1]], u, add=False),
    ),
    Case(
        "TensorScatterUpdate",
        lambda t, u: rg.tensor_scatter_nd_update(t, [[0, 1], [1, 2]], u),
        ((2, 3), (2,)),
        lambda t, u: _scatter(t, [[0, 1], [1, 2]], u, add=False),
    ),
    # Slicing assignment, x[1:3, ::2] = u, written as an update of the chosen entries.
    Case(
        "TensorScatterUpdate",
        lambda x, u: rg.tensor_scatter_nd_update(x, [[[1, 0], [1, 2]], [[2, 0], [2, 2]]], u),
        ((4, 3), (2, 2)),
        lambda x, u: _assign(x, (slice(1, 3), slice(None, None, 2)), u),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_slicing_assignment_through_tensor_scatter_nd_update():
    # x[1:3] = v, with gradients to both x (where not overwritten) and v.
    x = rg.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    v = rg.constant([[10.0, 20.0], [30.0, 40.0]])
    rows = [[1], [2]]  # the index vectors of the rows 1:3
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([x, v])
        y = rg.tensor_scatter_nd_update(x, rows, v)
        loss = rg.reduce_sum(y * y)
    assert y.numpy().tolist() == [[1.0, 2.0], [10.0, 20.0], [30.0, 40.0], [7.0, 8.0]]
    gx, gv = tape.gradient(loss, [x, v])
    assert gx.numpy().tolist() == [[2.0, 4.0], [0.0, 0.0], [0.0, 0.0], [14.0, 16.0]]
    assert gv.numpy().tolist() == (2 * v).numpy().tolist()


def test_duplicates_sum_in_scatters_and_the_last_update_wins():
    assert rg.scatter_nd(IDX, [1.0, 2.0, 3.0], [5]).numpy().tolist() == [0, 4, 0, 2, 0]
    t = rg.constant([1.0, 2.0, 3.0, 4.0])
    assert rg.tensor_scatter_nd_add(t, [[1], [1]], [9.0, 8.0]).numpy().tolist() == [1, 19, 3, 4]
    assert rg.tensor_scatter_nd_update(t, [[1], [1]], [9.0, 8.0]).numpy().tolist() == [1, 8, 3, 4]


def test_duplicate_updates_all_receive_the_gradient_as_in_tensorflow():
    t, u = rg.constant([1.0, 2.0, 3.0, 4.0]), rg.constant([9.0, 8.0])
    w = rg.constant([1.0, 2.0, 3.0, 4.0])
    with rg.GradientTape() as tape:
        tape.watch([t, u])
        y = rg.tensor_scatter_nd_update(t, [[1], [1]], u) * w
    gt, gu = tape.gradient(y, [t, u])
    assert gt.numpy().tolist() == [1.0, 0.0, 3.0, 4.0] and gu.numpy().tolist() == [2.0, 2.0]


def test_ignore_policy_drops_out_of_range_updates():
    got = rg.scatter_nd([[1], [7]], [1.0, 2.0], [5], bad_indices_policy="IGNORE")
    assert got.numpy().tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]
    got = rg.tensor_scatter_nd_add([1.0, 2.0], [[4]], [9.0], bad_indices_policy="IGNORE")
    assert got.numpy().tolist() == [1.0, 2.0]
    rg.check_gradients(
        lambda u: rg.scatter_nd([[1], [7]], u, [3], bad_indices_policy="IGNORE"), [1.0, 2.0]
    )


def test_dtypes_are_kept_and_updates_adopt_the_tensor_dtype():
    assert rg.scatter_nd([[1]], rg.constant([2], rg.int64), [3]).dtype == rg.int64
    assert rg.tensor_scatter_nd_update([1.0, 2.0], [[1]], [9]).numpy().tolist() == [1.0, 9.0]
    assert rg.tensor_scatter_nd_update([False, False], [[1]], [True]).dtype == rg.bool


ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.scatter_nd([[1], [7]], [1.0, 2.0], [5]),
            ERR,
            r"ScatterNd: indices\[1\] = \[7\] does not index into shape \[5\]",
        ),
        (lambda: rg.scatter_nd([[-1]], [1.0], [5]), ERR, r"indices\[0\] = \[-1\]"),
        (
            lambda: rg.scatter_nd([[1], [3]], [1.0, 2.0, 3.0], [5]),
            ERR,
            r"updates must have shape \[2\]",
        ),
        (lambda: rg.scatter_nd(1, 5.0, [5]), ERR, "rank at least one"),
        (lambda: rg.scatter_nd([[1, 1]], [1.0], [5]), ERR, "index depth 2"),
        (lambda: rg.scatter_nd([[1]], [5.0], [-5]), ERR, "negative"),
        (lambda: rg.scatter_nd([[1.0]], [5.0], [5]), TypeError, "int32 or int64"),
        (
            lambda: rg.scatter_nd([[1]], [5.0], [5], bad_indices_policy="FOO"),
            ERR,
            "Unknown bad indices",
        ),
        (
            lambda: rg.tensor_scatter_nd_update([1.0, 2.0], [[2]], [9.0]),
            ERR,
            r"TensorScatterUpdate: indices\[0\] = \[2\] does not index into shape \[2\]",
        ),
        (lambda: rg.tensor_scatter_nd_add([1.0, 2.0], [[2]], [9.0]), ERR, "TensorScatterAdd"),
        (
            lambda: rg.tensor_scatter_nd_update(rg.zeros([2, 3]), [[1]], [[1.0, 2.0]]),
            ERR,
            r"updates must have shape \[1, 3\]",
        ),
        (
            lambda: rg.tensor_scatter_nd_update(
                rg.constant([1.0]), [[0]], rg.constant([1], rg.int32)
            ),
            TypeError,
            "same dtype",
        ),
        (lambda: rg.tensor_scatter_nd_add([True], [[0]], [True]), TypeError, "TensorScatterAdd"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
