"""A long tape's records are frozen out of full garbage collections while it records."""

import gc

import numpy as np

import retrograd as rg
from retrograd.autodiff import long_tapes


def test_a_long_tape_is_frozen_while_it_records_and_thawed_after():
    assert gc.get_freeze_count() == 0 and not long_tapes.frozen
    x = rg.constant(0.5)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(long_tapes.LONG // 2 + 1):  # two values a step
            y = rg.sin(y) * 1.01
        gc.collect()  # a full collection ends while the long tape records
        assert long_tapes.frozen and gc.get_freeze_count() > 0
    g = tape.gradient(y, x)
    assert not long_tapes.frozen and gc.get_freeze_count() == 0
    assert np.isfinite(g.numpy())


def test_a_short_tape_leaves_the_collector_alone():
    x = rg.constant(0.5)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.sin(x)
        gc.collect()
        assert not long_tapes.frozen and gc.get_freeze_count() == 0
    tape.gradient(y, x)
