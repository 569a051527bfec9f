"""The backward walk: parts of a gradient are summed into a buffer of the sum's own, never
into a tensor a rule or the user still has; records are dropped as the walk uses them."""

from __future__ import annotations

import gc

import numpy as np

import retrograd as rg
from retrograd.autodiff.backprop import backward

BIG = 1 << 14  # float64 elements


def test_parts_are_summed_into_a_new_buffer_and_left_as_they_were():
    parts = [rg.constant(np.ones(BIG)), rg.constant(np.full(BIG, 2.0))]
    with rg.GradientTape() as tape:
        tape.watch(parts)
        y = rg.reduce_sum(parts[0] * parts[1] + parts[0])
    g = tape.gradient(y, parts[0])
    assert set(g.numpy().tolist()) == {3.0}
    assert set(parts[0].numpy().tolist()) == {1.0} and set(parts[1].numpy().tolist()) == {2.0}


def test_a_non_persistent_walk_drops_each_record_once_used():
    x = rg.constant(np.ones(4))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(rg.exp(rg.sin(x)))
    producers = tape.producers()
    backward(producers, [y], [rg.constant(1.0, rg.float64)], [x], release=True)
    assert list(producers.values()) == [None]  # the watched x alone


def test_long_tapes_leave_the_garbage_collector_alone():
    frozen = gc.get_freeze_count()
    x = rg.constant(1.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(20_000):
            y = y * 1.0
        gc.collect()
        assert gc.get_freeze_count() == frozen
    assert float(tape.gradient(y, x)) == 1.0


kept_by_user: list = []


@rg.custom_gradient
def _keeps_its_gradient(x):
    def grad(upstream):
        g = upstream * 2.0
        kept_by_user.append(g)
        return g

    return x * 2.0, grad


def test_gradients_a_rule_keeps_are_not_changed_by_the_sum():
    x = rg.constant(np.arange(3.0))
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.reduce_sum(_keeps_its_gradient(x) + rg.exp(x))
    g = tape.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), 2.0 + np.exp(np.arange(3.0)))
    assert kept_by_user[-1].numpy().tolist() == [2.0, 2.0, 2.0]
