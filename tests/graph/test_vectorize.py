"""tf.vectorized_map vectorises: functions made of batchable ops run as one batched pass
(checked by calling the vectoriser directly) and give the loop's values exactly, and its
gradients (to the elements, captured tensors and variables, through custom gradients);
functions with an op that cannot be batched fall back to the loop."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.graph.map_fn import _map
from retrograd.graph.vectorize import NotVectorizable, vectorized_call

RNG = np.random.default_rng(0)
X = rg.constant(RNG.normal(size=(5, 4)).astype(np.float32))
W = rg.Variable(RNG.normal(size=(4, 3)).astype(np.float32))
C = rg.constant(RNG.normal(size=(3,)).astype(np.float32))


@rg.custom_gradient
def log1pexp(x):
    e = rg.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return rg.math.log(1 + e), grad


@rg.custom_gradient
def scaled_gradient(x, scale):
    def grad(dy):
        return rg.clip_by_value(dy, -0.1, 0.1) * scale, rg.reduce_sum(dy * x)

    return rg.identity(x), grad


SCALE = rg.Variable(1.5)


def per_example_gradient(row):
    with rg.GradientTape() as tape:
        loss = rg.reduce_sum(rg.square(rg.matmul(row[None], W) - C))
    return tape.gradient(loss, W)


FUNCTIONS = {
    "elementwise": lambda r: rg.sin(r) * rg.exp(-r) + r * r - 1.0,
    "reductions": lambda r: (rg.reduce_sum(r), rg.reduce_max(r * r), rg.reduce_mean(r, axis=0)),
    "matmul": lambda r: rg.tanh(rg.matmul(r[None], W) + C),
    "matvec": lambda r: rg.linalg.matvec(rg.transpose(W), r),
    "shapes": lambda r: rg.reshape(rg.concat([r, r * 2.0], 0), [2, 4])[:, ::2],
    "stack_squeeze": lambda r: rg.squeeze(rg.stack([r, -r], axis=1)[None]),
    "softmax": lambda r: rg.nn.softmax(rg.expand_dims(r, 0)),
    "gather": lambda r: rg.gather(C, rg.cast(rg.abs(r[:2]) * 0.0, rg.int32)) + r[0],
    "custom_gradient": lambda r: log1pexp(scaled_gradient(r, SCALE) * 3.0),
    "structure": lambda r: {"twice": r * 2.0, "pair": (r[0], rg.nn.relu(r))},
    "constant_output": lambda r: (r * 0.5, C),
    "per_example_gradient": per_example_gradient,
}


def _loss(result):
    return sum(rg.reduce_sum(rg.cast(t, rg.float32) ** 2) for t in rg.nest.flatten(result))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vectorised_pass_equals_the_loop(name):
    fn = FUNCTIONS[name]
    with rg.GradientTape(persistent=True) as tape:
        tape.watch(X)
        fast = vectorized_call(fn, X, 5)
        slow = _map(fn, X, "loop")
        fast_loss, slow_loss = _loss(fast), _loss(slow)
    for a, b in zip(rg.nest.flatten(fast), rg.nest.flatten(slow)):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    sources = [X, W, SCALE]
    for a, b in zip(tape.gradient(fast_loss, sources), tape.gradient(slow_loss, sources)):
        if a is None or b is None:
            assert a is None and b is None
        else:  # batched sums may add in another order than the loop
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_the_public_function_vectorises_and_falls_back():
    rows = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    assert rg.vectorized_map(lambda r: rg.reduce_sum(r * r), rows).numpy().tolist() == [5.0, 25.0]

    def drawing(r):  # a random draw per element cannot be batched
        return r + rg.random.normal([2], seed=1)

    with pytest.raises(NotVectorizable, match="RandomStandardNormal"):
        vectorized_call(drawing, rows, 2)
    assert rg.vectorized_map(drawing, rows).shape == [2, 2]  # the loop
    with pytest.raises(ValueError, match="fallback_to_while_loop=False"):
        rg.vectorized_map(drawing, rows, fallback_to_while_loop=False)


def test_python_control_flow_on_values_falls_back_to_the_loop():
    def branchy(r):
        return r * 2.0 if float(rg.reduce_sum(r)) > 0 else -r

    rows = rg.constant([[1.0, 2.0], [-3.0, -4.0]])
    with pytest.raises(NotVectorizable):
        vectorized_call(branchy, rows, 2)
    assert rg.vectorized_map(branchy, rows).numpy().tolist() == [[2.0, 4.0], [3.0, 4.0]]


def test_second_derivative_through_the_batched_pass():
    x = rg.constant([[0.5, -1.0], [2.0, 0.25]])
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            y = rg.reduce_sum(rg.vectorized_map(lambda r: rg.reduce_sum(r * r * r), x))
        g = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), 6 * x.numpy())
