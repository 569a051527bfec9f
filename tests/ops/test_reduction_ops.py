"""Reductions and cumulative ops: values, gradients, ties, axes and dtypes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, check_forward, check_gradient


def _reductions(name, fn, reference, **kw):
    shapes_and_axes = [
        ((2, 3), None, False),
        ((2, 3), 1, False),
        ((2, 3, 2), [0, 2], True),
        ((3,), -1, True),
        ((), None, False),
    ]
    return [
        Case(
            f"{name}[axis={axis},keepdims={keep}]",
            lambda x, axis=axis, keep=keep: fn(x, axis=axis, keepdims=keep),
            (shape,),
            lambda x, axis=axis, keep=keep: reference(
                x, axis=None if axis is None else tuple(np.atleast_1d(axis)), keepdims=keep
            ),
            extra={"op": name},
            **kw,
        )
        for shape, axis, keep in shapes_and_axes
    ]


CASES = [
    *_reductions("Sum", rg.reduce_sum, np.sum),
    *_reductions("Mean", rg.reduce_mean, np.mean),
    *_reductions("Max", rg.reduce_max, np.max),
    *_reductions("Min", rg.reduce_min, np.min),
    *_reductions("Prod", rg.reduce_prod, np.prod, domain=(0.5, 1.5)),
    Case("Cumsum", lambda x: rg.cumsum(x, axis=1), ((2, 3),), lambda x: np.cumsum(x, 1)),
    Case(
        "Cumsum",
        lambda x: rg.cumsum(x, exclusive=True, reverse=True),
        ((4,),),
        lambda x: np.cumsum(x[::-1])[::-1] - x,
    ),
    Case(
        "Cumprod",
        lambda x: rg.math.cumprod(x, axis=0),
        ((3, 2),),
        lambda x: np.cumprod(x, 0),
        domain=(0.5, 1.5),
    ),
    Case(
        "Cumprod",
        lambda x: rg.math.cumprod(x, exclusive=True),
        ((4,),),
        lambda x: np.concatenate([[1.0], np.cumprod(x)[:-1]]),
        domain=(0.5, 1.5),
    ),  # fmt: skip
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case):
    check_gradient(case)


def test_max_shares_the_gradient_between_ties_as_tensorflow():
    x = rg.constant([1.0, 3.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_max(x)
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 0.5, 0.5]


def test_prod_gradient_is_right_with_a_zero_element():
    x = rg.constant([2.0, 0.0, 3.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_prod(x)
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 6.0, 0.0]


def test_integer_reductions_keep_their_dtype():
    x = rg.constant([1, 2, 4])
    assert rg.reduce_sum(x).dtype == rg.int32 and int(rg.reduce_sum(x)) == 7
    assert int(rg.reduce_mean(x)) == 2 and int(rg.reduce_mean(rg.constant([-1, -2]))) == -1
    assert rg.cumsum(x).numpy().tolist() == [1, 3, 7]


def test_empty_max_is_minus_infinity_as_tensorflow():
    assert rg.reduce_max(rg.zeros([0])).numpy() == -np.inf


def test_mean_over_no_elements_is_nan_without_a_warning():
    # Kernels' IEEE warnings are ignored when raised in retrograd (execute.py); NumPy's own
    # "mean of empty slice" was raised from inside NumPy and escaped that filter.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"retrograd\.")
        assert np.isnan(rg.reduce_mean(rg.zeros([0])).numpy())
        assert np.isnan(rg.reduce_mean(rg.zeros([2, 0]), axis=1).numpy()).all()
    assert not caught, [str(w.message) for w in caught]


@pytest.mark.parametrize("axis", [2, -3, [0, 0]])
def test_bad_axes_raise(axis):
    with pytest.raises(rg.errors.InvalidArgumentError, match="Sum"):
        rg.reduce_sum(rg.zeros([2, 3]), axis=axis)


def test_axis_may_be_an_integer_tensor():
    assert rg.reduce_sum(rg.ones([2, 3]), axis=rg.constant(1)).numpy().tolist() == [3.0, 3.0]


def test_reduce_any_and_all():
    x = rg.constant([[True, False], [False, False]])
    assert rg.reduce_any(x, axis=1).numpy().tolist() == [True, False]
    assert rg.math.reduce_all(x, axis=0, keepdims=True).numpy().tolist() == [[False, False]]
    assert bool(rg.reduce_any(x)) and not bool(rg.reduce_all(x))
    empty = rg.zeros([0], rg.bool)
    assert bool(rg.reduce_all(empty)) and not bool(rg.reduce_any(empty))


def test_argmax_and_argmin_take_the_first_of_ties_and_skip_nan_as_tensorflow():
    assert rg.argmax([[1, 3], [4, 2]]).numpy().tolist() == [1, 0]
    got = rg.math.argmax([[1, 3], [4, 2]], axis=1, output_type=rg.int32)
    assert got.dtype == rg.int32 and got.numpy().tolist() == [1, 0]
    assert rg.argmax([1, 3, 3]).dtype == rg.int64 and int(rg.argmax([1, 3, 3])) == 1
    assert int(rg.argmin([1, 1, 3])) == 0 and int(rg.argmax([True, False])) == 0
    assert int(rg.argmax([1.0, np.nan, 3.0])) == 2 and int(rg.argmin([1.0, np.nan, 3.0])) == 0
    assert int(rg.argmax([np.nan, 1.0])) == 1 and int(rg.argmin([np.nan, -np.inf])) == 1
    assert int(rg.argmax([np.nan, np.nan])) == 0
    assert rg.argmax([[1, 3], [4, 2]], axis=rg.constant(1)).numpy().tolist() == [1, 0]
    assert rg.argmax(rg.zeros([0, 3]), axis=1).shape == (0,)
    assert rg.argmin([1.0, 2.0], output_type=rg.int16).dtype == rg.int16


def test_logical_and_index_reductions_have_no_gradient():
    x = rg.constant([1.0, 3.0, 2.0])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        top = rg.cast(rg.argmax(x), rg.float32) * x
        low = rg.cast(rg.argmin(x), rg.float32)
        anything = rg.cast(rg.reduce_any(x > 2.0), rg.float32)
        everything = rg.cast(rg.reduce_all(x > 0.0), rg.float32)
    assert tape.gradient(top, x).numpy().tolist() == [1.0, 1.0, 1.0]  # only through `* x`
    for y in (low, anything, everything):
        assert tape.gradient(y, x) is None
    assert rg.gradient_registry.lookup("ArgMax") is None


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rg.reduce_any([1.0, 0.0]), TypeError, "Any: `input_tensor` must be a bool"),
        (lambda: rg.reduce_all([True], axis=1), rg.errors.InvalidArgumentError, "All"),
        (
            lambda: rg.argmax(3.0),
            rg.errors.InvalidArgumentError,
            r"ArgMax: Expected dimension in the range \[0, 0\), but got 0",
        ),
        (
            lambda: rg.argmax(rg.zeros([0])),
            rg.errors.InvalidArgumentError,
            r"Reduction axis 0 is empty in shape \[0\]",
        ),
        (
            lambda: rg.argmin([[1, 3]], axis=2),
            rg.errors.InvalidArgumentError,
            r"ArgMin: Expected dimension in the range \[-2, 2\)",
        ),
        (lambda: rg.argmax([[1, 3]], axis=[1]), TypeError, "axis must be an int"),
        (lambda: rg.argmax([1.0, 2.0], output_type=rg.float32), TypeError, "output_type"),
        (lambda: rg.argmax(rg.constant([1j])), TypeError, "ArgMax: `input`"),
    ],
)
def test_bad_arguments_to_the_new_reductions_raise(call, error, match):
    with pytest.raises(error, match=match):
        call()
