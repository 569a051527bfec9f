"""The shape/indexing ops and reductions against TensorFlow itself: the same program runs
with ``m = retrograd`` here and ran with ``m = tensorflow`` for the stored goldens
(data/tf_comparison_array_reduce.npz, made by data/make_tf_comparison_goldens.py), on the
same inputs; values, first and second derivatives must agree."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import tf_comparison as comparison  # noqa: E402
import tf_comparison_array_reduce as cases  # noqa: E402

GOLDENS = np.load(DATA / "tf_comparison_array_reduce.npz")


def _golden(key: str) -> dict:
    found = comparison.unpack(GOLDENS, key)
    assert found is not None, f"no golden for {key}: run data/make_tf_comparison_goldens.py"
    return found


@pytest.mark.parametrize("name, program, shapes, second_order", cases.PROGRAMS, ids=lambda p: p)
def test_values_and_gradients_match_tensorflow(name, program, shapes, second_order):
    arrays = cases.arrays(name, shapes)
    order = 2 if second_order else 1
    got = comparison.differentiate(rg, lambda *xs: program(rg, *xs), arrays, order, name)
    expected = _golden(name)
    for part in comparison.PARTS:
        for ours, theirs in zip(got[part], expected[part]):
            theirs = np.zeros_like(ours) if theirs is None and ours is not None else theirs
            ours = np.zeros_like(theirs) if ours is None and theirs is not None else ours
            if ours is None:
                continue
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, err_msg=name)


def test_moments_second_derivatives_differ_from_tensorflow_by_the_mean_term():
    # TensorFlow stops the gradient at the mean inside the variance; retrograd does not, so
    # its second derivative is exact: ours - theirs = -2/n^2 (the mean's contribution).
    np.testing.assert_allclose(cases.moments_second_derivative(rg), [4 / 9, -2 / 9, -2 / 9])
    theirs = _golden("moments/second_derivative")["values"][0]
    np.testing.assert_allclose(theirs, [6 / 9, 0.0, 0.0])


@pytest.mark.parametrize("name", list(cases.INTEGER_PROGRAMS))
def test_index_and_integer_results_match_tensorflow(name):
    got = cases.INTEGER_PROGRAMS[name](rg).numpy()
    want = _golden(f"integer/{name}")["values"][0]
    assert got.dtype == want.dtype, name
    np.testing.assert_allclose(got, want, rtol=1e-7)
