"""The backward walk's summing of gradient parts: in place only into buffers nothing else
holds, never into a tensor a rule or the user still has."""

from __future__ import annotations

import numpy as np

import retrograd as rg
from retrograd.autodiff.backprop import _sum_in_place
from retrograd.core.tensor import Tensor

BIG = 1 << 14  # float64 elements: large enough to be summed in place (small sums are not)


def test_parts_only_the_walk_holds_are_summed_into_one_of_them():
    parts = [Tensor(np.ones(BIG)), Tensor(np.full(BIG, 2.0))]
    first = id(parts[0])
    total = _sum_in_place(parts)
    assert id(total) == first and set(total.numpy().tolist()) == {3.0}
    assert _sum_in_place([Tensor(np.ones(3)), Tensor(np.ones(3))]) is None  # small: a new one


def test_a_part_held_elsewhere_is_not_written_into():
    held = Tensor(np.ones(BIG))
    view_base = np.ones(BIG)
    parts = [held, Tensor(view_base[:])]  # one held by a name, one a view of another array
    assert _sum_in_place(parts) is None
    assert set(held.numpy().tolist()) == {1.0}
    scalars = [Tensor(np.float64(1.0)), Tensor(np.float64(2.0))]
    assert _sum_in_place(scalars) is None  # immutable


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
