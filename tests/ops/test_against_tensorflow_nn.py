"""retrograd's nn and random ops against TensorFlow on the same inputs: values, first- and
second-order gradients, tie rules, output shapes, and the seeding semantics of random ops.
TensorFlow's results are stored (data/tf_comparison_nn.npz, made by
data/make_tf_comparison_goldens.py on TensorFlow); the cases are written once against a
library namespace (data/tf_comparison_nn.py)."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import tf_comparison as comparison  # noqa: E402
import tf_comparison_nn as cases  # noqa: E402

GOLDENS = np.load(DATA / "tf_comparison_nn.npz")


def _golden(key: str) -> dict:
    found = comparison.unpack(GOLDENS, key)
    assert found is not None, f"no golden for {key}: run data/make_tf_comparison_goldens.py"
    return found


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_match_tensorflow(name):
    case = cases.CASES[name]
    got = comparison.differentiate(rg, case.fn(rg), case.arrays(), case.order, name)
    expected = _golden(name)
    tol = case.tolerance
    for part in comparison.PARTS:
        assert len(got[part]) == len(expected[part]), f"{name}: {part}"
        for i, (ours, theirs) in enumerate(zip(got[part], expected[part])):
            if theirs is None:  # TensorFlow has none: ours is none or zero
                assert ours is None or not np.any(ours), f"{name}: {part} {i}"
                continue
            assert ours is not None, f"{name}: {part} {i} is None, TensorFlow's is not"
            np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol, err_msg=f"{name} {part}")


def test_random_distributions_agree_in_their_moments():
    ours, theirs = cases.moments(rg), _golden("random/moments")["values"]
    for a, b in zip(ours[:4], theirs[:4]):  # min, max, mean, std of the same distribution
        assert a[0] >= b[0] - 0.1 and a[1] <= b[1] + 0.1
        assert abs(a[2] - b[2]) < 0.03 and abs(a[3] / b[3] - 1) < 0.01
    np.testing.assert_allclose(ours[4], theirs[4], atol=0.01)  # categorical frequencies


def test_seeding_semantics_match_tensorflow():
    # The streams differ, but which draws repeat which must be the same.
    np.testing.assert_array_equal(cases.seeding(rg), _golden("random/seeding")["values"][0])
    rg.random.set_seed(None)


def test_generator_semantics_match_tensorflow():
    expected = _golden("random/generators")["values"][0]
    np.testing.assert_array_equal(cases.generators(rg), expected)
