"""tf.train's moving averages (tensors debiased), coordinator, checkpoint iteration and
CheckpointManager's preserved checkpoints."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

import retrograd as rg


def test_moving_average_of_a_tensor_is_debiased():
    ema = rg.train.ExponentialMovingAverage(0.5, zero_debias=True)
    x = rg.constant(4.0)
    ema.apply([x])
    assert float(ema.average(x)) == 4.0  # the bias of starting at zero divided out
    plain = rg.train.ExponentialMovingAverage(0.5)
    plain.apply([x])
    assert float(plain.average(x)) == 2.0


def test_moving_average_inside_a_function():
    v = rg.Variable(0.0)
    ema = rg.train.ExponentialMovingAverage(0.5)

    @rg.function
    def step(value):
        v.assign(value)
        ema.apply([v])

    for value in (2.0, 4.0):
        step(rg.constant(value))
    # The average starts at the variable's value when the function is traced (0), then
    # moves half way to 2 and half way to 4.
    np.testing.assert_allclose(float(ema.average(v)), 2.5)


def test_coordinator_reraises_and_refuses_after_join():
    coord = rg.train.Coordinator()
    with coord.stop_on_exception():
        raise ValueError("boom")
    assert coord.should_stop()
    with pytest.raises(ValueError, match="boom"):
        coord.join([])
    with pytest.raises(KeyError):
        coord.request_stop(KeyError("late"))


def test_checkpoints_iterator_yields_new_checkpoints(tmp_path):
    checkpoint = rg.train.Checkpoint(v=rg.Variable(1.0))

    def save_later():
        time.sleep(0.2)
        checkpoint.save(os.path.join(tmp_path, "c"))

    thread = threading.Thread(target=save_later)
    thread.start()
    found = list(rg.train.checkpoints_iterator(tmp_path, timeout=2.0, timeout_fn=lambda: True))
    thread.join()
    assert [os.path.basename(p) for p in found] == ["c-1"]


def test_manager_preserves_one_checkpoint_per_period(tmp_path, monkeypatch):
    clock = iter([0.0, 0.0, 100.0, 200.0, 4000.0, 4100.0, 4200.0])
    monkeypatch.setattr(time, "time", lambda: next(clock))
    manager = rg.train.CheckpointManager(rg.train.Checkpoint(v=rg.Variable(1.0)), tmp_path, 1,
                                         keep_checkpoint_every_n_hours=1.0)  # fmt: skip
    paths = [manager.save() for _ in range(5)]
    files = sorted(f for f in os.listdir(tmp_path) if f.endswith(".npz"))
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-5"]
    assert files == ["ckpt-4.npz", "ckpt-5.npz"]  # ckpt-4: an hour after the last preserved
    assert paths[-1].endswith("ckpt-5")
