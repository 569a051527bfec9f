"""CriticalSection runs functions one at a time (eagerly too, where TensorFlow 2.21 fails),
and nondifferentiable_batch_function's outputs carry no gradient."""

from __future__ import annotations

import threading
import time

import retrograd as rg


def test_critical_section_serializes_concurrent_calls():
    section, inside, overlaps = rg.CriticalSection(), [0], []

    def work():
        inside[0] += 1
        overlaps.append(inside[0])
        time.sleep(0.01)
        inside[0] -= 1
        return inside[0]

    threads = [threading.Thread(target=section.execute, args=(work,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [1, 1, 1, 1]
    v = rg.Variable(1.0)
    assert float(section.execute(lambda: v.assign_add(2.0))) == 3.0


def test_batch_function_outputs_have_no_gradient():
    @rg.nondifferentiable_batch_function(1, 10, 1000)
    def double(x):
        return x * 2.0, {"y": x + 1.0}

    x = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y, extra = double(x)
    assert y.numpy().tolist() == [2.0, 4.0] and extra["y"].numpy().tolist() == [2.0, 3.0]
    assert tape.gradient(y, x) is None
