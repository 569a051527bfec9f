"""The one unbroadcast helper, checked against NumPy on generated shapes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import retrograd as rg
from retrograd.ops.broadcast import unbroadcast


def _adjoint_of_broadcast(values: np.ndarray, shape: tuple) -> np.ndarray:
    """Reference: each element of ``shape`` receives the sum of the copies made of it."""
    index = np.arange(int(np.prod(shape))).reshape(shape)
    spread = np.broadcast_to(index, values.shape).ravel()
    return np.bincount(spread, weights=values.ravel(), minlength=index.size).reshape(shape)


@settings(max_examples=60, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=3))
def test_unbroadcast_is_the_adjoint_of_broadcasting(shapes):
    x_shape, out_shape = shapes.input_shapes[0], shapes.result_shape
    grad = np.arange(np.prod(out_shape), dtype=np.float64).reshape(out_shape)
    reduced = unbroadcast(rg.constant(grad), x_shape)
    assert tuple(reduced.shape) == tuple(x_shape)
    np.testing.assert_allclose(reduced.numpy(), _adjoint_of_broadcast(grad, x_shape))


@settings(max_examples=40, deadline=None)
@given(
    hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), st.integers(0, 2**16)
)
def test_binary_op_gradients_are_reduced_to_their_inputs(shapes, seed):
    rng = np.random.default_rng(seed)
    xv = rng.standard_normal(shapes.input_shapes[0])
    yv = rng.standard_normal(shapes.input_shapes[1])
    x, y = rg.constant(xv), rg.constant(yv)
    with rg.GradientTape() as tape:
        tape.watch([x, y])
        z = x * y + x - y
    gx, gy = tape.gradient(z, [x, y])
    out = shapes.result_shape
    np.testing.assert_allclose(
        gx.numpy(), _adjoint_of_broadcast(np.broadcast_to(yv + 1, out), xv.shape)
    )
    np.testing.assert_allclose(
        gy.numpy(), _adjoint_of_broadcast(np.broadcast_to(xv - 1, out), yv.shape)
    )


def test_unbroadcast_refuses_shapes_that_are_not_a_broadcast():
    with pytest.raises(ValueError, match="not a broadcast"):
        unbroadcast(rg.ones([2, 3]), (2,))
    with pytest.raises(ValueError, match="not a broadcast"):
        unbroadcast(rg.ones([3]), (2, 3))
