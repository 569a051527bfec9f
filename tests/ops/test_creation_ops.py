"""one_hot, range, linspace and meshgrid: values, dtypes, gradients, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient

CASES = [
    Case("linspace", lambda a, b: rg.linspace(a, b, 5), ((), ()), lambda a, b: np.linspace(a, b, 5)),
    Case("linspace", lambda a, b: rg.linspace(a, b, 2), ((), ()), lambda a, b: np.stack([a, b])),
    Case("linspace", lambda a, b: rg.linspace(a, b, 1), ((), ()), lambda a, b: a[None]),
    Case("linspace", lambda a, b: rg.linspace(a, b, 0), ((2,), ()), lambda a, b: np.zeros((0, 2))),
    Case(
        "linspace",
        lambda a, b: rg.linspace(a, b, 4, axis=-1),
        ((2, 1), (3,)),
        lambda a, b: np.linspace(a, b, 4, axis=-1),
    ),
    Case(
        "linspace",
        lambda a, b: rg.linspace(a, b, 3, axis=1),
        ((2,), (2,)),
        lambda a, b: np.linspace(a, b, 3, axis=1),
    ),
    Case(
        "meshgrid",
        lambda x, y: rg.meshgrid(x, y),
        ((3,), (2,)),
        lambda x, y: np.meshgrid(x, y),
    ),
    Case(
        "meshgrid",
        lambda x, y, z: rg.meshgrid(x, y, z, indexing="ij"),
        ((2,), (1,), (3,)),
        lambda x, y, z: np.meshgrid(x, y, z, indexing="ij"),
    ),
    Case(
        "meshgrid",
        lambda x, y, z: rg.meshgrid(x, y, z),
        ((2,), (3,), (2,)),
        lambda x, y, z: np.meshgrid(x, y, z),
    ),
    Case(
        "meshgrid",
        lambda x, y: rg.meshgrid(x, y),
        ((2, 2), ()),
        lambda x, y: np.meshgrid(x.ravel(), y.ravel()),
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_one_hot_values_axes_and_dtypes():
    assert rg.one_hot([0, 2, -1, 5], 3).numpy().tolist() == [
        [1, 0, 0],
        [0, 0, 1],
        [0, 0, 0],
        [0, 0, 0],
    ]
    assert rg.one_hot([0, 2], 3).dtype == rg.float32
    assert rg.one_hot([0, 2], 3, axis=0).numpy().tolist() == [[1, 0], [0, 0], [0, 1]]
    assert rg.one_hot([[0, 2]], 3, axis=1).shape == (1, 3, 2)
    assert rg.one_hot([[0, 2]], 3, axis=-1).shape == (1, 2, 3)
    got = rg.one_hot([0, 2], 3, on_value=5, off_value=-1)
    assert got.dtype == rg.int32 and got.numpy().tolist() == [[5, -1, -1], [-1, -1, 5]]
    assert rg.one_hot([0], 2, on_value=5).numpy().tolist() == [[5, 0]]
    assert rg.one_hot([0], 2, dtype=rg.int64).dtype == rg.int64
    assert rg.one_hot([0], 2, on_value=True, off_value=False).dtype == rg.bool
    assert rg.one_hot(rg.constant([1], rg.uint8), 2).numpy().tolist() == [[0, 1]]
    assert rg.one_hot(1, 3).numpy().tolist() == [0, 1, 0]
    assert rg.one_hot([0, 1], 0).shape == (2, 0)


def test_range_values_and_dtype_inference():
    assert rg.range(5).numpy().tolist() == [0, 1, 2, 3, 4] and rg.range(5).dtype == rg.int32
    assert rg.range(1, 2.5, 0.5).numpy().tolist() == [1.0, 1.5, 2.0]
    assert rg.range(1, 2.5, 0.5).dtype == rg.float32
    assert rg.range(5, 1, -2).numpy().tolist() == [5, 3]
    assert rg.range(1, 1).shape == (0,)
    assert rg.range(5, dtype=rg.float64).dtype == rg.float64
    assert rg.range(rg.constant(5, rg.int64)).dtype == rg.int64
    assert rg.range(rg.constant(1, rg.int64), 3.0).dtype == rg.float32
    assert rg.range(rg.constant(1), rg.constant(3.0, rg.float64)).dtype == rg.float64
    assert rg.range(2**40, 2**40 + 3).numpy().tolist() == [2**40, 2**40 + 1, 2**40 + 2]
    np.testing.assert_allclose(rg.range(0.0, 1.0, 0.1).numpy(), np.arange(10) * np.float32(0.1))
    assert rg.range(0.0, 1.0, 1 / 3).shape == (3,)


def test_linspace_ends_are_exact_and_integers_give_float64():
    got = rg.linspace(0.1, 0.7, 7).numpy()
    assert got[0] == np.float32(0.1) and got[-1] == np.float32(0.7)
    assert rg.linspace(0, 1, 3).dtype == rg.float64
    assert rg.linspace(0.0, 1.0, rg.constant(3)).numpy().tolist() == [0.0, 0.5, 1.0]


def test_meshgrid_of_nothing_and_of_one_vector():
    assert rg.meshgrid() == []
    assert [g.numpy().tolist() for g in rg.meshgrid([1, 2])] == [[1, 2]]


def test_one_hot_and_range_have_no_gradient():
    on, start = rg.constant(2.0), rg.constant(1.0)
    with rg.GradientTape(persistent=True) as tape:
        tape.watch([on, start])
        hot = rg.one_hot([0, 2], 3, on_value=on, off_value=0.0)
        r = rg.range(start, 3.0)
    assert tape.gradient(hot, on) is None and tape.gradient(r, start) is None


ERR = rg.errors.InvalidArgumentError


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: rg.one_hot([[0, 2]], 3, axis=3),
            ERR,
            r"OneHot: Expected axis to be -1 or between \[0, 3\)",
        ),
        (lambda: rg.one_hot([[0, 2]], 3, axis=-2), ERR, "Expected axis to be -1"),
        (
            lambda: rg.one_hot([0, 2], 3, on_value=5.0, off_value=-1),
            TypeError,
            "dtype float32 of on_value does not match dtype int32 of off_value",
        ),
        (
            lambda: rg.one_hot([0, 2], 3, on_value=1.0, dtype=rg.int64),
            TypeError,
            "does not match dtype parameter int64",
        ),
        (lambda: rg.one_hot([0.0, 2.0], 3), TypeError, "OneHot: `indices` must be"),
        (lambda: rg.one_hot([0, 2], -1), ERR, "depth must be non-negative"),
        (lambda: rg.one_hot([0, 2], 3, on_value=[1.0, 2.0]), ERR, "on_value must be a scalar"),
        (lambda: rg.range(5, 1), ERR, "Range: Requires start <= limit when delta > 0: 5/1"),
        (lambda: rg.range(1, 5, -1), ERR, "Requires start >= limit when delta < 0"),
        (lambda: rg.range(1, 5, 0), ERR, "Requires delta != 0"),
        (lambda: rg.range(1.5, 4, dtype=rg.int32), TypeError, "int32"),
        (lambda: rg.range(5, dtype=rg.uint8), TypeError, "Range: dtype must be one of"),
        (lambda: rg.range([1, 2]), ERR, r"Range: limit must be a scalar, not shape \[2\]"),
        (lambda: rg.range(True), TypeError, "Range: `limit`"),
        (lambda: rg.linspace(0.0, 1.0, -1), ERR, "LinSpace: num must be non-negative"),
        (lambda: rg.linspace(0.0, 1.0, 3.0), TypeError, "LinSpace: `num` must be an integer"),
        (
            lambda: rg.linspace(rg.constant(0.0, rg.float64), rg.constant(1.0), 3),
            TypeError,
            "same dtype",
        ),
        (lambda: rg.linspace([0.0, 1.0], [0.0, 1.0, 2.0], 3), ERR, "not broadcastable"),
        (lambda: rg.linspace(0.0, 1.0, 3, axis=2), ERR, "axis 2 is out of range"),
        (lambda: rg.meshgrid([1, 2], [3], indexing="xx"), ValueError, "'xy' or 'ij'"),
        (lambda: rg.meshgrid([1, 2], [3], foo=1), TypeError, "'foo' is an invalid keyword"),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
