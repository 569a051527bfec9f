"""Common subexpressions: merged when they compute the same value, never when they may not."""

from __future__ import annotations

import numpy as np

import retrograd as rg
from retrograd.graph.simplify import common_subexpressions


def _graph(build):
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float64, [3])
        outputs = build(x)
    return g, outputs


def test_the_same_op_on_the_same_inputs_is_merged_transitively():
    g, (a, b, c, d) = _graph(
        lambda x: (rg.exp(x) * x, rg.exp(x) * x, rg.reduce_sum(x, 0), rg.reduce_sum(x, 0))
    )
    same = common_subexpressions(g.get_operations())
    assert same[id(b)] is a and same[id(d)] is c


def test_different_attributes_and_inputs_are_not_merged():
    g, (a, b, c) = _graph(
        lambda x: (
            rg.matmul(x[None], x[None], transpose_b=True),
            rg.matmul(x[None], x[None], transpose_a=True),
            rg.exp(x + 1.0),
        )
    )
    same = common_subexpressions(g.get_operations())
    assert id(b) not in same and id(c) not in same


def test_constants_merge_by_value_but_not_negative_zero():
    g, (one, other_one, zero, negative_zero) = _graph(
        lambda x: (rg.constant(1.0), rg.constant(1.0), rg.constant(0.0), rg.constant(-0.0))
    )
    same = common_subexpressions(g.get_operations())
    assert same[id(other_one)] is one and id(negative_zero) not in same


def test_random_draws_and_variable_reads_are_never_merged():
    v = rg.Variable(np.ones(3))

    @rg.function
    def f():
        first = v.read_value()
        v.assign_add(np.ones(3))
        second = v.read_value()
        draws = rg.random.uniform([2]), rg.random.uniform([2])
        return first, second, draws

    first, second, (u1, u2) = f()
    assert first.numpy().tolist() == [1.0] * 3 and second.numpy().tolist() == [2.0] * 3
    assert not np.array_equal(u1.numpy(), u2.numpy())


def test_a_function_with_repeated_work_gives_the_same_values():
    @rg.function
    def f(x):
        return rg.tanh(x) * rg.tanh(x) + (1 - rg.tanh(x) * rg.tanh(x))

    x = rg.constant(np.linspace(-1, 1, 5))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(y.numpy(), np.ones(5))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.zeros(5), atol=1e-12)


def test_a_product_with_a_broadcast_one_is_its_other_operand():
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [3])
        ones = rg.broadcast_to(rg.ones_like(rg.reduce_sum(x)), [3])
        y, z = x * ones, ones * rg.exp(x)
        wide = rg.compat.v1.placeholder(rg.float32, [1]) * ones  # the product is wider
        twos = x * rg.broadcast_to(rg.constant(2.0), [3])
        same = common_subexpressions(g.get_operations())
    assert same[id(y)] is x and same[id(z)] is z.op.inputs[1]
    assert id(wide) not in same and id(twos) not in same


def test_the_hessian_vector_product_plan_makes_no_pass_over_ones():
    @rg.function
    def hvp(x, v):
        with rg.GradientTape() as outer:
            outer.watch(x)
            with rg.GradientTape() as inner:
                inner.watch(x)
                f = rg.reduce_sum(rg.square(rg.tanh(x)))
            dot = rg.reduce_sum(inner.gradient(f, x) * v)
        return outer.gradient(dot, x)

    x, v = rg.constant([0.5, -1.0, 2.0]), rg.constant([1.0, 2.0, 3.0])
    got = hvp(x, v).numpy()
    t = np.tanh(x.numpy())
    s = 1 - t * t
    np.testing.assert_allclose(got, (2 * s * s - 4 * t * t * s) * v.numpy(), rtol=1e-5)
    (concrete,) = hvp._traces.values()
    source = concrete._plan.source
    assert "OnesLike" not in source and "BroadcastTo" not in source  # dead once simplified
