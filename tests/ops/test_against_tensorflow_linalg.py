"""The linalg ops against TensorFlow on the same inputs: values and gradients, compared with
TensorFlow's results stored in data/tf_comparison_linalg.npz (made by
data/make_tf_comparison_goldens.py on TensorFlow from the rows of
data/tf_comparison_linalg.py, written once against a library namespace)."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import tf_comparison as comparison  # noqa: E402
import tf_comparison_linalg as cases  # noqa: E402

GOLDENS = np.load(DATA / "tf_comparison_linalg.npz")


def _golden(key: str) -> dict:
    found = comparison.unpack(GOLDENS, key)
    assert found is not None, f"no golden for {key}: run data/make_tf_comparison_goldens.py"
    return found


def _compare(key: str, name: str, x: np.ndarray) -> None:
    f, _ = cases.ROWS[name]
    expected = _golden(key)
    weights = cases.weights_for(rg.nest.flatten(f(rg, rg.constant(x))))
    values, grad = cases.values_and_gradient(rg, f, x, weights)
    for ours, theirs in zip(values, expected["values"]):
        assert ours.dtype == theirs.dtype, name
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10, err_msg=name)
    np.testing.assert_allclose(grad, expected["grads"][0], rtol=1e-7, atol=1e-8, err_msg=name)


@pytest.mark.parametrize("name", list(cases.ROWS))
def test_real_values_and_gradients_match_tensorflow(name):
    _compare(f"real/{name}", name, cases.real_input(name))


@pytest.mark.parametrize("name", cases.COMPLEX)
def test_complex_values_and_gradients_match_tensorflow(name):
    _compare(f"complex/{name}", name, cases.complex_input(name))


def test_complex_det_gradient_adds_the_conjugate_tensorflow_omits():
    a = cases.complex_matrix()
    _, rg_grad = cases.values_and_gradient(
        rg, lambda lib, x: lib.linalg.det(x), a, [np.array(1.0 + 0j)]
    )
    tf_grad = _golden("det/complex")["grads"][0]
    d = np.linalg.det(a)
    np.testing.assert_allclose(rg_grad, tf_grad * np.conj(d) / d, rtol=1e-10)


def test_complex_slogdet_gradient_matches_tensorflow_for_log_abs_and_adds_the_phase():
    a = cases.complex_matrix()
    f = lambda lib, x: lib.linalg.slogdet(x)  # noqa: E731
    no_phase = cases.values_and_gradient(rg, f, a, [np.array(0j), np.array(0.7 + 0j)])[1]
    np.testing.assert_allclose(no_phase, _golden("slogdet/no_phase")["grads"][0], rtol=1e-10)
    phase = cases.values_and_gradient(rg, f, a, [np.array(0.3 - 0.4j), np.array(0.7 + 0j)])[1]
    assert not np.allclose(phase, _golden("slogdet/phase")["grads"][0])


@pytest.mark.parametrize("k", range(len(cases.ZERO_PIVOTS)))
def test_triangular_solve_with_a_zero_pivot_matches_tensorflow(k):
    ours = rg.linalg.triangular_solve(cases.ZERO_PIVOTS[k], np.ones((3, 2))).numpy()
    np.testing.assert_array_equal(ours, _golden(f"zero_pivot/{k}")["values"][0])


@pytest.mark.parametrize("name", list(cases.DEGENERATE))
def test_degenerate_values_give_tensorflows_gradients(name):
    _compare(f"degenerate/{name}", name, cases.DEGENERATE[name])
