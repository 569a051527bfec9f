"""floor, ceil and round: values against NumPy, integer handling, and no gradient (None,
as in TensorFlow 2.21, rather than a zero gradient)."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg

VALUES = [-2.5, -1.5, -0.5, -0.2, 0.0, 0.5, 1.5, 1.7, 2.5, np.inf, np.nan]
ROUNDING = [(rg.math.floor, np.floor), (rg.math.ceil, np.ceil), (rg.math.round, np.round)]


@pytest.mark.parametrize("op, reference", ROUNDING, ids=lambda f: getattr(f, "__name__", ""))
@pytest.mark.parametrize("dtype", [rg.float16, rg.float32, rg.float64])
def test_values_match_numpy_and_keep_the_dtype(op, reference, dtype):
    out = op(rg.constant(VALUES, dtype))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), reference(np.array(VALUES, dtype.as_numpy_dtype)))


def test_round_takes_halves_to_even_like_tensorflow():
    assert rg.round([0.5, 1.5, 2.5, -0.5, -1.5]).numpy().tolist() == [0.0, 2.0, 2.0, -0.0, -2.0]


@pytest.mark.parametrize(
    "op, op_type", [(rg.math.floor, "Floor"), (rg.math.ceil, "Ceil"), (rg.math.round, "Round")]
)
def test_no_gradient(op, op_type):
    assert rg.gradient_registry.lookup(op_type) is None
    x = rg.constant([0.3, 1.7])
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        rounded = op(x)
        y = rounded * x
    assert tape.gradient(rounded, x) is None
    # Only the direct factor x contributes: d(op(x) * x)/dx = op(x).
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), rounded.numpy())


def test_round_returns_integer_tensors_unchanged():
    x = rg.constant([1, -2])
    assert rg.round(x) is x


@pytest.mark.parametrize("op", [rg.math.floor, rg.math.ceil])
def test_floor_and_ceil_refuse_integers_like_tensorflow(op):
    with pytest.raises(TypeError, match="must be a float tensor, got int32"):
        op(rg.constant([1]))


def test_namespaces_follow_tensorflow():
    assert rg.floor is rg.math.floor and rg.round is rg.math.round
    assert not hasattr(rg, "ceil")
