"""Elementwise math, special functions, activations, clipping and complex numbers compared
with TensorFlow itself: the same inputs give the same values, gradients and second-order
gradients. TensorFlow's results are stored (data/tf_comparison_math.npz, made by
data/make_tf_comparison_goldens.py on TensorFlow); the rows are written once against a
library namespace (data/tf_comparison_math.py), so both run the same code.

Gradients are of the real loss ``sum(Re(y) * Re(w) + Im(y) * Im(w))`` for random ``w``, and
at second order of ``sum(Re(g) * Re(v) + Im(g) * Im(v))`` for the first gradient ``g``.
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import tf_comparison as comparison  # noqa: E402
import tf_comparison_math as cases  # noqa: E402

GOLDENS = np.load(DATA / "tf_comparison_math.npz")
PAIRS = cases.pairs(rg)


def _assert_close(got, expected, what, rtol, atol, none_is_zero=False):
    assert len(got) == len(expected), what
    for i, (g, e) in enumerate(zip(got, expected)):
        if none_is_zero and (g is None) != (e is None):
            # A gradient that does not depend on x (relu6, leaky_relu): TensorFlow's
            # *Grad ops pass back zeros where retrograd's rules leave it unconnected.
            g, e = (np.zeros_like(e), e) if g is None else (g, np.zeros_like(g))
        if e is None or g is None:
            assert g is None and e is None, f"{what} {i}: retrograd {g}, TensorFlow {e}"
            continue
        assert g.dtype == e.dtype, f"{what} {i}: dtype {g.dtype}, TensorFlow {e.dtype}"
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=f"{what} {i}")


def _golden(key: str) -> dict:
    found = comparison.unpack(GOLDENS, key)
    assert found is not None, f"no golden for {key}: run data/make_tf_comparison_goldens.py"
    return found


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_float64_values_and_gradients_match_tensorflow(pair):
    arrays = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64) for a in pair.arrays()]
    got = comparison.differentiate(rg, pair.fn, arrays, pair.order, pair.name)
    expected = _golden(f"{pair.name}/float64")
    for part, what in zip(comparison.PARTS, ("values", "gradient", "second-order gradient")):
        second = part == "second"
        _assert_close(got[part], expected[part], f"{pair.name}: {what}", pair.rtol, 1e-10, second)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_float32_values_and_dtypes_match_tensorflow(pair):
    arrays = [a.astype(np.complex64 if np.iscomplexobj(a) else np.float32) for a in pair.arrays()]
    got = comparison.differentiate(rg, pair.fn, arrays, 0, pair.name)["values"]
    _assert_close(got, _golden(f"{pair.name}/float32")["values"], pair.name, 2e-6, 1e-6)


@pytest.mark.parametrize("name", list(cases.special_values(rg)))
def test_special_values_and_dtypes_match_tensorflow(name):
    fn, values = cases.special_values(rg)[name]
    got = fn(rg.constant(values)).numpy()
    expected = _golden(f"special/{name}")["values"][0]
    assert got.dtype == expected.dtype, name
    np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.mark.parametrize("op", cases.ROUNDING)
def test_rounding_has_no_gradient_like_tensorflow(op):
    assert bool(cases.no_gradient(rg, op))
    assert bool(_golden(f"no_gradient/{op}")["values"][0])


def test_is_nan_has_no_gradient():
    # (TensorFlow registers no gradient at all for IsNan: its tape raises LookupError)
    assert bool(cases.no_gradient(rg, "is_nan"))


_SNAPSHOT = json.loads((DATA.parents[1] / "conformance" / "data" / "tf_api.json").read_text())


@pytest.mark.parametrize(
    "namespace, names",
    [
        ("tf", "floor round asin acos atan atan2 sinh cosh asinh acosh atanh complex clip_by_norm clip_by_global_norm"),
        ("tf.math", "floor ceil round erf erfc lgamma digamma polygamma asin acos atan atan2 sinh cosh asinh acosh atanh softsign log_sigmoid xlogy xdivy squared_difference divide_no_nan is_nan is_inf is_finite real imag angle"),
        ("tf.nn", "softsign elu selu gelu leaky_relu relu6 silu swish"),
        ("tf.linalg", "global_norm"),
    ],
)  # fmt: skip
def test_the_names_are_tensorflows(namespace, names):
    listed = _SNAPSHOT["namespaces"][namespace]["names"]
    ours = rg if namespace == "tf" else getattr(rg, namespace.split(".")[1])
    for name in names.split():
        assert name in listed and hasattr(ours, name), f"{namespace}.{name}"
