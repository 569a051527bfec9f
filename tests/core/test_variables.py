"""Variables: creation, assignment, reads recorded on tapes."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg


def test_creation_and_properties():
    v = rg.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.shape == (2,) and v.dtype == rg.float32 and v.trainable
    assert rg.Variable(np.zeros((2, 3))).dtype == rg.float64
    assert (
        rg.Variable(1).dtype == rg.int32 and rg.Variable(1.0, dtype=rg.float16).dtype == rg.float16
    )
    assert rg.Variable(lambda: rg.ones([2])).shape == (2,)
    assert (
        repr(rg.Variable(1.0))
        == "<retrograd.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    )
    assert isinstance(rg.Variable(1.0).numpy(), np.float32) and not isinstance(v, rg.Tensor)
    with pytest.raises(ValueError, match="initial_value"):
        rg.Variable()


def test_assign_keeps_shape_and_dtype():
    v = rg.Variable([1.0, 2.0])
    assert v.assign([3.0, 4.0]) is v and v.numpy().tolist() == [3.0, 4.0]
    v.assign_add([1.0, 1.0])
    v.assign_sub(rg.constant([0.5, 0.5]))
    assert v.numpy().tolist() == [3.5, 4.5]
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0])
    with pytest.raises(ValueError, match="requested dtype float32"):
        v.assign(rg.constant([1.0, 2.0], rg.float64))


def test_reads_taken_before_an_assignment_keep_their_value():
    v = rg.Variable(1.0)
    before = v.read_value()
    v.assign(5.0)
    assert before.numpy() == 1.0 and v.read_value().numpy() == 5.0


def test_operators_read_the_variable():
    v = rg.Variable([1.0, 2.0])
    assert (v + 1).numpy().tolist() == [2.0, 3.0] and (2 * v).numpy().tolist() == [2.0, 4.0]
    assert v[0].numpy() == 1.0 and (v == 2.0).numpy().tolist() == [False, True]
    assert bool(rg.Variable(1.0) > 0) and f"{rg.Variable(2.0)}" == "2.0"
    assert [t.numpy() for t in v] == [1.0, 2.0] and len(v) == 2


def test_reading_a_variable_is_recorded_and_differentiable():
    v = rg.Variable([1.0, 2.0])
    with rg.GradientTape() as tape:
        y = rg.reduce_sum(v * v) + rg.reduce_sum(v.read_value())
    assert tape.gradient(y, v).numpy().tolist() == [3.0, 5.0]


def test_assignment_inside_a_tape_is_not_differentiated():
    v = rg.Variable(2.0)
    with rg.GradientTape() as tape:
        y = v * 3
        v.assign(10.0)
    assert tape.gradient(y, v).numpy() == 3.0
