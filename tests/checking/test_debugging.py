"""retrograd.debugging: assertions and CheckNumerics."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg


def test_assert_rank():
    rg.debugging.assert_rank(rg.constant([1.0]), 1)
    with pytest.raises(ValueError, match="my check. Tensor must have rank 0. Received rank 1"):
        rg.debugging.assert_rank([1.0], 0, message="my check")


def test_assert_equal():
    rg.debugging.assert_equal(rg.constant([1, 1]), 1)
    with pytest.raises(rg.errors.InvalidArgumentError, match="did not hold"):
        rg.debugging.assert_equal([1.0, 2.0], [1.0, 3.0])
    with pytest.raises(ValueError):  # InvalidArgumentError is also a ValueError
        rg.debugging.assert_equal([1.0, 2.0], [1.0, 2.0, 3.0])


def test_check_numerics_raises_on_nan_and_inf():
    assert rg.debugging.check_numerics(rg.constant([1.0]), "ok").numpy().tolist() == [1.0]
    with pytest.raises(rg.errors.InvalidArgumentError, match="bad : Tensor had NaN and Inf values"):
        rg.debugging.check_numerics(rg.constant([np.nan, np.inf]), "bad")


def test_check_numerics_passes_gradients_through_and_checks_them():
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.debugging.check_numerics(x * x, "square")
    assert tape.gradient(y, x).numpy() == 4.0
    rg.check_gradients(lambda v: rg.debugging.check_numerics(v * v, "square"), [0.5, 2.0], order=2)
    x = rg.constant(0.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.sqrt(rg.debugging.check_numerics(x, "root"))  # sqrt'(0) is inf
    with pytest.raises(rg.errors.InvalidArgumentError, match="detected in gradient. root"):
        tape.gradient(y, x)
