"""Symbolic gradients: the same rules and walk as tapes, eager and graph agreeing."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops.table import Case, random_weights, weighted_total
from tests.ops.test_op_coverage import TABLES


@pytest.fixture
def graph():
    g = rg.Graph()
    with g.as_default():
        yield g


def run(graph, fetches, feeds=None):
    with rg.compat.v1.Session(graph=graph) as sess:
        return sess.run(fetches, feeds)


def test_registered_gradient_called_by_hand_gives_the_same_values(graph):
    a, b = rg.constant([[1.0, 2.0]]), rg.constant([[3.0], [4.0]])
    c = rg.matmul(a, b)
    by_hand = rg.gradient_registry.lookup("MatMul")(c.op, rg.ones_like(c))
    symbolic = rg.gradients(c, [a, b])
    np.testing.assert_equal(run(graph, list(by_hand)), run(graph, symbolic))


def test_grad_ys_stop_gradients_and_unconnected(graph):
    x, z = rg.constant(2.0), rg.constant(5.0)
    y = x * x
    w = y * x
    assert run(graph, rg.gradients(y, x, grad_ys=rg.constant(3.0))) == [12.0]
    assert run(graph, rg.gradients(w, x, stop_gradients=[y])) == [4.0]
    assert rg.gradients(y, [x, z])[1] is None
    assert run(graph, rg.gradients(y, z, unconnected_gradients="zero")) == [0.0]
    assert rg.gradients(rg.cast(y, rg.int32), x) == [None]


def test_gradients_need_a_graph():
    with pytest.raises(RuntimeError, match="GradientTape"):
        rg.gradients(rg.constant(1.0), rg.constant(1.0))


def _loss(x, w, bias):
    return rg.reduce_mean(rg.square(rg.matmul(x, w) + bias)) + rg.reduce_max(x[:, 1:]) * 0.1


def test_unknown_batch_dimension_through_reductions_and_broadcasts():
    w, bias = rg.constant([[1.0], [2.0], [3.0]]), rg.constant([0.5])
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [None, 3], name="x")
        symbolic = rg.gradients(_loss(x, w, bias), [x, w, bias])
    for batch in (1, 4):
        xv = np.random.default_rng(batch).standard_normal((batch, 3)).astype(np.float32)
        eager_x = rg.constant(xv)
        with rg.GradientTape() as tape:
            tape.watch([eager_x, w, bias])
            loss = _loss(eager_x, w, bias)
        expected = tape.gradient(loss, [eager_x, w, bias])
        for got, want in zip(run(g, symbolic, {x: xv}), expected):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-5)


CASES = [case for module in TABLES for case in module.CASES]


def _eager(case: Case, args, weights):
    tensors = [rg.constant(a) for a in args]
    with rg.GradientTape() as tape:
        tape.watch(tensors)
        out = rg.nest.flatten(case.fn(*tensors))
        total = weighted_total(out, weights)
    grads = tape.gradient(total, tensors)
    # (a sparse gradient, gather's IndexedSlices, is compared as its dense tensor)
    dense = [None if g is None else rg.convert_to_tensor(g) for g in grads]
    return [y.numpy() for y in out], [None if g is None else g.numpy() for g in dense]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_graph_and_eager_agree_on_every_op_in_the_tables(case):
    args = case.inputs()
    weights = random_weights(rg.nest.flatten(case.fn(*[rg.constant(a) for a in args])))
    values, grads = _eager(case, args, weights)
    g = rg.Graph()
    with g.as_default():
        phs = [rg.compat.v1.placeholder(rg.as_dtype(a.dtype), a.shape) for a in args]
        out = rg.nest.flatten(case.fn(*phs))
        sym = rg.gradients(weighted_total(out, weights), phs)
        sym = [None if s is None else rg.convert_to_tensor(s) for s in sym]
    feed = dict(zip(phs, args))
    present = [s for s in sym if s is not None]
    fetched = run(g, [*out, *present], feed)  # one run: a random op draws once for both
    got_values, got_grads = fetched[: len(out)], fetched[len(out) :]
    for a, b, y in zip(got_values, values, out):
        # Static shapes may leave value-dependent dimensions unknown (boolean_mask).
        assert y.shape.is_compatible_with(np.shape(b)), f"{case.id}: {y.shape} vs {np.shape(b)}"
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=case.id)
    assert [s is None for s in sym] == [e is None for e in grads]
    for a, b in zip(got_grads, [e for e in grads if e is not None]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=case.id)
