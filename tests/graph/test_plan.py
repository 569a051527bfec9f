"""Compiled plans: straight-line code, values freed after their last use, and results written
into the buffers of inputs that die with an op, but never into a buffer someone else holds."""

from __future__ import annotations

import numpy as np

import retrograd as rg
from retrograd.graph.plan import Plan

N = 20_000  # large enough for buffer reuse


def _plan(build, *shapes):
    g = rg.Graph()
    with g.as_default():
        feeds = [rg.compat.v1.placeholder(rg.float64, shape) for shape in shapes]
        outputs = build(*feeds)
    return Plan.for_outputs(list(outputs), feeds)


def test_ops_write_into_inputs_that_die_with_them():
    plan = _plan(lambda x: [rg.exp(rg.sin(x)) * 2.0], [N])
    assert "out=" in plan.source
    x = np.linspace(-1, 1, N)
    kept = x.copy()
    (y,) = plan(x)
    np.testing.assert_allclose(y, np.exp(np.sin(x)) * 2.0)
    np.testing.assert_array_equal(x, kept)  # a fed value is never written into


def test_small_values_and_values_still_needed_are_not_reused():
    plan = _plan(lambda x: [rg.exp(x) * 2.0], [3])
    assert "out=" not in plan.source
    plan = _plan(lambda x: (lambda e: [e * 2.0, e])(rg.exp(x)), [N])
    x = np.linspace(-1, 1, N)
    doubled, e = plan(x)  # e is returned: the product must not overwrite it
    np.testing.assert_allclose(e, np.exp(x))
    np.testing.assert_allclose(doubled, 2 * np.exp(x))


def test_a_view_of_a_buffer_is_not_written_into():
    # The reshape's result is a view of exp's: the product must allocate, not overwrite.
    plan = _plan(lambda x: [rg.reshape(rg.exp(x), [N]) * 3.0], [2, N // 2])
    x = np.linspace(-1, 1, N).reshape(2, N // 2)
    (y,) = plan(x)
    np.testing.assert_allclose(y, 3 * np.exp(x).reshape(N))


def test_add_n_accumulates_into_a_dying_input_even_when_it_repeats():
    plan = _plan(lambda x: [rg.add_n([rg.exp(x), rg.exp(x), x])], [N])
    x = np.linspace(-1, 1, N)
    np.testing.assert_allclose(plan(x)[0], 2 * np.exp(x) + x)
    plan = _plan(lambda x: (lambda e: [rg.add_n([e, e])])(rg.exp(x)), [N])
    np.testing.assert_allclose(plan(x)[0], 2 * np.exp(x))


def test_a_value_another_op_may_keep_or_view_is_never_written_into():
    # Identity passes exp's buffer on as a result: the product must not overwrite it.
    plan = _plan(lambda x: (lambda e: [e * 2.0, rg.identity(e)])(rg.exp(x)), [N])
    assert "out=" not in plan.source
    x = np.linspace(-1, 1, N)
    doubled, e = plan(x)
    np.testing.assert_allclose(e, np.exp(x))
    np.testing.assert_allclose(doubled, 2 * np.exp(x))


def test_gradients_of_a_function_with_reused_buffers_match_eager():
    f = rg.function(lambda e: rg.reduce_sum(rg.exp(rg.sin(e)) * e))
    e = rg.constant(np.linspace(-1, 1, N))
    with rg.GradientTape() as tape:
        tape.watch(e)
        total = f(e)
    grad = tape.gradient(total, e)
    x = e.numpy()
    np.testing.assert_allclose(total.numpy(), np.sum(np.exp(np.sin(x)) * x))
    np.testing.assert_allclose(grad.numpy(), np.exp(np.sin(x)) * (1 + x * np.cos(x)))
